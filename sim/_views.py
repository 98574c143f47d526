"""Compile-time helpers shared by the rules core (``sim.legality``) and the engine.

Intrinsics that change how numba compiles a kernel, not what it computes:

- ``c_view``: a shaped view of a slice without numba's ``reshape`` (a C helper call and a
  size check, ~40 ns a view, and an error path whose message formatting is compiled into
  every library that reshapes);
- ``opaque``: pass a constant to a kernel as a run-time value. numba types a literal
  argument (``True``, ``0``) as its own type and compiles the callee again for each literal
  value, with everything it calls; ``f(x, opaque(True))`` reuses the copy compiled for a
  run-time ``bool`` (a faster cold start: ``docs/architecture.md``, "Compile time");
- ``copy_words``: a block of words copied from one array to another as one ``memcpy``, which
  LLVM turns into vector moves (``observe``).
"""

from __future__ import annotations

from numba import njit
from numba.core import cgutils, types
from numba.core.imputils import impl_ret_borrowed
from numba.extending import intrinsic
from numba.np.arrayobj import make_array, populate_array

__all__ = ["opaque"]


@intrinsic
def c_view(typingctx, a, shape):
    """``a.reshape(shape)`` for a C-contiguous ``a`` of exactly ``prod(shape)`` words (the
    caller's slice; not checked): the same C-contiguous view, built inline. numba's reshape
    calls its C helper (``numba_attempt_nocopy_reshape``) and checks the size, ~40 ns a view,
    and the kernels take views of the state, observation and scratch at every decision."""
    if not (isinstance(a, types.Array) and a.layout == "C"):
        return None
    if not isinstance(shape, types.BaseTuple) or not all(
        isinstance(t, types.Integer) for t in shape
    ):
        return None
    ret = a.copy(ndim=len(shape), layout="C")

    def codegen(context, builder, sig, args):
        aryty, shapety = sig.args
        ary = make_array(aryty)(context, builder, args[0])
        out = make_array(sig.return_type)(context, builder)
        dims = [
            context.cast(builder, v, t, types.intp)
            for v, t in zip(cgutils.unpack_tuple(builder, args[1]), shapety, strict=True)
        ]
        strides = []
        step = ary.itemsize
        for d in reversed(dims):  # C order: the last axis is contiguous
            strides.insert(0, step)
            step = builder.mul(step, d)
        populate_array(
            out,
            data=ary.data,
            shape=dims,
            strides=strides,
            itemsize=ary.itemsize,
            meminfo=ary.meminfo,
            parent=ary.parent,
        )
        return impl_ret_borrowed(context, builder, sig.return_type, out._getvalue())

    return ret(a, shape), codegen


@intrinsic
def opaque(typingctx, x):
    """``x`` typed as a run-time value (``types.unliteral``): a boolean or integer literal
    becomes ``bool`` or ``int64``, so the callee is not compiled again for this constant."""
    if not isinstance(
        x, (types.Boolean, types.Integer, types.BooleanLiteral, types.IntegerLiteral)
    ):
        return None
    ret = types.unliteral(x)

    def codegen(context, builder, sig, args):
        return context.cast(builder, args[0], sig.args[0], sig.return_type)

    return ret(x), codegen


@intrinsic
def copy_words(typingctx, dst, dst_at, src, src_at, n):
    """``dst[dst_at : dst_at + n] = src[src_at : src_at + n]`` for two different 1-d
    C-contiguous arrays of the same dtype (the caller's bounds: not checked), as one
    ``llvm.memcpy``: with constant offsets and count, LLVM copies by vector moves, where a loop
    between two arrays that may overlap is copied a word at a time (``observe``: 221 words an
    observation)."""
    if not (isinstance(dst, types.Array) and isinstance(src, types.Array)):
        return None
    if dst.layout != "C" or src.layout != "C" or dst.ndim != 1 or src.ndim != 1:
        return None
    if dst.dtype != src.dtype or not all(isinstance(t, types.Integer) for t in (dst_at, src_at, n)):
        return None

    def codegen(context, builder, sig, args):
        dty, dat, sty, sat, nty = sig.args
        d = make_array(dty)(context, builder, args[0])
        s = make_array(sty)(context, builder, args[2])
        d_at, s_at, count = (
            context.cast(builder, v, t, types.intp)
            for v, t in ((args[1], dat), (args[3], sat), (args[4], nty))
        )
        size = context.get_abi_sizeof(context.get_data_type(dty.dtype))
        dp, sp = builder.gep(d.data, [d_at]), builder.gep(s.data, [s_at])
        cgutils.raw_memcpy(builder, dp, sp, count, size)
        return context.get_dummy_value()

    return types.none(dst, dst_at, src, src_at, n), codegen


@njit(cache=True, inline="always")
def copy_into(dst, src):
    """``dst[:] = src`` for two C-contiguous arrays of the same size (not checked), by a loop:
    numba's slice assignment compiles a shape-mismatch error path whose message formatting
    is linked into every kernel that copies (a faster cold start)."""
    d = c_view(dst, (dst.size,))
    s = c_view(src, (src.size,))
    for i in range(d.shape[0]):
        d[i] = s[i]


def inline_copy(fn):
    """A copy of the compiled function ``fn`` that numba inlines where it is called, for the
    one or two callers on a hot path; every other caller keeps calling ``fn``'s one compiled
    copy. A call between compiled functions passes each array argument as its whole
    structure (7 words for a 1-D array, 11 for a 3-D one), most of them on the stack: about as
    much work as a small function's body, paid at every call."""
    return njit(inline="always")(fn.py_func)


@njit(cache=True, inline="always")
def sum_words(a, at, n):
    """``a[at : at + n].sum()`` by a loop compiled in place: numba's ``sum`` is a function of
    its own, called (~1% of a heuristic hand through the judge's discards and the aside
    totals)."""
    total = 0
    for i in range(at, at + n):
        total += a[i]
    return total
