"""The screens the browser tests look at the pages on, and the one way to look at a state on all of
them: a laptop (1366×768), a phone upright (390×844) and held sideways (844×390), in English and
Greek, photographed under ``artifacts/screenshots/`` (``TAVLI_SHOTS`` names another folder).

A test plays its scenario once (a match, a bot, a clock run out, accounts signed up) and hands each
state it reaches to ``Screens.look``: the person's page is shown in each language and at each size,
and the same checks run on each. The page itself serves the screens of its own language and kind
of browser (resized); the person's twins serve the rest: the same person (his cookies, his storage,
his address) in a browser of his own for each other language and kind (a phone's browser has
touch and a mobile viewport), open at the same address and following the same state live, so
that the server's state is reached once and only looked at again."""

from __future__ import annotations

import json
import os
import weakref
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit

import pytest
from playwright.sync_api import Browser, BrowserContext, Page

SHOTS = Path(os.environ.get("TAVLI_SHOTS", Path(__file__).resolve().parent.parent / "artifacts" / "screenshots"))
"""Where the browser tests keep their screenshots (CI keeps the folder)."""
SIZES: list[tuple[int, int]] = [(1366, 768), (390, 844), (844, 390)]
"""A laptop, a phone upright and a phone held sideways."""
SIZE_IDS = [f"{w}x{h}" for w, h in SIZES]
SPREAD: list[tuple[str, int, int]] = [("en", 1366, 768), ("el", 390, 844), ("en", 844, 390)]
"""Each size once and both languages between them: the screens of a scenario whose behaviour is the
same on every screen (tests/test_web_pages.py looks at every page at every size in both languages)."""


def each_size_once() -> pytest.MarkDecorator:
    """A test's parameters ``lang``, ``width`` and ``height`` over ``SPREAD``."""
    return pytest.mark.parametrize(("lang", "width", "height"), SPREAD,
                                   ids=[f"{w}x{h}-{lang}" for lang, w, h in SPREAD])
LANGS = ("en", "el")
LOCALES = {"en": "en-GB", "el": "el-GR"}

SETTLED = "document.readyState === 'complete' && document.querySelector('[data-i18n]:empty') === null"
"""A page drawn in its words (never "networkidle": the start page and the board keep a WebSocket open)."""


def is_phone(width: int, height: int) -> bool:
    """Whether a screen this size is a phone's: under 500 px one way."""
    return min(width, height) < 500


@dataclass(frozen=True)
class Screen:
    """A language and a size a page is looked at in."""

    lang: str
    width: int
    height: int

    @property
    def size(self) -> str:
        """``1366x768``, as the screenshots' names write it."""
        return f"{self.width}x{self.height}"

    @property
    def phone(self) -> bool:
        return is_phone(self.width, self.height)


def screens(sizes: Iterable[tuple[int, int]] = SIZES, langs: Iterable[str] = LANGS) -> list[Screen]:
    """Every size in every language."""
    return [Screen(lang, width, height) for lang in langs for width, height in sizes]


@dataclass(frozen=True)
class Device:
    """How a browser context was made: what its person's twins keep of it."""

    phone: bool
    """A phone's browser: touch, a mobile viewport."""
    touch: bool
    """Whether a phone's size is a phone's browser (``new_context``'s ``touch``)."""
    headers: Mapping[str, str]


DEVICES: weakref.WeakKeyDictionary[BrowserContext, Device] = weakref.WeakKeyDictionary()


def new_context(browser: Browser, made: list[BrowserContext], lang: str, width: int, height: int, *,
                touch: bool = True, headers: Mapping[str, str] | None = None, keep: Mapping[str, str] | None = None,
                **options: Any) -> BrowserContext:
    """A browser of a person who reads ``lang`` (his locale, and the pages' choice kept until he
    makes another), at ``width``×``height``: a phone's browser (touch, a mobile viewport) where the
    size is a phone's and ``touch``; ``headers`` sent with each request (his address); ``keep`` put
    in his storage before every page's scripts run; ``options`` Playwright's. Closed with ``made``."""
    phone = touch and is_phone(width, height)
    ctx = browser.new_context(viewport={"width": width, "height": height}, has_touch=phone, is_mobile=phone,
                              locale=LOCALES[lang], extra_http_headers=dict(headers or {}), **options)
    made.append(ctx)
    DEVICES[ctx] = Device(phone, touch, dict(headers or {}))
    ctx.add_init_script(f"if (localStorage.getItem('tavli:lang') === null) localStorage.setItem('tavli:lang', "
                        f"{json.dumps(lang)}); for (const [k, v] of Object.entries({json.dumps(dict(keep or {}))})) "
                        "localStorage.setItem(k, v);")
    return ctx


def new_page(browser: Browser, made: list[BrowserContext], lang: str, width: int, height: int, *,
             timeout: float = 20_000, **options: Any) -> Page:
    """A page in a ``new_context`` of its own."""
    page = new_context(browser, made, lang, width, height, **options).new_page()
    page.set_default_timeout(timeout)
    return page


def shoot(page: Page, name: str, *, full_page: bool = False) -> None:
    """The page as it stands, kept as ``SHOTS/name.png`` to be looked at (animations finished)."""
    SHOTS.mkdir(parents=True, exist_ok=True)
    page.screenshot(path=str(SHOTS / f"{name}.png"), full_page=full_page, animations="disabled")


def sideways(page: Page) -> int:
    """How far the page scrolls sideways (0: not at all)."""
    return int(page.evaluate("document.documentElement.scrollWidth - document.documentElement.clientWidth"))


def language(page: Page) -> str:
    """The language the page is drawn in."""
    return str(page.evaluate("document.documentElement.lang"))


def show_in(page: Page, lang: str, ready: str = SETTLED) -> None:
    """``page``, once ``ready`` (a JavaScript condition), in ``lang``: chosen as the language
    switch keeps it, and the page loaded again where it was in another."""
    page.wait_for_function(ready)
    if language(page) != lang:
        page.evaluate("lang => localStorage.setItem('tavli:lang', lang)", lang)
        page.reload(wait_until="commit")
        page.wait_for_function(ready)


def resize(page: Page, width: int, height: int) -> None:
    """``page`` at ``width``×``height`` and drawn for it (its resize handlers run), from the top, as
    a page opened at that size would be."""
    size = page.viewport_size
    if size is not None and (size["width"], size["height"]) == (width, height):
        return
    page.set_viewport_size({"width": width, "height": height})
    page.evaluate("""() => new Promise((done) => requestAnimationFrame(() => requestAnimationFrame(() => {
        window.scrollTo(0, 0); done(); })))""")


def where(url: str) -> str:
    """An address without its fragment (a token the page may have put away)."""
    parts = urlsplit(url)
    return f"{parts.path}?{parts.query}"


class Screens:
    """A person's page, and his twin on the other kind of browser (a phone's, a laptop's) following
    the same page, so that each state the page reaches is looked at on every screen."""

    def __init__(self, page: Page, made: list[BrowserContext], sizes: Iterable[tuple[int, int]] = SIZES,
                 langs: Iterable[str] = LANGS, *, touch: bool | None = None) -> None:
        """``touch``: whether a phone's size is looked at in a phone's browser (by default as the
        page's browser was made by ``new_context``, else yes)."""
        self.page = page
        self.made = made
        self.screens = screens(sizes, langs)
        device = DEVICES.get(page.context)
        self.phone = device.phone if device else bool(page.evaluate("matchMedia('(pointer: coarse)').matches"))
        self.touch = touch if touch is not None else device.touch if device else True
        self.headers = dict(device.headers) if device else {}
        self.twin: Page | None = None

    def look(self, check: Callable[[Page, Screen], None], ready: str | None = None) -> None:
        """``check`` the state the page shows now on every screen: on the page itself where its
        kind of browser fits the screen, else on the twin, each shown in every language (the
        language it is in first) and at every size. A page is looked at once it has the state (a
        board's last action) and its words, and ``ready`` (a JavaScript condition) where given."""
        synced = self.synced(ready)
        kinds: dict[bool, list[Screen]] = {}
        for screen in self.screens:
            kinds.setdefault(self.touch and screen.phone, []).append(screen)
        pages = {phone: self.page if phone == self.phone else self.twin_page(shown[0])
                 for phone, shown in kinds.items()}
        size = self.page.viewport_size
        assert size is not None
        for phone, page in pages.items():
            page.wait_for_function(synced)
            first = language(page)
            for lang in sorted({s.lang for s in kinds[phone]}, key=lambda lang: lang != first):
                show_in(page, lang, synced)
                for screen in (s for s in kinds[phone] if s.lang == lang):
                    resize(page, screen.width, screen.height)
                    check(page, screen)
        resize(self.page, size["width"], size["height"])

    def twin_page(self, screen: Screen) -> Page:
        """The person on the other kind of browser, at the page's address (opened again, with his
        storage as it is now, where the page has gone on since)."""
        if self.twin is not None and where(self.twin.url) != where(self.page.url):
            self.twin.context.close()
            self.twin = None
        if self.twin is None:
            browser = self.page.context.browser
            assert browser is not None
            self.twin = new_page(browser, self.made, screen.lang, screen.width, screen.height, touch=self.touch,
                                 headers=self.headers, storage_state=self.page.context.storage_state())
            self.twin.goto(self.page.url, wait_until="commit")
        return self.twin

    def synced(self, ready: str | None) -> str:
        """What a page waits for: its words, its board's match and last action as the page has
        them, and ``ready``."""
        conditions = [SETTLED]
        shown = self.page.evaluate("window.tavliState ? [window.tavliState.match, window.tavliState.seq] : null")
        if shown is not None:
            match, seq = shown
            conditions.append(f"(s => s && s.type === 'state' && s.match === {json.dumps(match)} && s.seq >= {seq})"
                              "(window.tavliState)")
        if ready:
            conditions.append(f"({ready})")
        return " && ".join(conditions)


def look_everywhere(browser: Browser, made: list[BrowserContext], url: str, check: Callable[[Page, Screen], None],
                    sizes: Iterable[tuple[int, int]] = SIZES, langs: Iterable[str] = LANGS, *,
                    ready: str | None = None, **options: Any) -> Page:
    """``url`` opened by a new person (``new_context``'s ``options``) and ``check``-ed on every
    screen (``Screens.look``): his first page."""
    first = screens(sizes, langs)[0]
    page = new_page(browser, made, first.lang, first.width, first.height, **options)
    page.goto(url, wait_until="commit")
    Screens(page, made, sizes, langs, touch=options.get("touch", True)).look(check, ready)
    return page
