"""The end of a match as the server tells it: a rematch may be offered and agreed after every
ending but an abort (a match lost on time included), the state of a rated match says how it moved
both players' ratings (or why it moved none), and an aborted match says who aborted it.

No test waits for a clock: the service is shown a later time (``Later``) and the flag falls at the
next action."""

from __future__ import annotations

import time
from collections.abc import Iterator
from contextlib import ExitStack
from pathlib import Path
from typing import Any

import pytest
from app_client import Message, hello, make_client, new_match, next_state, play_until_both_chose, token_of, until
from starlette.testclient import TestClient

from tavli.server.play import service

PASSWORD = "a long password"


@pytest.fixture
def client(db: Path) -> Iterator[TestClient]:
    """The app, its reviews of the finished matches at depth 0: they are not what is tested here."""
    with make_client(db, review_depth=0) as c:
        yield c


class Later:
    """The ``time`` module as the service reads it, ``ahead`` seconds later: the running clock's
    reserve is spent, and the service finds the flag fallen at the next action."""

    def __init__(self, ahead: float) -> None:
        self.ahead = ahead

    def time(self) -> float:
        return time.time() + self.ahead


def other(seat: str) -> str:
    return "black" if seat == "white" else "white"


def both_here(client: TestClient, stack: ExitStack, links: Message) -> tuple[dict[str, Any], Message]:
    """Both players of a friend match joined (the creator White): their sockets by seat, and the
    state once the match has begun (and its clocks, if it has any, have started)."""
    mid = links["match"]
    white = stack.enter_context(client.websocket_connect(f"/ws/{mid}"))
    hello(white, links["token"])
    black = stack.enter_context(client.websocket_connect(f"/ws/{mid}"))
    state = hello(black, token_of(links["friend"]))
    if not begun(state):
        state = until(black, begun)
    return {"white": white, "black": black}, state


def begun(message: Message) -> bool:
    """A state of a match begun: both players here, its clocks (if it has any) running."""
    return (message["type"] == "state" and not message["waiting"]
            and (message["clock"] is None or message["clock"]["started"]))


def answered(seq: int) -> Any:
    """What answers an action sent at ``seq``: its refusal, or the state after it."""
    return lambda m: m["type"] == "error" or (m["type"] == "state" and m["seq"] > seq)


def lost_on_time(client: TestClient, stack: ExitStack,
                 monkeypatch: pytest.MonkeyPatch) -> tuple[dict[str, Any], Message]:
    """A clocked friend match whose player on turn lets his reserve run out: the sockets by seat,
    and the state of the match over on time. His late roll is refused with ``time``."""
    links = new_match(client, opponent="friend", seat="white", length=3, games="portes",
                      clock={"delay": 0, "reserve": 60})
    sockets, state = both_here(client, stack, links)
    loser = state["clock"]["running"]
    with monkeypatch.context() as later:
        later.setattr(service, "time", Later(3600.0))
        sockets[loser].send_json({"type": "roll", "seq": state["seq"]})
        refused = until(sockets[loser], lambda m: m["type"] == "error")
    assert refused["code"] == "time"
    over = until(sockets[other(loser)], lambda m: m["type"] == "state" and m["over"])
    assert over["winner"] == other(loser) and over["games"][-1]["result"]["why"] == "time"
    return sockets, over


@pytest.mark.parametrize("offers", ["loser", "winner"])
def test_a_rematch_is_agreed_after_a_match_lost_on_time(client: TestClient, monkeypatch: pytest.MonkeyPatch,
                                                        offers: str) -> None:
    with ExitStack() as stack:
        sockets, over = lost_on_time(client, stack, monkeypatch)
        winner = over["winner"]
        proposer = winner if offers == "winner" else other(winner)
        sockets[proposer].send_json({"type": "rematch", "seq": over["seq"]})
        answer = until(sockets[proposer], answered(over["seq"]))
        assert answer["type"] == "state", answer
        offered = next_state(sockets[other(proposer)], over["seq"])
        assert offered["offer"]["kind"] == "rematch" and offered["offer"]["from"] == proposer
        sockets[other(proposer)].send_json({"type": "answer", "seq": offered["seq"], "accept": True})
        agreed = next_state(sockets[proposer], offered["seq"])
        assert agreed["rematch"] is not None
    new = client.get(f"/api/matches/{agreed['rematch']}/dice")
    assert new.status_code == 200  # the rematch is made, with the same settings


@pytest.mark.parametrize("ending", ["resigned", "time", "aborted"])
def test_a_rematch_is_offered_after_every_ending_but_an_abort(client: TestClient, monkeypatch: pytest.MonkeyPatch,
                                                             ending: str) -> None:
    with ExitStack() as stack:
        if ending == "time":
            sockets, over = lost_on_time(client, stack, monkeypatch)
        else:
            links = new_match(client, opponent="friend", seat="white", length=3, games="portes", clock="none")
            sockets, state = both_here(client, stack, links)
            ender = state["turn"]
            kind = {"type": "resign", "match": True} if ending == "resigned" else {"type": "abort"}
            sockets[ender].send_json(kind | {"seq": state["seq"]})
            over = next_state(sockets[ender], state["seq"])
            assert over["over"]
        for seat, ws in sockets.items():  # either player may, as far as the ending goes
            ws.send_json({"type": "rematch", "seq": over["seq"]})
            answer = until(ws, answered(over["seq"]))
            if ending == "aborted":
                assert answer["type"] == "error" and answer["code"] == "aborted", (seat, answer)
            else:
                assert answer["type"] == "state" and answer["offer"]["from"] == seat, (seat, answer)
                break


def sign_up(client: TestClient, name: str) -> str:
    client.cookies.clear()
    answer = client.post("/api/accounts", json={"name": name, "password": PASSWORD})
    assert answer.status_code == 201, answer.text
    return str(answer.cookies["tavli_session"])


def rated_and_resigned(client: TestClient, *, real: bool) -> tuple[Message, Message]:
    """A rated 1-point match of Eleni (White) and Nikos, who resigns it: at once, or after both have
    made a real play (``real``). The state each of them is sent once the result is kept: after the
    match's last state, which goes out first."""
    eleni, nikos = sign_up(client, "Eleni"), sign_up(client, "Nikos")
    client.cookies.clear()
    client.cookies.set("tavli_session", eleni)
    links = new_match(client, opponent="friend", rated=True, seat="white", length=1, games="portes", clock="none")
    mid = links["match"]
    with client.websocket_connect(f"/ws/{mid}") as white:
        hello(white, links["token"])
        client.cookies.clear()
        client.cookies.set("tavli_session", nikos)
        with client.websocket_connect(f"/ws/{mid}") as black:
            state = hello(black, token_of(links["friend"]))
            if state["waiting"]:
                state = until(black, lambda m: m["type"] == "state" and not m["waiting"])
            if real:
                state = play_until_both_chose({"white": white, "black": black}, state)
            black.send_json({"type": "resign", "seq": state["seq"], "match": True})
            ends = [until(ws, lambda m: m["type"] == "state" and m["over"] and m["ratings"]) for ws in (white, black)]
    return ends[0], ends[1]


def test_a_rated_match_says_how_it_moved_both_ratings(client: TestClient) -> None:
    for end in rated_and_resigned(client, real=True):
        ratings = end["ratings"]
        assert ratings["pool"] == "portes" and ratings["rated"] is True
        assert ratings["white"]["before"] == ratings["black"]["before"] == 1500.0
        assert ratings["white"]["after"] > 1500 > ratings["black"]["after"]


def test_a_rated_match_decided_at_once_says_it_moved_no_rating(client: TestClient) -> None:
    for end in rated_and_resigned(client, real=False):
        assert end["ratings"] == {"pool": "portes", "rated": False, "why": "early"}


def test_a_casual_match_has_no_ratings_and_an_aborted_one_says_who_aborted(client: TestClient) -> None:
    links = new_match(client, opponent="friend", seat="white", length=1, games="portes", clock="none")
    with ExitStack() as stack:
        sockets, state = both_here(client, stack, links)
        assert state["ratings"] is None and state["aborted_by"] is None
        sockets["black"].send_json({"type": "abort", "seq": state["seq"]})
        aborted = next_state(sockets["white"], state["seq"])
    assert aborted["aborted"] and aborted["aborted_by"] == "black" and aborted["ratings"] is None
