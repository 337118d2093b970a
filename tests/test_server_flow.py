"""Resigning a game or a match, and rematches, through the WebSocket protocol."""

from __future__ import annotations

import asyncio
from pathlib import Path
from typing import Any

from app_client import make_client
from starlette.testclient import TestClient
from test_server_app import hello, hello_both, is_state, new_match, token_of, until

from tavli import Dice, Position
from tavli.bots.neural import NeuralBot
from tavli.server.play.bot_pool import bot_takes
from tavli.server.play.seats import rematch_token, spectator_rematch_token
from tavli.server.play.service import MatchService
from tavli.server.storage.store import Store, token_hash
from tavli.variants import WHITE

Message = dict[str, Any]


def error_of(ws: Any) -> Message:
    return until(ws, lambda m: m["type"] == "error")


def my_turn(ws: Any, state: Message) -> Message:
    """Roll and play the first legal play until it is this seat's turn to roll again."""
    while not state["can_roll"] and not state["over"]:
        if state["can_play"]:
            ws.send_json({"type": "play", "seq": state["seq"], "play": state["legal"]["plays"][0]})
        state = until(ws, lambda m: is_state(m) and (m["can_roll"] or m["can_play"] or m["over"]))
    return state


def test_a_friend_declines_then_accepts_a_resignation(client: TestClient, db: Path) -> None:
    links = new_match(client, opponent="friend", length=3, games="portes", seat="white", clock="none")
    mid = links["match"]
    with client.websocket_connect(f"/ws/{mid}") as a, client.websocket_connect(f"/ws/{mid}") as b:
        sa, sb = hello_both(a, links["token"], b, token_of(links["friend"]))
        mover, other, s = (a, b, sa) if sa["can_roll"] else (b, a, sb)
        you = s["you"]
        assert s["can_resign"] and not (sb if s is sa else sa)["can_resign"]
        other.send_json({"type": "resign", "seq": s["seq"], "points": 1})
        assert error_of(other)["code"] == "not-your-turn"
        mover.send_json({"type": "resign", "seq": s["seq"], "points": 3})
        assert error_of(mover)["code"] == "bad-message"
        mover.send_json({"type": "resign", "seq": s["seq"], "points": 2})
        seen = until(other, lambda m: is_state(m) and m["offer"] is not None)
        assert seen["offer"] == {"kind": "resign", "from": you, "points": 2}
        mover.send_json({"type": "roll", "seq": seen["seq"]})
        assert error_of(mover)["code"] == "offer-pending"
        mover.send_json({"type": "answer", "seq": seen["seq"], "accept": True})
        assert error_of(mover)["code"] == "no-offer"
        other.send_json({"type": "answer", "seq": seen["seq"], "accept": False})
        declined = until(mover, lambda m: is_state(m) and m["seq"] == seen["seq"] + 1)
        assert declined["offer"] is None and declined["can_roll"] and declined["score"] == {"white": 0, "black": 0}
        mover.send_json({"type": "resign", "seq": declined["seq"], "points": 1})
        offered = until(other, lambda m: is_state(m) and m["offer"] is not None)
        other.send_json({"type": "answer", "seq": offered["seq"], "accept": True})
        after = until(mover, lambda m: is_state(m) and m["seq"] == offered["seq"] + 1)
        winner = "black" if you == "white" else "white"
        assert after["score"][winner] == 1 and after["game"]["index"] == 1
        assert after["games"][0]["result"] == {"winner": winner, "points": 1, "reason": "resigned", "why": "resigned"}
        assert after["games"][0]["seed"] and after["games"][0]["final"]["pips"][you] > 0
    with make_client(db) as restarted, restarted.websocket_connect(f"/ws/{mid}") as again:
        fresh = hello(again, links["token"])  # replayed from the stored actions by a new server
        assert fresh["seq"] == after["seq"] and fresh["score"] == after["score"] and fresh["offer"] is None
        assert fresh["games"][0]["result"] == after["games"][0]["result"]


def test_a_pending_offer_survives_a_restart(db: Path) -> None:
    with make_client(db) as client:
        links = new_match(client, opponent="friend", length=3, games="plakoto", seat="white", clock="none")
        mid = links["match"]
        with client.websocket_connect(f"/ws/{mid}") as a, client.websocket_connect(f"/ws/{mid}") as b:
            sa, sb = hello_both(a, links["token"], b, token_of(links["friend"]))
            mover, s = (a, sa) if sa["can_roll"] else (b, sb)
            mover.send_json({"type": "resign", "seq": s["seq"], "points": 1})
            offered = until(mover, lambda m: is_state(m) and m["offer"] is not None)
    with make_client(db) as client, client.websocket_connect(f"/ws/{mid}") as ws:
        other = token_of(links["friend"]) if s is sa else links["token"]
        fresh = hello(ws, other)
        assert fresh["offer"] == offered["offer"] and fresh["seq"] == offered["seq"]
        ws.send_json({"type": "answer", "seq": fresh["seq"], "accept": True})
        done = until(ws, lambda m: is_state(m) and m["seq"] == fresh["seq"] + 1)
        assert done["games"][0]["result"]["why"] == "resigned" and done["offer"] is None


def test_a_bot_takes_what_it_expects_and_a_match_can_be_resigned(client: TestClient) -> None:
    links = new_match(client, opponent="beginner", length=5, games="portes", seat="white")
    mid = links["match"]
    with client.websocket_connect(f"/ws/{mid}") as ws:
        state = my_turn(ws, hello(ws, links["token"], steps=True))
        # the network expects the bot to win less than 2 points: 2 is always taken
        ws.send_json({"type": "resign", "seq": state["seq"], "points": 2})
        taken = until(ws, lambda m: is_state(m) and m["score"]["black"] == 2)
        assert taken["games"][0]["result"]["why"] == "resigned" and taken["offer"] is None
        state = my_turn(ws, taken)
        ws.send_json({"type": "resign", "seq": state["seq"], "match": True})
        over = until(ws, lambda m: is_state(m) and m["over"])
        assert over["winner"] == "black" and over["score"]["black"] == 5
        assert over["games"][-1]["result"]["why"] == "resigned-match"
        ws.send_json({"type": "resign", "seq": over["seq"], "points": 1})
        assert error_of(ws)["code"] == "match-over"


def test_the_bots_answer_follows_the_network() -> None:
    bot = NeuralBot("beginner")
    assert bot.accepts_resignation(Position.start("portes"), 1)  # about even: 1 point is more than expected
    # White resigns on his roll while Black (the bot) bears off its last checker next: 2 points expected
    losing = Position.from_checkers("portes", WHITE, {19: 15}, {1: 1})
    assert not bot.accepts_resignation(losing, 1) and bot.accepts_resignation(losing, 2)
    # White resigns a game he is about to win: anything is better for the bot
    winning = Position.from_checkers("portes", WHITE, {1: 1}, {19: 15})
    assert bot.accepts_resignation(winning, 1)


def test_a_bot_judges_a_resignation_after_the_roll_by_the_roll() -> None:
    # White, none off, must bear off a checker now or lose 2 points: Black bears off his last next
    pos = Position.from_checkers("portes", WHITE, {6: 14, 1: 1}, {1: 1})
    assert not bot_takes("expert", pos, None, 1, None)  # before the roll: 2 points likely, 1 is too few
    assert bot_takes("expert", pos, Dice(6, 5), 1, None)  # 6/off: the bot can win 1 point and no more
    assert not bot_takes("expert", pos, Dice(4, 3), 1, None)  # nothing comes off: 2 points for sure
    assert bot_takes("expert", pos, Dice(4, 3), 2, None)


def test_a_rematch_against_a_bot_swaps_the_seats_and_keeps_the_link(client: TestClient) -> None:
    links = new_match(client, opponent="beginner", length=1, games="fevga", seat="white")
    mid, token = links["match"], links["token"]
    with client.websocket_connect(f"/ws/{mid}") as ws:
        state = hello(ws, token)
        ws.send_json({"type": "rematch", "seq": state["seq"]})
        assert error_of(ws)["code"] == "illegal"
        ws.send_json({"type": "resign", "seq": state["seq"], "match": True})
        over = until(ws, lambda m: is_state(m) and m["over"])
        ws.send_json({"type": "rematch", "seq": over["seq"]})
        agreed = until(ws, lambda m: is_state(m) and m["rematch"] is not None)
    new_id = agreed["rematch"]
    with client.websocket_connect(f"/ws/{new_id}") as ws:
        fresh = hello(ws, rematch_token(token, new_id))
        assert fresh["you"] == "black" and fresh["players"]["white"] == {
            "kind": "bot", "level": "beginner", "connected": True, "joined": True, "name": None, "account": False,
            "rating": None}
        assert fresh["settings"] == agreed["settings"] and fresh["score"] == {"white": 0, "black": 0}
    with client.websocket_connect(f"/ws/{new_id}") as ws:  # the old token itself opens nothing there
        assert hello(ws, token)["code"] == "bad-token"


def test_a_rematch_between_friends_needs_both(client: TestClient) -> None:
    links = new_match(client, opponent="friend", length=1, games="portes", seat="white", clock="none")
    mid, ta, tb = links["match"], links["token"], token_of(links["friend"])
    with client.websocket_connect(f"/ws/{mid}") as a, client.websocket_connect(f"/ws/{mid}") as b:
        sa = hello(a, ta)
        hello(b, tb)
        a.send_json({"type": "resign", "seq": sa["seq"], "match": True})
        over = until(b, lambda m: is_state(m) and m["over"])
        b.send_json({"type": "rematch", "seq": over["seq"]})
        offered = until(a, lambda m: is_state(m) and m["offer"] is not None)
        assert offered["offer"]["kind"] == "rematch" and offered["offer"]["from"] == "black"
        assert offered["rematch"] is None
        a.send_json({"type": "answer", "seq": offered["seq"], "accept": True})
        agreed = until(b, lambda m: is_state(m) and m["rematch"] is not None)
    new_id = agreed["rematch"]
    with client.websocket_connect(f"/ws/{new_id}") as a, client.websocket_connect(f"/ws/{new_id}") as b:
        assert hello(a, rematch_token(ta, new_id))["you"] == "black"
        assert hello(b, rematch_token(tb, new_id))["you"] == "white"
    spectator = spectator_rematch_token(token_hash(token_of(links["watch"])), new_id)
    with client.websocket_connect(f"/ws/{new_id}") as watch:
        assert hello(watch, spectator)["you"] == "spectator"
    with client.websocket_connect(f"/ws/{new_id}") as wrong:  # a player's derivation is not a spectator's
        wrong.send_json({"type": "hello", "token": rematch_token(token_of(links["watch"]), new_id)})
        assert until(wrong, lambda m: m["type"] == "error")["code"] == "bad-token"


def test_a_bot_answers_an_offer_left_by_a_crash(db: Path) -> None:
    """An offer stored just before the server stopped is answered when the match is opened again."""

    async def offer_then_stop() -> tuple[str, str, int]:
        store = Store(f"sqlite:///{db}")
        await store.create_tables()
        service = MatchService(store)
        links = await service.create({"opponent": "beginner", "length": 3, "games": "portes", "seat": "white"})
        live = await service.get(links["match"])
        assert live is not None and live.match.turn == WHITE  # the bot has played up to White's turn
        await service._commit(live, "white", "resign", {"points": 2})  # stored; the bot never saw it
        await store.close()
        return links["match"], links["token"], live.seq

    match_id, token, seq = asyncio.run(offer_then_stop())
    with make_client(db) as client, client.websocket_connect(f"/ws/{match_id}") as ws:
        state = hello(ws, token)
        assert state["offer"] == {"kind": "resign", "from": "white", "points": 2}
        answered = until(ws, lambda m: is_state(m) and m["offer"] is None)
        assert answered["seq"] == seq + 1 and answered["score"]["black"] == 2
