"""Private matches kept private everywhere (docs/web.md, "Private everywhere"): off the players' pages
for others, their record, dice and review answered only to their players (a seat's token or the
account that plays a seat) and to their spectators' link, the same 404 as a match that does not
exist for anyone else, and open to all once a player makes a finished match public."""

from __future__ import annotations

import io
import urllib.error
import urllib.parse
import urllib.request
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from typing import Any

import pytest
from app_client import Message, as_player, hello, new_match, sign_up, token_of, until
from starlette.testclient import TestClient

from tavli.terminal.dice_check import DiceCheckError, read_dice

READS = ("record", "dice", "analysis")
"""What a match's id answers besides its board: ``/api/matches/{id}/...``."""
UNKNOWN = "NoSuchMatch0"


@dataclass
class Players:
    """A private match that Eleni (an account) made for Nikos (an account), and Maria, who has an
    account and no part in it: the sessions and the match's tokens."""

    eleni: str
    nikos: str
    maria: str
    match: str
    white: str
    black: str
    spectator: str



def bearer(token: str | None) -> dict[str, str]:
    return {"Authorization": f"Bearer {token}"} if token else {}


def private_match(client: TestClient, **body: Any) -> Players:
    eleni, nikos, maria = sign_up(client, "Eleni"), sign_up(client, "Nikos"), sign_up(client, "Maria")
    with as_player(client, eleni):
        links = new_match(client, opponent="friend", length=1, games="portes", seat="white", clock="none",
                          private=True, **body)
    return Players(eleni, nikos, maria, links["match"], links["token"], token_of(links["friend"]),
                   token_of(links["watch"]))


@contextmanager
def both_joined(client: TestClient, p: Players) -> Iterator[tuple[Any, Any, Message]]:
    """Both players at the board, each with his session (which gives each his seat's account)."""
    with as_player(client, p.eleni), client.websocket_connect(f"/ws/{p.match}") as white:
        hello(white, p.white)
        with as_player(client, p.nikos), client.websocket_connect(f"/ws/{p.match}") as black:
            state = hello(black, p.black)
            if state["waiting"]:
                state = until(black, lambda m: m["type"] == "state" and not m["waiting"])
            yield white, black, state


def read(client: TestClient, match_id: str, what: str, token: str | None = None) -> Any:
    return client.get(f"/api/matches/{match_id}/{what}", headers=bearer(token))


def strangers(client: TestClient, p: Players) -> Iterator[str | None]:
    """Each stranger in turn, the client signed in as him (or a guest): the token he sends, if
    any. A guest, another account, a wrong token, a token of another match (Maria's own)."""
    with as_player(client, p.maria):
        own = new_match(client, opponent="beginner", games="portes")["token"]
    for session, token in ((None, None), (p.maria, None), (None, "not-a-token"), (p.maria, own), (None, p.white[::-1])):
        with as_player(client, session):
            yield token


def assert_hidden(client: TestClient, p: Players) -> None:
    """No stranger reads anything of the match: its reads answer as for no match, Eleni's page
    lists nothing of it."""
    for token in strangers(client, p):
        for what in READS:
            answer, none = read(client, p.match, what, token), read(client, UNKNOWN, what, token)
            assert (answer.status_code, answer.json()) == (none.status_code, none.json()), (what, token)
            assert none.status_code == 404 and none.json()["error"] == "no such match"
        page = client.get("/api/players/Eleni").json()
        assert page["matches"] == [] and page["error_trend"] == []
        assert all(tally == {"won": 0, "lost": 0, "gammons": 0} for tally in page["record"].values())


def assert_read_by_its_players(client: TestClient, p: Players) -> None:
    """Each player reads everything: with his seat's token, or signed in with none; the spectators'
    link reads it too (it shows the live board already)."""
    for session, token in ((None, p.white), (None, p.black), (p.eleni, None), (p.nikos, None), (None, p.spectator)):
        with as_player(client, session):
            record = read(client, p.match, "record", token)
            assert record.status_code == 200 and record.json()["meta"]["match"] == p.match
            assert read(client, p.match, "dice", token).json()["match"] == p.match
            if session is not None:
                (listed,) = client.get("/api/players/Eleni").json()["matches"]
                assert listed["id"] == p.match and listed["private"]


def test_a_private_match_in_play_is_read_only_by_its_players(client: TestClient) -> None:
    p = private_match(client)
    with both_joined(client, p) as (_, black, state):
        black.send_json({"type": "roll", "seq": state["seq"]} if state["can_roll"] else {"type": "ping"})
        assert_hidden(client, p)
        assert_read_by_its_players(client, p)
        for session, token in ((None, p.white), (p.nikos, None)):  # the finished games, none yet
            with as_player(client, session):
                answer = read(client, p.match, "analysis", token)
                assert answer.status_code == 200 and answer.json()["status"] == "empty", answer.text
        refused = client.post(f"/api/matches/{p.match}/public", headers=bearer(p.white))
        assert refused.status_code == 409 and "over" in refused.json()["error"]
        assert_hidden(client, p)


@pytest.mark.slow
def test_a_finished_private_match_stays_private_until_a_player_makes_it_public(client: TestClient) -> None:
    p = private_match(client)
    with both_joined(client, p) as (white, black, state):
        black.send_json({"type": "resign", "seq": state["seq"], "match": True})
        until(white, lambda m: m["type"] == "state" and m["over"])
    assert_hidden(client, p)
    assert_read_by_its_players(client, p)
    for session, token in ((p.eleni, None), (None, p.black), (None, p.spectator)):
        with as_player(client, session):
            assert read(client, p.match, "analysis", token).status_code in (200, 202)
    with as_player(client, p.eleni):
        assert client.get("/api/players/Eleni").json()["record"]["portes"]["won"] == 1
    for token in strangers(client, p):  # nobody else may open it: no such match, for him
        answer = client.post(f"/api/matches/{p.match}/public", headers=bearer(token))
        assert answer.status_code == 404 and answer.json()["error"] == "no such match"
    watcher = client.post(f"/api/matches/{p.match}/public", headers=bearer(p.spectator))
    assert watcher.status_code == 403
    assert_hidden(client, p)
    with as_player(client, p.nikos):  # the loser, signed in, with no token
        made = client.post(f"/api/matches/{p.match}/public")
    assert made.status_code == 200 and made.json() == {"match": p.match, "public": True}
    for token in strangers(client, p):
        assert read(client, p.match, "record", token).json()["meta"]["match"] == p.match
        assert read(client, p.match, "dice", token).status_code == 200
        assert read(client, p.match, "analysis", token).status_code in (200, 202)
        (listed,) = client.get("/api/players/Eleni").json()["matches"]
        assert listed["id"] == p.match and not listed["private"]
    with client.websocket_connect(f"/ws/{p.match}") as ws:  # its address alone opens its board now
        ws.send_json({"type": "hello"})
        assert until(ws, lambda m: m["type"] in ("state", "error"))["type"] == "state"
    again = client.post(f"/api/matches/{p.match}/public", headers=bearer(p.white))
    assert again.status_code == 200  # once public, it stays so: nothing to undo


@pytest.mark.parametrize("body", [{"opponent": "beginner"}, {"opponent": "friend"}])
def test_a_match_that_is_not_private_is_read_by_anyone(client: TestClient, body: Message) -> None:
    links = new_match(client, games="portes", **body)
    for what in READS:
        assert read(client, links["match"], what).status_code in (200, 403), what  # 403: a review not yet open
    made = client.post(f"/api/matches/{links['match']}/public", headers=bearer(links["token"]))
    assert made.status_code == 200 and made.json()["public"]


def test_a_rematch_of_a_match_made_public_is_private(client: TestClient) -> None:
    links = new_match(client, opponent="beginner", length=1, games="portes", private=True)
    mid, token = links["match"], links["token"]
    with client.websocket_connect(f"/ws/{mid}") as ws:
        state = hello(ws, token)
        ws.send_json({"type": "resign", "seq": state["seq"], "match": True})
        until(ws, lambda m: m["type"] == "state" and m["over"])
    assert client.post(f"/api/matches/{mid}/public", headers=bearer(token)).status_code == 200
    with client.websocket_connect(f"/ws/{mid}") as ws:  # the match read again, as made public
        over = hello(ws, token)
        assert over["settings"]["public"]
        ws.send_json({"type": "rematch", "seq": over["seq"]})
        rematch = until(ws, lambda m: m["type"] == "state" and m["rematch"] is not None)["rematch"]
    assert read(client, mid, "record").status_code == 200
    assert read(client, rematch, "record").status_code == 404


def test_verify_dice_sends_the_token_of_the_link(client: TestClient, monkeypatch: pytest.MonkeyPatch) -> None:
    """``tavli verify-dice LINK`` reads a private match's dice with the link's token (a header)."""
    links = new_match(client, opponent="beginner", games="portes", private=True)

    def through_the_app(request: urllib.request.Request, timeout: float) -> io.BytesIO:
        answer = client.get(urllib.parse.urlsplit(request.full_url).path, headers=dict(request.header_items()))
        if answer.status_code != 200:
            raise urllib.error.HTTPError(request.full_url, answer.status_code, answer.text, None, None)  # type: ignore[arg-type]
        return io.BytesIO(answer.content)

    monkeypatch.setattr(urllib.request, "urlopen", through_the_app)
    for link in (links["watch"], links["play"]):
        found = read_dice(f"http://testserver{link}")
        assert isinstance(found, dict) and found["match"] == links["match"]
    with pytest.raises(DiceCheckError, match="404"):
        read_dice(f"http://testserver/match/{links['match']}")
