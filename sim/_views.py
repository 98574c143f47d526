"""Compile-time helpers shared by the rules core (``sim.legality``) and the engine.

Two intrinsics that change how numba compiles a kernel, not what it computes:

- ``c_view``: a shaped view of a slice without numba's ``reshape`` (a C helper call and a
  size check, ~40 ns a view, and an error path whose message formatting is compiled into
  every library that reshapes: issue 12);
- ``opaque``: pass a constant to a kernel as a run-time value. numba types a literal
  argument (``True``, ``0``) as its own type and compiles the callee again for each literal
  value, with everything it calls; ``f(x, opaque(True))`` reuses the copy compiled for a
  run-time ``bool`` (cold start, issue 12: ``docs/architecture.md``, "Compile time").
"""

from __future__ import annotations

from numba import njit
from numba.core import cgutils, types
from numba.core.imputils import impl_ret_borrowed
from numba.extending import intrinsic
from numba.np.arrayobj import make_array, populate_array


@intrinsic
def c_view(typingctx, a, shape):
    """``a.reshape(shape)`` for a C-contiguous ``a`` of exactly ``prod(shape)`` words (the
    caller's slice; not checked): the same C-contiguous view, built inline. numba's reshape
    calls its C helper (``numba_attempt_nocopy_reshape``) and checks the size, ~40 ns a view,
    and the kernels take views of the state, observation and scratch at every decision
    (issue 12, fourth pass)."""
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


@njit(cache=True, inline="always")
def copy_into(dst, src):
    """``dst[:] = src`` for two C-contiguous arrays of the same size (not checked), by a loop:
    numba's slice assignment compiles a shape-mismatch error path whose message formatting
    is linked into every kernel that copies (cold start, issue 12)."""
    d = c_view(dst, (dst.size,))
    s = c_view(src, (src.size,))
    for i in range(d.shape[0]):
        d[i] = s[i]
