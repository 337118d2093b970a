"""The match record: round trips over random matches, and a one-line error naming where for bad files."""

from __future__ import annotations

import json
import random
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from tavli.bots import RandomBot
from tavli.dice import Dice, DiceRoller
from tavli.fairdice import SeededRoller, commitment
from tavli.formats.record import (
    FORMAT,
    VERSION,
    GameEnd,
    MatchRecord,
    PlayerInfo,
    RecordedGame,
    RecordError,
    TurnRecord,
    dumps,
    loads,
    read,
    write,
)
from tavli.match import Match, MatchSettings
from tavli.variants import BLACK, WHITE

PLAYERS = {WHITE: PlayerInfo("human", "Ada"), BLACK: PlayerInfo("bot", "random")}


def play_match(settings: MatchSettings, seeds: list[bytes], bot_seed: int, stop_after: int | None = None,
               concede_at: int | None = None) -> tuple[Match, SeededRoller]:
    """A match between random bots; it stops after ``stop_after`` turns, or a side resigns at turn ``concede_at``."""
    rng = random.Random(bot_seed)
    roller = SeededRoller(seeds, make_seed=lambda: rng.randbytes(32))
    match = Match(settings, roller)
    bot = RandomBot(bot_seed)
    turns = 0
    while not match.is_over and (stop_after is None or turns < stop_after):
        if concede_at is not None and turns == concede_at:
            match.concede(match.turn, "resigned", 1 + turns % 2)
        else:
            match.roll()
            legal = match.legal_plays()
            match.play(legal[bot.choose(legal)] if len(legal) else None)
        turns += 1
    return match, roller


@st.composite
def match_settings(draw: st.DrawFn) -> MatchSettings:
    games = draw(st.lists(st.sampled_from(["portes", "plakoto", "fevga"]), min_size=1, max_size=3))
    return MatchSettings(length=draw(st.integers(1, 3)), games=tuple(games),
                         mother_pin=draw(st.sampled_from(["double", "single", "off"])),
                         prime_limits=draw(st.booleans()), prime_in_opponent_start=draw(st.booleans()))


@pytest.mark.slow
@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(match_settings(), st.integers(0, 2**32), st.none() | st.integers(0, 300), st.none() | st.integers(0, 200))
def test_random_matches_round_trip_and_replay(match_settings: MatchSettings, seed: int, stop_after: int | None,
                                              concede_at: int | None) -> None:
    match, roller = play_match(match_settings, [], seed, stop_after, concede_at)
    if not match.is_over and seed % 2:
        match.roll()  # saved mid-turn: the roll still to play is kept
    record = MatchRecord.from_match(match, PLAYERS, roller.seeds, meta={"event": "test"})
    text = dumps(record)
    again = loads(text)
    assert again == record
    assert dumps(again) == text
    assert again.score == match.score
    for recorded, game_record in zip(again.games, match.records, strict=True):
        game = game_record.game
        replayed = recorded.replay()
        assert replayed.position == game.position
        assert [t.play for t in replayed.history] == [t.play for t in game.history]
        assert replayed.start.turn == game.start.turn
        # seeds of unfinished games are withheld, their commitments are not
        assert (recorded.seed is None) == (game.result is None)
        assert recorded.commitment is not None
    # and the match goes on from the record as it was
    resumed = again.to_match(DiceRoller(seed))
    assert (resumed.score, resumed.is_over, resumed.dice) == (match.score, match.is_over, match.dice)
    assert [(r.opening_rolls, r.game.start.turn, r.game.position, r.game.result) for r in resumed.records] == [
        (r.opening_rolls, r.game.start.turn, r.game.position, r.game.result) for r in match.records]


def finished(length: int = 3, games: tuple[str, ...] = ("portes", "plakoto", "fevga"),
             seed: int = 11) -> dict[str, Any]:
    match, roller = play_match(MatchSettings(length=length, games=games), [], seed)
    return json.loads(dumps(MatchRecord.from_match(match, PLAYERS, roller.seeds)))


def test_a_finished_match_round_trips_through_a_file(tmp_path: Path) -> None:
    match, roller = play_match(MatchSettings(length=3), [], 5)
    record = MatchRecord.from_match(match, PLAYERS, roller.seeds)
    write(record, tmp_path / "m.json")
    again = read(tmp_path / "m.json")
    assert again == record
    assert again.winner == match.winner
    assert all(g.seed is not None and g.end is not None for g in again.games)
    assert again.players[BLACK] == PlayerInfo("bot", "random")
    assert "created" in again.meta


def test_each_turn_is_one_line() -> None:
    data = finished()
    text = dumps(loads(json.dumps(data)))
    turn_lines = [line for line in text.splitlines() if line.lstrip().startswith('{"color"')]
    assert len(turn_lines) == sum(len(g["turns"]) for g in data["games"])


def test_a_running_match_withholds_the_seed_of_the_game_going_on() -> None:
    match, roller = play_match(MatchSettings(length=5, games=("plakoto",)), [], 3, stop_after=7)
    record = loads(dumps(MatchRecord.from_match(match, PLAYERS, roller.seeds)))
    game = record.games[-1]
    assert game.end is None and game.seed is None
    assert game.commitment == commitment(roller.seeds[0])
    assert len(game.turns) == 7


def test_a_resignation_is_an_end_before_the_rules_end_the_game() -> None:
    match, roller = play_match(MatchSettings(length=1, games=("portes",)), [], 8, concede_at=4)
    record = loads(dumps(MatchRecord.from_match(match, PLAYERS, roller.seeds)))
    game = record.games[0]
    assert game.end == GameEnd(match.game.result.winner if match.game.result else None, 1, "resigned")
    assert game.end.winner is not None
    assert game.replay().result is None  # the position itself is not over


def test_a_resigned_match_gives_the_points_still_missing() -> None:
    match, roller = play_match(MatchSettings(length=5, games=("portes",)), [], 9, stop_after=6)
    match.resign_match(match.turn)
    record = loads(dumps(MatchRecord.from_match(match, PLAYERS, roller.seeds)))
    assert record.games[-1].end == GameEnd(match.turn.other, 5, "resigned the match")
    assert record.score[match.turn.other] == 5 and record.winner == match.turn.other
    data = json.loads(dumps(record))
    data["games"][-1]["end"]["points"] = 3  # short of the match: not a match resignation
    with pytest.raises(RecordError, match="game 1: end: a resigned match gives the winner the points still missing"):
        loads(json.dumps(data))


def test_dice_without_a_seed_are_recorded_too() -> None:
    match = Match(MatchSettings(length=1, games=("fevga",)), DiceRoller(seed=4))
    bot = RandomBot(4)
    while not match.is_over:
        match.roll()
        legal = match.legal_plays()
        match.play(legal[bot.choose(legal)] if len(legal) else None)
    record = loads(dumps(MatchRecord.from_match(match, PLAYERS)))
    assert record.games[0].commitment is None and record.games[0].seed is None
    assert record.games[0].end is not None


def test_a_series_of_games_is_length_zero() -> None:
    games = []
    for k in range(3):
        match, _ = play_match(MatchSettings(length=1, games=("portes",)), [], 20 + k)
        games.extend(MatchRecord.from_match(match, PLAYERS).games)
    record = MatchRecord(MatchSettings(length=1, games=("portes",)), PLAYERS, games, {}, series=True)
    text = dumps(record)
    assert json.loads(text)["settings"]["length"] == 0
    again = loads(text)
    assert again.series and again == record and again.winner is None
    assert sum(again.score.values()) == sum(g.end.points for g in games if g.end)
    # as a 1-point match, the same games are too many
    with pytest.raises(RecordError, match=r"^game 2: the match was over after game 1"):
        loads(text.replace('"length": 0', '"length": 1'))


# -- bad files ---------------------------------------------------------------
Edit = Callable[[dict[str, Any]], object]


def _set(path: list[Any], value: object) -> Edit:
    def edit(data: dict[str, Any]) -> None:
        target: Any = data
        for key in path[:-1]:
            target = target[key]
        target[path[-1]] = value
    return edit


def _first_pass_turn(data: dict[str, Any]) -> tuple[int, int]:
    for g, game in enumerate(data["games"]):
        for t, turn in enumerate(game["turns"]):
            if turn["play"] == "":
                return g, t
    raise AssertionError("no pass in the match")


def _swap_games(data: dict[str, Any]) -> None:
    data["games"][0], data["games"][1] = data["games"][1], data["games"][0]


def _play_a_pass(data: dict[str, Any]) -> None:
    data["games"][0]["turns"][3]["play"] = ""


def _cut_last_turn(data: dict[str, Any]) -> None:
    data["games"][0]["turns"].pop()
    data["games"][0]["end"] = None


def _drop_first_turn(data: dict[str, Any]) -> None:
    data["games"][0]["turns"].pop(0)


def _extra_game(data: dict[str, Any]) -> None:
    data["games"].append(data["games"][-1])


def _end_game_one(data: dict[str, Any]) -> None:
    data["games"][0]["end"] = None


BAD: dict[str, tuple[Edit, str]] = {
    "format": (_set(["format"], "pgn"), r"^not a Tavli match record"),
    "version": (_set(["version"], 2), r"^version 2 is not supported: this Tavli reads version 1$"),
    "unknown top field": (_set(["colour"], 1), r"^unknown field 'colour'$"),
    "settings": (_set(["settings", "length"], "five"), r"^settings: length must be a whole number, not text$"),
    "unknown game": (_set(["settings", "games"], ["tavla"]), r"^settings: unknown game 'tavla'"),
    "player kind": (_set(["players", "white", "kind"], "alien"), r"^players, white: kind must be"),
    "missing field": (lambda d: d["games"][1].pop("turns"), r"^game 2: missing field 'turns'$"),
    "unknown turn field": (_set(["games", 0, "turns", 2, "clock"], 3), r"^game 1, turn 3: unknown field 'clock'$"),
    "dice": (_set(["games", 0, "turns", 1, "dice"], [7, 1]), r"^game 1, turn 2: dice must be two numbers from 1 to 6"),
    "colour": (_set(["games", 0, "turns", 0, "color"], "red"), r'^game 1, turn 1: color must be "white" or "black"'),
    "wrong side": (_drop_first_turn, r"^game 1, turn 1: it is (White|Black)'s turn, not (White|Black)'s$"),
    "illegal play": (_set(["games", 0, "turns", 0, "play"], "6/1"), r"^game 1, turn 1: 6/1 with \d-\d: "),
    "unreadable play": (_set(["games", 0, "turns", 0, "play"], "hello"), r"^game 1, turn 1: hello with"),
    "pass with plays": (_play_a_pass, r"^game 1, turn 4: pass with \d-\d: you cannot pass"),
    "position": (_set(["games", 0, "turns", 0, "position"], "portes x"),
                 r"^game 1, turn 1: .* leads to portes .*, not portes x$"),
    "end": (_set(["games", 0, "end", "points"], 5), r"^game 1: end: the last position gives .* not .* wins 5 points$"),
    "no end": (_end_game_one, r"^game 1: the game is over after turn \d+ .* but the record gives no end$"),
    "a game after a game going on": (_cut_last_turn, r"^game 2: game 1 has no end, so no game can follow it$"),
    "seed": (_set(["games", 0, "seed"], "00" * 32), r"^game 1: seed: the seed does not match the commitment"),
    "seed text": (_set(["games", 0, "seed"], "xyz"), r"^game 1: seed must be 64 lowercase hex digits or null$"),
    "opening": (_set(["games", 0, "opening"], [[2, 2]]), r"^game 1: opening: the last roll \(2-2\) is equal"),
    "variant": (_swap_games, r"^game 1: the settings make this game portes, not plakoto"),
    "too many games": (_extra_game, r"^game \d: the match was over after game \d"),
    "meta": (_set(["meta", "round"], 3), r"^meta: round must be text, not a number$"),
    "list": (_set(["games"], {}), r"^games must be a list, not an object$"),
}


@pytest.fixture(scope="module")
def good() -> dict[str, Any]:
    return finished(length=3, games=("portes", "plakoto", "fevga"), seed=11)


@pytest.mark.parametrize("name", list(BAD))
def test_a_bad_record_gets_one_line_naming_where(good: dict[str, Any], name: str) -> None:
    data = json.loads(json.dumps(good))
    edit, pattern = BAD[name]
    edit(data)
    with pytest.raises(RecordError, match=pattern) as caught:
        loads(json.dumps(data))
    assert "\n" not in str(caught.value)
    assert isinstance(caught.value, ValueError)


@pytest.mark.parametrize(("text", "pattern"), [
    ("", r"^not JSON: "), ("{", r"^not JSON: "), (b"\xff\xfe", r"^not JSON: "),
    ("[1]", r"^a match record is a JSON object"),
    ('{"format": "tavli-match"}', r"^version null is not supported"),
    ('{"format": "tavli-match", "version": 1}', r"^missing field 'settings'$"),
])
def test_not_a_record_at_all(text: str | bytes, pattern: str) -> None:
    with pytest.raises(RecordError, match=pattern):
        loads(text)


def test_a_missing_file_is_one_line(tmp_path: Path) -> None:
    with pytest.raises(RecordError, match=r"^cannot read .*nothing.json: No such file"):
        read(tmp_path / "nothing.json")


def test_the_format_header(good: dict[str, Any]) -> None:
    assert (good["format"], good["version"]) == (FORMAT, VERSION) == ("tavli-match", 1)
    assert set(good) == {"format", "version", "meta", "settings", "players", "games"}


def test_a_hand_made_game_replays_and_names_its_turn() -> None:
    start = "portes 2b....5w.3w...5b5w...3b.5b....2w w 0:0 0:0"
    from tavli.position import Position

    after = Position.from_string(start).play("24/18 13/11", Dice(6, 2))
    game = RecordedGame("portes", WHITE, [(6, 2)], None, None,
                        [TurnRecord(WHITE, Dice(6, 2), "24/18 13/11", str(after)),
                         TurnRecord(BLACK, Dice(3, 1), "8/5 6/5", "wrong")], None)
    with pytest.raises(RecordError, match=r"^turn 2: 8/5 6/5 leads to portes .*, not wrong$"):
        game.replay()
    game.turns.pop()
    assert game.replay().position == after
    assert game.dice() == [6, 2, 6, 2]


# -- going on with a match ------------------------------------------------------


def test_a_match_goes_on_from_its_record_with_new_dice() -> None:
    match = Match(MatchSettings(length=7), DiceRoller(21))
    bot = RandomBot(21)
    while len(match.records) < 3 or len(match.game.history) < 5:  # two games over, one going on
        match.roll()
        legal = match.legal_plays()
        match.play(legal[bot.choose(legal)] if len(legal) else None)
    assert not match.is_over
    match.roll()
    resumed = loads(dumps(MatchRecord.from_match(match, PLAYERS))).to_match(DiceRoller(4))
    assert resumed.dice == match.dice and resumed.turn == match.turn
    while not resumed.is_over:
        if resumed.dice is None:
            resumed.roll()
        legal = resumed.legal_plays()
        resumed.play(legal[bot.choose(legal)] if len(legal) else None)
    assert max(resumed.score.values()) >= 5
    assert [r.game.history[:len(old.game.history)] for r, old in zip(resumed.records, match.records, strict=False)] == [
        old.game.history for old in match.records]


def test_a_resigned_game_and_a_claimed_one_end_the_same_when_the_match_goes_on() -> None:
    match = Match(MatchSettings(length=5, games=("portes", "plakoto")), DiceRoller(3))
    match.resign(match.turn, 2)
    match.concede(match.turn, "claimed: the opponent was absent")
    resumed = loads(dumps(MatchRecord.from_match(match, PLAYERS))).to_match()
    assert resumed.score == match.score and [r.game.result for r in resumed.records] == [
        r.game.result for r in match.records]
    assert len(resumed.records) == 3 and resumed.game.variant.name == "portes"


def test_a_finished_match_goes_on_no_further() -> None:
    record = loads(json.dumps(finished()))
    resumed = record.to_match()
    assert resumed.is_over and resumed.score == record.score and resumed.winner == record.winner


def test_what_cannot_go_on_is_refused_in_one_line() -> None:
    series = MatchRecord(MatchSettings(length=1, games=("portes",)), PLAYERS, [], series=True)
    with pytest.raises(RecordError, match=r"^a series of games is not a match"):
        series.to_match()
    # a game that the last winner should start, said to be started by the loser
    match = Match(MatchSettings(length=3, games=("portes",)), DiceRoller(3))
    match.resign(WHITE, 1)
    data = json.loads(dumps(MatchRecord.from_match(match, PLAYERS)))
    assert data["games"][1]["first"] == "black" and data["games"][1]["opening"] == []
    data["games"][1]["first"] = "white"
    with pytest.raises(RecordError, match=r"^game 2: first: the match makes Black start it, not White$"):
        loads(json.dumps(data)).to_match()
    # a roll still to play belongs to the game going on only
    data = finished()
    data["games"][0]["rolled"] = [6, 2]
    with pytest.raises(RecordError, match=r"^game 1: rolled: only the game going on"):
        loads(json.dumps(data))
    data["games"][0]["rolled"] = [7, 2]
    with pytest.raises(RecordError, match=r"^game 1: rolled must be two numbers"):
        loads(json.dumps(data))


def test_an_aborted_match_replays_from_its_record() -> None:
    match, roller = play_match(MatchSettings(length=3, games=("portes",)), [], 5, stop_after=1)
    match.abort()
    record = loads(dumps(MatchRecord.from_match(match, PLAYERS, roller.seeds)))
    assert record.aborted and record.winner is None and record.score == {WHITE: 0, BLACK: 0}
    assert record.games[0].end == GameEnd(None, 0, "aborted") and len(record.games[0].turns) == 1
    again = record.to_match()
    assert again.aborted and again.is_over and again.winner is None


def test_an_abort_after_both_sides_played_or_past_the_first_game_is_refused() -> None:
    match, roller = play_match(MatchSettings(length=3, games=("portes",)), [], 5, stop_after=1)
    match.abort()
    data = json.loads(dumps(MatchRecord.from_match(match, PLAYERS, roller.seeds)))
    late, _ = play_match(MatchSettings(length=3, games=("portes",)), [], 5, stop_after=2)
    late_data = json.loads(dumps(MatchRecord.from_match(late, PLAYERS)))
    late_data["games"][0]["end"] = {"winner": None, "points": 0, "reason": "aborted"}
    with pytest.raises(RecordError, match="game 1: end: an aborted game has no winner and no points"):
        loads(json.dumps(late_data))
    data["games"][0]["end"] |= {"winner": "white", "points": 1}
    with pytest.raises(RecordError, match="game 1: end: an aborted game"):
        loads(json.dumps(data))
    data["games"][0]["end"] |= {"winner": None, "points": 0}
    data["games"].append(json.loads(json.dumps(data["games"][0])))
    with pytest.raises(RecordError, match="game 2: end: only the first game of a match can be aborted"):
        loads(json.dumps(data))
    data["games"][1]["end"] = None
    with pytest.raises(RecordError, match="game 2: the match was aborted, so no game can follow it"):
        loads(json.dumps(data))
