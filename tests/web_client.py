"""The web table's tests' shared client: Starlette's test client (the tests skip without the
``web`` extra) that, as the page does, keeps the key a new table sends and sends it back
(``X-Canasta-Key``), the host the server answers for, the bot they play (fast; the page's
default is strong) and the table behind a client's cookie."""

import warnings

import pytest

pytest.importorskip("starlette")
pytest.importorskip("httpx")

with warnings.catch_warnings():  # starlette 1.x asks for httpx2; httpx works the same
    warnings.simplefilter("ignore")
    from starlette.testclient import TestClient as _TestClient

__all__ = ["BASE", "BOT", "JSON", "TestClient", "table_of"]

BOT = "heuristic"
BASE = "http://127.0.0.1:8765"  # the host the server answers for (canasta.web.guard)
JSON = {"content-type": "application/json"}


class TestClient(_TestClient):
    """Starlette's test client holding its table's key, as the page holds it (``table_key``)."""

    table_key: str | None = None

    def request(self, method, url, **kw):
        if self.table_key is not None:
            kw["headers"] = {"x-canasta-key": self.table_key, **dict(kw.get("headers") or {})}
        r = super().request(method, url, **kw)
        if r.headers.get("x-canasta-key"):
            self.table_key = r.headers["x-canasta-key"]
        return r


def table_of(client):
    """The table behind the client's cookie (None if it has none)."""
    return client.app.state.tables.get(client.cookies.get("canasta_table"))
