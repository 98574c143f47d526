"""Judging actions from the acting player's observation alone: one import for the three jobs.

- ``sim.engine.validate``: the one validator, ``action_reason`` (``action_ok`` its yes-or-no
  answer), and the checks it is made of;
- ``sim.engine.fastpath``: the engine's check of a policy's proposal (``judge_choice``,
  ``check_action``, ``quick_ok``), the validator's answer made cheaper;
- ``sim.engine.generate``: the legal actions generated from the position (``legal_actions``,
  ``legal_discards``), the filtered table they are tested against, ``first_legal_action`` and
  ``forced_action``.

Every public name of the three is importable from here.
"""

from __future__ import annotations

from sim.engine.fastpath import (
    TABLE_DECIDES,
    cache_plan,
    check_action,
    hint_completes,
    judge_choice,
    meld_on_counts,
    quick_ok,
)
from sim.engine.generate import (
    first_legal_action,
    forced_action,
    legal_actions,
    legal_actions_filter,
    legal_discards,
    meld_refused_on_counts,
    meld_rules_ok,
)
from sim.engine.validate import (
    action_ok,
    action_reason,
    declare_ok,
    discard_reason_at,
    meld_reason_obs,
    meld_reason_without_opening,
    opening_after,
    opening_possible,
    pile_may_open,
    turn_opening_reason,
)

__all__ = ["action_ok", "action_reason", "check_action", "forced_action", "legal_actions"]
