"""The web table of ``canasta serve`` (extra ``web``), docs/web.md. Holds:

- ``canasta.web.app``: the Starlette app, the JSON API over one table per browser session;
- ``canasta.web.table``: one table (``Table``: a human seat against bots, its view, hints,
  review and undo), apart from HTTP;
- ``canasta.web.moves``: the page's card names and moves (``move_for``, ``parse_kinds``, ...);
- ``static/``: the page itself (no CDN, shipped as package data).
"""

__all__: list[str] = []
