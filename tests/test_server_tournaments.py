"""The café's tournaments run on the server (tavli.server.cafe.tournaments, routes/tournament_api.py,
routes/tournament_socket.py; docs/tournaments.md): made, joined and started as the API says; a
sit-and-go knockout run to its winner by players who take their seats with their sessions alone, told
of each match on their pages; each player's page listing his tournaments with his place; a player who
never comes forfeited; a Swiss paired round by round with its bye and no repeat; an arena pairing
whoever waits; the tournament page's socket told of every change; bad requests refused in one line
with nothing changed."""

from __future__ import annotations

import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from app_client import PASSWORD, as_player, make_client, sign_up, until, until_type
from starlette.testclient import TestClient

from tavli.server.cafe.tournaments import Tournaments
from tavli.server.routes.context import context_of

Message = dict[str, Any]
KNOCKOUT = {"name": "Friday knockout", "format": "knockout", "length": 1, "games": "portes", "clock": "none",
            "start": "when-full"}


@pytest.fixture
def client(tmp_path: Path) -> Iterator[TestClient]:
    with make_client(tmp_path / "t.db") as made:
        yield made


def room(client: TestClient) -> Tournaments:
    return context_of(client.app).tournaments  # type: ignore[arg-type]


def call(client: TestClient, job: Any, *args: Any) -> Any:
    assert client.portal is not None
    return client.portal.call(job, *args)


def settle(client: TestClient, tournament: str) -> None:
    """Let the work the matches' ends began finish (their results kept), then look at ``tournament``."""
    call(client, context_of(client.app).settled)  # type: ignore[arg-type]
    call(client, room(client).advance, tournament)


def players(client: TestClient, names: list[str]) -> dict[str, str]:
    return {name: sign_up(client, name) for name in names}


def post(client: TestClient, secret: str | None, path: str, body: Any = None, method: str = "POST") -> Any:
    with as_player(client, secret):
        return client.request(method, path, json=body)


def create(client: TestClient, secret: str, **body: Any) -> Message:
    made = post(client, secret, "/api/tournaments", KNOCKOUT | body)
    assert made.status_code == 201, made.text
    return dict(made.json())


def join_all(client: TestClient, tournament: str, secrets: dict[str, str]) -> Message:
    shown: Message = {}
    for secret in secrets.values():
        answer = post(client, secret, f"/api/tournaments/{tournament}/join")
        assert answer.status_code == 200, answer.text
        shown = answer.json()
    return shown


def view(client: TestClient, tournament: str) -> Message:
    answer = client.get(f"/api/tournaments/{tournament}")
    assert answer.status_code == 200, answer.text
    return dict(answer.json())


def open_pairings(shown: Message) -> list[Message]:
    return [p for r in shown["rounds"] for p in r["pairings"] if p["match"] and p["ending"] is None]


def take_seat(client: TestClient, secret: str, match: str) -> Any:
    """A player's board opened with his session alone (no token): his seat's first state."""
    with as_player(client, secret):
        ws = client.websocket_connect(f"/ws/{match}").__enter__()
    ws.send_json({"type": "hello"})
    state = until(ws, lambda m: m["type"] in ("state", "error"))
    assert state["type"] == "state", state
    return ws, state


def resign(client: TestClient, secret: str, match: str, opponent_secret: str) -> None:
    """Both players come to the board; ``secret``'s player resigns the match."""
    other, _ = take_seat(client, opponent_secret, match)
    ws, state = take_seat(client, secret, match)
    ws.send_json({"type": "resign", "seq": state["seq"], "match": True})
    until(ws, lambda m: m["type"] == "state" and m["over"])
    ws.__exit__(None, None, None)
    other.__exit__(None, None, None)


def test_bad_requests_get_one_line_and_change_nothing(client: TestClient) -> None:
    secrets = players(client, ["ann", "bob", "cy"])
    bad: list[Message] = [
        {"max_players": 1},
        {"format": "swiss", "rounds": 0, "max_players": 8},
        {"format": "swiss", "max_players": 8},
        {"start": None, "starts_at": "2001-01-01T00:00:00Z"},
        {"start": None, "starts_at": "tomorrow"},
        {"name": "x" * 10_000},
        {"name": "<script>alert(1)</script>"},
        {"name": "a\u202eb"},
        {"name": ""},
        {"format": "ladder"},
        {"clock": "forever"},
        {"length": 0},
        {"rated": "yes"},
        {"format": "arena"},
        {"format": "arena", "minutes": 30, "rounds": 3},
        {"unknown": 1},
        {"forfeit_minutes": 0},
    ]
    for body in bad:
        answer = post(client, secrets["ann"], "/api/tournaments", {**KNOCKOUT, "max_players": 4, **body})
        assert answer.status_code in (400, 413), (body, answer.text)  # 413: a body over the limit
        assert "\n" not in answer.json()["error"]
    assert post(client, None, "/api/tournaments", KNOCKOUT | {"max_players": 4}).status_code == 401
    assert post(client, secrets["ann"], "/api/tournaments", "[").status_code == 400
    assert client.get("/api/tournaments").json()["tournaments"] == []

    made = create(client, secrets["ann"], max_players=2)
    path = f"/api/tournaments/{made['id']}"
    assert post(client, None, f"{path}/join").status_code == 401  # a guest
    assert post(client, secrets["bob"], f"{path}/start").status_code == 403  # not the organiser
    assert post(client, secrets["bob"], f"{path}/cancel").status_code == 403
    assert post(client, secrets["bob"], f"{path}/join").status_code == 200
    assert post(client, secrets["bob"], f"{path}/join").status_code == 409  # a second join
    assert post(client, secrets["ann"], f"{path}/start").status_code == 409  # one player is too few
    assert post(client, secrets["cy"], f"{path}/join", method="DELETE").status_code == 409  # not in it
    assert post(client, secrets["ann"], "/api/tournaments/nosuch/join").status_code == 404
    assert client.get("/api/tournaments/nosuch").status_code == 404
    with as_player(client, secrets["cy"]):
        cross = client.post(f"{path}/join", headers={"Origin": "https://evil.example"})
    assert cross.status_code == 403
    assert [p["name"] for p in view(client, made["id"])["players"]] == ["bob"]
    assert post(client, secrets["cy"], f"{path}/join").status_code == 200  # full: it starts
    assert view(client, made["id"])["status"] == "running"
    assert post(client, secrets["ann"], f"{path}/join").status_code == 409  # after the start


def test_a_sit_and_go_knockout_runs_to_its_winner(client: TestClient) -> None:
    secrets = players(client, ["ann", "bob", "cy", "dora"])
    organiser = sign_up(client, "olga")
    made = create(client, organiser, max_players=4, final_length=3)
    assert made["status"] == "open" and made["organiser"] == "olga"
    with as_player(client, secrets["ann"]):
        notes = client.websocket_connect("/ws/lobby?only=notes").__enter__()
    page = client.websocket_connect(f"/ws/tournament/{made['id']}").__enter__()
    assert until_type(page, "tournament")["tournament"]["status"] == "open"

    shown = join_all(client, made["id"], secrets)
    assert shown["status"] == "running"
    first = shown["rounds"][0]
    assert first["number"] == 1 and len(first["pairings"]) == 2
    told = until_type(notes, "tournament-match")
    mine = next(p for p in first["pairings"] if "ann" in (p["white"], p["black"]))
    assert told["match"] == mine["match"] and told["tournament"] == made["id"]
    assert told["opponent"] == (mine["black"] if mine["white"] == "ann" else mine["white"])
    live = until(page, lambda m: m["type"] == "tournament" and m["tournament"]["status"] == "running")
    assert live["tournament"]["rounds"][0]["pairings"][0]["match"]

    for p in first["pairings"]:  # the white player wins each: black resigns
        resign(client, secrets[p["black"]], p["match"], secrets[p["white"]])
    settle(client, made["id"])
    shown = view(client, made["id"])
    final = shown["rounds"][1]["pairings"]
    assert len(final) == 1 and final[0]["why"]["final"] is True
    assert {final[0]["white"], final[0]["black"]} == {p["white"] for p in first["pairings"]}
    settings = call(client, context_of(client.app).store.settings_of, final[0]["match"])  # type: ignore[arg-type]
    assert settings[0]["length"] == 3 and settings[0]["tournament"] == made["id"]

    resign(client, secrets[final[0]["white"]], final[0]["match"], secrets[final[0]["black"]])
    settle(client, made["id"])
    shown = view(client, made["id"])
    assert shown["status"] == "finished"
    assert shown["standings"][0]["name"] == final[0]["black"] and shown["standings"][0]["place"] == 1
    assert shown["standings"][1]["name"] == final[0]["white"]
    assert until(page, lambda m: m["type"] == "tournament" and m["tournament"]["status"] == "finished")
    listed = client.get("/api/tournaments").json()["tournaments"]
    assert [(t["id"], t["status"], t["winner"]) for t in listed] == [(made["id"], "finished", final[0]["black"])]
    page.__exit__(None, None, None)
    notes.__exit__(None, None, None)


def tournaments_of(client: TestClient, name: str) -> list[Message]:
    """The tournaments ``name``'s page lists (``GET /api/players/NAME``), its other fields there as before."""
    page = client.get(f"/api/players/{name}")
    assert page.status_code == 200, page.text
    assert {"ratings", "record", "matches"} <= set(page.json())
    return list(page.json()["tournaments"])


def test_each_players_page_lists_his_tournaments_and_places(client: TestClient) -> None:
    secrets = players(client, ["ann", "bob", "cy", "dora"])
    organiser = sign_up(client, "olga")
    made = create(client, organiser, max_players=4)
    assert tournaments_of(client, "ann") == []  # not started: not yet his
    shown = join_all(client, made["id"], secrets)
    entry = {"id": made["id"], "name": "Friday knockout", "format": "knockout", "players": 4}
    assert tournaments_of(client, "ann") == [entry | {"status": "running", "place": None, "finished": None}]

    for p in shown["rounds"][0]["pairings"]:  # white wins each semi-final, then black the final
        resign(client, secrets[p["black"]], p["match"], secrets[p["white"]])
    settle(client, made["id"])
    final = view(client, made["id"])["rounds"][1]["pairings"][0]
    resign(client, secrets[final["white"]], final["match"], secrets[final["black"]])
    settle(client, made["id"])
    shown = view(client, made["id"])
    assert shown["status"] == "finished"
    semis = {p["black"] for p in shown["rounds"][0]["pairings"]}
    places = {}
    for name in secrets:
        [listed] = tournaments_of(client, name)
        assert listed == entry | {"status": "finished", "place": listed["place"], "finished": shown["finished"]}
        places[name] = listed["place"]
    assert places[final["black"]] == 1 and places[final["white"]] == 2  # both players of the final
    assert {places[name] for name in semis} == {3, 4}
    assert places == {s["name"]: s["place"] for s in shown["standings"]}
    assert tournaments_of(client, "olga") == []  # the organiser did not play

    again = create(client, secrets["bob"], name="Saturday", max_players=2)  # newest first
    join_all(client, again["id"], {name: secrets[name] for name in ("ann", "bob")})
    assert [(t["name"], t["status"], t["place"]) for t in tournaments_of(client, "ann")] == [
        ("Saturday", "running", None), ("Friday knockout", "finished", places["ann"])]


def test_a_player_who_never_comes_loses_by_forfeit_and_the_match_cannot_be_aborted(client: TestClient) -> None:
    secrets = players(client, ["ann", "bob"])
    made = create(client, secrets["ann"], max_players=2, forfeit_minutes=1)
    shown = join_all(client, made["id"], secrets)
    pairing = open_pairings(shown)[0]
    ws, state = take_seat(client, secrets["ann"], pairing["match"])
    ws.send_json({"type": "abort", "seq": state["seq"]})
    refused = until_type(ws, "error")
    assert refused["code"] == "no-abort"
    settle(client, made["id"])
    assert view(client, made["id"])["status"] == "running"  # not before the forfeit time

    clock = room(client)
    clock.now = lambda: time.time() + 61.0
    call(client, clock.advance, made["id"])
    shown = view(client, made["id"])
    done = shown["rounds"][0]["pairings"][0]
    assert (done["winner"], done["ending"]) == ("ann", "forfeit")
    assert shown["status"] == "finished"
    assert [p["withdrawn"] for p in shown["players"]] == [False, True]
    over = until(ws, lambda m: m["type"] == "state" and m["over"])
    assert over["winner"] == "white" if pairing["white"] == "ann" else "black"
    ws.__exit__(None, None, None)


def test_a_swiss_pairs_round_by_round_with_its_bye_and_no_repeat(client: TestClient) -> None:
    names = ["ann", "bob", "cy", "dora", "eli"]
    secrets = players(client, names)
    made = create(client, secrets["ann"], format="swiss", rounds=3, max_players=5)
    join_all(client, made["id"], secrets)
    met: set[frozenset[str]] = set()
    byes: list[str] = []
    for number in (1, 2, 3):
        shown = view(client, made["id"])
        current = shown["rounds"][number - 1]
        assert current["number"] == number
        for p in current["pairings"]:
            if p["black"] is None:
                byes.append(p["white"])
                assert p["ending"] == "bye" and p["winner"] == p["white"]
                continue
            pair = frozenset((p["white"], p["black"]))
            assert pair not in met
            met.add(pair)
            loser = min(p["white"], p["black"])  # the name later in the alphabet wins
            winner = p["black"] if loser == p["white"] else p["white"]
            resign(client, secrets[loser], p["match"], secrets[winner])
        settle(client, made["id"])
    shown = view(client, made["id"])
    assert shown["status"] == "finished" and len(shown["rounds"]) == 3
    assert len(byes) == len(set(byes)) == 3
    assert sum(s["points"] for s in shown["standings"]) == 3 * 3  # two matches and a bye a round
    assert [s["place"] for s in shown["standings"]] == [1, 2, 3, 4, 5]
    assert set(shown["standings"][0]["tiebreaks"]) == {"buchholz", "median_buchholz", "sonneborn_berger", "rating"}


def test_an_arena_pairs_whoever_waits_until_its_end(client: TestClient) -> None:
    secrets = players(client, ["ann", "bob", "cy", "dora"])
    made = create(client, secrets["ann"], format="arena", minutes=30, max_players=10, start="when-full")
    join_all(client, made["id"], dict(list(secrets.items())[:2]))
    assert post(client, secrets["ann"], f"/api/tournaments/{made['id']}/start").status_code == 200
    shown = view(client, made["id"])
    assert shown["status"] == "running" and len(open_pairings(shown)) == 1
    for name in ("cy", "dora"):  # an arena takes players while it runs
        assert post(client, secrets[name], f"/api/tournaments/{made['id']}/join").status_code == 200
    shown = view(client, made["id"])
    assert len(open_pairings(shown)) == 2
    first = open_pairings(shown)[0]
    resign(client, secrets[first["black"]], first["match"], secrets[first["white"]])
    assert post(client, secrets[first["black"]], f"/api/tournaments/{made['id']}/pause",
                {"paused": True}).status_code == 200
    settle(client, made["id"])
    shown = view(client, made["id"])
    assert len(open_pairings(shown)) == 1  # one waits alone, the other paused
    top = shown["standings"][0]
    assert (top["name"], top["points"]) == (first["white"], 2)
    clock = room(client)
    clock.now = lambda: time.time() + 31 * 60
    for p in open_pairings(shown):
        resign(client, secrets[p["black"]], p["match"], secrets[p["white"]])
    settle(client, made["id"])
    shown = view(client, made["id"])
    assert shown["status"] == "finished" and not open_pairings(shown)
    assert sum(s["points"] for s in shown["standings"]) == 4


def test_the_organiser_removes_a_player_and_cancels(client: TestClient) -> None:
    secrets = players(client, ["ann", "bob", "cy", "dora"])
    made = create(client, secrets["ann"], format="swiss", rounds=2, max_players=4)
    shown = join_all(client, made["id"], secrets)
    victim = open_pairings(shown)[0]
    answer = post(client, secrets["ann"], f"/api/tournaments/{made['id']}/remove", {"name": victim["black"]})
    assert answer.status_code == 200, answer.text
    removed = view(client, made["id"])
    gone = next(p for p in removed["rounds"][0]["pairings"] if p["match"] == victim["match"])
    assert (gone["winner"], gone["ending"]) == (victim["white"], "forfeit")
    assert post(client, secrets["ann"], f"/api/tournaments/{made['id']}/remove", {"name": "nobody"}).status_code == 400
    assert post(client, secrets["ann"], f"/api/tournaments/{made['id']}/cancel").status_code == 200
    assert view(client, made["id"])["status"] == "cancelled"
    assert post(client, secrets["ann"], f"/api/tournaments/{made['id']}/cancel").status_code == 409
    assert PASSWORD  # the accounts' password is the helpers' own
