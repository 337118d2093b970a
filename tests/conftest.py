"""Shared test setup: compile the rules kernel once before any worker starts; the markers of the
slow kinds of test; the fixtures of the web app's tests (an app client on a fresh database, a real
server, a browser).

``pytest -m "not slow"`` is the fast loop: it leaves out every test marked ``slow`` and, with them,
every ``browser``, ``gnubg`` and ``postgres`` test (each of those kinds counts as slow)."""

from __future__ import annotations

import os
import shutil
import signal
import subprocess
import sys
import tempfile
from collections.abc import Iterator, Mapping
from pathlib import Path
from typing import TYPE_CHECKING, Any

import pytest
from hypothesis import settings

if TYPE_CHECKING:
    from playwright.sync_api import Browser
    from serve_process import Server
    from starlette.testclient import TestClient

CHROMIUM = shutil.which("chromium") or "/usr/bin/chromium"
CHROMIUM_ARGS = ["--no-sandbox", "--disable-gpu", "--disable-background-networking", "--disable-component-update",
                 "--no-first-run", "--disable-sync", "--disable-dev-shm-usage"]

# The matches that tavli play keeps by default go to a folder of the test run's own, never the
# user's (click.get_app_dir follows XDG_CONFIG_HOME; the programs the tests start inherit it).
os.environ["XDG_CONFIG_HOME"] = tempfile.mkdtemp(prefix="tavli-tests-config-")

# CI replays the same examples every run; a developer's run explores new ones.
settings.register_profile("ci", derandomize=True, database=None)
if os.environ.get("CI"):
    settings.load_profile("ci")


SLOW_KINDS = ("browser", "gnubg", "postgres")
"""Markers of tests that need something outside Python (a browser, GNU Backgammon, a PostgreSQL
server): each is slow too, so that the fast loop leaves them out."""


def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    for item in items:
        if "browser" in getattr(item, "fixturenames", ()):
            item.add_marker(pytest.mark.browser)
        if any(item.get_closest_marker(kind) for kind in SLOW_KINDS):
            item.add_marker(pytest.mark.slow)


def pytest_configure(config: pytest.Config) -> None:
    if hasattr(config, "workerinput"):
        return  # an xdist worker: the controller has filled the cache already
    if (getattr(config.option, "numprocesses", None) or 0) >= 2:
        # the other core compiles what the warm-up below leaves alone (tests/compile_ahead.py)
        ahead = subprocess.Popen([sys.executable, str(Path(__file__).with_name("compile_ahead.py"))],
                                 stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        config.add_cleanup(lambda: (ahead.kill(), ahead.wait()))
    from tavli import Dice, Position

    # The first calls compile the numba kernel and cache it on disk, so the
    # parallel workers load it instead of compiling it twice at once.
    for name in ("portes", "plakoto", "fevga"):
        pos = Position.start(name)
        legal = pos.legal_plays(Dice(6, 5))
        legal.step_graph()
        legal.after(0).result()
        pos.parse_play(str(legal[0]), Dice(6, 5))
    # ... and so do the networks' search and the bear-off tables (built once, cached on disk)
    from tavli.bots.neural import NeuralBot

    legal = Position.start("portes").legal_plays(Dice(6, 5))
    NeuralBot("champion").choose(legal)


def program_env(env: Mapping[str, str] | None = None) -> dict[str, str]:
    """The environment for ``tavli`` as a program: English whatever the user's locale (``--lang el``
    speaks Greek), no colour forced, no width set; ``env`` adds to it (``{"LANG": "el_GR.UTF-8"}``)."""
    unset = ("LANGUAGE", "LC_ALL", "LC_MESSAGES", "LANG", "FORCE_COLOR", "TTY_COMPATIBLE", "COLUMNS")
    return {k: v for k, v in os.environ.items() if k not in unset} | {"LANG": "C.UTF-8"} | dict(env or {})


def run_tavli(*args: str, stdin: str | None = None, env: Mapping[str, str] | None = None,
              timeout: float = 300) -> subprocess.CompletedProcess[str]:
    """``tavli ARGS`` run as a program (``python -m tavli.cli``) in ``program_env(env)``."""
    return subprocess.run([sys.executable, "-m", "tavli.cli", *args], input=stdin, capture_output=True, text=True,
                          timeout=timeout, env=program_env(env))


def start_tavli(*args: str, env: Mapping[str, str] | None = None, **options: Any) -> subprocess.Popen[Any]:
    """``tavli ARGS`` started as a program in ``program_env(env)``, with ``subprocess.Popen``'s ``options``."""
    return subprocess.Popen([sys.executable, "-m", "tavli.cli", *args], env=program_env(env), **options)


@pytest.fixture
def db(tmp_path: Path) -> Path:
    """A fresh SQLite database file."""
    return tmp_path / "tavli.db"


@pytest.fixture
def client(db: Path) -> Iterator[TestClient]:
    """The web app on ``db`` through Starlette's test client (``app_client.make_client``)."""
    from app_client import make_client

    with make_client(db) as c:
        yield c


@pytest.fixture(scope="module")
def shared_server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Server]:
    """One real ``tavli serve`` for a module's tests that need nothing of their own from it."""
    from serve_process import Server

    s = Server(tmp_path_factory.mktemp("server") / "tavli.db")
    yield s
    s.stop(signal.SIGKILL)


@pytest.fixture(scope="module")
def browser() -> Iterator[Browser]:
    """Debian's chromium, headless, driven by Playwright."""
    from playwright.sync_api import sync_playwright

    assert Path(CHROMIUM).exists(), "Debian's chromium is needed: apt-get install chromium (.ci/run does)"
    with sync_playwright() as p:
        b = p.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)
        yield b
        b.close()


@pytest.fixture(scope="module")
def proxied_server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Server]:
    """A module's real server that believes the address each person's browser gives
    (X-Forwarded-For from 127.0.0.1): the server counts sign-ups, seeks and new matches per address."""
    from serve_process import Server

    s = Server(tmp_path_factory.mktemp("server") / "tavli.db", options=("--trusted-proxy", "127.0.0.1"))
    yield s
    s.stop(signal.SIGKILL)


@pytest.fixture
def contexts(browser: Any) -> Iterator[list[Any]]:
    """Browser contexts the test makes (each a person or a device, with its own cookies and
    storage), closed after the test."""
    made: list[Any] = []
    yield made
    for ctx in made:
        ctx.close()
