"""A match as the server keeps it between actions: replayed from its stored actions
(``replay``), acted on (``apply_action``), with the parts of the ``state`` message it keeps
encoded (``LiveMatch.encoded``, ``board``, ``moves_json``)."""

from __future__ import annotations

import asyncio
import time
from collections.abc import Callable, Collection
from dataclasses import dataclass, field
from typing import Any

import orjson

from tavli.dice import Dice
from tavli.errors import TavliError
from tavli.fairdice import SeededRoller
from tavli.match import CLAIMED, Match
from tavli.position import Play, Position
from tavli.server.play.clocks import Clock, ClockSettings
from tavli.server.play.seats import SEATS, seat_name, settings_of
from tavli.server.play.view import board_json, steps_json
from tavli.server.storage.store import ActionRow, MatchRow
from tavli.variants import WHITE, Color

BOARDS_KEPT = 3
"""Boards a live match keeps encoded: the position on the board, the last finished game's final
one, and the one before the last play (a spectator joining late)."""


@dataclass
class LiveMatch:
    """A match replayed from its stored actions."""

    row: MatchRow
    match: Match
    roller: SeededRoller
    seq: int
    last_action: float
    moves: list[list[dict[str, Any]]] = field(default_factory=list)
    """Per game, the turns as the protocol shows them (kept in step with ``match``)."""
    passed: list[int] = field(default_factory=list)
    offer: dict[str, Any] | None = None
    """A resignation (``{"kind": "resign", "from": seat, "points": 1 or 2}``) or a rematch
    (``{"kind": "rematch", "from": seat}``) waiting for the other side's answer."""
    rematch: str | None = None
    """The id of the rematch, once agreed."""
    names: dict[str, str] = field(default_factory=dict)
    """The names the players gave, by seat (set once each)."""
    accounts: dict[str, str] = field(default_factory=dict)
    """The names of the accounts that play the seats, by seat: shown rather than the names given."""
    clock: Clock | None = None
    """The match's clocks, if it is played with one."""
    aborted_by: str | None = None
    """The seat that aborted the match, if it was aborted."""
    ratings: dict[str, Any] | None = None
    """How the finished rated match moved its players' ratings, once its result is kept
    (``tavli.server.realtime.state_message.ratings_of``)."""
    seat_ratings: dict[str, dict[str, Any]] = field(default_factory=dict)
    """In a rated match, each seat's rating in its pool as the board shows it beside the name, by
    seat, looked up once (``tavli.server.realtime.state_message.look_up_seat_ratings``)."""
    lock: asyncio.Lock = field(default_factory=asyncio.Lock)

    _listed: tuple[object, dict[str, int]] | None = None
    _boards: dict[Position, bytes] = field(default_factory=dict)
    _moves_encoded: list[list[bytes]] = field(default_factory=list)
    _encoded: dict[str, bytes] = field(default_factory=dict)
    _encoded_at: int = -1

    def encoded(self, key: str, build: Callable[[], Any]) -> bytes:
        """``build()`` as JSON bytes, worked out once per action (parts of the state message)."""
        if self._encoded_at != self.seq:
            self._encoded.clear()
            self._encoded_at = self.seq
        found = self._encoded.get(key)
        if found is None:
            found = self._encoded[key] = orjson.dumps(build())
        return found

    def board(self, position: Position) -> bytes:
        """``view.board_json(position)`` encoded, kept while the position stands: a roll leaves
        the board as it was, and a finished game's final board is shown with every action after it."""
        found = self._boards.get(position)
        if found is None:
            if len(self._boards) >= BOARDS_KEPT:
                del self._boards[next(iter(self._boards))]
            found = self._boards[position] = orjson.dumps(board_json(position))
        return found

    def moves_json(self, index: int) -> bytes:
        """The turns of game ``index`` (``moves``) as a JSON list, each turn encoded once, when it is
        played: a state shows the whole game, and encoding it all again made every action of a long
        game cost more than the one before."""
        while len(self._moves_encoded) <= index:
            self._moves_encoded.append([])
        done = self._moves_encoded[index]
        moves = self.moves[index] if index < len(self.moves) else []
        done.extend(orjson.dumps(turn) for turn in moves[len(done):])
        return b"[" + b",".join(done) + b"]"

    def listed_plays(self) -> dict[str, int]:
        """The legal plays of the rolled dice: their indexes by their notation, worked out once per roll."""
        legal = self.match.legal_plays()
        if self._listed is None or self._listed[0] is not legal:
            self._listed = (legal, {text: k for k, text in enumerate(legal.notations())})
        return self._listed[1]

    def listed_play(self, text: str) -> Play | None:
        """The legal play of the rolled dice written ``text`` in standard notation, if there is one."""
        index = self.listed_plays().get(text)
        return None if index is None else self.match.legal_plays()[index]

    def kind(self, color: Color) -> str:
        return self.row.white if color == WHITE else self.row.black

    def bot_level(self, color: Color) -> str | None:
        kind = self.kind(color)
        return kind.split(":", 1)[1] if kind.startswith("bot:") else None

    def awaits(self, joined: Collection[str]) -> bool:
        """Whether a match between people has not begun and one of its seats (not in ``joined``)
        has never come: it rolls off only once both players are there, so that nobody is told
        "your turn" by a board his opponent has not seen yet. A match against a bot never waits:
        the bot is always there, and its player is, whenever he acts."""
        people = [name for name, color in SEATS.items() if self.bot_level(color) is None]
        return self.seq == 0 and len(people) == 2 and any(name not in joined for name in people)


def replay(row: MatchRow, seeds: list[bytes], rows: list[ActionRow]) -> LiveMatch:
    roller = SeededRoller(list(seeds))
    match = Match(settings_of(row.settings), roller)
    live = LiveMatch(row, match, roller, 0, row.created)
    clock = ClockSettings.of(row.settings.get("clock"))
    if clock is not None:
        live.clock = Clock.new(clock, match.settings.length)
    for action in rows:
        apply_action(live, action.kind, action.seat, action.data, action.at)
        live.seq = action.seq
        live.last_action = action.at
    return live


def apply_action(live: LiveMatch, kind: str, seat: str, data: dict[str, Any], at: float | None = None) -> None:
    """Carry out one action, made at ``at`` (now if None), on the cached match (already checked,
    or being replayed), and move the clocks on. A play of a clocked match stores the time left in
    ``data["left"]`` (milliseconds by seat): a replay takes it from there."""
    match = live.match
    when = time.time() if at is None else at
    forced = kind == "play" and match.dice is not None and len(match.legal_plays()) <= 1
    _act(live, kind, seat, data)
    if live.clock is not None:
        _move_clock(live, live.clock, kind, seat, data, when, forced)


def _act(live: LiveMatch, kind: str, seat: str, data: dict[str, Any]) -> None:
    match = live.match
    if kind == "roll":
        dice = match.roll()
        if "dice" in data and list(dice) != data["dice"]:
            raise TavliError("stored roll {stored} differs from the seed's {rolled}", stored=data["dice"],
                             rolled=list(dice))
    elif kind == "play":
        game_index = len(match.records) - 1
        text = data["play"]
        turn = match.play((live.listed_play(text) or text) if text else None)
        _record_turn(live, game_index, turn.color, turn.dice, turn.play)
    elif kind == "claim":
        match.concede(SEATS[seat].other, CLAIMED)
        live.offer = None
    elif kind == "flag":  # the seat's clock ran out
        match.lose_on_time(SEATS[seat])
        live.offer = None
    elif kind == "forfeit":  # a tournament's player who did not come in time (``seat``: his)
        match.forfeit(SEATS[seat])
        live.offer = None
    elif kind == "abort":  # called off before both players had played: no result
        match.abort()
        live.offer = None
        live.aborted_by = seat
    elif kind == "start":  # every player has come: the clocks start
        if live.clock is None:
            raise TavliError("a stored start of the clocks in a match without a clock")
    elif kind == "resign":
        if data.get("match"):
            match.resign_match(SEATS[seat])
            live.offer = None
        else:
            live.offer = {"kind": "resign", "from": seat, "points": int(data["points"])}
    elif kind == "rematch":
        live.offer = {"kind": "rematch", "from": seat, "match": data["match"], "hash": data["hash"]}
    elif kind in ("accept", "decline"):
        offer = live.offer
        if offer is None or offer["from"] == seat:
            raise TavliError("stored {kind} answers no offer", kind=kind)
        live.offer = None
        if kind == "accept" and offer["kind"] == "resign":
            match.resign(SEATS[offer["from"]], offer["points"])
        elif kind == "accept":
            live.rematch = str(data["match"])
    else:
        raise TavliError("unknown stored action {kind!r}", kind=kind)


def _move_clock(live: LiveMatch, clock: Clock, kind: str, seat: str, data: dict[str, Any], at: float,
                forced: bool) -> None:
    """The clocks after an action: a play ends its side's turn and starts the next side's; a game
    that ends starts the next game's first mover; a match that ends stops them."""
    match = live.match
    if kind == "start":
        clock.started = True
    if not clock.started:
        return
    if kind == "play":
        clock.charge(seat, at, forced)
        if "left" in data:  # the stored time left is the server's word
            clock.left = {side: ms / 1000 for side, ms in data["left"].items()}
        else:
            data["left"] = clock.stored()
    elif kind == "flag":
        clock.left[seat] = 0.0
        clock.flagged = seat
    if match.is_over:
        clock.run(None, at)
    elif live.offer is not None and live.offer["kind"] == "resign":  # the answer is the other side's to give
        clock.run("black" if live.offer["from"] == "white" else "white", at)
    elif kind in ("start", "play") or clock.running != seat_name(match.turn):
        clock.run(seat_name(match.turn), at)


def must_pass(live: LiveMatch) -> bool:
    """Whether the side to move has rolled dice it cannot play (its pass is due at once)."""
    match = live.match
    return not match.is_over and match.dice is not None and len(match.legal_plays()) == 0


def _record_turn(live: LiveMatch, game_index: int, color: Color, dice: Dice, play: Any) -> None:
    while len(live.moves) <= game_index:
        live.moves.append([])
    variant = live.match.records[game_index].game.variant
    live.moves[game_index].append({
        "color": seat_name(color), "dice": list(dice),
        "play": "" if play.is_pass else str(play),
        "steps": steps_json(variant, color, play.steps)})
