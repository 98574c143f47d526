"""Judging actions from the acting player's observation alone: one import for the three jobs.

- ``sim.engine.validate``: the one validator, ``action_reason`` (``action_ok`` its yes-or-no
  answer), and the checks it is made of;
- ``sim.engine.fastpath``: the engine's check of a policy's proposal (``_judge_choice``,
  ``check_action``, ``_quick_ok``), the validator's answer made cheaper;
- ``sim.engine.generate``: the legal actions generated from the position (``legal_actions``,
  ``_legal_discards``), the filtered table they are tested against, ``_first_legal_action`` and
  ``forced_action``.

Every public name of the three is importable from here.
"""

from __future__ import annotations

from sim.engine.fastpath import (
    TABLE_DECIDES,
    _cache_plan,
    _hint_completes,
    _judge_choice,
    _meld_on_counts,
    _quick_ok,
    check_action,
)
from sim.engine.generate import (
    _first_legal_action,
    _legal_actions_filter,
    _legal_discards,
    _meld_refused_on_counts,
    _meld_rules_ok,
    forced_action,
    legal_actions,
)
from sim.engine.validate import (
    _declare_ok,
    _discard_reason_at,
    _meld_reason_obs,
    _meld_reason_without_opening,
    _opening_after,
    _opening_possible,
    _pile_may_open,
    _turn_opening_reason,
    action_ok,
    action_reason,
)

__all__ = ["action_ok", "action_reason", "check_action", "forced_action", "legal_actions"]
