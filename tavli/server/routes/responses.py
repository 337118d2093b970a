"""What the web app's routes answer with besides their JSON: errors with their reasons, the pages."""

from __future__ import annotations

from pathlib import Path

from starlette.responses import FileResponse, JSONResponse

from tavli.errors import Reason
from tavli.server.play.reasons import one_line, reason_json

STATIC = Path(__file__).parent.parent / "static"
"""The pages and their scripts."""


def error(reason: str | Reason | BaseException, status: int) -> JSONResponse:
    """``{"error": one line, "reason": the same for the browser to translate}``."""
    return JSONResponse({"error": one_line(reason), "reason": reason_json(reason)}, status_code=status)


def static_page(name: str) -> FileResponse:
    """A page of ``static/``, revalidated at each visit."""
    return FileResponse(STATIC / name, headers={"Cache-Control": "no-cache"})
