"""The named views of the state, an observation, the scratch and
the plan cache are built by ``views.c_view`` instead of numba's ``reshape`` (which calls a C
helper, ~40 ns a view). Each view must be the very array ``reshape`` gives: same shape,
strides, C order, values, and the same memory (a write through the view reaches the array)."""

import numpy as np
import pytest
from numba import njit

from sim import encoding as E
from sim.engine import judge, views
from sim.policies import common

#: (view kernel, offset of its field in the array, shape)
VIEWS = [
    (views.st_hands, E.ST_HANDS, (E.N_PLAYERS, E.N_KINDS)),
    (views.st_melds, E.ST_MELDS, (E.N_TEAMS, E.N_KINDS, E.N_MELD_COLS)),
    (views.st_threes, E.ST_THREES, (E.N_TEAMS, 2)),
    (views.st_pending, E.ST_PENDING, (E.N_KINDS, E.N_MELD_COLS)),
    (views.ob_melds, E.OB_MELDS, (E.N_TEAMS, E.N_KINDS, E.N_MELD_COLS)),
    (views.ob_pending, E.OB_PENDING, (E.N_KINDS, E.N_MELD_COLS)),
    (views.tmp_melds, E.TM_MELDS, (E.N_TEAMS, E.N_KINDS, E.N_MELD_COLS)),
    (views.tmp_pending, E.TM_PENDING, (E.N_KINDS, E.N_MELD_COLS)),
    (views.tmp_plan, E.TM_PLAN, (E.N_KINDS, E.N_MELD_COLS)),
    (common.work_plan, common.PW_PLAN, (E.N_KINDS, E.N_MELD_COLS)),
    (common.work_targets, common.PW_TARGETS, (3, E.N_KINDS)),
    (common.work_pending, common.PW_TARGETS, (E.N_KINDS, E.N_MELD_COLS)),
    (judge.cache_plan, E.PC_PLAN, (E.N_KINDS, E.N_MELD_COLS)),
]


@njit
def _write_through(view_fn, arr, value):
    """Write ``value`` at the view's last cell and return the view."""
    v = view_fn(arr)
    v.ravel()[-1] = value  # ravel of a C-contiguous view is a view too
    return v


@pytest.mark.parametrize("fn, offset, shape", VIEWS, ids=lambda x: getattr(x, "__name__", ""))
def test_c_view_is_the_reshape_view(fn, offset, shape):
    """The compiled view equals ``arr[offset:offset+n].reshape(shape)``: shape, strides, C
    order and values; and writing through it changes ``arr`` at the same word."""
    size = int(np.prod(shape))
    arr = np.random.default_rng(7).integers(-50, 50, size=offset + size + 40).astype(np.int64)
    want = arr[offset : offset + size].reshape(shape).copy()
    got = _write_through(fn, arr, 12345)
    assert got.shape == shape and got.strides == want.strides and got.flags.c_contiguous
    want.ravel()[-1] = 12345
    assert np.array_equal(got, want)
    assert arr[offset + size - 1] == 12345 and np.count_nonzero(arr == 12345) == 1
    assert np.array_equal(arr[offset : offset + size].reshape(shape), want)


def test_c_view_refuses_what_it_cannot_view():
    """``c_view`` types only a 1-D C-contiguous array with a tuple of integers (a strided
    slice would need its own strides): anything else is a typing error, not a wrong view."""
    from numba.core.errors import TypingError

    @njit
    def strided(a):
        return views.c_view(a[::2], (2, 3))

    with pytest.raises(TypingError):
        strided(np.zeros(12, dtype=np.int64))
