"""The Starlette app of ``canasta serve``: one page (static, shipped in the package) and a small
JSON API over :class:`canasta.web.table.Table` (docs/web.md, with its threat model).

Each browser session has its own table, found by a random id in an HTTP-only, SameSite=Strict
cookie: a request only ever reaches its own table, and the id is in no body, record or file
name (the store names a table's file by a hash of it). Each table is saved after every change
in the state directory, so a restarted server resumes it; idle tables expire, and past a cap
the longest idle goes (:class:`Tables`). A state-changing request must be JSON from this site
(``canasta.web.guard``), and a move must name the table's move number (a stale or repeated one
is refused, 409). A bad request gets a 4xx JSON ``{"error": one line}`` (a move the rules
refuse: 422 with its ``rule`` and the moves allowed), never a traceback.
"""

from __future__ import annotations

import copy
import hashlib
import json
import threading
import time
from pathlib import Path
from typing import Any

from starlette.applications import Starlette
from starlette.concurrency import run_in_threadpool
from starlette.exceptions import HTTPException
from starlette.middleware import Middleware
from starlette.requests import Request
from starlette.responses import FileResponse, JSONResponse, Response
from starlette.routing import Mount, Route
from starlette.staticfiles import StaticFiles

from canasta.web.chance import GameChance
from canasta.web.guard import (
    HOSTS,
    MAX_BODY,
    Guard,
    check_post,
    read_json,
    rules_text,
    valid_table_id,
)
from canasta.web.routes_ux import routes as ux_routes
from canasta.web.table import HINT_BUDGET, REVIEW_BUDGET, REVIEW_GAIN, MoveRefused, Table
from canasta.web.warmup import PLAN
from sim import encoding as _E
from sim.errors import CanastaError

__all__ = ["MAX_BODY", "Tables", "create_app"]

STATIC = Path(__file__).parent / "static"
COOKIE = "canasta_table"
DEFAULT_BOT = "strong"
BOTS = ("strong", "expert", "heuristic", "greedy", "random")  #: offered first on the page
IDLE_TTL = 12 * 3600.0  #: seconds a table may stay untouched before it is removed
MAX_TABLES = 64  #: tables kept at once (memory and disk); past it the longest idle goes


def shipped_rules() -> dict[str, Any]:
    """Rulesets the page offers: the default, special hands off, and the shipped
    ``rules/*.toml`` (each loads as a ruleset, SPECIAL-7..9)."""
    from sim.ruleset import Ruleset

    out: dict[str, Any] = {
        "tournament (default)": Ruleset(),
        "no special hands (SPECIAL-7)": Ruleset(special_hands="none"),
    }
    from sim.ruleset import shipped_rulesets

    for path in shipped_rulesets().values():  # package data, installed or in a clone
        try:
            out[f"{path.stem} ({path.name})"] = Ruleset.from_toml(path)
        except CanastaError:
            continue
    return out


def _policies() -> list[str]:
    from sim.policies.registry import table_names

    try:
        known = list(table_names())  # never a measuring reference (peeking_strong)
    except Exception:  # pragma: no cover - the registry always lists its names
        known = list(BOTS)
    return [b for b in BOTS if b in known] + sorted(set(known) - set(BOTS))


def _text(value: Any, name: str, limit: int) -> str:
    """A short user string (a name): printable, at most ``limit`` characters."""
    if not isinstance(value, str):
        raise CanastaError(f"{name}: expected a string")
    return "".join(ch for ch in value if ch.isprintable())[:limit]


class Tables:
    """The tables in memory, each saved to ``state_dir`` after each change (a file named by a
    hash of its id). A table untouched for ``idle_ttl`` seconds is removed from memory and
    disk; at ``max_tables`` a new one removes the longest idle (never one in use)."""

    def __init__(
        self, state_dir: Path | None, idle_ttl: float = IDLE_TTL, max_tables: int = MAX_TABLES
    ):
        self.state_dir = state_dir
        self.idle_ttl = float(idle_ttl)
        self.max_tables = int(max_tables)
        self.tables: dict[str, Table] = {}
        self.used: dict[str, float] = {}
        self.locks: dict[str, threading.Lock] = {}
        self.guard = threading.Lock()
        if state_dir is not None:
            state_dir.mkdir(parents=True, exist_ok=True, mode=0o700)

    def _path(self, tid: str) -> Path | None:
        if self.state_dir is None:
            return None
        return self.state_dir / (hashlib.sha256(tid.encode()).hexdigest()[:32] + ".json")

    def get(self, tid: str | None) -> Table | None:
        tid = valid_table_id(tid)
        if tid is None:
            return None
        now = time.time()
        with self.guard:
            t = self.tables.get(tid)
            if t is not None and now - self.used[tid] <= self.idle_ttl:
                self.used[tid] = now
                return t
        if t is not None:
            self.drop(tid)
            return None
        path = self._path(tid)
        try:
            if path is None or not path.is_file() or now - path.stat().st_mtime > self.idle_ttl:
                return None
            saved = json.loads(path.read_text(encoding="utf-8"))
            t = Table.resume(saved)
        except (OSError, CanastaError, ValueError, KeyError, TypeError, AttributeError, IndexError):
            return None
        if t.id != tid:
            return None
        self._admit(t)
        return t

    def lock(self, tid: str) -> threading.Lock:
        with self.guard:
            return self.locks.setdefault(tid, threading.Lock())

    def drop(self, tid: str) -> None:
        """Remove a table from memory and disk."""
        with self.guard:
            self.tables.pop(tid, None)
            self.used.pop(tid, None)
            self.locks.pop(tid, None)
        path = self._path(tid)
        if path is not None:
            path.unlink(missing_ok=True)

    def _admit(self, t: Table) -> None:
        """Hold ``t``, first removing expired tables and, at the cap, the longest idle."""
        now = time.time()
        with self.guard:
            stale = [k for k, u in self.used.items() if now - u > self.idle_ttl]
            idle = sorted(
                (u, k) for k, u in self.used.items() if k not in stale and not self._busy(k)
            )
            excess = len(self.tables) - len(stale) - self.max_tables + 1
            stale += [k for _, k in idle[: max(0, excess)]]
        for k in stale:
            self.drop(k)
        with self.guard:
            self.tables[t.id] = t
            self.used[t.id] = now
        self._sweep_disk(now)

    def _busy(self, tid: str) -> bool:
        lock = self.locks.get(tid)
        return lock is not None and lock.locked()

    def _sweep_disk(self, now: float) -> None:
        """Files of tables expired, or beyond the cap (oldest first), removed: also those a
        previous run of the server left."""
        if self.state_dir is None:
            return
        files = []
        for path in self.state_dir.glob("*.json"):
            try:
                files.append((path.stat().st_mtime, path))
            except OSError:
                continue
        files.sort(reverse=True)
        with self.guard:
            live = {self._path(k) for k in self.tables}
        for i, (mtime, path) in enumerate(files):
            if path not in live and (now - mtime > self.idle_ttl or i >= self.max_tables):
                path.unlink(missing_ok=True)

    def put(self, t: Table) -> None:
        self._admit(t)
        self.save(t)

    def save(self, t: Table) -> None:
        path = self._path(t.id)
        if path is not None:
            tmp = path.with_suffix(".tmp")
            tmp.write_text(json.dumps(t.saved()), encoding="utf-8")
            tmp.chmod(0o600)
            tmp.replace(path)


class Warmup:
    """The background warm-up's progress, for the page (``GET /api/ready``)."""

    STEPS = PLAN  # the warm-up's steps, in order (canasta.web.warmup)

    def __init__(self, done: bool = False):
        self.step = len(self.STEPS) if done else 0
        self.error = ""
        self.t0 = time.perf_counter()
        self.seconds = 0.0

    def json(self) -> dict:
        ready = self.step >= len(self.STEPS)
        return {
            "ready": ready,
            "step": self.step,
            "of": len(self.STEPS),
            "doing": "" if ready else self.STEPS[self.step],
            "seconds": round(self.seconds if ready else time.perf_counter() - self.t0, 1),
        }

    def advance(self) -> None:
        self.step += 1
        if self.step >= len(self.STEPS):
            self.seconds = time.perf_counter() - self.t0


def _error(status: int, message: str, **extra) -> JSONResponse:
    line = " ".join(str(message).split())[:300]
    return JSONResponse({"error": line, **extra}, status_code=status)


def _move_no(body: Any, t: Table) -> None:
    """A change names the table's move number: a stale or repeated request is refused."""
    n = body.get("move_no") if isinstance(body, dict) else None
    if isinstance(n, bool) or not isinstance(n, int):
        raise HTTPException(400, 'expected the table\'s move number: {"move_no": n, ...}')
    if n != t.move_no:
        raise HTTPException(
            409, f"move {n} is stale or repeated: the table is at move {t.move_no} (reload it)"
        )


def create_app(
    rules_file: str | None = None,
    state_dir: Path | None = None,
    default_bot: str = DEFAULT_BOT,
    warm: bool = True,
    *,
    hosts: tuple[str, ...] = HOSTS,
    idle_ttl: float = IDLE_TTL,
    max_tables: int = MAX_TABLES,
    hint_budget: float = HINT_BUDGET,
    review_budget: float | None = REVIEW_BUDGET,
    chance: GameChance | None = None,
) -> Starlette:
    """The app; ``rules_file``: a ruleset TOML offered first (``--rules``); ``state_dir``: where
    tables are saved (None: kept in memory only); ``warm``: compile the bots and the hint at
    start (progress at ``/api/ready``); ``hosts``: the host names it answers to; ``idle_ttl``,
    ``max_tables``: :class:`Tables`; ``hint_budget``, ``review_budget``: seconds of advice;
    ``chance``: the game mode's chance of winning (:class:`canasta.web.chance.GameChance`;
    default: the default equity table when ``warm``, else none offered)."""
    rulesets = shipped_rules()
    if rules_file is not None:
        from sim.ruleset import Ruleset

        first = f"{Path(rules_file).name} (--rules)"
        rulesets = {first: Ruleset.from_toml(rules_file)} | rulesets
    tables = Tables(state_dir, idle_ttl=idle_ttl, max_tables=max_tables)
    progress = Warmup(done=not warm)
    if chance is None:
        chance = GameChance(enabled=warm)

    def table_of(request: Request) -> Table:
        t = tables.get(request.cookies.get(COOKIE))
        if t is None:
            raise HTTPException(404, "no table yet: start a new hand or game")
        t.chance = chance  # a resumed table's too
        return t

    def reply(t: Table, extra: dict | None = None) -> JSONResponse:
        resp = JSONResponse(t.view() | (extra or {}))
        resp.set_cookie(
            COOKIE, t.id, httponly=True, samesite="strict", max_age=max(60, int(idle_ttl)), path="/"
        )
        return resp

    async def posted(request: Request) -> Any:
        check_post(request)
        return await read_json(request)

    async def index(request: Request) -> Response:
        return FileResponse(STATIC / "index.html")

    async def options(request: Request) -> JSONResponse:
        return JSONResponse(
            {
                "bots": _policies(),
                "default_bot": default_bot,
                "rulesets": {k: v.to_dict() for k, v in rulesets.items()},
                "default_rules": next(iter(rulesets)),
                "hint_budget": hint_budget,
            }
        )

    async def ready(request: Request) -> JSONResponse:
        return JSONResponse(progress.json())

    async def state(request: Request) -> JSONResponse:
        return reply(table_of(request))

    async def new(request: Request) -> JSONResponse:
        body = await posted(request)
        if not isinstance(body, dict):
            raise HTTPException(400, "expected a JSON object")
        name = body.get("rules", next(iter(rulesets)))
        if "rules_toml" in body:
            from sim.ruleset import Ruleset

            rules = Ruleset.from_dict(rules_text(body["rules_toml"]))
            label = _text(body.get("rules_name", "uploaded"), "rules_name", 60)
            name = (label or "uploaded") + " (uploaded)"
        elif not isinstance(name, str):
            raise HTTPException(400, "rules: expected a ruleset's name (GET /api/options)")
        elif name in rulesets:
            rules = rulesets[name]
        else:
            raise HTTPException(400, f"unknown ruleset {name[:40]!r}")
        seed = body.get("seed")
        if seed is not None:  # a practice deal: the player knows its seed
            from sim.limits import check_seed

            seed = check_seed(seed, "seed")
        bots = []
        for key in ("partner", "opponents"):
            v = body.get(key, default_bot)
            if not isinstance(v, str) or len(v) > 80:
                raise HTTPException(400, f"{key}: expected a bot's name")
            bots.append(v)
        mode = body.get("mode", "hand")
        if mode not in ("hand", "game"):
            raise HTTPException(400, "mode: expected 'hand' or 'game'")
        old = valid_table_id(request.cookies.get(COOKIE))
        t = await run_in_threadpool(Table, seed, mode, bots[0], bots[1], rules, name)
        t.chance = chance
        tables.put(t)
        if old is not None and old != t.id:
            tables.drop(old)  # a new table replaces the session's last one
        return reply(t)

    def mutate(fn):
        async def endpoint(request: Request) -> JSONResponse:
            body = await posted(request)
            t = table_of(request)
            lock = tables.lock(t.id)

            def work():
                with lock:
                    _move_no(body, t)
                    extra = fn(t, body)
                    tables.save(t)
                    return extra

            extra = await run_in_threadpool(work)
            return reply(t, extra)

        return endpoint

    async def hint(request: Request) -> JSONResponse:
        await posted(request)
        t = table_of(request)
        lock = tables.lock(t.id)

        def work():
            with lock:  # a copy of the position, so a move meanwhile changes nothing here
                snap = copy.copy(t)
                snap.driver = copy.copy(t.driver)
                snap.driver.hands = [*t.games[:-1], copy.deepcopy(t.game)]
            game = chance.table(t)[0] if t.mode == "game" else None
            return snap.hint(budget=hint_budget, equity=game)

        return JSONResponse(await run_in_threadpool(work))

    async def review(request: Request) -> JSONResponse:
        await posted(request)
        t = table_of(request)
        lock = tables.lock(t.id)

        def work():
            with lock:
                return t.review(budget=review_budget)

        result = await run_in_threadpool(work)
        return JSONResponse({"review": result, "threshold": REVIEW_GAIN})

    async def record(request: Request) -> Response:
        t = table_of(request)
        from sim.record import dumps

        name = "canasta-game.json" if t.mode == "game" else "canasta-hand.json"
        return Response(
            dumps(t.record()),
            media_type="application/json",
            headers={"Content-Disposition": f'attachment; filename="{name}"'},
        )

    async def replay(request: Request) -> JSONResponse:
        body = await posted(request)
        if not isinstance(body, dict):  # a string would be read as a path: never
            raise HTTPException(400, "expected the record itself, a JSON object")
        return JSONResponse(await run_in_threadpool(replay_frames, body))

    async def http_error(request: Request, exc: HTTPException) -> JSONResponse:
        return _error(exc.status_code, exc.detail)

    async def canasta_error(request: Request, exc: Exception) -> JSONResponse:
        if isinstance(exc, MoveRefused):
            return _error(422, str(exc), rule=exc.rule, allowed=exc.allowed)
        return _error(400, str(exc), rule=getattr(exc, "rule", ""))

    async def crash(request: Request, exc: Exception) -> JSONResponse:
        return _error(500, f"internal error ({type(exc).__name__}); the table is unchanged")

    routes = [
        Route("/", index),
        Route("/api/options", options),
        Route("/api/ready", ready),
        Route("/api/state", state),
        Route("/api/new", new, methods=["POST"]),
        Route("/api/move", mutate(lambda t, b: t.move(b)), methods=["POST"]),
        Route("/api/undo", mutate(lambda t, b: t.undo()), methods=["POST"]),
        Route("/api/next", mutate(lambda t, b: t.new_hand()), methods=["POST"]),
        Route("/api/hint", hint, methods=["POST"]),
        Route("/api/review", review, methods=["POST"]),
        Route("/api/record", record),
        Route("/api/replay", replay, methods=["POST"]),
        *ux_routes(tables, table_of, (COOKIE,)),
        Mount("/static", app=StaticFiles(directory=STATIC), name="static"),
    ]
    app = Starlette(
        routes=routes,
        middleware=[Middleware(Guard, hosts=hosts)],
        exception_handlers={
            HTTPException: http_error,
            CanastaError: canasta_error,
            Exception: crash,
        },
    )
    app.state.tables = tables
    app.state.warmup = progress
    app.state.chance = chance
    if warm:
        threading.Thread(target=_warm, args=(default_bot, progress), daemon=True).start()
    return app


def _warm(bot: str, progress: Warmup) -> None:
    """canasta.web.warmup.warm in the background (best effort: a failure only costs time)."""
    from canasta.web.warmup import warm

    try:
        warm(bot, progress.advance)
    except Exception as exc:  # pragma: no cover - warming is best effort
        progress.error = type(exc).__name__
        progress.step = len(progress.STEPS)


def replay_frames(record: Any) -> dict:
    """A record's every step for the page's replay: the move and the whole table after it
    (a finished hand: every card may be shown). Checked as ``canasta replay`` checks it."""
    from sim.cards import format_counts, format_melds
    from sim.engine.views import st_hands, st_melds
    from sim.record import load, redeal, replay
    from sim.step import describe_action

    rec = load(record)
    games = replay(rec)
    players = rec.get("players") or ["P0", "P1", "P2", "P3"]
    hands = []
    for g in games:
        if not g.is_over:
            raise CanastaError("the record's hand is not over: only finished hands replay")
        h = redeal(g)

        def frame(move: str, h=h) -> dict:
            hs, ms = st_hands(h.state), st_melds(h.state)
            return {
                "move": move,
                "hands": [format_counts(hs[p]) for p in range(4)],
                "melds": [format_melds(ms[t]) for t in range(2)],
                "pile": int(h.state[_E.ST_PILE_N]),
                "stock": int(h.state[_E.ST_STOCK_N]),
            }

        frames = [frame("the deal")]
        for a in g.actions:
            seat = h.current_player
            h.apply(a)
            frames.append(frame(f"P{seat} ({players[seat]}): {describe_action(a)}"))
        scores = g.scores()
        hands.append({"frames": frames, "totals": [scores[0]["total"], scores[1]["total"]]})
    return {"players": players, "hands": hands}
