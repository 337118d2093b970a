"""Matches as the web app runs them: created, replayed from the database, acted on, watched.

Every action is checked by the rules library and stored before anyone sees
it; the ``Match`` objects kept here are only a cache of the stored actions
replayed, and are rebuilt whenever the database is ahead of them.
"""

from __future__ import annotations

import asyncio
import base64
import concurrent.futures
import contextlib
import datetime
import hashlib
import hmac
import multiprocessing
import os
import re
import secrets
import time
import unicodedata
from collections.abc import Awaitable, Callable, Sequence
from dataclasses import dataclass, field
from typing import Any, TypeVar

import orjson
from sqlalchemy.exc import IntegrityError

from tavli.bots.match_equity import MatchScore
from tavli.bots.neural import LEVELS, NeuralBot
from tavli.dice import Dice
from tavli.errors import Reason, TavliError
from tavli.fairdice import SeededRoller, commitment
from tavli.formats.record import MatchRecord, PlayerInfo
from tavli.match import CLAIMED, Match, MatchSettings
from tavli.position import LegalPlays, Play, Position
from tavli.server.reasons import one_line, reason_of
from tavli.server.store import ActionRow, Announcement, Conflict, MatchRow, Store, token_hash
from tavli.server.workers import watch_parent
from tavli.variants import BLACK, WHITE, Color

SEATS: dict[str, Color] = {"white": WHITE, "black": BLACK}
PRESENCE_SECONDS = 30.0
"""A seat counts as connected this long after its last heartbeat."""


def _compile_rules() -> None:
    from tavli import Dice, Position

    for game in ("portes", "plakoto", "fevga"):
        Position.start(game).legal_plays(Dice(3, 1))


def _build_bearoff() -> None:
    from tavli.bots import bearoff
    bearoff.load()


def _compile_bots() -> None:
    from tavli import Dice, Position

    for game in ("portes", "plakoto", "fevga"):
        legal = Position.start(game).legal_plays(Dice(3, 1))
        for level in ("advanced", "expert", "champion"):
            NeuralBot(level).choose(legal)


WARM_UP_STAGES: tuple[tuple[str, Callable[[], None]], ...] = (
    ("the rules kernel", _compile_rules),
    ("the bear-off tables", _build_bearoff),
    ("the networks and the bots' search", _compile_bots),
)
"""What the server does before it takes players, stage by stage (a name to show, the work):
compile the rules kernel and the bots' search, load the networks, build the bear-off tables.
The very first run takes about 90 s; all is cached on disk, and later starts take a second."""


def warm_up() -> None:
    """Every stage of ``WARM_UP_STAGES``, quietly (a worker process, once the first has filled the caches)."""
    for _, work in WARM_UP_STAGES:
        work()


_pool_bots: dict[str, NeuralBot] = {}
"""The bots of this process, by level: a bot process's, or the server's own without them."""
T = TypeVar("T")


def _start_bot_process(server: int) -> None:
    """A bot process: below the server in priority (people's moves come first), networks loaded,
    and gone with the server (``watch_parent``)."""
    with contextlib.suppress(OSError):
        os.nice(5)
    watch_parent(server, lambda: os._exit(0))
    _compile_bots()


def _pool_bot(level: str) -> NeuralBot:
    bot = _pool_bots.get(level)
    if bot is None:
        bot = _pool_bots[level] = NeuralBot(level)
    return bot


def _bot_choice(level: str, position: Position, dice: Dice, score: MatchScore | None) -> int:
    """The bot's play (its index among the legal plays), in a bot process."""
    return _pool_bot(level).choose(position.legal_plays(dice), score)


def _bot_takes(level: str, position: Position, dice: Dice | None, points: int, score: MatchScore | None) -> bool:
    """Whether the bot takes ``points`` from the side to play, who offers to resign: after his
    roll, judged at the bot's depth; before it, by the network (``NeuralBot.accepts_resignation``)."""
    offer = position if dice is None else position.legal_plays(dice)
    return _pool_bot(level).accepts_resignation(offer, points, score)


class ActionError(ValueError):
    """An action the server refuses; ``code`` is the protocol's error code, ``reason`` says why
    (a template and its values, or the library's error that refused it).

    >>> str(ActionError("stale", "the match is at action {seq}, not {sent}: here is the state", seq=7, sent=6))
    'the match is at action 7, not 6: here is the state'
    """

    def __init__(self, code: str, reason: str | BaseException, /, **params: object) -> None:
        self.reason = Reason(reason, **params) if isinstance(reason, str) else reason_of(reason)
        super().__init__(one_line(self.reason))
        self.code = code


class MatchRequestError(TavliError):
    """A request for a new match that cannot be met: a field missing, of the wrong kind or out
    of range."""


class SeatTaken(TavliError):
    """An open seat asked for that is not open (any more)."""


MATCH_ID = re.compile(r"[A-Za-z0-9_-]{1,32}")
NAME_LENGTH = 24
"""The most characters a player's name may have."""


def player_name(value: object) -> str | None:
    """A player's name as given (None or empty: no name), its spaces tidied; ``MatchRequestError``
    for one that is not text, too long, or holds control characters.

    >>> player_name("  Eleni   K. "), player_name(None), player_name("")
    ('Eleni K.', None, None)
    """
    if value is None:
        return None
    if not isinstance(value, str):
        raise MatchRequestError("a name must be text")
    name = " ".join(value.split())
    if len(name) > NAME_LENGTH or any(unicodedata.category(c)[0] == "C" for c in name):
        raise MatchRequestError("a name has at most {count} letters and no control characters", count=NAME_LENGTH)
    return name or None
"""What a match's id may be: anything else names no match."""
PEOPLE = ("friend", "anyone")
"""The opponents that are people: a friend with a link, or anyone on the server (an open seat)."""
OPEN_GRACE = 60.0
"""Seconds an open match is listed before its creator's page has connected."""
OPEN_LISTED = 50
"""The most open matches listed at once, the newest."""


def rematch_token(token: str, match_id: str) -> str:
    """A seat's token in the rematch ``match_id``, from its token in the match before: the
    player's page works it out too, so the old link leads on to the new match.

    >>> rematch_token("abc", "m1")
    'ePm5e2Sz-aIVQfrZVwasNFo_RmBM77FO'
    """
    digest = hmac.new(token.encode(), f"rematch:{match_id}".encode(), hashlib.sha256).digest()
    return base64.urlsafe_b64encode(digest).decode()[:32]


def spectator_rematch_token(spectator_hash: str, match_id: str) -> str:
    """The spectators' token in the rematch ``match_id``, from the hash of their token in the
    match before (``token_hash``): the server keeps only that hash, and a spectator's page works
    it out from the token it has, so the link leads on to the rematch for spectators too.

    >>> spectator_rematch_token(token_hash("abc"), "m1") == rematch_token(token_hash("abc"), "m1")
    True
    """
    return rematch_token(spectator_hash, match_id)


def seat_name(color: Color) -> str:
    return "white" if color == WHITE else "black"


def settings_from_request(body: dict[str, Any]) -> tuple[MatchSettings, dict[str, Any]]:
    """Match settings from the start page's request, with one-line errors; also their JSON form."""
    length = body.get("length", 5)
    if type(length) is not int or not 1 <= length <= 25:
        raise MatchRequestError("length must be a whole number of points from 1 to 25")
    games_text = body.get("games", "tavli")
    if not isinstance(games_text, str) or len(games_text) > 100:
        raise MatchRequestError("games must be text such as tavli, portes or fevga,portes")
    games = MatchSettings.parse_games(games_text)
    mother_pin = body.get("mother_pin", "double")
    prime_limits = body.get("prime_limits", True)
    prime_in_start = body.get("prime_in_opponent_start", True)
    if not isinstance(mother_pin, str):
        raise MatchRequestError("mother_pin must be text")
    if type(prime_limits) is not bool or type(prime_in_start) is not bool:
        raise MatchRequestError("prime_limits and prime_in_opponent_start must be true or false")
    settings = MatchSettings(length=length, games=games, mother_pin=mother_pin,  # type: ignore[arg-type]
                             prime_limits=prime_limits, prime_in_opponent_start=prime_in_start)
    return settings, settings_json(settings)


def settings_json(settings: MatchSettings) -> dict[str, Any]:
    return {"length": settings.length, "games": list(settings.games), "mother_pin": settings.mother_pin,
            "prime_limits": settings.prime_limits, "prime_in_opponent_start": settings.prime_in_opponent_start}


def settings_of(data: dict[str, Any]) -> MatchSettings:
    return MatchSettings(length=data["length"], games=tuple(data["games"]), mother_pin=data["mother_pin"],
                         prime_limits=data["prime_limits"], prime_in_opponent_start=data["prime_in_opponent_start"])


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
            from tavli.server.view import board_json

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


def _replay(row: MatchRow, seeds: list[bytes], rows: list[ActionRow]) -> LiveMatch:
    roller = SeededRoller(list(seeds))
    match = Match(settings_of(row.settings), roller)
    live = LiveMatch(row, match, roller, 0, row.created)
    for action in rows:
        _apply(live, action.kind, action.seat, action.data)
        live.seq = action.seq
        live.last_action = action.at
    return live


def _apply(live: LiveMatch, kind: str, seat: str, data: dict[str, Any]) -> None:
    """Carry out one action on the cached match (already checked, or being replayed)."""
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


def _must_pass(live: LiveMatch) -> bool:
    """Whether the side to move has rolled dice it cannot play (its pass is due at once)."""
    match = live.match
    return not match.is_over and match.dice is not None and len(match.legal_plays()) == 0


def _record_turn(live: LiveMatch, game_index: int, color: Color, dice: Dice, play: Any) -> None:
    from tavli.server.view import steps_json

    while len(live.moves) <= game_index:
        live.moves.append([])
    variant = live.match.records[game_index].game.variant
    live.moves[game_index].append({
        "color": seat_name(color), "dice": list(dice),
        "play": "" if play.is_pass else str(play),
        "steps": steps_json(variant, color, play.steps)})


Listener = Callable[[LiveMatch], Awaitable[None]]


class MatchService:
    """Creates matches, carries out actions, runs the bots, and tells listeners."""

    def __init__(self, store: Store, claim_after: float = 120.0, bot_delay: float = 0.0,
                 bot_workers: int = 0) -> None:
        self.store = store
        self.claim_after = claim_after
        self.bot_delay = bot_delay
        self.bot_workers = bot_workers
        """Processes that think for the bots; 0: a thread of this process (tests, small sites)."""
        self._pool: concurrent.futures.ProcessPoolExecutor | None = None
        self._live: dict[str, LiveMatch] = {}
        self._loading: dict[str, asyncio.Lock] = {}
        self.listeners: list[Listener] = []

    def start_bots(self) -> list[concurrent.futures.Future[int]]:
        """Start the bot processes (each loads the networks); the futures are done once they are ready."""
        if not self.bot_workers or self._pool is not None:
            return []
        self._pool = concurrent.futures.ProcessPoolExecutor(
            self.bot_workers, mp_context=multiprocessing.get_context("spawn"), initializer=_start_bot_process,
            initargs=(os.getpid(),))
        return [self._pool.submit(int) for _ in range(self.bot_workers)]

    async def bots_ready(self, timeout: float = 300.0) -> None:
        """Start the bot processes and wait until they have loaded the networks (at most ``timeout``
        seconds), so that no one waits for that at a bot's first move."""
        started = self.start_bots()
        if started:
            await asyncio.wait([asyncio.wrap_future(f) for f in started], timeout=timeout)

    def close(self) -> None:
        if self._pool is not None:
            self._pool.shutdown(wait=False, cancel_futures=True)
            self._pool = None

    async def _think(self, level: str, legal: LegalPlays, score: MatchScore) -> int:
        """A bot's choice, away from the event loop: people's moves never wait for a bot's thinking."""
        return await self._off_loop(_bot_choice, level, legal.position, legal.dice, score)

    async def _off_loop(self, work: Callable[..., T], *args: Any) -> T:
        """``work(*args)`` in a bot process (or a thread, with no bot processes), so the event
        loop goes on serving everyone else meanwhile."""
        if not self.bot_workers:
            return await asyncio.to_thread(work, *args)
        self.start_bots()
        assert self._pool is not None
        loop = asyncio.get_running_loop()
        try:
            return await loop.run_in_executor(self._pool, work, *args)
        except concurrent.futures.process.BrokenProcessPool:  # a bot process died: start them again
            self._pool = None
            self.start_bots()
            return await loop.run_in_executor(self._pool, work, *args)

    # -- creating and loading ------------------------------------------------
    async def create(self, body: object) -> dict[str, Any]:
        """A new match from the start page's request; returns the tokens and links."""
        if not isinstance(body, dict):
            raise MatchRequestError("the request must be a JSON object")
        known = {"opponent", "length", "games", "seat", "mother_pin", "prime_limits", "prime_in_opponent_start",
                 "coach", "name"}
        unknown = sorted(set(body) - known)
        if unknown:
            raise MatchRequestError("unknown field {name!r}", name=unknown[0])
        opponent = body.get("opponent", "expert")
        if not isinstance(opponent, str) or (opponent not in PEOPLE and opponent not in LEVELS):
            raise MatchRequestError("opponent must be friend, anyone or a bot level ({levels})",
                                    levels=", ".join(LEVELS))
        seat = body.get("seat", "white")
        if not isinstance(seat, str) or seat not in ("white", "black", "random"):
            raise MatchRequestError("seat must be white, black or random")
        if seat == "random":
            seat = secrets.choice(["white", "black"])
        _, data = settings_from_request(body)
        coach = body.get("coach", opponent not in PEOPLE)  # on against bots unless refused, off between people
        if type(coach) is not bool:
            raise MatchRequestError("coach must be true or false")
        data["coach"] = coach
        name = player_name(body.get("name"))
        other = "black" if seat == "white" else "white"
        kinds = {seat: "human", other: "human" if opponent in PEOPLE else f"bot:{opponent}"}
        match_id = secrets.token_urlsafe(9)
        tokens = {seat: secrets.token_urlsafe(24), "spectator": secrets.token_urlsafe(24)}
        if opponent == "friend":
            tokens[other] = secrets.token_urlsafe(24)
        await self._new_match(match_id, data, kinds["white"], kinds["black"],
                              {token_hash(t): role for role, t in tokens.items()},
                              open_seat=other if opponent == "anyone" else None,
                              seat_names={seat: name} if name else None)
        link = f"/match/{match_id}#t="
        return {"match": match_id, "seat": seat, "token": tokens[seat], "play": link + tokens[seat],
                "friend": link + tokens[other] if other in tokens else None,
                "watch": link + tokens["spectator"], "open": opponent == "anyone"}

    async def open_matches(self, now: float | None = None) -> list[dict[str, Any]]:
        """The matches whose other seat anyone may take, newest first: what the start page lists.
        A match is listed while its creator is connected (and for ``OPEN_GRACE`` seconds after it
        was made, while his page opens), until someone takes the seat or the match ends."""
        at = time.time() if now is None else now
        found = await self.store.open_matches(at, OPEN_GRACE, OPEN_LISTED)
        shown = ("length", "games", "mother_pin", "prime_limits", "prime_in_opponent_start", "coach")
        return [{"match": o.match_id, "seat": o.seat, "name": o.name, "waiting": round(max(0.0, at - o.created))}
                | {key: o.settings[key] for key in shown if key in o.settings} for o in found]

    async def take_open_seat(self, match_id: str, name: object = None) -> dict[str, Any]:
        """Take the open seat of ``match_id`` (with the player's ``name``, if he gives one): its
        token and link. ``SeatTaken`` where there is none (someone took it first, or it was never
        open); ``MatchRequestError`` for a name that cannot be one."""
        given = player_name(name)
        token = secrets.token_urlsafe(24)
        seat = (await self.store.take_open_seat(match_id, token_hash(token), given)
                if MATCH_ID.fullmatch(match_id) else None)
        if seat is None:
            raise SeatTaken("no open seat in that match: someone took it first, or it was never open")
        live = self.peek(match_id)
        if live is not None and given:
            live.names.setdefault(seat, given)
        return {"match": match_id, "seat": seat, "token": token, "play": f"/match/{match_id}#t={token}"}

    async def name_seat(self, live: LiveMatch, seat: str, name: object) -> None:
        """The player of ``seat`` gives his ``name`` (his page sends it as he joins): kept unless
        the seat has one. ``MatchRequestError`` for a name that cannot be one."""
        given = player_name(name)
        if given and seat not in live.names:
            await self.store.name_seat(live.row.id, seat, given)
            live.names[seat] = (await self.store.names_of(live.row.id)).get(seat, given)

    async def reload_names(self, live: LiveMatch) -> None:
        """The names as stored: another server process may have been given one."""
        if len(live.names) < 2:
            live.names = await self.store.names_of(live.row.id)

    async def get(self, match_id: str) -> LiveMatch | None:
        """The match, replayed from the database the first time it is asked for."""
        live = self._live.get(match_id)
        if live is not None:
            return live
        lock = self._loading.setdefault(match_id, asyncio.Lock())
        async with lock:
            live = self._live.get(match_id)
            if live is None:
                live = await self._load(match_id)
                if live is not None:
                    self._live[match_id] = live
        self._loading.pop(match_id, None)
        return live

    async def _load(self, match_id: str) -> LiveMatch | None:
        loaded = await self.store.load(match_id)
        if loaded is None:
            return None
        row, seeds, rows = loaded
        try:
            live = _replay(row, seeds, rows)
        except TavliError as exc:  # the stored actions do not replay: say so, never guess
            raise ActionError("corrupt", "match {match} cannot be replayed from the database: {reason}",
                              match=match_id, reason=exc) from None
        if len(live.roller.seeds) > len(seeds):  # the first game's seed, drawn on the first load
            try:
                await self.store.add_seeds(match_id, dict(enumerate(live.roller.seeds[len(seeds):], len(seeds))))
            except IntegrityError:  # another process drew it first: use that one
                return await self._load(match_id)
        if not await self._complete(live):
            return await self._load(match_id)
        live.names = await self.store.names_of(match_id)
        return live

    async def _complete(self, live: LiveMatch) -> bool:
        """Store the pass of a roll that cannot be played if the stored actions stop after the roll
        (a database written before rolls and passes were stored together); False if another
        process stored it first."""
        if not _must_pass(live):
            return True
        seat, seeds_before = seat_name(live.match.turn), len(live.roller.seeds)
        _apply(live, "play", seat, {"play": ""})
        try:
            live.last_action = await self.store.append_actions(
                live.row.id, live.seq + 1, [(seat, "play", {"play": ""})],
                dict(enumerate(live.roller.seeds[seeds_before:], seeds_before)), live.match.is_over)
        except Conflict:
            return False
        live.seq += 1
        return True

    async def catch_up(self, match_id: str, heard: Sequence[Announcement] = ()) -> LiveMatch | None:
        """Apply the actions another server process stored since this one's cached replay (those
        ``heard`` in its announcements if they follow on, else read from the database); the
        match if it moved on, None if nothing was new (or it is not cached here)."""
        live = self._live.get(match_id)
        if live is None:
            return None
        async with live.lock:
            live = self._live.get(match_id, live)
            rows = [a for note in heard for a in note.actions or () if a.seq > live.seq]
            if rows and rows[0].seq == live.seq + 1 and all(note.actions is not None for note in heard):
                known = dict(enumerate(live.roller.seeds))
                for note in heard:
                    known.update(note.seeds)
                seeds = [known[g] for g in range(len(known))] if set(known) == set(range(len(known))) else []
            else:
                seeds, rows = await self.store.load_since(match_id, live.seq)
            if not rows:
                return None
            try:
                live.roller.seeds.extend(seeds[len(live.roller.seeds):])  # games the other process began
                for action in rows:
                    if action.seq != live.seq + 1:
                        raise TavliError("action {seq} follows {last}", seq=action.seq, last=live.seq)
                    _apply(live, action.kind, action.seat, action.data)
                    live.seq, live.last_action = action.seq, action.at
            except TavliError:  # not a simple continuation: replay the whole match
                return await self.refresh(match_id)
            return live

    async def refresh(self, match_id: str) -> LiveMatch | None:
        """Replay the match again from the database (another process acted on it)."""
        fresh = await self._load(match_id)
        if fresh is not None:
            old = self._live.get(match_id)
            if old is not None:
                fresh.lock = old.lock
            self._live[match_id] = fresh
        return fresh

    async def wake(self, match_id: str) -> None:
        """Let the bots act if it is their turn, or answer an offer made to them (after a restart
        cut them off, say)."""
        live = await self.get(match_id)
        if live is None:
            return
        to_answer = live.offer is not None and any(live.bot_level(c) is not None for c in SEATS.values())
        if to_answer or (not live.match.is_over and live.bot_level(live.match.turn) is not None):
            async with live.lock:
                live = self._live.get(match_id, live)
                await self._bot_answers(live)
                await self._run_bots(live)

    def forget(self, match_id: str) -> None:
        """Drop the cached replay of a match nobody watches any more."""
        self._live.pop(match_id, None)

    def peek(self, match_id: str) -> LiveMatch | None:
        """The cached replay of a match, if this process has one (loads nothing)."""
        return self._live.get(match_id)

    def cached(self) -> list[str]:
        return list(self._live)

    # -- acting ------------------------------------------------------------
    async def act(self, match_id: str, role: str, kind: str, seq: int, play: str | None = None, *,
                  points: int = 1, resign_match: bool = False, accept: bool = False,
                  token: str = "") -> LiveMatch:
        """Carry out a player's action, then the bots' answers; ActionError if refused.

        ``kind`` is roll, play, claim, resign (``points``, or the whole match), rematch, or
        answer (``accept`` or not) to the opponent's offer; ``token`` is the sender's own (a
        rematch gives each seat the token ``rematch_token(token, new match)``)."""
        live = await self.get(match_id)
        if live is None:
            raise ActionError("bad-token", "no such match")
        async with live.lock:
            live = self._live.get(match_id, live)
            if role not in SEATS:
                raise ActionError("spectator", "spectators can only watch")
            if seq != live.seq:
                raise ActionError("stale", "the match is at action {seq}, not {sent}: here is the state",
                                  seq=live.seq, sent=seq)
            match = live.match
            color = SEATS[role]
            if kind in ("resign", "rematch", "answer"):
                await self._offer_or_answer(live, role, kind, points, resign_match, accept, token)
            elif match.is_over:
                raise ActionError("match-over", "the match is over")
            elif live.offer is not None and live.offer["from"] == role:
                raise ActionError("offer-pending", "wait for the answer to your offer")
            elif kind == "claim":
                if not await self.can_claim(live, color):
                    raise ActionError("not-absent", "you can claim only when the opponent is away on his turn "
                                                    "and nothing has happened for {seconds:g} s",
                                      seconds=self.claim_after)
                await self._commit(live, role, "claim", {})
            else:
                if match.turn != color:
                    raise ActionError("not-your-turn", "it is your opponent's turn")
                if kind == "roll":
                    if match.dice is not None:
                        raise ActionError("illegal", "the dice are already rolled ({dice}): play first",
                                          dice=match.dice)
                    await self._roll(live, role)
                elif kind == "play":
                    if match.dice is None:
                        raise ActionError("illegal", "roll the dice first")
                    text = play or ""
                    try:
                        listed = live.listed_play(text)
                        parsed = listed or (match.game.position.parse_play(text, match.dice) if text else None)
                        if parsed is None and len(match.legal_plays()):
                            raise TavliError("give the play to make: the dice can be played")
                    except TavliError as exc:
                        raise ActionError("illegal", exc) from None
                    await self._commit(live, role, "play", {"play": str(parsed) if parsed else ""})
                else:
                    raise ActionError("bad-message", "unknown action {kind!r}", kind=kind)
            await self._run_bots(live)
        return live

    async def _offer_or_answer(self, live: LiveMatch, role: str, kind: str, points: int, resign_match: bool,
                               accept: bool, token: str) -> None:
        """A resignation, a rematch offer, or the answer to the opponent's."""
        match, offer = live.match, live.offer
        if kind == "answer":
            if offer is None or offer["from"] == role:
                raise ActionError("no-offer", "there is no offer of your opponent's to answer")
            if not accept:
                await self._commit(live, role, "decline", {})
            elif offer["kind"] == "resign":
                await self._commit(live, role, "accept", {})
            else:
                await self._create_rematch(live, {offer["hash"]: offer["from"],
                                                  token_hash(rematch_token(token, offer["match"])): role})
                await self._commit(live, role, "accept", {"match": offer["match"]})
            return
        if kind == "rematch":
            if not match.is_over:
                raise ActionError("illegal", "a rematch is offered once the match is over")
            if live.rematch is not None:
                raise ActionError("illegal", "the rematch is already agreed")
            if offer is not None:
                raise ActionError("offer-pending", "a rematch is already offered: answer it")
            new_id = secrets.token_urlsafe(9)
            await self._commit(live, role, "rematch",
                               {"match": new_id, "hash": token_hash(rematch_token(token, new_id))})
        else:
            if match.is_over:
                raise ActionError("match-over", "the match is over")
            if offer is not None:
                raise ActionError("offer-pending", "an offer is waiting for its answer")
            if resign_match:
                await self._commit(live, role, "resign", {"match": True})
                return
            if match.turn != SEATS[role]:
                raise ActionError("not-your-turn", "you can offer to resign the game on your turn")
            if points not in (1, 2):
                raise ActionError("illegal", "a game is resigned for 1 or 2 points")
            await self._commit(live, role, "resign", {"points": points})
        await self._bot_answers(live)

    async def _bot_answers(self, live: LiveMatch) -> None:
        """A bot answers an offer at once: a resignation worth at least what it expects from
        playing on, at the match's score, and every rematch."""
        offer = live.offer
        if offer is None:
            return
        seat = "black" if offer["from"] == "white" else "white"
        level = live.bot_level(SEATS[seat])
        if level is None:
            return
        if offer["kind"] == "rematch":
            await self._create_rematch(live, {offer["hash"]: offer["from"]})
            await self._commit(live, seat, "accept", {"match": offer["match"]})
            return
        # at the score; after the resigner's roll at the bot's own depth, as tavli play judges it
        takes = await self._off_loop(_bot_takes, level, live.match.game.position, live.match.dice, offer["points"],
                                     MatchScore.of(live.match))
        await self._commit(live, seat, "accept" if takes else "decline", {})

    async def _create_rematch(self, live: LiveMatch, hashes: dict[str, str]) -> None:
        """The agreed rematch: the same settings, the seats swapped; ``hashes`` are the seats'
        token hashes by their seat in this match."""
        match_id = live.offer["match"] if live.offer else ""
        swap = {"white": "black", "black": "white"}
        roles = {h: swap[seat] for h, seat in hashes.items()}
        for old in await self.store.hashes_of(live.row.id, "spectator"):  # the spectators follow
            roles[token_hash(spectator_rematch_token(old, match_id))] = "spectator"
        await self._new_match(match_id, live.row.settings, live.row.black, live.row.white, roles)

    async def _new_match(self, match_id: str, settings: dict[str, Any], white: str, black: str,
                         hashes: dict[str, str], open_seat: str | None = None,
                         seat_names: dict[str, str] | None = None) -> None:
        """Store a new match (its tokens by their hashes and roles), keep it, and let its bots act.
        It is replayed here as a load would replay it (which draws the first game's seed, for the
        roll-off) and stored with that seed in one transaction: no load and no second write."""
        created = time.time()
        live = _replay(MatchRow(match_id, created, settings, white, black, 0, False, created), [], [])
        live.names = dict(seat_names or {})
        await self.store.create_with_hashes(match_id, settings, white, black, hashes,
                                            dict(enumerate(live.roller.seeds)), created, open_seat, seat_names)
        live = self._live.setdefault(match_id, live)
        async with live.lock:
            await self._run_bots(live)

    async def _roll(self, live: LiveMatch, seat: str) -> None:
        """Roll (the dice come from the game's seed); a roll that cannot be played passes at once,
        stored with its pass in one transaction: no stored prefix ends on a roll nobody can play."""
        seeds_before = len(live.roller.seeds)
        try:
            dice = live.match.roll()
        except TavliError as exc:
            await self.refresh(live.row.id)
            raise ActionError("illegal", exc) from None
        entries: list[tuple[str, str, dict[str, Any]]] = [(seat, "roll", {"dice": list(dice)})]
        if _must_pass(live):
            _apply(live, "play", seat, {"play": ""})
            entries.append((seat, "play", {"play": ""}))
        await self._store(live, entries, seeds_before)

    async def _commit(self, live: LiveMatch, seat: str, kind: str, data: dict[str, Any]) -> None:
        """Apply an action to the cache and store it; on a conflict, reload and refuse."""
        seeds_before = len(live.roller.seeds)
        try:
            if kind == "roll":
                dice = live.match.roll()
                data = {"dice": list(dice)}
            else:
                _apply(live, kind, seat, data)
        except TavliError as exc:
            await self.refresh(live.row.id)
            raise ActionError("illegal", exc) from None
        await self._store(live, [(seat, kind, data)], seeds_before)

    async def _store(self, live: LiveMatch, entries: list[tuple[str, str, dict[str, Any]]],
                     seeds_before: int) -> None:
        """Store actions already applied to the cache, in one transaction; on a conflict, reload and refuse."""
        new_seeds = dict(enumerate(live.roller.seeds[seeds_before:], seeds_before))
        try:
            at = await self.store.append_actions(live.row.id, live.seq + 1, entries, new_seeds, live.match.is_over)
        except Conflict:
            await self.refresh(live.row.id)
            raise ActionError("stale", "the match moved on meanwhile: here is the state") from None
        live.seq += len(entries)
        live.last_action = at
        await self._tell(live)

    async def _tell(self, live: LiveMatch) -> None:
        for listener in self.listeners:
            await listener(live)

    async def _run_bots(self, live: LiveMatch) -> None:
        """Let bot seats roll and play until a human is to act or the match ends."""
        match = live.match
        while not match.is_over:
            level = live.bot_level(match.turn)
            if level is None:
                return
            seat = seat_name(match.turn)
            if match.dice is None:
                if self.bot_delay:
                    await asyncio.sleep(self.bot_delay)
                await self._roll(live, seat)
                continue
            legal = match.legal_plays()
            index = await self._think(level, legal, MatchScore.of(match))  # plays for the match
            if self.bot_delay:
                await asyncio.sleep(self.bot_delay)
            await self._commit(live, seat, "play", {"play": str(legal[index])})

    async def can_claim(self, live: LiveMatch, color: Color) -> bool:
        """Whether ``color`` may claim the game: the opponent is away on his turn, long enough.

        An opponent who has never come is not absent but awaited: a match nobody joined cannot
        be won by claims.
        """
        match = live.match
        if match.is_over or match.turn == color or live.bot_level(match.turn) is not None:
            return False
        until = (await self.store.presence_of(live.row.id)).get(seat_name(match.turn))
        if until is None:
            return False
        now = time.time()
        return until <= now and now - max(until, live.last_action) >= self.claim_after

    async def dice_record(self, match_id: str) -> dict[str, Any] | None:
        """Every game's commitment, and its seed and dice once it is over (for checking)."""
        live = await self.get(match_id)
        if live is None:
            return None
        out = []
        for index, record in enumerate(live.match.records):
            seed = live.roller.seeds[index] if index < len(live.roller.seeds) else None
            over = record.game.is_over
            entry: dict[str, Any] = {"index": index, "variant": record.game.variant.name,
                                     "commitment": commitment(seed) if seed else None,
                                     "seed": seed.hex() if seed and over else None}
            if over:
                entry["opening"] = [list(r) for r in record.opening_rolls]
                entry["rolls"] = [list(t.dice) for t in record.game.history]
            out.append(entry)
        return {"match": match_id, "games": out}

    async def match_record(self, match_id: str) -> MatchRecord | None:
        """The match record (tavli.formats.record) of the match so far; seeds of games going on withheld."""
        live = await self.get(match_id)
        if live is None:
            return None
        players = {color: PlayerInfo("bot", level) if (level := live.bot_level(color)) else
                   PlayerInfo("human", live.names.get(seat_name(color), "")) for color in (WHITE, BLACK)}
        created = datetime.datetime.fromtimestamp(live.row.created, datetime.UTC).isoformat(timespec="seconds")
        return MatchRecord.from_match(live.match, players, live.roller.seeds,
                                      meta={"created": created, "site": "Tavli", "match": match_id})
