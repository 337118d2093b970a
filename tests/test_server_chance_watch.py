"""Each side's chance of winning the match on the match page: ``tavli.server.coach.chance_watch`` and the
``chances`` message, end to end through the WebSocket protocol."""

from __future__ import annotations

import itertools
from typing import Any

import pytest
from starlette.testclient import TestClient
from test_server_app import hello, is_state, new_match, token_of, until

from tavli import Position
from tavli.bots.match_equity import MatchScore
from tavli.bots.neural import Evaluator
from tavli.dice import DiceRoller
from tavli.match import Match, MatchSettings
from tavli.server.coach.chance_watch import Snapshot, chances_json
from tavli.variants import BLACK

Message = dict[str, Any]


def test_the_chances_are_the_network_weighted_by_the_match_equity() -> None:
    match = Match(MatchSettings(length=5), DiceRoller(seed=2))
    found = chances_json(Snapshot.of(match))
    position = match.game.position
    p = Evaluator.for_variant("portes").probabilities(position)
    side = position.turn
    mine = MatchScore.at(match.settings, 5, 5, 0).after_game().value(p.win, p.win2, p.lose2)
    assert found[str(side).lower()] == pytest.approx(mine, abs=1e-4)
    assert found["white"] + found["black"] == pytest.approx(1.0) and found["by"] == "0-ply"
    # the leader of a match is the favourite in the next game's starting position, more so the more he leads
    match.concede(BLACK, "resigned", points=1)
    one = chances_json(Snapshot.of(match))
    match.concede(BLACK, "resigned", points=2)
    three = chances_json(Snapshot.of(match))
    assert 0.5 < one["white"] < three["white"] < 1.0 and three["score"] == {"white": 3, "black": 0}
    match.resign_match(BLACK)
    over = chances_json(Snapshot.of(match))
    assert (over["white"], over["black"], over["by"]) == (1.0, 0.0, "result")


def snapshot_of(message: Message, games: tuple[str, ...] = ("portes",)) -> Snapshot:
    """The snapshot of the match a state or a chances message shows."""
    if is_state(message):
        settings = MatchSettings(length=message["settings"]["length"], games=tuple(message["settings"]["games"]))
        return Snapshot(settings, message["score"]["white"], message["score"]["black"], message["game"]["index"],
                        Position.from_string(message["game"]["position"]), None)
    return Snapshot(MatchSettings(length=message["length"], games=games), message["score"]["white"],
                    message["score"]["black"], message["game"], Position.from_string(message["position"]), None)


def test_a_spectator_gets_the_chances_and_a_player_only_once_he_asks(client: TestClient) -> None:
    links = new_match(client, opponent="advanced", length=2, games="portes", seat="white")
    mid = links["match"]
    with client.websocket_connect(f"/ws/{mid}") as player, client.websocket_connect(f"/ws/{mid}") as watcher:
        state = hello(player, links["token"])
        hello(watcher, token_of(links["watch"]))
        watcher.send_json({"type": "chances", "on": True, "id": 7})
        first = until(watcher, lambda m: m["type"] == "chances")
        assert first["white"] + first["black"] == pytest.approx(1.0) and first["length"] == 2
        # the player plays the whole match without asking: he gets no chances
        seen: list[Message] = []
        while not state["over"]:
            if state["can_roll"]:
                player.send_json({"type": "roll", "seq": state["seq"]})
            elif state["can_play"]:
                player.send_json({"type": "play", "seq": state["seq"], "play": state["legal"]["plays"][0]})
            while True:
                m = dict(player.receive_json())
                seen.append(m)
                if is_state(m) and (m["can_roll"] or m["can_play"] or m["over"]):
                    state = m
                    break
        assert "chances" not in {m["type"] for m in seen} and len(seen) > 10
        # the spectator got them as the match went, each from the position of its state
        states: dict[int, Message] = {}
        chances: list[Message] = [first]
        while True:
            m = until(watcher, lambda m: m["type"] in ("state", "chances"))
            if is_state(m):
                states[m["seq"]] = m
            else:
                chances.append(m)
                if m["by"] == "result":
                    break
        last = chances[-1]
        winner = state["winner"]
        assert last[winner] == 1.0 and last["score"] == state["score"]
        assert [c["seq"] for c in chances] == sorted(c["seq"] for c in chances)
        shown = {(s["game"]["position"], s["score"]["white"], s["score"]["black"]) for s in states.values()}
        for c in chances[1:-1]:
            assert (c["position"], c["score"]["white"], c["score"]["black"]) in shown
            expected = chances_json(snapshot_of(c))
            assert (c["white"], c["black"], c["game_win"]) == (expected["white"], expected["black"],
                                                               expected["game_win"])
        assert len(chances) > 5
        # a roll does not change the position: its chances are not sent again (a position can
        # come back later in a game, after a hit, so only one after another is checked)
        positions = [(c["position"], c["game"]) for c in chances[1:-1]]
        assert all(a != b for a, b in itertools.pairwise(positions))
        # the player asks now, and gets the chances at once; then turns them off
        player.send_json({"type": "chances", "on": True})
        mine = until(player, lambda m: m["type"] == "chances" or (m["type"] == "error" and m["code"] != "stale"))
        assert mine["type"] == "chances" and mine[winner] == 1.0
        player.send_json({"type": "chances", "on": False})
        player.send_json({"type": "ping", "id": "after"})
        assert until(player, lambda m: m["type"] in ("pong", "chances"))["type"] == "pong"


def test_a_player_against_a_person_gets_no_chances_and_bad_messages_change_nothing(client: TestClient) -> None:
    links = new_match(client, opponent="friend", length=3, games="plakoto", seat="white")
    mid = links["match"]
    with client.websocket_connect(f"/ws/{mid}") as a, client.websocket_connect(f"/ws/{mid}") as w:
        ws = client.websocket_connect(f"/ws/{mid}")
        with ws as early:
            early.send_json({"type": "chances", "on": True})
            assert until(early, lambda m: m["type"] == "error")["code"] == "not-joined"
        state = hello(a, links["token"])
        a.send_json({"type": "chances", "on": True, "id": "c"})
        error = until(a, lambda m: m["type"] in ("error", "chances"))
        assert (error["type"], error["code"], error["id"]) == ("error", "no-chances", "c")
        a.send_json({"type": "chances", "on": "yes"})
        assert until(a, lambda m: m["type"] == "error")["code"] == "bad-message"
        # a spectator of the same match may have them
        hello(w, token_of(links["watch"]))
        w.send_json({"type": "chances", "on": True})
        found = until(w, lambda m: m["type"] == "chances")
        assert found["white"] + found["black"] == pytest.approx(1.0) and found["seq"] == state["seq"]
        assert found["position"] == state["game"]["position"]
        assert found["white"] == chances_json(snapshot_of(state))["white"]
