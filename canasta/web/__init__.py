"""The web table of ``canasta serve`` (extra ``web``), docs/web.md. Holds:

- ``canasta.web.app``: the Starlette app, the JSON API over one table per browser session;
- ``canasta.web.guard``: the HTTP edge's defences (bounded bodies, same-origin JSON posts,
  the host check, each client's quotas, the security headers);
- ``canasta.web.table``: one table (``Table``: a human seat against bots, hints, review and
  undo, the deal's secrets), apart from HTTP;
- ``canasta.web.view``: what the page sees of a table (the seat's view only);
- ``canasta.web.chance``: game mode's chance of winning the game (``GameChance``: the equity
  tables of the tables' rulesets and bots, built in the background);
- ``canasta.web.moves``: the page's card names and moves (``move_for``, ``parse_kinds``, ...);
- ``canasta.web.review``: the review of the human's seat after a hand and a game, as the page
  gets it (``client_review``, ``review_request``);
- ``canasta.web.pool``: hints and reviews in a bounded pool of worker processes
  (``AdvicePool``: per-client and server caps, time caps);
- ``canasta.web.seal``: the server's signature on a finished record, checked on replay;
- ``canasta.web.public``: the public table as one seat sees it (``teams_of``);
- ``canasta.web.score``: the score rows explained with their rules, the running score;
- ``canasta.web.turns``: the bots' turns since the player's last move, one frame each;
- ``canasta.web.routes_ux``: the club player's routes (leaving a table);
- ``canasta.web.warmup``: the warm-up plan, in the order a player needs it;
- ``static/``: the page itself (no CDN, no inline script, shipped as package data).
"""

__all__: list[str] = []
