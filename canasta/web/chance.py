"""The chance of winning the game for a web table in game mode (docs/web.md): read from the
equity table (``analysis.equity``) of the table's ruleset and bots. A table not yet cached is
built in the background, one at a time and a bounded number per server, never inside a
request; until then the page says it is being computed. The chance depends only on public
facts: the two scores before the hand, the team that plays first (DEAL-1) and the hand's
number (OPEN-1).
"""

from __future__ import annotations

import json
import queue
import threading

from sim import encoding as E
from sim.errors import CanastaError

__all__ = ["GameChance"]

MAX_BUILDS = 4  #: equity tables one server may build (each takes minutes of one core)


class GameChance:
    """The equity tables a server reads, by ruleset and pair of bots. ``n``, ``resolution``,
    ``replicates``, ``cache``: as ``analysis.equity.equity_table``; ``enabled`` False: the
    page says the chance is unavailable and nothing is built."""

    def __init__(
        self,
        n: int | None = None,
        resolution: int | None = None,
        replicates: int | None = None,
        cache=None,
        enabled: bool = True,
        max_builds: int = MAX_BUILDS,
    ):
        from analysis import equity as Q

        self.args = {
            "n": Q.DEFAULT_N if n is None else n,
            "resolution": Q.RESOLUTION if resolution is None else resolution,
            "replicates": Q.BOOT_REPLICATES if replicates is None else replicates,
            "cache": cache,
        }
        self.enabled = enabled
        self.max_builds = max_builds
        self._tables: dict[str, object] = {}
        self._state: dict[str, str] = {}  # "computing" or why it is unavailable
        self._lock = threading.Lock()
        self._jobs: queue.Queue = queue.Queue()
        self._worker: threading.Thread | None = None

    @staticmethod
    def policies(t) -> list[str]:
        """The bots of team 0 and team 1: the human's team plays as its partner bot."""
        partner, opponent = t.policies[(t.seat + 2) % 4], t.policies[(t.seat + 1) % 4]
        return [partner, opponent] if t.seat % 2 == 0 else [opponent, partner]

    def _key(self, t) -> str:
        return json.dumps([t.ruleset.to_dict(), self.policies(t)], sort_keys=True, default=str)

    def table(self, t):
        """``(equity table or None, status)``: status "ready", "computing" or a sentence of
        why it is unavailable. Reads the cache (milliseconds) and queues a build if absent."""
        if not self.enabled:
            return None, "not offered by this server"
        key = self._key(t)
        with self._lock:
            if key in self._tables:
                return self._tables[key], "ready"
            if key in self._state:
                return None, self._state[key]
        from analysis.equity import cached_table

        try:
            found = cached_table(t.ruleset, self.policies(t), **self.args)
        except (CanastaError, OSError, ValueError) as exc:
            found, why = None, f"unavailable ({str(exc)[:120]})"
        else:
            why = None
        with self._lock:
            if found is not None:
                self._tables[key] = found
                return found, "ready"
            if key in self._state:
                return None, self._state[key]
            if (
                why is None
                and sum(s == "computing" for s in self._state.values()) + len(self._tables)
                >= self.max_builds
            ):
                why = "unavailable (this server computes no more rulesets)"
            if why is not None:
                self._state[key] = why
                return None, why
            self._state[key] = "computing"
            self._jobs.put((key, t.ruleset, self.policies(t)))
            if self._worker is None:
                self._worker = threading.Thread(target=self._build, daemon=True)
                self._worker.start()
            return None, "computing"

    def _build(self) -> None:
        """The one builder: the queued tables, one after another (one core each)."""
        from analysis.equity import equity_table

        while True:
            key, rules, pol = self._jobs.get()
            try:
                tab = equity_table(rules, pol, n_jobs=1, **self.args)
            except Exception as exc:  # the page says so; the game goes on without it
                with self._lock:
                    self._state[key] = f"unavailable ({type(exc).__name__}: {str(exc)[:120]})"
            else:
                with self._lock:
                    self._tables[key] = tab
                    self._state.pop(key, None)

    def idle(self) -> bool:
        """No table is being computed (for tests and shutdown)."""
        with self._lock:
            return "computing" not in self._state.values()

    def position(self, t) -> tuple[tuple[int, int], int, int] | None:
        """The public position the chance is read at: the scores, the team playing first and
        the hand's number: the running hand's start, or once a hand is over the next hand's
        (DEAL-1: the next seat plays first). None when the game is over."""
        if t.game_over():
            return None
        g = t.game
        if g.is_over:  # the next hand as the game's driver will deal it
            nxt = t.driver.hand_args(len(t.games))
            return nxt["scores"], nxt["first_player"] % E.N_TEAMS, nxt["hand_number"]
        start = tuple(int(x) for x in g.start_scores)
        return start, g.first_player % E.N_TEAMS, len(t.games)

    def chance(self, t) -> dict | None:
        """The view's ``chance`` entry (None outside game mode): both teams' chance of
        winning the game with 95% intervals, or its status."""
        if t.mode != "game":
            return None
        at = self.position(t)
        if at is None:
            return {"status": "over", "text": "the game is over"}
        tab, status = self.table(t)
        if tab is None:
            if status == "computing":
                return {"status": "computing", "text": "chance of winning: being computed"}
            return {"status": "unavailable", "text": f"chance of winning: {status}"}
        scores, first, hand_no = at
        try:
            v = tab.value(scores[0], scores[1], first=first, hand_number=hand_no)
        except CanastaError as exc:  # e.g. an exact tie at the target plays on (GAME-1)
            return {"status": "unavailable", "text": f"chance of winning: {str(exc)[:160]}"}
        mine = t.seat % 2
        p, lo, hi = v["win_team0"], v["ci_low"], v["ci_high"]
        if mine == 1:
            p, lo, hi = 1 - p, 1 - hi, 1 - lo
        return {
            "status": "ready",
            "you": p,
            "you_ci": [lo, hi],
            "opponents": 1 - p,
            "opponents_ci": [1 - hi, 1 - lo],
            "scores": [int(scores[mine]), int(scores[1 - mine])],
            "first": "you" if first == mine else "opponents",
            "hand_no": hand_no,
            "policies": self.policies(t),
            "text": f"chance of winning: your team {p:.0%} (95% interval {lo:.0%} to {hi:.0%}),"
            f" opponents {1 - p:.0%}",
        }
