"""The Starlette app of ``canasta serve``: one page (static, shipped in the package) and a small
JSON API over :class:`canasta.web.table.Table` (docs/web.md, with its threat model).

Each browser session has its own table, found by a random id in an HTTP-only, SameSite=Strict
cookie and proved by the table's key, which the page keeps in its own origin's storage and
sends back (a cookie alone can be planted from another port): a request only ever reaches its
own table, and the id is in no body, record or file name (the store names a table's file by a
hash of it). Each table is saved after every change in the state directory, so a restarted
server resumes it; idle tables expire, and none sooner: past a cap, or a client's quota, a new
table is refused (:class:`Tables`). Hints and reviews run in a bounded pool of processes
(``canasta.web.pool``); a finished record is signed (``canasta.web.seal``). A state-changing
request must be JSON from this site (``canasta.web.guard``), and a move must name the table's
move number (a stale or repeated one is refused, 409). A bad request gets a 4xx JSON
``{"error": one line}`` (a move the rules refuse: 422 with its ``rule`` and the moves
allowed), never a traceback.
"""

from __future__ import annotations

import copy
import hashlib
import hmac
import json
import os
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
    Quotas,
    check_post,
    client_of,
    read_json,
    rules_text,
    too_many,
    valid_table_id,
)
from canasta.web.pool import AdvicePool
from canasta.web.review import review_route
from canasta.web.routes_ux import routes as ux_routes
from canasta.web.seal import Seal
from canasta.web.table import HINT_BUDGET, REVIEW_BUDGET, REVIEW_N, MoveRefused, Table
from canasta.web.warmup import PLAN
from sim import encoding as _E
from sim.errors import CanastaError

__all__ = ["MAX_BODY", "Tables", "create_app"]

STATIC = Path(__file__).parent / "static"
COOKIE = "canasta_table"
SECURE_COOKIE = "__Host-canasta_table"  #: its name over HTTPS: no subdomain nor plain page sets it
KEY_HEADER = "x-canasta-key"  #: the table's key (``Table.key``): the page sends it back
DEFAULT_BOT = "strong"
BOTS = ("strong", "expert", "heuristic", "greedy", "random")  #: offered first on the page
IDLE_TTL = 12 * 3600.0  #: seconds a table may stay untouched before it is removed
MAX_TABLES = 256  #: tables held at once (memory and disk); past it new tables are refused
TABLES_PER_CLIENT = 16  #: tables one client may hold at once


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
    disk; none is ever removed sooner: at ``max_tables`` (in memory and on disk together) a
    new table is refused (503), as is one past ``per_client`` tables of one client (429)."""

    def __init__(
        self,
        state_dir: Path | None,
        idle_ttl: float = IDLE_TTL,
        max_tables: int = MAX_TABLES,
        per_client: int = TABLES_PER_CLIENT,
    ):
        self.state_dir = state_dir
        self.idle_ttl = float(idle_ttl)
        self.max_tables = int(max_tables)
        self.per_client = int(per_client)
        self.tables: dict[str, Table] = {}
        self.used: dict[str, float] = {}
        self.owner: dict[str, str] = {}  #: the client that started each table (its quota)
        self.locks: dict[str, threading.Lock] = {}
        self.guard = threading.RLock()
        if state_dir is not None:  # the running decks and entropy: the server's alone
            state_dir.mkdir(parents=True, exist_ok=True, mode=0o700)
            state_dir.chmod(0o700)

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
        with self.guard:  # already counted: its file was on disk
            self.tables.setdefault(t.id, t)
            self.used[t.id] = now
            return self.tables[t.id]

    def lock(self, tid: str) -> threading.Lock:
        with self.guard:
            return self.locks.setdefault(tid, threading.Lock())

    def drop(self, tid: str) -> None:
        """Remove a table from memory and disk."""
        with self.guard:
            self.tables.pop(tid, None)
            self.used.pop(tid, None)
            self.owner.pop(tid, None)
            self.locks.pop(tid, None)
        path = self._path(tid)
        if path is not None:
            path.unlink(missing_ok=True)

    def _expire(self, now: float) -> int:
        """Tables idle past ``idle_ttl`` removed, from memory and from disk (also the files a
        previous run left); returns how many tables are held after it (memory and disk)."""
        with self.guard:
            stale = [k for k, u in self.used.items() if now - u > self.idle_ttl]
        for k in stale:
            self.drop(k)
        with self.guard:
            live = {self._path(k) for k in self.tables}
            held = len(self.tables)
        if self.state_dir is None:
            return held
        for path in self.state_dir.glob("*.json"):
            if path in live:
                continue
            try:
                idle = now - path.stat().st_mtime
            except OSError:
                continue
            if idle > self.idle_ttl:
                path.unlink(missing_ok=True)
            else:
                held += 1  # a table of an earlier run, its owner may still come back
        return held

    def room(self, client: str = "", replaces: str | None = None) -> None:
        """Refuse a new table for ``client`` now, before it is dealt, if it would not be held:
        429 past the client's tables, 503 past the server's (``replaces``: the session's last
        table, which the new one replaces). Never makes room by removing a table in use."""
        held = self._expire(time.time())
        with self.guard:
            held -= replaces in self.tables
            mine = sum(1 for k, o in self.owner.items() if o == client and k != replaces)
        if client and mine >= self.per_client:
            raise HTTPException(
                429,
                f"this client already holds {mine} tables, the most one client may: play one "
                f"of them, or wait until one has been idle {self.idle_ttl / 3600:g} hours",
            )
        if held >= self.max_tables:
            raise HTTPException(
                503,
                f"the server holds its most tables ({self.max_tables}), each used within "
                f"{self.idle_ttl / 3600:g} hours: try again later",
            )

    def put(self, t: Table, client: str = "", replaces: str | None = None) -> None:
        """Hold and save a new table for ``client`` (``replaces``: the session's last table,
        dropped once this one is held), or refuse it (:meth:`room`)."""
        with self.guard:  # one new table at a time: two cannot both take the last place
            self.room(client, replaces)  # (``room`` takes ``guard`` itself: it is re-entrant)
            self.tables[t.id] = t
            self.used[t.id] = time.time()
            self.owner[t.id] = client
        self.save(t)
        if replaces is not None and replaces != t.id:
            self.drop(replaces)

    def save(self, t: Table) -> None:
        path = self._path(t.id)
        if path is None:
            return
        tmp = path.with_suffix(".tmp")
        tmp.unlink(missing_ok=True)
        # 0600 from its first byte: the file holds the running deck
        fd = os.open(tmp, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
        with os.fdopen(fd, "w", encoding="utf-8") as f:
            f.write(json.dumps(t.saved()))
        tmp.replace(path)


class Warmup:
    """The background warm-up's progress, for the page (``GET /api/ready``)."""

    STEPS = PLAN  # the warm-up's steps, in order (canasta.web.warmup)

    def __init__(self, done: bool = False):
        self.done = threading.Event()  #: set once numba's cache holds what a hint runs
        if done:
            self.done.set()
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
            self.done.set()


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
    tables_per_client: int = TABLES_PER_CLIENT,
    quotas: Quotas | None = None,
    trust_proxy: bool = False,
    pool: AdvicePool | None = None,
    hint_budget: float = HINT_BUDGET,
    review_budget: float | None = REVIEW_BUDGET,
    chance: GameChance | None = None,
    review_n: int = REVIEW_N,
) -> Starlette:
    """The app; ``rules_file``: a ruleset TOML offered first (``--rules``); ``state_dir``: where
    tables are saved (None: kept in memory only); ``warm``: compile the bots and the hint at
    start (progress at ``/api/ready``); ``hosts``: the host names it answers to; ``idle_ttl``,
    ``max_tables``, ``tables_per_client``: :class:`Tables`; ``quotas``: each client's rates
    (:class:`canasta.web.guard.Quotas`, default its defaults); ``trust_proxy``: a client is
    the address a reverse proxy forwards (``canasta.web.guard.client_of``); ``pool``: where
    hints and reviews run (:class:`canasta.web.pool.AdvicePool`); ``hint_budget``,
    ``review_budget``: seconds of advice (a review's at most, per decision); ``review_n``:
    deals per choice at most in a review; ``chance``: the game mode's chance of winning
    (:class:`canasta.web.chance.GameChance`; default: the default equity table when ``warm``,
    else none offered)."""
    rulesets = shipped_rules()
    if rules_file is not None:
        from sim.ruleset import Ruleset

        first = f"{Path(rules_file).name} (--rules)"
        rulesets = {first: Ruleset.from_toml(rules_file)} | rulesets
    tables = Tables(
        state_dir, idle_ttl=idle_ttl, max_tables=max_tables, per_client=tables_per_client
    )
    progress = Warmup(done=not warm)
    quotas = Quotas() if quotas is None else quotas
    pool = AdvicePool(ready=progress.done) if pool is None else pool
    seal = Seal(state_dir)
    if chance is None:
        chance = GameChance(enabled=warm, default_bot=default_bot)

    def secure(request: Request) -> bool:
        """Over HTTPS (to the browser): the cookie is then ``__Host-`` and ``Secure``."""
        if request.url.scheme == "https":
            return True
        proto = request.headers.get("x-forwarded-proto", "") if trust_proxy else ""
        return proto.rsplit(",", 1)[-1].strip().lower() == "https"

    def owned(request: Request) -> Table | None:
        """The session's table, if the request holds both its cookie and its key (a cookie
        alone can be planted by a page on another port of this host: cookies ignore ports)."""
        t = tables.get(request.cookies.get(SECURE_COOKIE if secure(request) else COOKIE))
        key = request.headers.get(KEY_HEADER) or request.query_params.get("key") or ""
        if t is None or not hmac.compare_digest(key.encode("utf-8", "replace"), t.key.encode()):
            return None
        t.chance = chance  # a resumed table's too
        return t

    def table_of(request: Request) -> Table:
        t = owned(request)
        if t is None:
            raise HTTPException(404, "no table yet: start a new hand or game")
        return t

    def reply(t: Table, request: Request, extra: dict | None = None, new: bool = False):
        """The view, the cookie renewed (it lasts as long as the table's idle limit), and for a
        new table, once, its key."""
        resp = JSONResponse(t.view() | (extra or {}))
        https = secure(request)
        resp.set_cookie(
            SECURE_COOKIE if https else COOKIE,
            t.id,
            httponly=True,
            samesite="strict",
            secure=https,
            max_age=max(60, int(idle_ttl)),
            path="/",
        )
        if new:
            resp.headers[KEY_HEADER] = t.key
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
        return reply(table_of(request), request)

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
        client = client_of(request.scope, trust_proxy)
        wait = quotas.take("tables", client)
        if wait:
            return too_many("new tables", wait)
        old = owned(request)
        replaces = None if old is None else old.id
        tables.room(client, replaces)  # refused before a deal is spent on it
        t = await run_in_threadpool(Table, seed, mode, bots[0], bots[1], rules, name)
        t.chance = chance
        tables.put(t, client, replaces)
        return reply(t, request, new=True)

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
            return reply(t, request, extra)

        return endpoint

    async def hint(request: Request) -> JSONResponse:
        await posted(request)
        t = table_of(request)
        lock = tables.lock(t.id)

        def snapshot() -> Table:
            with lock:  # a copy of the position, so a move meanwhile changes nothing here
                snap = copy.copy(t)
                snap.driver = copy.copy(t.driver)
                snap.driver.hands = [*t.hands[:-1], copy.deepcopy(t.game)]
            return snap

        def work(snap: Table, left: float) -> dict:  # off the table's lock; simulated in the pool
            game = chance.table(t)[0] if t.mode == "game" else None
            return snap.hint(budget=hint_budget, equity=game, advise=pool.advise(cap=left))

        cap = hint_budget + pool.grace
        async with pool.slot(client_of(request.scope, trust_proxy), cap) as left:
            snap = await run_in_threadpool(snapshot)
            return JSONResponse(await run_in_threadpool(work, snap, left))

    async def record(request: Request) -> Response:
        t = table_of(request)
        from sim.record import dumps

        name = "canasta-game.json" if t.mode == "game" else "canasta-hand.json"
        rec = t.record()
        return Response(
            dumps(seal.sign(rec) if t.finished() else rec),
            media_type="application/json",
            headers={"Content-Disposition": f'attachment; filename="{name}"'},
        )

    async def replay(request: Request) -> JSONResponse:
        body = await posted(request)
        if not isinstance(body, dict):  # a string would be read as a path: never
            raise HTTPException(400, "expected the record itself, a JSON object")
        return JSONResponse(await run_in_threadpool(replay_frames, body, seal))

    async def http_error(request: Request, exc: HTTPException) -> JSONResponse:
        resp = _error(exc.status_code, exc.detail)
        if exc.status_code in (429, 503):  # when to ask again
            resp.headers["retry-after"] = (exc.headers or {}).get("retry-after", "5")
        return resp

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
        review_route(tables, table_of, chance, pool, (review_budget, review_n), trust_proxy),
        Route("/api/record", record),
        Route("/api/replay", replay, methods=["POST"]),
        *ux_routes(tables, table_of, (COOKIE, SECURE_COOKIE)),
        Mount("/static", app=StaticFiles(directory=STATIC), name="static"),
    ]
    app = Starlette(
        routes=routes,
        middleware=[Middleware(Guard, hosts=hosts, quotas=quotas, trust_proxy=trust_proxy)],
        exception_handlers={
            HTTPException: http_error,
            CanastaError: canasta_error,
            Exception: crash,
        },
    )
    app.state.tables = tables
    app.state.warmup = progress
    app.state.chance = chance
    app.state.pool = pool
    app.state.seal = seal
    if warm:
        threading.Thread(target=_warm, args=(default_bot, progress, pool), daemon=True).start()
    return app


def _warm(bot: str, progress: Warmup, pool: AdvicePool) -> None:
    """canasta.web.warmup.warm in the background, then the pool's workers primed (best effort:
    a failure only costs time)."""
    from canasta.web.warmup import warm

    try:
        warm(bot, progress.advance)
        pool.prime(bot)
    except Exception as exc:  # pragma: no cover - warming is best effort
        progress.error = type(exc).__name__
        progress.step = len(progress.STEPS)
        progress.done.set()  # the pool's workers compile what they need themselves


def replay_frames(record: Any, seal: Seal | None = None) -> dict:
    """A record's every step for the page's replay: the move and the whole table after it
    (a finished hand: every card may be shown). Checked as ``canasta replay`` checks it, and
    against the server's ``seal``: ``verified`` only if this server signed it as it is."""
    from sim.cards import format_counts, format_melds
    from sim.play.table import table_hands as st_hands
    from sim.play.table import table_melds as st_melds
    from sim.play.words import describe_action
    from sim.record import load, redeal, replay

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
    verified, words = (False, "unverified") if seal is None else seal.check(record)
    return {"players": players, "hands": hands, "verified": verified, "authenticity": words}
