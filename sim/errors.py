"""Errors a user can cause. The CLI prints these as one line and exits 2; anything else is a bug."""

from __future__ import annotations

__all__ = ["CanastaError", "RuleViolation"]


class CanastaError(ValueError):
    """Bad input: a bad card token, unknown ruleset key, unknown policy, negative count..."""


class RuleViolation(CanastaError):
    """A position or action that the rules refuse; ``rule`` names the rule ID (e.g. 'MELD-6')."""

    def __init__(self, code: int, detail: str = ""):
        from sim.encoding import explain, reason_rule

        self.code = code
        self.rule = reason_rule(code)
        msg = explain(code)
        super().__init__(f"{msg} ({detail})" if detail else msg)
