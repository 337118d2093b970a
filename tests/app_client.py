"""The web app in this process, through Starlette's test client."""

from __future__ import annotations

from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

from starlette.testclient import TestClient

from tavli.server.app import create_app
from tavli.server.cafe.accounts import COOKIE


def make_client(db: Path, **options: Any) -> TestClient:
    """The app on a SQLite file, with the per-connection message limits out of the tests' way."""
    options.setdefault("messages_per_second", 10_000)
    options.setdefault("message_burst", 10_000)
    return TestClient(create_app(f"sqlite:///{db}", **options))


Message = dict[str, Any]
PASSWORD = "a long password"


def sign_up(client: TestClient, name: str, password: str = PASSWORD) -> str:
    """A new account: its session secret (the client is left a guest)."""
    client.cookies.clear()
    answer = client.post("/api/accounts", json={"name": name, "password": password})
    assert answer.status_code == 201, answer.text
    client.cookies.clear()
    return str(answer.cookies[COOKIE])


@contextmanager
def as_player(client: TestClient, secret: str | None) -> Iterator[TestClient]:
    """``client`` with ``secret``'s session cookie (None: a guest) for the block."""
    client.cookies.clear()
    if secret is not None:
        client.cookies.set(COOKIE, secret)
    try:
        yield client
    finally:
        client.cookies.clear()


def new_match(client: TestClient, **body: Any) -> Message:
    """``POST /api/matches`` with ``body``: the links and tokens of the new match."""
    answer = client.post("/api/matches", json=body)
    assert answer.status_code == 201, answer.text
    return dict(answer.json())


def token_of(link: str) -> str:
    """The seat's token in an invitation link (``/match/ID#t=TOKEN``)."""
    return link.split("#t=", 1)[1]


def until(ws: Any, done: Callable[[Message], bool], limit: int = 200) -> Message:
    """Read messages until one satisfies ``done``."""
    for _ in range(limit):
        msg = dict(ws.receive_json())
        if done(msg):
            return msg
    raise AssertionError("the expected message never came")


def until_type(ws: Any, kind: str, limit: int = 50) -> Message:
    """Read messages until one of type ``kind`` (a lobby's, a chat's…)."""
    try:
        return until(ws, lambda m: m["type"] == kind, limit)
    except AssertionError:
        raise AssertionError(f"no {kind} message came") from None


def hello(ws: Any, token: str, steps: bool = False) -> Message:
    """Join with ``token``: the first state (or the refusal)."""
    ws.send_json({"type": "hello", "token": token, "steps": steps})
    return until(ws, lambda m: m["type"] in ("state", "error"))


def next_state(ws: Any, seq: int) -> Message:
    """The first state after action ``seq``."""
    return until(ws, lambda m: m["type"] == "state" and m["seq"] > seq)


def play_until_both_chose(sockets: dict[str, Any], state: Message) -> Message:
    """Turn after turn (the first legal play each time), until each side has made a play that the
    dice did not force (one of more than one), so that a rated match is rated (docs/ratings.md,
    "Farming"); ``sockets`` by seat, ``state`` the latest. The state after."""
    chose: set[str] = set()
    while len(chose) < 2:
        mover = state["turn"]
        sockets[mover].send_json({"type": "roll", "seq": state["seq"]})
        rolled = next_state(sockets[mover], state["seq"])
        if rolled["legal"] is None:  # a roll that cannot be played passes at once, with its state
            state = rolled
            continue
        plays = rolled["legal"]["plays"]
        if len(plays) > 1:
            chose.add(mover)
        sockets[mover].send_json({"type": "play", "seq": rolled["seq"], "play": plays[0]})
        state = next_state(sockets[mover], rolled["seq"])
    return state
