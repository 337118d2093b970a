"""A tournament's trust (docs/tournaments.md, "Restarts") in real ``tavli serve`` processes: a Swiss
killed (kill -9) in the middle of a round, and again just after its next round is paired, goes on
where it was, each round paired once and no result lost; two processes on one PostgreSQL database
store one first round between them, tell the players connected to either, and pair the second once,
its matches played through both. And a match's end not yet kept when its server stopped counts for
its tournament once a server starts again.

The PostgreSQL test needs ``TAVLI_TEST_POSTGRES`` (``.ci/run`` sets it); its tables live in a schema
of their own."""

from __future__ import annotations

import contextlib
import json
import os
import signal
import time
import urllib.error
import urllib.request
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from app_client import make_client
from serve_process import Server, resign_by_session, resign_the_match, seat_by_session
from test_server_lobby_workers import pair  # noqa: F401  (the two processes, a fixture)
from test_server_tournaments import KNOCKOUT, create, join_all, open_pairings, players, resign, settle
from test_server_tournaments import view as view_here
from websockets.sync.client import connect

from tavli.server.app import ended
from tavli.server.routes.context import context_of

Message = dict[str, Any]
SWISS = KNOCKOUT | {"name": "Durable Swiss", "format": "swiss", "rounds": 3, "max_players": 5,
                    "forfeit_minutes": 30}
"""A sit-and-go Swiss of five: three rounds of two matches to 1 point without a clock, and a bye (nobody
loses by not coming while these tests run)."""


def view(server: Server, tournament: str) -> Message:
    with urllib.request.urlopen(f"{server.url}/api/tournaments/{tournament}", timeout=60) as answer:
        return dict(json.load(answer))


def made(server: Server, match_id: str) -> bool:
    """Whether the match is stored (its record can be read)."""
    try:
        with urllib.request.urlopen(f"{server.url}/api/matches/{match_id}/record", timeout=60):
            return True
    except urllib.error.HTTPError as refused:
        assert refused.code == 404, refused
        return False


def until_view(server: Server, tournament: str, done: Callable[[Message], bool]) -> Message:
    """The tournament as ``server`` shows it once ``done`` holds (asked again for two minutes at most)."""
    for _ in range(600):
        shown = view(server, tournament)
        if done(shown):
            return shown
        time.sleep(0.2)
    raise AssertionError(f"the tournament never came to that: {shown}")


def all_made(server: Server, pairings: list[Message]) -> bool:
    return all(made(server, p["match"]) for p in pairings if p["match"])


def sit_and_go(body: Message, joins: list[tuple[Server, str]]) -> Message:
    """A tournament made by the first of ``joins`` (a server and a session cookie), joined by each
    through its server: the last join's answer (full, it has started)."""
    server, cookie = joins[0]
    tournament = server.post("/api/tournaments", body, {"Cookie": cookie})["id"]
    for server, cookie in joins:
        shown = server.post(f"/api/tournaments/{tournament}/join", {}, {"Cookie": cookie})
    return shown


def boards(round_: Message) -> list[tuple[str, str | None, str | None]]:
    """A round's pairings as paired (its players and matches), whatever has been played."""
    return [(p["white"], p["black"], p["match"]) for p in round_["pairings"]]


def paired_once(shown: Message) -> None:
    """Each round of ``shown`` paired once: numbered 1, 2, ..., nobody twice in one, and every match
    a match of its own."""
    assert [r["number"] for r in shown["rounds"]] == list(range(1, len(shown["rounds"]) + 1))
    for r in shown["rounds"]:
        names = [name for p in r["pairings"] for name in (p["white"], p["black"]) if name]
        assert len(names) == len(set(names)), r
    ids = [p["match"] for r in shown["rounds"] for p in r["pairings"] if p["match"]]
    assert len(ids) == len(set(ids))


def play_out(server: Server, cookies: dict[str, str], pairings: list[Message]) -> None:
    """Each match of ``pairings`` in play ends: black resigns it."""
    for p in pairings:
        if p["ending"] is None:
            assert resign_by_session(server, p["match"], cookies[p["black"]])["winner"] == "white"


@pytest.mark.slow
def test_a_swiss_killed_mid_round_and_after_a_pairing_goes_on_with_each_round_once(tmp_path: Path) -> None:
    db = tmp_path / "tavli.db"
    server = Server(db)
    try:
        cookies = {name: server.sign_up(name) for name in ("ann", "bob", "cy", "dora", "eli")}
        shown = sit_and_go(SWISS, [(server, cookie) for cookie in cookies.values()])
        tournament, first = shown["id"], shown["rounds"][0]
        played = [p for p in first["pairings"] if p["match"]]
        assert shown["status"] == "running" and len(played) == 2
        with seat_by_session(server, played[0]["match"], cookies[played[0]["black"]]) as (ws, state):
            assert resign_the_match(ws, state)["winner"] == "white"
            server.stop(signal.SIGKILL)  # at once: its result perhaps not kept yet; the other match in play

        server = Server(db)
        shown = until_view(server, tournament, lambda v: played[0]["match"] in {
            p["match"] for p in v["rounds"][0]["pairings"] if p["ending"]})
        assert [boards(r) for r in shown["rounds"]] == [boards(first)] and all_made(server, played)
        play_out(server, cookies, shown["rounds"][0]["pairings"])
        shown = until_view(server, tournament, lambda v: len(v["rounds"]) == 2)
        server.stop(signal.SIGKILL)  # right after round 2 is stored: its matches perhaps not made yet

        server = Server(db)
        second = shown["rounds"][1]
        shown = until_view(server, tournament, lambda v: all_made(server, v["rounds"][-1]["pairings"]))
        assert [boards(r) for r in shown["rounds"]] == [boards(first), boards(second)]
        play_out(server, cookies, second["pairings"])
        shown = until_view(server, tournament, lambda v: len(v["rounds"]) == 3
                           and all_made(server, v["rounds"][2]["pairings"]))
        play_out(server, cookies, shown["rounds"][2]["pairings"])
        shown = until_view(server, tournament, lambda v: v["status"] == "finished")
    finally:
        server.stop(signal.SIGKILL)
    assert len(shown["rounds"]) == 3 and boards(shown["rounds"][1]) == boards(second)
    paired_once(shown)
    results = [(p["winner"], p["ending"]) for r in shown["rounds"] for p in r["pairings"]]
    assert results == [(p["white"], "resigned" if p["black"] else "bye") for r in shown["rounds"]
                       for p in r["pairings"]]  # every result as played: none lost, none a forfeit
    assert sum(s["points"] for s in shown["standings"]) == len(results)  # a point a match and a bye


@pytest.mark.postgres
@pytest.mark.skipif(not os.environ.get("TAVLI_TEST_POSTGRES"),
                    reason="set TAVLI_TEST_POSTGRES to a PostgreSQL database")
def test_two_processes_pair_each_round_once_and_tell_the_players_on_both(pair: tuple[Server, Server]) -> None:  # noqa: F811
    a, b = pair
    names = ["ann", "bob", "cy", "dora", "eli", "fay", "gus", "hal"]
    through = {name: (a, b)[i % 2] for i, name in enumerate(names)}
    cookies = {name: through[name].sign_up(name) for name in names}
    with contextlib.ExitStack() as opened:
        notes = {}
        for name in ("ann", "bob"):  # one page open on each process
            notes[name] = opened.enter_context(connect(through[name].url.replace("http", "ws") + "/ws/lobby?only=notes",
                                                       additional_headers={"Cookie": cookies[name]}))
            assert json.loads(notes[name].recv(timeout=30))["type"] == "challenges"  # it is listening
        tournament = sit_and_go(KNOCKOUT | {"max_players": 8}, [(through[n], cookies[n]) for n in names])["id"]
        shown = until_view(a, tournament, lambda v: len(v["rounds"]) == 1 and all_made(b, v["rounds"][0]["pairings"]))
        first = shown["rounds"][0]["pairings"]
        assert len(first) == 4 and view(b, tournament)["rounds"] == shown["rounds"]
        for name, ws in notes.items():
            while (told := json.loads(ws.recv(timeout=30)))["type"] != "tournament-match":
                pass
            mine = next(p for p in first if name in (p["white"], p["black"]))
            assert (told["tournament"], told["match"], told["round"]) == (tournament, mine["match"], 1)

    play_out(a, cookies, first[::2])
    play_out(b, cookies, first[1::2])
    shown = until_view(b, tournament, lambda v: len(v["rounds"]) == 2 and all_made(a, v["rounds"][1]["pairings"]))
    assert view(a, tournament)["rounds"] == shown["rounds"]
    assert [p["winner"] for p in shown["rounds"][0]["pairings"]] == [p["white"] for p in first]
    second = shown["rounds"][1]["pairings"]
    assert {name for p in second for name in (p["white"], p["black"])} == {p["white"] for p in first}
    paired_once(shown)


def test_a_match_over_whose_result_a_stopped_server_did_not_keep_counts_at_the_next_start(tmp_path: Path) -> None:
    # the server stops between a tournament match's last action (stored) and keeping its result, as
    # a kill -9 just after it does: here the work of a match's end is never begun
    with make_client(tmp_path / "t.db") as client:
        service = context_of(client.app).service  # type: ignore[arg-type]
        service.listeners[:] = [job for job in service.listeners if getattr(job, "func", None) is not ended]
        secrets = players(client, ["ann", "bob"])
        tournament = create(client, secrets["ann"], max_players=2)["id"]
        pairing = open_pairings(join_all(client, tournament, secrets))[0]
        resign(client, secrets[pairing["black"]], pairing["match"], secrets[pairing["white"]])
        settle(client, tournament)
        assert view_here(client, tournament)["status"] == "running"
    with make_client(tmp_path / "t.db") as client:
        settle(client, tournament)
        shown = view_here(client, tournament)
    done = shown["rounds"][0]["pairings"][0]
    assert (shown["status"], done["winner"], done["ending"]) == ("finished", pairing["white"], "resigned")
