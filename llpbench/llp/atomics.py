"""Lock-free atomic operations on numpy array elements, usable in ``nopython``/``nogil`` code.

numba has no CPU atomics, so each operation here is an ``@intrinsic`` that emits the LLVM
instruction directly (``load atomic``, ``store atomic``, ``cmpxchg``, ``atomicrmw``) on the
address of ``ary[idx]``. All use sequentially consistent ordering except ``atomic_load``
(relaxed: what a racy read of a monotone value needs) and ``atomic_store_release`` (a lock
release or a publish); on x86 both compile to plain moves.

float64 arrays are supported by :func:`atomic_min` and :func:`atomic_max` through their bit
patterns: non-negative IEEE-754 doubles (``+inf`` included) order exactly like their int64
bit patterns, so an integer atomic min on the bits is an atomic min on the values. The
shortest-path problems rely on this; they never store negative distances.

Also here: :func:`cpu_yield`, ``sched_yield(2)`` bound by symbol name so that compiled
kernels that call it stay cacheable across processes.
"""

from __future__ import annotations

from llvmlite import ir
from numba import types
from numba.core import cgutils
from numba.core.types import ExternalFunction
from numba.extending import intrinsic

__all__ = [
    "atomic_load",
    "atomic_store",
    "atomic_store_release",
    "atomic_cas",
    "atomic_fetch_add",
    "atomic_exchange",
    "atomic_min",
    "atomic_max",
    "cpu_yield",
    "cpu_sleep_us",
    "clock_gettime",
]

#: ``sched_yield(2)``: give the core to another runnable thread (idle workers must).
cpu_yield = ExternalFunction("sched_yield", types.int32())
#: ``usleep(3)``: sleep a number of microseconds (long-idle workers).
cpu_sleep_us = ExternalFunction("usleep", types.int32(types.uint32))
#: ``clock_gettime(2)``: (clock id, address of a two-int64 timespec); CLOCK_MONOTONIC is
#: Python's ``time.CLOCK_MONOTONIC``, the clock a launch starts on (llpbench.llp.launch).
clock_gettime = ExternalFunction("clock_gettime", types.int32(types.int32, types.int64))

_INT_KINDS = (types.Integer,)


def _element_pointer(context, builder, aryty, ary, idx, idxty):
    arr = context.make_array(aryty)(context, builder, ary)
    idx = context.cast(builder, idx, idxty, types.intp)
    return cgutils.get_item_pointer(context, builder, aryty, arr, [idx], wraparound=False)


def _check_array(ary, allow_float: bool = False) -> None:
    if not isinstance(ary, types.Array) or ary.ndim != 1:
        raise TypeError("atomics need a 1-D array")
    if isinstance(ary.dtype, types.Integer) and ary.dtype.bitwidth in (32, 64):
        return
    if allow_float and ary.dtype == types.float64:
        return
    raise TypeError(f"atomics unsupported on {ary.dtype}")


def _int_view(builder, ptr, dtype, value):
    """For float64: the i64 pointer and value that alias ``ptr``/``value``."""
    if dtype == types.float64:
        i64 = ir.IntType(64)
        return builder.bitcast(ptr, i64.as_pointer()), builder.bitcast(value, i64)
    return ptr, value


def _from_int(builder, dtype, value):
    if dtype == types.float64:
        return builder.bitcast(value, ir.DoubleType())
    return value


@intrinsic
def atomic_load(typingctx, ary, idx):
    """Relaxed (monotonic) atomic read of ``ary[idx]``."""
    _check_array(ary, allow_float=True)

    def codegen(context, builder, sig, args):
        aryty, idxty = sig.args
        ptr = _element_pointer(context, builder, aryty, args[0], args[1], idxty)
        align = aryty.dtype.bitwidth // 8
        return builder.load_atomic(ptr, "monotonic", align)

    return ary.dtype(ary, idx), codegen


@intrinsic
def atomic_store(typingctx, ary, idx, val):
    """Sequentially consistent atomic write of ``ary[idx]`` (an ``xchg`` on x86); use
    :func:`atomic_store_release` where publishing earlier writes is all that is needed."""
    _check_array(ary, allow_float=True)

    def codegen(context, builder, sig, args):
        aryty, idxty, valty = sig.args
        ptr = _element_pointer(context, builder, aryty, args[0], args[1], idxty)
        val = context.cast(builder, args[2], valty, aryty.dtype)
        builder.store_atomic(val, ptr, "seq_cst", aryty.dtype.bitwidth // 8)
        return context.get_dummy_value()

    return types.none(ary, idx, val), codegen


@intrinsic
def atomic_store_release(typingctx, ary, idx, val):
    """Release store to ``ary[idx]``: publishes earlier writes (a lock release; a plain move
    on x86, where the sequentially consistent :func:`atomic_store` needs an ``xchg``)."""
    _check_array(ary, allow_float=True)

    def codegen(context, builder, sig, args):
        aryty, idxty, valty = sig.args
        ptr = _element_pointer(context, builder, aryty, args[0], args[1], idxty)
        val = context.cast(builder, args[2], valty, aryty.dtype)
        builder.store_atomic(val, ptr, "release", aryty.dtype.bitwidth // 8)
        return context.get_dummy_value()

    return types.none(ary, idx, val), codegen


@intrinsic
def atomic_cas(typingctx, ary, idx, expected, new):
    """Compare-and-swap: if ``ary[idx] == expected`` store ``new``; return True on success."""
    _check_array(ary)

    def codegen(context, builder, sig, args):
        aryty, idxty, expty, newty = sig.args
        ptr = _element_pointer(context, builder, aryty, args[0], args[1], idxty)
        exp = context.cast(builder, args[2], expty, aryty.dtype)
        new = context.cast(builder, args[3], newty, aryty.dtype)
        res = builder.cmpxchg(ptr, exp, new, "seq_cst", "seq_cst")
        return builder.extract_value(res, 1)

    return types.boolean(ary, idx, expected, new), codegen


def _rmw(op_signed: str, op_unsigned: str | None, allow_float: bool):
    def template(typingctx, ary, idx, val):
        _check_array(ary, allow_float=allow_float)

        def codegen(context, builder, sig, args):
            aryty, idxty, valty = sig.args
            dtype = aryty.dtype
            ptr = _element_pointer(context, builder, aryty, args[0], args[1], idxty)
            val = context.cast(builder, args[2], valty, dtype)
            ptr, val = _int_view(builder, ptr, dtype, val)
            signed = dtype == types.float64 or dtype.signed
            op = op_signed if signed or op_unsigned is None else op_unsigned
            old = builder.atomic_rmw(op, ptr, val, "seq_cst")
            return _from_int(builder, dtype, old)

        return ary.dtype(ary, idx, val), codegen

    return template


atomic_fetch_add = intrinsic(_rmw("add", None, allow_float=False))
atomic_fetch_add.__doc__ = "Atomically add ``val`` to ``ary[idx]``; return the old value."
atomic_exchange = intrinsic(_rmw("xchg", None, allow_float=False))
atomic_exchange.__doc__ = "Atomically store ``val`` in ``ary[idx]``; return the old value."
atomic_min = intrinsic(_rmw("min", "umin", allow_float=True))
atomic_min.__doc__ = (
    "Atomically lower ``ary[idx]`` to ``val`` if smaller; return the old value "
    "(float64: non-negative values only)."
)
atomic_max = intrinsic(_rmw("max", "umax", allow_float=True))
atomic_max.__doc__ = (
    "Atomically raise ``ary[idx]`` to ``val`` if larger; return the old value "
    "(float64: non-negative values only)."
)


@intrinsic
def prefetch(typingctx, ary, idx):
    """Hint the cache to fetch ``ary[idx]`` for reading (LLVM ``llvm.prefetch``, a ``prefetcht0``
    on x86): no fault if the index is past the end, no effect on the values.

    The Δ-stepping kernels issue it for vertices a few entries ahead in a bin, and SSSP's
    ``prefetch`` hook (which the worklist solver calls for an item a few places ahead in its
    batch) for one vertex: CSR offsets, arcs and distances not in cache yet, so that the
    misses of several vertices overlap.
    """
    if not isinstance(ary, types.Array) or ary.ndim != 1:
        raise TypeError("prefetch needs a 1-D array")

    def codegen(context, builder, sig, args):
        arr = context.make_array(sig.args[0])(context, builder, args[0])
        idx = context.cast(builder, args[1], sig.args[1], types.intp)
        ptr = builder.gep(arr.data, [idx])  # no bounds or wraparound: a hint may point anywhere
        i8p = ir.IntType(8).as_pointer()
        i32 = ir.IntType(32)
        fnty = ir.FunctionType(ir.VoidType(), [i8p, i32, i32, i32])
        fn = cgutils.get_or_insert_function(builder.module, fnty, "llvm.prefetch.p0")
        builder.call(fn, [builder.bitcast(ptr, i8p), i32(0), i32(3), i32(1)])
        return context.get_dummy_value()

    return types.void(ary, idx), codegen
