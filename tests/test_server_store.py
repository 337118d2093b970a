"""The database layer and the match service over it: on SQLite, and on PostgreSQL when one is given.

``TAVLI_TEST_POSTGRES=postgresql://user@host/db`` runs every test here on PostgreSQL too
(``.ci/run`` starts one).
"""

from __future__ import annotations

import asyncio
import os
import secrets
import time
from collections.abc import Awaitable, Callable
from pathlib import Path
from typing import Any

import pytest
from sqlalchemy import select

from tavli.fairdice import SeededRoller
from tavli.match import Match
from tavli.server.play.seats import SEATS, ActionError, settings_of
from tavli.server.play.service import MatchService
from tavli.server.storage.schema import chat_lines
from tavli.server.storage.store import ActionRow, Conflict, Store, async_url

URLS = ["sqlite"] + ([pytest.param("postgresql", marks=pytest.mark.postgres)] if os.environ.get("TAVLI_TEST_POSTGRES")
                     else [])


def database(kind: str, tmp_path: Path) -> str:
    if kind == "sqlite":
        return f"sqlite:///{tmp_path / 'tavli.db'}"
    return os.environ["TAVLI_TEST_POSTGRES"]


def run(kind: str, tmp_path: Path, test: Callable[[str], Awaitable[None]]) -> None:
    asyncio.run(test(database(kind, tmp_path)))


def test_database_urls() -> None:
    assert async_url("sqlite:////tmp/x.db") == "sqlite+aiosqlite:////tmp/x.db"
    assert async_url("postgres://u@h/d") == "postgresql+asyncpg://u@h/d"
    with pytest.raises(ValueError, match="unsupported database 'mysql'"):
        async_url("mysql://u@h/d")
    with pytest.raises(ValueError, match="not a database URL"):
        async_url("::::")


@pytest.mark.parametrize("kind", URLS)
def test_actions_are_appended_once(kind: str, tmp_path: Path) -> None:
    async def test(url: str) -> None:
        store = Store(url)
        await store.create_tables()
        mid = secrets.token_urlsafe(9)
        white, watch = secrets.token_urlsafe(), secrets.token_urlsafe()
        await store.create_match(mid, {"length": 1}, "human", "bot:expert", {white: "white", watch: "spectator"})
        assert await store.role(mid, white) == "white" and await store.role(mid, watch) == "spectator"
        assert await store.role(mid, "forged") is None
        assert await store.role("other", white) is None
        await store.append(mid, 1, "white", "roll", {"dice": [6, 2]}, {1: b"\x01" * 32}, False)
        with pytest.raises(Conflict):
            await store.append(mid, 1, "black", "roll", {"dice": [1, 1]}, {}, False)
        with pytest.raises(Conflict):
            await store.append(mid, 3, "white", "play", {"play": ""}, {}, False)
        loaded = await store.load(mid)
        assert loaded is not None
        row, seeds, actions = loaded
        assert row.seq == 1 and seeds == [b"\x01" * 32]
        assert [(a.seq, a.seat, a.kind, a.data) for a in actions] == [(1, "white", "roll", {"dice": [6, 2]})]
        assert await store.seqs([mid, "nope"]) == {mid: 1}
        await store.set_presence(mid, ["white"], 100.0)
        await store.set_presence(mid, ["white", "black"], 200.0)
        assert await store.presence_of(mid) == {"white": 200.0, "black": 200.0}
        assert await store.load("nope") is None
        await store.close()

    run(kind, tmp_path, test)


@pytest.mark.parametrize("kind", URLS)
def test_two_servers_on_one_database_cannot_both_act(kind: str, tmp_path: Path) -> None:
    async def test(url: str) -> None:
        stores = [Store(url), Store(url)]
        await stores[0].create_tables()
        one, two = MatchService(stores[0]), MatchService(stores[1])
        links = await one.create({"opponent": "friend", "games": "portes"})
        mid = links["match"]
        a, b = await one.get(mid), await two.get(mid)
        assert a is not None and b is not None
        assert a.match.records[0].opening_rolls == b.match.records[0].opening_rolls  # one seed for both
        mover = "white" if a.match.turn.name == "WHITE" else "black"
        # both players have come (their pages' hello): the first game may begin
        await stores[0].set_presence(mid, ["white", "black"], time.time() + 30)
        await one.roll(mid, mover, 0)
        with pytest.raises(ActionError) as refused:  # the second server's cache is behind: refused
            await two.roll(mid, mover, 0)
        assert refused.value.code == "stale"
        fresh = await two.get(mid)
        assert fresh is not None and fresh.seq == 1 and fresh.match.dice == a.match.dice
        play = str(fresh.match.legal_plays()[0]) if len(fresh.match.legal_plays()) else ""
        if play:
            await two.play(mid, mover, 1, play)
            with pytest.raises(ActionError) as late:
                await one.play(mid, mover, 1, play)
            assert late.value.code == "stale"
        for store in stores:
            await store.close()

    run(kind, tmp_path, test)


@pytest.mark.parametrize("kind", URLS)
def test_a_bot_match_is_stored_and_replayed(kind: str, tmp_path: Path) -> None:
    async def test(url: str) -> None:
        store = Store(url)
        await store.create_tables()
        service = MatchService(store)
        links = await service.create({"opponent": "advanced", "length": 1, "games": "fevga", "seat": "black"})
        mid, me = links["match"], links["seat"]
        live = await service.get(mid)
        assert live is not None
        while not live.match.is_over:
            if live.match.dice is None:
                live = await service.roll(mid, me, live.seq)
            else:
                live = await service.play(mid, me, live.seq, str(live.match.legal_plays()[0]))
        again = MatchService(Store(url))
        replayed = await again.get(mid)
        assert replayed is not None and replayed.seq == live.seq
        assert replayed.match.score == live.match.score and replayed.moves == live.moves
        assert str(replayed.match.game.position) == str(live.match.game.position)
        with pytest.raises(ActionError) as over:
            await again.roll(mid, me, replayed.seq)
        assert over.value.code == "match-over"
        await store.close()
        await again.store.close()

    run(kind, tmp_path, test)


@pytest.mark.parametrize("kind", URLS)
def test_bots_go_on_after_a_restart_cut_them_off(kind: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    async def test(url: str) -> None:
        crashed = MatchService(Store(url))
        await crashed.store.create_tables()
        links = await crashed.create({"opponent": "advanced", "games": "portes", "seat": "white"})
        mid = links["match"]
        live = await crashed.get(mid)
        assert live is not None and live.match.turn.name == "WHITE"

        async def cut_off(live: object) -> None:  # the server dies right after storing the play
            return None

        monkeypatch.setattr(crashed, "_run_bots", cut_off)
        live = await crashed.roll(mid, "white", live.seq)
        if live.match.dice is not None:
            live = await crashed.play(mid, "white", live.seq, str(live.match.legal_plays()[0]))
        assert live.match.turn.name == "BLACK" and live.match.dice is None
        stopped_at = live.seq
        restarted = MatchService(Store(url))
        await restarted.wake(mid)
        after = await restarted.get(mid)
        assert after is not None and after.seq >= stopped_at + 2 and after.match.turn.name == "WHITE"
        await crashed.store.close()
        await restarted.store.close()

    run(kind, tmp_path, test)


@pytest.mark.parametrize("kind", URLS)
def test_the_heartbeat_moves_presence_on_in_one_go(kind: str, tmp_path: Path) -> None:
    async def test(url: str) -> None:
        store = Store(url)
        await store.create_tables()
        ids = [secrets.token_urlsafe(9) for _ in range(3)]
        for mid in ids:
            await store.create_match(mid, {}, "human", "human", {secrets.token_urlsafe(): "white"})
            await store.set_presence(mid, ["white", "black"], 10.0)
        await store.refresh_presence([(ids[0], "white"), (ids[2], "black")], 99.0)
        assert await store.presence_of(ids[0]) == {"white": 99.0, "black": 10.0}
        assert await store.presence_of(ids[1]) == {"white": 10.0, "black": 10.0}
        assert await store.presence_of(ids[2]) == {"white": 10.0, "black": 99.0}
        await store.close()

    run(kind, tmp_path, test)


async def record_match(service: MatchService) -> tuple[str, str]:
    """A whole bot match, the other seat played by a script (the last legal play), stored action by action."""
    links = await service.create({"opponent": "beginner", "length": 3, "games": "tavli", "seat": "white"})
    mid, me = links["match"], links["seat"]
    live = await service.get(mid)
    assert live is not None
    while not live.match.is_over:
        if live.match.dice is None:
            live = await service.roll(mid, me, live.seq)
        else:
            live = await service.play(mid, me, live.seq, str(live.match.legal_plays()[-1]))
    return mid, me


def replay(settings: dict[str, Any], seeds: list[bytes], actions: list[ActionRow]) -> list[tuple[int, bool]]:
    """After each prefix of a match's stored actions (none, one...), replayed with the rules library alone:
    how many games have started, and whether the match is over."""
    match = Match(settings_of(settings), SeededRoller(list(seeds)))
    states = [(len(match.records), match.is_over)]
    for action in actions:
        if action.kind == "roll":
            assert list(match.roll()) == action.data["dice"]
        elif action.kind == "play":
            match.play(action.data["play"] or None)
        else:
            match.concede(SEATS[action.seat].other, "claimed")
        states.append((len(match.records), match.is_over))
    return states


@pytest.mark.slow
@pytest.mark.parametrize("kind", URLS)
def test_every_stored_prefix_of_a_match_can_go_on(kind: str, tmp_path: Path) -> None:
    """A crash can stop the stored actions anywhere (between a roll that cannot be played and its
    pass too, as older versions stored them): each prefix, loaded again, is a match that goes on."""
    async def test(url: str) -> None:
        store = Store(url)
        await store.create_tables()
        recorder = MatchService(store)
        for _ in range(5):  # a match with passes in it (nearly every match has some)
            mid, me = await record_match(recorder)
            loaded = await store.load(mid)
            assert loaded is not None
            row, seeds, actions = loaded
            passes = [a.seq for a in actions if a.kind == "play" and not a.data["play"]]
            if passes:
                break
        assert passes, "five matches without a single pass"
        assert len(seeds) >= 2 and row.over
        states = replay(row.settings, seeds, actions)
        resumed_to_end = 0
        for cut in range(len(actions) + 1):
            prefix, (games, over) = actions[:cut], states[cut]
            copy = secrets.token_urlsafe(9)  # the prefix, as a crash would have left it in the database
            token = secrets.token_urlsafe(24)
            await store.create_match(copy, row.settings, row.white, row.black, {token: me})
            await store.add_seeds(copy, dict(enumerate(seeds[:games])))
            if prefix:
                await store.append_actions(copy, 1, [(a.seat, a.kind, a.data) for a in prefix], {}, over)
            service = MatchService(store)  # a restarted server
            await service.wake(copy)
            live = await service.get(copy)
            assert live is not None
            match = live.match
            # the side to move can act: roll, or play a roll that has plays (a bot's turn is taken)
            assert match.is_over or (live.bot_level(match.turn) is None
                                     and (match.dice is None or len(match.legal_plays()) > 0)), cut
            assert live.seq >= cut
            if cut + 1 in passes or cut % 40 == 0:  # cut between a roll and its pass, and some more
                while not live.match.is_over:
                    if live.match.dice is None:
                        live = await service.roll(copy, me, live.seq)
                    else:
                        live = await service.play(copy, me, live.seq, str(live.match.legal_plays()[-1]))
                assert max(live.match.score.values()) >= 3
                # what the database holds replays to the same end
                again = await MatchService(store).get(copy)
                assert again is not None and again.seq == live.seq and again.match.score == live.match.score
                resumed_to_end += 1
            if cut == len(actions):
                assert match.is_over and live.seq == len(actions) and len(match.records) == len(seeds)
        assert resumed_to_end >= len(passes)
        print(f"{len(actions)} actions, {len(seeds)} games, {len(passes)} passes, {resumed_to_end} played to the end")
        await store.close()

    run(kind, tmp_path, test)


@pytest.mark.parametrize("kind", URLS)
def test_a_roll_and_its_pass_are_stored_together(kind: str, tmp_path: Path) -> None:
    async def test(url: str) -> None:
        store = Store(url)
        await store.create_tables()
        mid = secrets.token_urlsafe(9)
        await store.create_match(mid, {}, "human", "human", {secrets.token_urlsafe(): "white"})
        await store.append_actions(mid, 1, [("white", "roll", {"dice": [6, 6]}), ("white", "play", {"play": ""})],
                                   {0: b"\x02" * 32}, False)
        with pytest.raises(Conflict):  # the match is at action 2 already
            await store.append_actions(mid, 2, [("black", "roll", {"dice": [1, 2]}), ("black", "play", {})], {}, False)
        with pytest.raises(TypeError):  # all or nothing: the second action fails, the first is not kept
            await store.append_actions(mid, 3, [("black", "roll", {"dice": [1, 2]}),
                                                ("black", "play", {"play": object()})], {1: b"\x03" * 32}, False)
        loaded = await store.load(mid)
        assert loaded is not None
        row, seeds, actions = loaded
        assert row.seq == 2 and seeds == [b"\x02" * 32]
        assert [(a.seq, a.kind) for a in actions] == [(1, "roll"), (2, "play")]
        assert await store.seqs([mid]) == {mid: 2}
        await store.close()

    run(kind, tmp_path, test)


@pytest.mark.parametrize("kind", URLS)
def test_rows_of_other_tables_go_in_the_actions_group_commit_and_survive_a_conflict(kind: str, tmp_path: Path) -> None:
    async def test(url: str) -> None:
        store = Store(url)
        await store.create_tables()
        mid = secrets.token_urlsafe(9)
        await store.create_match(mid, {"length": 1}, "human", "human", {secrets.token_urlsafe(): "white"})
        await store.append(mid, 1, "white", "roll", {"dice": [6, 2]}, {1: b"\x01" * 32}, False)

        def line(text: str) -> dict[str, Any]:
            return {"match_id": mid, "room": "players", "seat": "white", "name": None, "phrase": None, "text": text,
                    "at": time.time(), "account_id": None}
        # queued together: one taken action (a conflict) among them sends each on its own, and
        # every row is still written once, each with an id of its own
        results = await asyncio.gather(
            store.add_row(chat_lines, line("one")), store.append(mid, 2, "white", "play", {"play": ""}, {}, False),
            store.add_row(chat_lines, line("two")), store.append(mid, 2, "black", "roll", {"dice": [1, 1]}, {}, False),
            store.add_row(chat_lines, line("three")), return_exceptions=True)
        ids = [results[0], results[2], results[4]]
        assert all(isinstance(i, int) for i in ids) and len(set(ids)) == 3, results
        assert sum(isinstance(r, Conflict) for r in (results[1], results[3])) == 1, results
        async with store.engine.connect() as conn:
            rows = (await conn.execute(select(chat_lines.c.id, chat_lines.c.text).order_by(chat_lines.c.id))).all()
        assert [tuple(r) for r in rows] == sorted(zip(ids, ["one", "two", "three"], strict=True))
        await store.close()

    run(kind, tmp_path, test)
