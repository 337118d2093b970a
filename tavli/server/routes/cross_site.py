"""Cross-site requests refused (``SameOriginOnly``): a page of another site cannot make a logged-in
player's browser act for him.

Every request that may change something (any method but GET, HEAD and OPTIONS) must come from
this server's own pages or an allowed origin: a browser says where a request comes from in its
``Origin`` header (and ``Sec-Fetch-Site``), which a page cannot forge. A request with neither
header does not come from a browser's page (a program, the terminal): it carries no cookie a
browser would add for another site, and passes.
"""

from __future__ import annotations

from collections.abc import Iterable

from starlette.types import ASGIApp, Receive, Scope, Send

from tavli.server.routes.limits import same_origin
from tavli.server.routes.responses import error

SAFE_METHODS = frozenset({"GET", "HEAD", "OPTIONS"})


def cross_site(method: str, headers: dict[str, str], origins: Iterable[str] = ()) -> bool:
    """Whether a request must be refused as coming from another site's page.

    >>> cross_site("POST", {"host": "tavli.example", "origin": "https://evil.example"})
    True
    >>> cross_site("POST", {"host": "tavli.example", "origin": "https://tavli.example"})
    False
    >>> cross_site("POST", {"host": "tavli.example", "sec-fetch-site": "cross-site"}), cross_site("GET", {})
    (True, False)
    """
    if method in SAFE_METHODS:
        return False
    origin = headers.get("origin")
    if origin is not None:
        return not same_origin(origin, headers.get("host", ""), origins)
    return headers.get("sec-fetch-site", "same-origin") not in ("same-origin", "none")


class SameOriginOnly:
    """ASGI middleware: answers 403 to a cross-site request that may change something."""

    def __init__(self, app: ASGIApp, origins: Iterable[str] = ()) -> None:
        self.app = app
        self.origins = frozenset(origins)

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] == "http":
            headers = {k.decode("latin-1").lower(): v.decode("latin-1") for k, v in scope["headers"]}
            if cross_site(scope["method"], headers, self.origins):
                await error("requests from other sites' pages are refused", 403)(scope, receive, send)
                return
        await self.app(scope, receive, send)
