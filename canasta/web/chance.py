"""The chance of winning the game for a web table in game mode (docs/web.md): read from the
equity table (``analysis.equity``) of the table's ruleset and bots. A table not yet cached is
built in the background, never inside a request: one build per key (ruleset and pair of bots)
however many tables ask for it, one at a time in the order asked (the default table first),
with its progress shown; until then the page says it is being computed. A bot whose own
table would take hours (a search bot, :data:`STAND_INS`) is read through the nearest fast
bot's table instead, and the page says so. The chance depends only on public facts: the two
scores before the hand, the team that plays first (DEAL-1) and the hand's number (OPEN-1).
"""

from __future__ import annotations

import json
import threading

from sim import encoding as E
from sim.errors import CanastaError

__all__ = ["MAX_QUEUED", "STAND_INS", "GameChance", "stand_in"]

#: builds one server holds in its queue at once, the running one included (each takes minutes
#: of one core); a key asked for while the queue is full is asked for again later, never
#: refused for good, and the default table always finds a place
MAX_QUEUED = 6

#: bots whose own equity table would take too long to build at a table (the default table's
#: 360,000 hands take 9 to 21 hours of a core with these bots as players, against minutes with
#: strong's) -> the fast bot they build on, whose table is read instead (labelled as such)
STAND_INS = {
    "expert": "strong",
    "expert_strong": "strong",
    "expert_strong_v2": "strong_v2",
    "game_strong": "strong",
}


def stand_in(label: str) -> str:
    """The bot whose equity table stands for ``label``'s: its fast stand-in (:data:`STAND_INS`,
    parameters dropped: they tune the search, not the stand-in), else ``label`` itself."""
    name = str(label).partition(":")[0].strip()
    return STAND_INS.get(name, label)


class GameChance:
    """The equity tables a server reads, by ruleset and pair of bots. ``n``, ``resolution``,
    ``replicates``, ``cache``: as ``analysis.equity.equity_table``; ``enabled`` False: the
    page says the chance is unavailable and nothing is built; ``max_queued``: builds held in
    the queue at once (:data:`MAX_QUEUED`); ``default_bot``: the server's default bot, whose
    table against itself under the default ruleset is the default table (queued first; None:
    the strongest fast policy's)."""

    def __init__(
        self,
        n: int | None = None,
        resolution: int | None = None,
        replicates: int | None = None,
        cache=None,
        enabled: bool = True,
        max_queued: int = MAX_QUEUED,
        default_bot: str | None = None,
    ):
        from analysis import equity as Q

        self.args = {
            "n": Q.DEFAULT_N if n is None else n,
            "resolution": Q.RESOLUTION if resolution is None else resolution,
            "replicates": Q.BOOT_REPLICATES if replicates is None else replicates,
            "cache": cache,
        }
        self.enabled = enabled
        self.max_queued = max(1, int(max_queued))
        self._tables: dict[str, object] = {}
        self._failed: dict[str, str] = {}  # why a build failed (not retried)
        self._queue: list[tuple[str, object, list[str]]] = []  # waiting, in build order
        self._running: str | None = None
        self._progress: dict[str, tuple[str, int, int]] = {}  # key -> (doing, step, of)
        self._lock = threading.Lock()
        self._wake = threading.Condition(self._lock)
        self._worker: threading.Thread | None = None
        self._default: str | None = None
        self._default_bot = default_bot

    @staticmethod
    def policies(t) -> list[str]:
        """The bots of team 0 and team 1: the human's team plays as its partner bot."""
        partner, opponent = t.policies[(t.seat + 2) % 4], t.policies[(t.seat + 1) % 4]
        return [partner, opponent] if t.seat % 2 == 0 else [opponent, partner]

    @classmethod
    def table_policies(cls, t) -> list[str]:
        """The bots whose table is read for ``t``: each team's bot, or its fast stand-in."""
        return [stand_in(p) for p in cls.policies(t)]

    @staticmethod
    def _key_of(ruleset, policies) -> str:
        return json.dumps([ruleset.to_dict(), list(policies)], sort_keys=True, default=str)

    def _key(self, t) -> str:
        return self._key_of(t.ruleset, self.table_policies(t))

    def _default_key(self) -> str:
        if self._default is None:
            from sim.policies import strongest_fast
            from sim.ruleset import Ruleset

            bot = stand_in(self._default_bot or strongest_fast())
            self._default = self._key_of(Ruleset(), [bot] * 2)
        return self._default

    def table(self, t):
        """``(equity table or None, status)``: status "ready", "computing", "waiting" (the
        queue is full: ask again later) or a sentence of why it is unavailable. Reads the
        cache (milliseconds) and queues a build if absent."""
        if not self.enabled:
            return None, "not offered by this server"
        key = self._key(t)
        default = self._default_key()
        with self._lock:
            if key in self._tables:
                return self._tables[key], "ready"
            if key in self._failed:
                return None, self._failed[key]
            if key == self._running or any(k == key for k, _, _ in self._queue):
                return None, "computing"
        from analysis.equity import cached_table

        pol = self.table_policies(t)
        try:
            found = cached_table(t.ruleset, pol, **self.args)
        except (CanastaError, OSError, ValueError) as exc:
            with self._lock:
                self._failed[key] = f"unavailable ({str(exc)[:120]})"
                return None, self._failed[key]
        with self._wake:
            if found is not None:
                self._tables[key] = found
                return found, "ready"
            if key in self._failed:
                return None, self._failed[key]
            if key == self._running or any(k == key for k, _, _ in self._queue):
                return None, "computing"
            held = len(self._queue) + (self._running is not None)
            if key != default and held >= self.max_queued:
                return None, "waiting"
            job = (key, t.ruleset, pol)
            if key == default:  # the default game's table goes first
                self._queue.insert(0, job)
            else:
                self._queue.append(job)
            self._wake.notify()
            if self._worker is None:
                self._worker = threading.Thread(target=self._build, daemon=True)
                self._worker.start()
            return None, "computing"

    def _build(self) -> None:
        """The one builder: the queued tables, one after another (one core each)."""
        from analysis.equity import equity_table

        while True:
            with self._wake:
                while not self._queue:
                    self._wake.wait()
                key, rules, pol = self._queue.pop(0)
                self._running = key

            def progress(doing: str, step: int, of: int, key=key) -> None:
                with self._lock:
                    self._progress[key] = (doing, int(step), int(of))

            try:
                tab = equity_table(rules, pol, n_jobs=1, progress=progress, **self.args)
            except Exception as exc:  # the page says so; the game goes on without it
                with self._lock:
                    self._failed[key] = f"unavailable ({type(exc).__name__}: {str(exc)[:120]})"
            else:
                with self._lock:
                    self._tables[key] = tab
            with self._lock:
                self._running = None
                self._progress.pop(key, None)

    def idle(self) -> bool:
        """No table is being computed or waits to be (for tests and shutdown)."""
        with self._lock:
            return self._running is None and not self._queue

    def build_status(self, t) -> dict:
        """Where the build of ``t``'s table is: ``{"ahead": builds before it, "doing", "step",
        "of"}`` (the last three while it runs)."""
        key = self._key(t)
        with self._lock:
            if key == self._running:
                doing, step, of = self._progress.get(key, ("starting", 0, 0))
                return {"ahead": 0, "doing": doing, "step": step, "of": of}
            keys = [k for k, _, _ in self._queue]
            ahead = keys.index(key) if key in keys else 0
            return {"ahead": ahead + (self._running is not None), "doing": "", "step": 0, "of": 0}

    def position(self, t) -> tuple[tuple[int, int], int, int] | None:
        """The public position the chance is read at: the scores, the team playing first and
        the hand's number: the running hand's start, or once a hand is over the next hand's
        (DEAL-1: the next seat plays first). None when the game is over."""
        if t.game_over():
            return None
        g = t.game
        if g.is_over:  # the next hand as the game's driver will deal it
            nxt = t.driver.hand_args(len(t.hands))
            return nxt["scores"], nxt["first_player"] % E.N_TEAMS, nxt["hand_number"]
        start = tuple(int(x) for x in g.start_scores)
        return start, g.first_player % E.N_TEAMS, len(t.hands)

    def _standing(self, t) -> dict | None:
        """Which bots are read through a stand-in's table: ``{"for": [...], "table": [...],
        "text"}``, or None when the table is the bots' own."""
        own, used = self.policies(t), self.table_policies(t)
        slow = [p for p, u in zip(own, used, strict=True) if p != u]
        if not slow:
            return None
        names = ", ".join(dict.fromkeys(slow))
        fast = " and ".join(dict.fromkeys(u for p, u in zip(own, used, strict=True) if p != u))
        text = f"read from {fast}'s table, standing in for {names} (whose own would take hours)"
        return {"for": list(dict.fromkeys(slow)), "table": used, "text": text}

    def chance(self, t) -> dict | None:
        """The view's ``chance`` entry (None outside game mode): both teams' chance of
        winning the game with 95% intervals, or its status."""
        if t.mode != "game":
            return None
        at = self.position(t)
        if at is None:
            return {"status": "over", "text": "the game is over"}
        tab, status = self.table(t)
        standing = self._standing(t)
        extra = {} if standing is None else {"stand_in": standing}
        if tab is None:
            if status == "computing":
                b = self.build_status(t)
                if b["of"]:
                    where = f"{b['doing']}, step {b['step']} of {b['of']}"
                elif b["ahead"]:
                    where = f"queued, {b['ahead']} table{'s' * (b['ahead'] > 1)} ahead"
                else:
                    where = "starting"
                return {
                    "status": "computing",
                    "build": b,
                    "text": f"chance of winning: being computed ({where})",
                    **extra,
                }
            if status == "waiting":
                return {
                    "status": "waiting",
                    "text": "chance of winning: waiting (the server is building other tables; "
                    "asked again shortly)",
                    **extra,
                }
            return {"status": "unavailable", "text": f"chance of winning: {status}", **extra}
        scores, first, hand_no = at
        try:
            v = tab.value(scores[0], scores[1], first=first, hand_number=hand_no)
        except CanastaError as exc:  # e.g. an exact tie at the target plays on (GAME-1)
            return {"status": "unavailable", "text": f"chance of winning: {str(exc)[:160]}"}
        mine = t.seat % 2
        p, lo, hi = v["win_team0"], v["ci_low"], v["ci_high"]
        if mine == 1:
            p, lo, hi = 1 - p, 1 - hi, 1 - lo
        label = "" if standing is None else f" ({standing['text']})"
        return {
            "status": "ready",
            "you": p,
            "you_ci": [lo, hi],
            "opponents": 1 - p,
            "opponents_ci": [1 - hi, 1 - lo],
            "scores": [int(scores[mine]), int(scores[1 - mine])],
            "first": "you" if first == mine else "opponents",
            "hand_no": hand_no,
            "policies": self.table_policies(t),
            "text": f"chance of winning: your team {p:.0%} (95% interval {lo:.0%} to {hi:.0%}),"
            f" opponents {1 - p:.0%}{label}",
            **extra,
        }
