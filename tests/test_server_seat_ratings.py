"""The ratings beside the names on the board (the ``state``'s ``players.*.rating``, docs/web.md):
a rated match's state carries both players' ratings in its pool, looked up once per seat and
kept while the match goes on, the ratings it was played for even once it is over and loaded
again; a casual match's, a bot's and a guest's carry none."""

from __future__ import annotations

import sqlite3
from pathlib import Path
from typing import Any

from app_client import make_client, play_until_both_chose
from test_server_accounts import as_player, hello, rated_friend_match, sign_up, token_of, until

SETTLED = {"rating": 1623.4, "provisional": False, "shown": "1623"}
NEWCOMER = {"rating": 1500.0, "provisional": True, "shown": "1500?"}


def set_rating(db: Path, account: int, rating: float, deviation: float, pool: str = "portes") -> None:
    with sqlite3.connect(db) as conn:
        conn.execute("DELETE FROM ratings WHERE account_id = ? AND pool = ?", (account, pool))
        conn.execute("INSERT INTO ratings VALUES (?, ?, ?, ?, 0.06, 12, 0)", (account, pool, rating, deviation))


def ratings_shown(state: dict[str, Any]) -> dict[str, Any]:
    return {seat: state["players"][seat]["rating"] for seat in ("white", "black")}


def test_a_rated_matchs_state_carries_both_ratings_before_the_match(db: Path) -> None:
    with make_client(db) as client:
        eleni, nikos = sign_up(client, "Eleni"), sign_up(client, "Nikos")
        set_rating(db, 1, 1623.4, 80.0)
        set_rating(db, 1, 1900.0, 50.0, pool="fevga")  # another pool's: not this match's
        links, friend = rated_friend_match(client, eleni, nikos, length=1, games="portes")
        with as_player(client, eleni), client.websocket_connect(f"/ws/{links['match']}") as mine, \
                as_player(client, nikos), client.websocket_connect(f"/ws/{links['match']}") as ws:
            first = hello(mine, links["token"])
            state = hello(ws, friend)
            assert ratings_shown(state) == {"white": SETTLED, "black": NEWCOMER}
            set_rating(db, 2, 1700.0, 60.0)  # looked up once per seat, not again with every action
            state = play_until_both_chose({"white": mine, "black": ws}, state)
            assert ratings_shown(state) == {"white": SETTLED, "black": NEWCOMER}
            ws.send_json({"type": "resign", "seq": state["seq"], "match": True})
            until(ws, lambda m: m["type"] == "state" and m["over"] and m["ratings"])
            with as_player(client, None), client.websocket_connect(f"/ws/{links['match']}") as watcher:
                spectator = hello(watcher, token_of(links["watch"]))
            assert ratings_shown(spectator) == {"white": SETTLED, "black": NEWCOMER}
        assert ratings_shown(first)["white"] == SETTLED
        moved = client.get("/api/players/Eleni").json()["ratings"]["portes"]["rating"]
    assert moved > 1623.4
    with make_client(db) as again:  # loaded afresh: the ratings the match was played for, not the new ones
        with as_player(again, eleni), again.websocket_connect(f"/ws/{links['match']}") as mine:
            state = hello(mine, links["token"])
        assert state["over"] and ratings_shown(state) == {"white": SETTLED, "black": {
            "rating": 1700.0, "provisional": False, "shown": "1700"}}
        assert state["ratings"]["white"]["before"] == 1623.4


def test_a_casual_matchs_state_carries_no_rating(client: Any, db: Path) -> None:
    eleni, nikos = sign_up(client, "Eleni"), sign_up(client, "Nikos")
    set_rating(db, 1, 1623.4, 80.0)
    with as_player(client, eleni):
        casual = client.post("/api/matches", json={"opponent": "friend", "seat": "white", "games": "portes"}).json()
        bot = client.post("/api/matches", json={"opponent": "beginner", "games": "portes"}).json()
    with as_player(client, eleni), client.websocket_connect(f"/ws/{casual['match']}") as mine, \
            as_player(client, nikos), client.websocket_connect(f"/ws/{casual['match']}") as ws:
        hello(mine, casual["token"])
        state = hello(ws, token_of(casual["friend"]))
        assert [state["players"][seat]["account"] for seat in ("white", "black")] == [True, True]
        assert ratings_shown(state) == {"white": None, "black": None}
    with as_player(client, eleni), client.websocket_connect(f"/ws/{bot['match']}") as mine:
        assert ratings_shown(hello(mine, bot["token"])) == {"white": None, "black": None}
