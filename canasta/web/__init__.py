"""The web table of ``canasta serve`` (extra ``web``): a Starlette app (``canasta.web.app``)
over one table per browser session (``canasta.web.table``), its page in ``static/`` (no CDN,
shipped as package data). docs/web.md."""
