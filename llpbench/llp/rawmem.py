"""Raw int64 memory access for the worklist stores' growable buffers.

A store's buffer must be replaceable (it grows) and reachable from compiled code without
the cost of fetching an array object from a typed List on every push and pop (a C call and
two atomic reference-count updates, measured at 40-100 ns each here). So the buffers are
owned by a typed List (which keeps them alive) and used through their data address, kept
in an int64 slot: :func:`address_of` reads it once at creation or growth, and
:func:`peek`/:func:`poke` load and store elements. Callers hold the store's lock, which
also guards replacement of the buffer, so an address is never used after its buffer is freed.
"""

from __future__ import annotations

from llvmlite import ir
from numba import types
from numba.extending import intrinsic


@intrinsic
def address_of(typingctx, ary):
    """The address of ``ary``'s first element, as an int64."""
    if not isinstance(ary, types.Array):
        raise TypeError("address_of needs an array")

    def codegen(context, builder, sig, args):
        arr = context.make_array(sig.args[0])(context, builder, args[0])
        return builder.ptrtoint(arr.data, ir.IntType(64))

    return types.int64(ary), codegen


@intrinsic
def peek(typingctx, address, index):
    """The int64 at ``address + 8 * index``."""

    def codegen(context, builder, sig, args):
        i64 = ir.IntType(64)
        ptr = builder.inttoptr(args[0], i64.as_pointer())
        idx = context.cast(builder, args[1], sig.args[1], types.int64)
        return builder.load(builder.gep(ptr, [idx]))

    return types.int64(types.int64, index), codegen


@intrinsic
def poke(typingctx, address, index, value):
    """Store the int64 ``value`` at ``address + 8 * index``."""

    def codegen(context, builder, sig, args):
        i64 = ir.IntType(64)
        ptr = builder.inttoptr(args[0], i64.as_pointer())
        idx = context.cast(builder, args[1], sig.args[1], types.int64)
        val = context.cast(builder, args[2], sig.args[2], types.int64)
        builder.store(val, builder.gep(ptr, [idx]))
        return context.get_dummy_value()

    return types.none(types.int64, index, value), codegen
