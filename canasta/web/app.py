"""The Starlette app of ``canasta serve``: one page (static, shipped in the package) and a small
JSON API over :class:`canasta.web.table.Table` (docs/web.md).

Each browser session has its own table, found by a random id in an HTTP-only cookie: a
request only ever reaches its own table, so two sessions never see each other's cards. Each
table is saved after every change as a hand record (``sim.record``) in the state directory, so
a restarted server resumes it. A bad request gets a 4xx JSON ``{"error": one line}`` (a move
the rules refuse: 422 with its ``rule``), never a traceback.
"""

from __future__ import annotations

import copy
import json
import threading
import tomllib
from pathlib import Path
from typing import Any

from starlette.applications import Starlette
from starlette.concurrency import run_in_threadpool
from starlette.exceptions import HTTPException
from starlette.requests import Request
from starlette.responses import FileResponse, JSONResponse, Response
from starlette.routing import Mount, Route
from starlette.staticfiles import StaticFiles

from canasta.web.table import REVIEW_GAIN, MoveRefused, Table
from sim import encoding as _E
from sim.errors import CanastaError

__all__ = [
    "BOTS",
    "COOKIE",
    "DEFAULT_BOT",
    "MAX_BODY",
    "STATIC",
    "Tables",
    "create_app",
    "replay_frames",
    "shipped_rules",
]

STATIC = Path(__file__).parent / "static"
COOKIE = "canasta_table"
MAX_BODY = 256 * 1024  #: bytes a request body may hold (a record of a long game fits)
DEFAULT_BOT = "strong"
BOTS = ("strong", "expert", "heuristic", "greedy", "random")  #: offered first on the page


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


def _rules_from_text(text: str):
    from sim.ruleset import Ruleset

    try:
        data = tomllib.loads(text)
    except tomllib.TOMLDecodeError as exc:
        raise CanastaError(f"the rules file is not valid TOML: {exc}") from None
    if set(data) == {"ruleset"} and isinstance(data["ruleset"], dict):
        data = data["ruleset"]
    return Ruleset.from_dict(data)


def _policies() -> list[str]:
    from sim.policies.registry import table_names

    try:
        known = list(table_names())  # never a measuring reference (peeking_strong)
    except Exception:  # pragma: no cover - the registry always lists its names
        known = list(BOTS)
    return [b for b in BOTS if b in known] + sorted(set(known) - set(BOTS))


class Tables:
    """The tables in memory, saved to ``state_dir`` after each change."""

    def __init__(self, state_dir: Path | None):
        self.state_dir = state_dir
        self.tables: dict[str, Table] = {}
        self.locks: dict[str, threading.Lock] = {}
        self.guard = threading.Lock()
        if state_dir is not None:
            state_dir.mkdir(parents=True, exist_ok=True)

    def _path(self, tid: str) -> Path | None:
        if self.state_dir is None or not tid.replace("-", "").replace("_", "").isalnum():
            return None
        return self.state_dir / f"{tid}.json"

    def get(self, tid: str | None) -> Table | None:
        if not tid:
            return None
        with self.guard:
            t = self.tables.get(tid)
        if t is not None:
            return t
        path = self._path(tid)
        if path is None or not path.is_file():
            return None
        try:
            t = Table.resume(json.loads(path.read_text(encoding="utf-8")))
        except (CanastaError, ValueError, KeyError, TypeError):
            return None
        with self.guard:
            self.tables[tid] = t
        return t

    def lock(self, tid: str) -> threading.Lock:
        with self.guard:
            return self.locks.setdefault(tid, threading.Lock())

    def put(self, t: Table) -> None:
        with self.guard:
            self.tables[t.id] = t
        self.save(t)

    def save(self, t: Table) -> None:
        path = self._path(t.id)
        if path is not None:
            tmp = path.with_suffix(".tmp")
            tmp.write_text(json.dumps(t.saved()), encoding="utf-8")
            tmp.replace(path)


def _error(status: int, message: str, **extra) -> JSONResponse:
    line = " ".join(str(message).split())[:300]
    return JSONResponse({"error": line, **extra}, status_code=status)


async def _body(request: Request) -> Any:
    raw = await request.body()
    if len(raw) > MAX_BODY:
        raise HTTPException(413, f"request body over {MAX_BODY // 1024} KiB")
    if not raw:
        return {}
    try:
        return json.loads(raw)
    except (json.JSONDecodeError, UnicodeDecodeError):
        raise HTTPException(400, "the request body is not JSON") from None


def create_app(
    rules_file: str | None = None,
    state_dir: Path | None = None,
    default_bot: str = DEFAULT_BOT,
    warm: bool = True,
) -> Starlette:
    """The app; ``rules_file``: a ruleset TOML offered first (``--rules``); ``state_dir``: where
    tables are saved (None: kept in memory only); ``warm``: compile the bots at start."""
    rulesets = shipped_rules()
    first = None
    if rules_file is not None:
        from sim.ruleset import Ruleset

        first = f"{Path(rules_file).name} (--rules)"
        rulesets = {first: Ruleset.from_toml(rules_file)} | rulesets
    tables = Tables(state_dir)

    def table_of(request: Request) -> Table:
        t = tables.get(request.cookies.get(COOKIE))
        if t is None:
            raise HTTPException(404, "no table yet: start a new hand or game")
        return t

    def reply(t: Table, extra: dict | None = None) -> JSONResponse:
        body = t.view() | (extra or {})
        resp = JSONResponse(body)
        resp.set_cookie(COOKIE, t.id, httponly=True, samesite="strict", max_age=30 * 86400)
        return resp

    async def index(request: Request) -> Response:
        return FileResponse(STATIC / "index.html")

    async def options(request: Request) -> JSONResponse:
        return JSONResponse(
            {
                "bots": _policies(),
                "default_bot": default_bot,
                "rulesets": {k: v.to_dict() for k, v in rulesets.items()},
                "default_rules": next(iter(rulesets)),
            }
        )

    async def state(request: Request) -> JSONResponse:
        return reply(table_of(request))

    async def new(request: Request) -> JSONResponse:
        body = await _body(request)
        if not isinstance(body, dict):
            raise HTTPException(400, "expected a JSON object")
        name = body.get("rules") or next(iter(rulesets))
        if "rules_toml" in body:
            if not isinstance(body["rules_toml"], str):
                raise HTTPException(400, "rules_toml: expected the text of a TOML file")
            rules = _rules_from_text(body["rules_toml"])
            name = str(body.get("rules_name") or "uploaded")[:60] + " (uploaded)"
        elif name in rulesets:
            rules = rulesets[name]
        else:
            raise HTTPException(400, f"unknown ruleset {str(name)[:40]!r}")
        seed = body.get("seed")
        if seed is not None:
            from sim.validate import check_seed

            seed = check_seed(seed, "seed")
        bots = []
        for key in ("partner", "opponents"):
            v = body.get(key, default_bot)
            if not isinstance(v, str) or len(v) > 80:
                raise HTTPException(400, f"{key}: expected a bot's name")
            bots.append(v)
        mode = body.get("mode", "hand")
        t = await run_in_threadpool(Table, seed, mode, bots[0], bots[1], rules, name)
        tables.put(t)
        return reply(t)

    def mutate(fn):
        async def endpoint(request: Request) -> JSONResponse:
            t = table_of(request)
            body = await _body(request)
            lock = tables.lock(t.id)

            def work():
                with lock:
                    extra = fn(t, body)
                    tables.save(t)
                    return extra

            extra = await run_in_threadpool(work)
            return reply(t, extra)

        return endpoint

    async def hint(request: Request) -> JSONResponse:
        t = table_of(request)
        lock = tables.lock(t.id)

        def work():
            with lock:  # a copy of the position, so a move meanwhile changes nothing here
                snap = copy.copy(t)
                snap.games = [*t.games[:-1], copy.deepcopy(t.game)]
            return snap.hint()

        return JSONResponse(await run_in_threadpool(work))

    async def review(request: Request) -> JSONResponse:
        t = table_of(request)
        lock = tables.lock(t.id)

        def work():
            with lock:
                return t.review()

        result = await run_in_threadpool(work)
        return JSONResponse({"review": result, "threshold": REVIEW_GAIN})

    async def record(request: Request) -> Response:
        t = table_of(request)
        from sim.record import dumps

        return Response(
            dumps(t.record()),
            media_type="application/json",
            headers={"Content-Disposition": f'attachment; filename="canasta-{t.seed}.json"'},
        )

    async def replay(request: Request) -> JSONResponse:
        body = await _body(request)
        return JSONResponse(await run_in_threadpool(replay_frames, body))

    async def not_found(request: Request, exc: HTTPException) -> JSONResponse:
        return _error(exc.status_code, exc.detail)

    async def canasta_error(request: Request, exc: Exception) -> JSONResponse:
        if isinstance(exc, MoveRefused):
            return _error(422, str(exc), rule=exc.rule)
        return _error(400, str(exc), rule=getattr(exc, "rule", ""))

    async def crash(request: Request, exc: Exception) -> JSONResponse:
        return _error(500, f"internal error ({type(exc).__name__}); the table is unchanged")

    routes = [
        Route("/", index),
        Route("/api/options", options),
        Route("/api/state", state),
        Route("/api/new", new, methods=["POST"]),
        Route("/api/move", mutate(lambda t, b: t.move(b)), methods=["POST"]),
        Route("/api/undo", mutate(lambda t, b: t.undo()), methods=["POST"]),
        Route("/api/next", mutate(lambda t, b: t.new_hand()), methods=["POST"]),
        Route("/api/hint", hint, methods=["POST"]),
        Route("/api/review", review, methods=["POST"]),
        Route("/api/record", record),
        Route("/api/replay", replay, methods=["POST"]),
        Mount("/static", app=StaticFiles(directory=STATIC), name="static"),
    ]
    app = Starlette(
        routes=routes,
        exception_handlers={
            HTTPException: not_found,
            CanastaError: canasta_error,
            Exception: crash,
        },
    )
    app.state.tables = tables
    if warm:
        threading.Thread(target=_warm, args=(default_bot,), daemon=True).start()
    return app


def _warm(bot: str) -> None:
    """canasta.web.table.warm in the background (best effort: a failure only costs time)."""
    from canasta.web.table import warm

    try:
        warm(bot)
    except Exception:  # pragma: no cover - warming is best effort
        pass


def replay_frames(record: Any) -> dict:
    """A record's every step for the page's replay: the move and the whole table after it
    (a finished hand: every card may be shown). Checked as ``canasta replay`` checks it."""
    from sim.cards import format_counts, format_melds
    from sim.engine.game import describe_action
    from sim.engine.views import st_hands, st_melds
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
    return {"players": players, "hands": hands}
