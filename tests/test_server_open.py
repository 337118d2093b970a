"""Open matches: a seat anyone on the server may take, listed on the start page."""

from __future__ import annotations

import asyncio
import secrets
import time
from pathlib import Path
from typing import Any

import pytest
from starlette.testclient import TestClient
from test_server_app import hello, is_state, new_match, token_of, until
from test_server_store import URLS, run

from tavli.server.play.seats import OPEN_GRACE, SeatTaken
from tavli.server.play.service import MatchService
from tavli.server.storage.store import Store, token_hash


def until_state(ws: Any) -> dict[str, Any]:
    return until(ws, is_state)


def test_an_open_match_is_listed_taken_once_and_played(client: TestClient) -> None:
    made = new_match(client, opponent="anyone", length=3, games="fevga", seat="black", mother_pin="single")
    assert made["open"] and made["friend"] is None
    listed = client.get("/api/open")
    assert listed.status_code == 200 and listed.headers["cache-control"] == "no-store"
    [entry] = [m for m in listed.json()["matches"] if m["match"] == made["match"]]
    assert entry["seat"] == "white" and entry["length"] == 3 and entry["games"] == ["fevga"]
    assert entry["mother_pin"] == "single" and entry["coach"] is False and 0 <= entry["waiting"] < 60
    taken = client.post(f"/api/open/{made['match']}")
    assert taken.status_code == 201, taken.text
    seat = taken.json()
    assert seat["seat"] == "white" and seat["play"] == f"/match/{made['match']}#t={seat['token']}"
    again = client.post(f"/api/open/{made['match']}")
    assert again.status_code == 409 and again.json()["error"].startswith("no open seat in that match")
    assert made["match"] not in [m["match"] for m in client.get("/api/open").json()["matches"]]
    with client.websocket_connect(f"/ws/{made['match']}") as mine, \
            client.websocket_connect(f"/ws/{made['match']}") as theirs:
        creator, joiner = hello(mine, token_of(made["play"])), hello(theirs, seat["token"])
        assert (creator["you"], joiner["you"]) == ("black", "white")
        assert joiner["players"]["white"]["kind"] == "human"


@pytest.mark.parametrize("path", ["/api/open/nonesuch", "/api/open/bad%20id!", "/api/open/" + "x" * 40])
def test_a_seat_that_is_not_open_is_one_line(client: TestClient, path: str) -> None:
    answer = client.post(path)
    assert answer.status_code in (404, 409)
    assert set(answer.json()) == {"error", "reason"} and "\n" not in answer.json()["error"]


def test_only_anyones_matches_are_open(client: TestClient) -> None:
    friend = new_match(client, opponent="friend", length=1)
    bot = new_match(client, opponent="beginner", length=1)
    listed = {m["match"] for m in client.get("/api/open").json()["matches"]}
    assert friend["match"] not in listed and bot["match"] not in listed
    assert client.post(f"/api/open/{friend['match']}").status_code == 409
    assert "open" in new_match(client, opponent="anyone", length=1) and not friend["open"]


@pytest.mark.parametrize("kind", URLS)
def test_a_match_is_listed_while_its_creator_is_there_and_taken_by_one(kind: str, tmp_path: Path) -> None:
    async def test(url: str) -> None:
        store = Store(url)
        await store.create_tables()
        service = MatchService(store)
        made = await service.create({"opponent": "anyone", "length": 1, "seat": "white"})
        mid = made["match"]
        now = time.time()
        assert mid in [m["match"] for m in await service.open_matches(now)]
        later = now + OPEN_GRACE + 1
        assert mid not in [m["match"] for m in await service.open_matches(later)]  # its creator never came
        await store.set_presence(mid, ["white"], later + 30)  # he is here now
        assert mid in [m["match"] for m in await service.open_matches(later)]
        # many take the seat at once: one gets it
        tokens = [secrets.token_urlsafe(8) for _ in range(6)]
        seats = await asyncio.gather(*(store.take_open_seat(mid, token_hash(t)) for t in tokens))
        assert seats.count("black") == 1 and seats.count(None) == 5
        winner = tokens[seats.index("black")]
        assert await store.role(mid, winner) == "black"
        for loser in (t for t in tokens if t != winner):
            assert await store.role(mid, loser) is None
        with pytest.raises(SeatTaken):
            await service.take_open_seat(mid)
        await store.close()

    run(kind, tmp_path, test)


def test_players_names_from_the_start_page_the_open_seat_and_hello(client: TestClient) -> None:
    made = new_match(client, opponent="anyone", length=1, games="portes", seat="white", name="  Eleni   K. ")
    [entry] = [m for m in client.get("/api/open").json()["matches"] if m["match"] == made["match"]]
    assert entry["name"] == "Eleni K."
    seat = client.post(f"/api/open/{made['match']}", json={"name": "Νίκος"}).json()
    with client.websocket_connect(f"/ws/{made['match']}") as ws:
        state = hello(ws, seat["token"])
        assert state["players"]["white"]["name"] == "Eleni K." and state["players"]["black"]["name"] == "Νίκος"
    record = client.get(f"/api/matches/{made['match']}/record").json()
    assert [record["players"][c]["name"] for c in ("white", "black")] == ["Eleni K.", "Νίκος"]
    friend = new_match(client, opponent="friend", length=1)
    with client.websocket_connect(f"/ws/{friend['match']}") as a:
        a.send_json({"type": "hello", "token": token_of(friend["friend"]), "name": "Maria"})
        assert until_state(a)["players"]["black"]["name"] == "Maria"
    with client.websocket_connect(f"/ws/{friend['match']}") as b:  # a name is given once
        b.send_json({"type": "hello", "token": token_of(friend["friend"]), "name": "Someone else"})
        assert until_state(b)["players"]["black"]["name"] == "Maria"


@pytest.mark.parametrize(("where", "name"), [("create", "x" * 25), ("create", 5), ("take", "bell\a"),
                                             ("take", ["Eleni"]), ("hello", "zero\u200bwidth")])
def test_a_bad_name_is_refused_in_one_line_and_changes_nothing(client: TestClient, where: str, name: object) -> None:
    if where == "create":
        answer = client.post("/api/matches", json={"opponent": "anyone", "name": name})
        assert answer.status_code == 400 and answer.json()["error"].startswith("a name ")
        return
    made = new_match(client, opponent="anyone", length=1)
    if where == "take":
        answer = client.post(f"/api/open/{made['match']}", json={"name": name})
        assert answer.status_code == 400 and answer.json()["error"].startswith("a name ")
        assert made["match"] in [m["match"] for m in client.get("/api/open").json()["matches"]]  # still open
        return
    with client.websocket_connect(f"/ws/{made['match']}") as ws:
        ws.send_json({"type": "hello", "token": token_of(made["play"]), "name": name})
        refused = ws.receive_json()
        assert refused["type"] == "error" and refused["code"] == "bad-message" and "a name " in refused["message"]
        assert hello(ws, token_of(made["play"]))["players"]["white"]["name"] is None  # joined without one
