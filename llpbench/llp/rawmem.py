"""Raw int64 memory for the worklists: addresses instead of arrays on the hot path.

numba reference-counts every array (and every tuple holding one) that is passed to a
compiled function, inlined or not: an atomic increment and decrement of the array's shared
reference count per call. For a worklist shared by all threads that is two contended atomics
per array per push and per pop, and the cache line holding the count bounces between cores:
measured here, it cancelled all parallel speedup. So worklists hand their compiled code plain
int64 *addresses*: control words live in numpy arrays kept alive by the Python-side owner,
element buffers are ``malloc``'ed and freed by the worklist itself, and every access goes
through the intrinsics below (plain, relaxed, release, compare-and-swap, min, fetch-add).
"""

from __future__ import annotations

from llvmlite import ir
from numba import njit, types
from numba.core.types import ExternalFunction
from numba.extending import intrinsic

_malloc = ExternalFunction("malloc", types.int64(types.int64))
_free = ExternalFunction("free", types.void(types.int64))

_I64 = ir.IntType(64)


def _ptr(context, builder, sig, args):
    base = builder.inttoptr(args[0], _I64.as_pointer())
    idx = context.cast(builder, args[1], sig.args[1], types.int64)
    return builder.gep(base, [idx])


def _val(context, builder, sig, args, i):
    return context.cast(builder, args[i], sig.args[i], types.int64)


@intrinsic
def peek(typingctx, address, index):
    """The int64 at ``address + 8 * index`` (plain load: callers hold the lock)."""

    def codegen(context, builder, sig, args):
        return builder.load(_ptr(context, builder, sig, args))

    return types.int64(types.int64, index), codegen


@intrinsic
def poke(typingctx, address, index, value):
    """Store ``value`` at ``address + 8 * index`` (plain store: callers hold the lock)."""

    def codegen(context, builder, sig, args):
        builder.store(_val(context, builder, sig, args, 2), _ptr(context, builder, sig, args))
        return context.get_dummy_value()

    return types.none(types.int64, index, value), codegen


@intrinsic
def load_relaxed(typingctx, address, index):
    """Relaxed atomic load: a racy read (a size hint, a lock test)."""

    def codegen(context, builder, sig, args):
        return builder.load_atomic(_ptr(context, builder, sig, args), "monotonic", 8)

    return types.int64(types.int64, index), codegen


@intrinsic
def store_release(typingctx, address, index, value):
    """Release store: publishes every earlier write (a lock release, a size update)."""

    def codegen(context, builder, sig, args):
        val = _val(context, builder, sig, args, 2)
        builder.store_atomic(val, _ptr(context, builder, sig, args), "release", 8)
        return context.get_dummy_value()

    return types.none(types.int64, index, value), codegen


@intrinsic
def cas(typingctx, address, index, expected, new):
    """Compare-and-swap; True if the word held ``expected`` and now holds ``new``."""

    def codegen(context, builder, sig, args):
        exp, new = _val(context, builder, sig, args, 2), _val(context, builder, sig, args, 3)
        res = builder.cmpxchg(_ptr(context, builder, sig, args), exp, new, "seq_cst", "seq_cst")
        return builder.extract_value(res, 1)

    return types.boolean(types.int64, index, expected, new), codegen


def _rmw(op):
    def template(typingctx, address, index, value):
        def codegen(context, builder, sig, args):
            val = _val(context, builder, sig, args, 2)
            return builder.atomic_rmw(op, _ptr(context, builder, sig, args), val, "seq_cst")

        return types.int64(types.int64, index, value), codegen

    return template


fetch_min = intrinsic(_rmw("min"))
fetch_min.__doc__ = "Atomic min; returns the old value."
fetch_max = intrinsic(_rmw("max"))
fetch_max.__doc__ = "Atomic max; returns the old value."
fetch_add = intrinsic(_rmw("add"))
fetch_add.__doc__ = "Atomic add; returns the old value."


@njit(nogil=True, cache=True, inline="always")
def bump(address, index, by):
    """Add ``by`` to the int64 word ``index`` at ``address`` (plain, not atomic): a counter
    of a thread's own row, reached by address (see the module docstring)."""
    poke(address, index, peek(address, index) + by)


@njit(nogil=True, cache=True)
def alloc(words):
    """``words`` int64 of uninitialised memory (0 if the allocation failed)."""
    return _malloc(8 * words)


@njit(nogil=True, cache=True)
def release(address):
    if address != 0:
        _free(address)
