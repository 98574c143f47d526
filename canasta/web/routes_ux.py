"""The club player's routes of the web table (docs/web.md, "The club player's controls"):
``POST /api/leave`` leaves the table, its hand or game abandoned.

Leaving is a change like a move: it names the table's move number (a stale or repeated one is
refused, 409) and runs under the table's lock. The table is then removed from memory and disk
and the session's cookie cleared, so the page starts afresh; an abandoned hand is not scored
and its record is not kept (download it before leaving to keep it).
"""

from __future__ import annotations

from starlette.concurrency import run_in_threadpool
from starlette.exceptions import HTTPException
from starlette.requests import Request
from starlette.responses import JSONResponse
from starlette.routing import Route

from canasta.web.guard import check_post, read_json

__all__ = ["routes"]


def routes(tables, table_of, cookies: tuple[str, ...]) -> list[Route]:
    """The routes, over the server's ``tables`` (``canasta.web.app.Tables``), its way to find
    a request's own table (``table_of(request)``: the session's table or a 404, as every other
    route finds it) and the names of its session ``cookies`` (cleared on leaving)."""

    async def leave(request: Request) -> JSONResponse:
        check_post(request)
        body = await read_json(request)
        t = table_of(request)
        n = body.get("move_no") if isinstance(body, dict) else None
        if isinstance(n, bool) or not isinstance(n, int):
            raise HTTPException(400, 'expected the table\'s move number: {"move_no": n}')
        lock = tables.lock(t.id)

        def work() -> dict:
            with lock:
                if n != t.move_no:
                    raise HTTPException(
                        409,
                        f"move {n} is stale or repeated: the table is at move {t.move_no} "
                        "(reload it)",
                    )
                done = t.finished()
                what = "game" if t.mode == "game" else "hand"
                tables.drop(t.id)
                t.move_no += 1  # a request still holding the table sees it changed
            text = (
                f"You left the table; its {what} was over."
                if done
                else f"You left the table; the {what} in progress was abandoned, not scored."
            )
            return {"left": True, "mode": t.mode, "finished": done, "text": text}

        resp = JSONResponse(await run_in_threadpool(work))
        for name in cookies:  # a __Host- cookie is only replaced by a secure one
            secure = name.startswith(("__Host-", "__Secure-"))
            resp.delete_cookie(name, path="/", secure=secure, httponly=True, samesite="strict")
        return resp

    return [Route("/api/leave", leave, methods=["POST"])]
