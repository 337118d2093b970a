"""The match page's "Download the match" link, in Debian's chromium (see tests/test_web_browser.py)."""

from __future__ import annotations

from pathlib import Path

from playwright.sync_api import BrowserContext
from serve_process import Server
from test_web_browser import browser, context, server, start_match  # noqa: F401  (fixtures)

from tavli.record import loads


def test_the_match_page_downloads_the_record(context: BrowserContext, server: Server) -> None:  # noqa: F811
    page = context.new_page()
    errors: list[str] = []
    page.on("pageerror", lambda e: errors.append(str(e)))
    start_match(page, server.url, "beginner", games="fevga")
    link = page.locator("[data-testid=download-record]")
    assert link.inner_text() == "Download the match"
    with page.expect_download() as info:
        link.click()
    download = info.value
    match_id = page.url.split("/match/")[1].split("#")[0]
    assert download.suggested_filename == f"tavli-{match_id}.json"
    record = loads(Path(download.path()).read_text(encoding="utf-8"))
    assert record.games[0].variant == "fevga" and record.meta["match"] == match_id
    assert record.games[0].seed is None and record.games[0].commitment is not None
    assert errors == []
