"""What the web app's routes answer with besides their JSON: errors with their reasons, the pages."""

from __future__ import annotations

import functools
from pathlib import Path

from starlette.responses import JSONResponse, Response

from tavli.errors import Reason
from tavli.server.play.reasons import one_line, reason_json

STATIC = Path(__file__).parent.parent / "static"
"""The pages and their scripts."""


def error(reason: str | Reason | BaseException, status: int) -> JSONResponse:
    """``{"error": one line, "reason": the same for the browser to translate}``."""
    return JSONResponse({"error": one_line(reason), "reason": reason_json(reason)}, status_code=status)


HEAD_MARK = "<!-- the common head -->"
"""Where a page of ``static/`` has its head: ``static_page`` puts ``HEAD`` there."""
HEAD = """<meta charset="utf-8">
  <meta name="viewport" content="width=device-width, initial-scale=1">
  <title>Tavli</title>
  <link rel="stylesheet" href="/static/tavli.css">
  <link rel="icon" href="data:image/svg+xml,%3Csvg xmlns=%22http://www.w3.org/2000/svg%22 viewBox=%220 0 10 10%22%3E\
%3Ccircle cx=%225%22 cy=%225%22 r=%224%22 fill=%22%237a4a23%22/%3E%3C/svg%3E">
  <script type="module" src="/static/notes.js"></script>"""
"""The head every page shares, written once: the title its script translates, the style, the icon
(the board page turns it green on the player's turn), and the person's notes (``static/notes.js``:
the page's lobby connection, his challenges and his matches made, on every page)."""


HEADER_MARK = "<!-- the common header -->"
"""Where a plain page of ``static/`` (the account's, a player's, the leaderboard, the moderators')
has its top bar: ``static_page`` puts ``HEADER`` there."""
HEADER = """<header class="top">
    <a class="home-link" href="/" data-testid="home-link" data-i18n="title">Tavli</a>
    <nav class="session" id="session" data-testid="session"></nav>
    <label class="lang"><span data-i18n="language"></span> <select data-testid="lang" id="lang"></select></label>
  </header>"""
"""The top bar those pages share, written once: the way home, who is signed in, the language."""


@functools.lru_cache(maxsize=64)
def page_body(name: str, modified: int) -> bytes:
    """The page ``name`` of ``static/`` with the common head, read again once the file is
    ``modified`` (its time in ns)."""
    text = (STATIC / name).read_text(encoding="utf-8")
    if text.count(HEAD_MARK) != 1:
        raise ValueError(f"static/{name} must hold {HEAD_MARK} once")
    return text.replace(HEAD_MARK, HEAD).replace(HEADER_MARK, HEADER).encode()


def static_page(name: str, status_code: int = 200) -> Response:
    """A page of ``static/`` with the common head, revalidated at each visit."""
    body = page_body(name, (STATIC / name).stat().st_mtime_ns)
    return Response(body, status_code=status_code, media_type="text/html", headers={"Cache-Control": "no-cache"})
