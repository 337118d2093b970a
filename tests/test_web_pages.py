"""Every page of the web app in a real browser (Debian's chromium, Playwright, ``tavli serve``) at
the three sizes a player brings (a laptop 1366×768, a phone upright 390×844 and held sideways
844×390), in English and Greek: each is photographed under artifacts/screenshots/ (``page-*``,
kept by CI, to be looked at) and none scrolls sideways."""

from __future__ import annotations

import os
import signal
from collections.abc import Iterator

import pytest
from serve_process import Server

if os.environ.get("TAVLI_SKIP_BROWSER") == "1":
    pytest.skip("TAVLI_SKIP_BROWSER=1", allow_module_level=True)

from playwright.sync_api import Browser, Page

from tests.browser_screens import SHOTS, SIZES


@pytest.fixture(scope="module")
def site(tmp_path_factory: pytest.TempPathFactory) -> Iterator[tuple[Server, dict[str, str]]]:
    """A server with a match against a bot and a player's account: the address of every page."""
    server = Server(tmp_path_factory.mktemp("server") / "tavli.db")
    links = server.post("/api/matches", {"opponent": "expert", "length": 3, "games": "tavli", "name": "Eleni"})
    server.sign_up("Eleni")
    match, token = links["match"], links["play"].split("#t=", 1)[1]
    pages = {"home": "/", "board": f"/match/{match}#t={token}", "review": f"/match/{match}/review#t={token}",
             "review-file": "/review", "openings": "/openings", "practice": "/practice", "position": "/position",
             "rules": "/rules", "account": "/account", "profile": "/@/Eleni", "leaderboard": "/leaderboard",
             "moderation": "/moderation", "not-found": "/no/such/page"}
    yield server, pages
    server.stop(signal.SIGKILL)


def opened(browser: Browser, url: str, lang: str, width: int, height: int) -> Page:
    phone = width < 1000
    ctx = browser.new_context(viewport={"width": width, "height": height}, has_touch=phone, is_mobile=phone,
                              locale="el-GR" if lang == "el" else "en-GB")
    page = ctx.new_page()
    page.set_default_timeout(20_000)
    page.add_init_script(f"localStorage.setItem('tavli:lang', '{lang}')")
    page.goto(url)
    # every word in (the start page and the board hold a WebSocket open: never idle), the board's state come
    page.wait_for_function("document.querySelector('[data-i18n]:empty') === null")
    if "/match/" in url and "/review" not in url:
        page.wait_for_function("window.tavliState && window.tavliState.type === 'state'")
    page.wait_for_timeout(400)  # what the page fetches after its words (lists, charts) drawn
    return page


@pytest.mark.parametrize("lang", ["en", "el"])
@pytest.mark.parametrize(("width", "height"), SIZES, ids=[f"{w}x{h}" for w, h in SIZES])
def test_every_page_at_every_size_in_both_languages(browser: Browser, site: tuple[Server, dict[str, str]],
                                                    lang: str, width: int, height: int) -> None:
    server, pages = site
    SHOTS.mkdir(parents=True, exist_ok=True)
    sideways = {}
    for name, path in pages.items():
        page = opened(browser, server.url + path, lang, width, height)
        page.screenshot(path=str(SHOTS / f"page-{name}-{lang}-{width}x{height}.png"))
        wide = page.evaluate("document.documentElement.scrollWidth - document.documentElement.clientWidth")
        if wide > 0:
            sideways[name] = wide
        page.context.close()
    assert not sideways, f"pages that scroll sideways (px): {sideways}"
