"""The café's tournaments (docs/tournaments.md): made by a signed-in player, joined until they start,
then run by themselves. Each round is paired by ``tavli.server.cafe.pairing``, stored in one
transaction before anyone is told (a round stored twice fails on its key, so two server processes
never pair one round twice), then its matches are made and its players told on every page they have
open; a player who does not come to his board within the forfeit time loses that match and is paired
no more; a round ends when its last match does, and the next is paired. Everything is kept in the
database: after a restart (``kill -9`` included) the next look (``advance``) goes on from there.

>>> tournament_settings({"name": " Friday ", "format": "swiss", "rounds": 3, "start": "when-full",
...                      "max_players": 8}, now=0.0)[:2]
('Friday', 'swiss')
"""

from __future__ import annotations

import asyncio
import contextlib
import datetime
import functools
import json
import math
import random
import secrets
import time
import unicodedata
from collections import defaultdict
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from typing import Any, Protocol

import orjson
from sqlalchemy import delete, func, insert, select, text, update
from sqlalchemy.exc import DBAPIError, IntegrityError
from sqlalchemy.ext.asyncio import AsyncConnection

from tavli.errors import TavliError
from tavli.server.cafe.accounts import Account, Accounts
from tavli.server.cafe.lobby import DEFAULT_RATING, Lobby
from tavli.server.cafe.pairing import (
    Entrant,
    Pairing,
    PairingError,
    arena_pairings,
    arena_scores,
    consolation_first_round,
    knockout_first_round,
    knockout_next_round,
    qualifiers,
    round_robin_groups,
    round_robin_schedule,
    standings,
    swiss_round,
)
from tavli.server.play.clocks import DEFAULT_FOR_PEOPLE, clock_settings
from tavli.server.play.seats import pool_of, settings_from_request
from tavli.server.play.service import MatchService
from tavli.server.storage.schema import (
    accounts,
    match_results,
    matches,
    presence,
    ratings,
    tournament_pairings,
    tournament_players,
    tournaments,
)
from tavli.server.storage.store import Store, unbroken

FORMATS = ("knockout", "swiss", "round-robin", "arena")
NAME_LENGTH = 60
"""The most characters of a tournament's name."""
MOST_PLAYERS = {"knockout": 256, "swiss": 256, "round-robin": 12, "arena": 1000}
"""The most players of each format (a round-robin in groups: 12 a group)."""
MOST_ROUNDS = 20
"""The most rounds of a Swiss."""
ARENA_MINUTES = (1, 720)
FORFEIT_MINUTES = (0.25, 30.0)
DEFAULT_FORFEIT_MINUTES = 3.0
START_LEAD = 60.0
"""A start time is at least this many seconds ahead (a tournament nobody could join is no use)."""
START_HORIZON = 30 * 24 * 3600.0
"""And at most this far ahead."""
FINISHED_LISTED = 20
"""The finished (or cancelled) tournaments ``listed`` shows, newest first."""
PUSH_SLICE = 50
"""A tournament sent to many watchers goes out this many at a time, each slice a turn of the event loop."""
PUSH_GAP = 0.25
"""A tournament's watchers are sent it at most once in this many seconds: a change after a quiet
spell goes out at once, the changes of a busy spell (an arena's results) together at its end."""
FIELDS = {"name", "format", "length", "final_length", "games", "clock", "rated", "max_players", "starts_at",
          "start", "rounds", "minutes", "consolation", "groups", "qualify", "forfeit_minutes", "seeding"}
STAGE_ORDER = {"main": 0, "consolation": 1, "knockout": 3}
"""The order of a tournament's stages on its page (the groups, ``group-A`` on, between)."""


class TournamentError(TavliError):
    """A tournament request refused: one line, nothing changed.

    >>> str(TournamentError("a Swiss takes {least} to {most} rounds", least=1, most=20))
    'a Swiss takes 1 to 20 rounds'
    """


class NoSuchTournament(TournamentError):
    """No tournament has that id."""


class NotOrganiser(TournamentError):
    """Only the tournament's organiser may do that."""


class TournamentClosed(TournamentError):
    """A join or a withdrawal the tournament's state no longer allows (started, full, over, twice)."""


class Watcher(Protocol):
    """A tournament page's WebSocket (``tavli.server.routes.tournament_socket``)."""

    def send_text(self, text: str) -> None: ...


# -- a new tournament's settings ------------------------------------------------------------------


def _whole(body: dict[str, Any], key: str, least: int, most: int, default: int | None = None) -> int | None:
    value = body.get(key, default)
    if value is None:
        return None
    if type(value) is not int or not least <= value <= most:
        raise TournamentError("{key} must be a whole number from {least} to {most}", key=key, least=least, most=most)
    return value


def _start_time(body: dict[str, Any], now: float) -> float | None:
    """When the tournament starts (None: when full), from ``starts_at`` or ``"start": "when-full"``."""
    start, at = body.get("start"), body.get("starts_at")
    if (start is None) == (at is None) or (start is not None and start != "when-full"):
        raise TournamentError('give a start: "starts_at" (an ISO time) or "start": "when-full"')
    if at is None:
        return None
    try:
        moment = datetime.datetime.fromisoformat(at) if isinstance(at, str) and len(at) <= 40 else None
    except ValueError:
        moment = None
    if moment is None:
        raise TournamentError("starts_at must be an ISO time such as 2026-12-24T20:00:00Z")
    if moment.tzinfo is None:
        moment = moment.replace(tzinfo=datetime.UTC)
    when = moment.timestamp()
    if not now + START_LEAD <= when <= now + START_HORIZON:
        raise TournamentError("starts_at must be from a minute to 30 days ahead")
    return when


def tournament_settings(body: object, now: float) -> tuple[str, str, dict[str, Any], float | None]:
    """A new tournament's name, format, settings (as stored) and start time (None: when full), from
    ``POST /api/tournaments``'s body; ``TournamentError`` in one line for anything wrong."""
    if not isinstance(body, dict):
        raise TournamentError("the request must be a JSON object")
    unknown = sorted(set(body) - FIELDS)
    if unknown:
        raise TournamentError("unknown field {name!r}", name=unknown[0])
    name = body.get("name")
    if not isinstance(name, str) or not name.strip() or len(name.strip()) > NAME_LENGTH:
        raise TournamentError("name must be 1 to {most} characters of text", most=NAME_LENGTH)
    if any(c in "<>" or unicodedata.category(c) in ("Cc", "Cf") for c in name):
        raise TournamentError("a name is plain text: no markup, control or invisible characters")
    form = body.get("format")
    if form not in FORMATS:
        raise TournamentError("format must be one of {formats}", formats=", ".join(FORMATS))
    try:
        _, match = settings_from_request({"length": body.get("length", 5), "games": body.get("games", "tavli")})
        clock = clock_settings(body.get("clock", DEFAULT_FOR_PEOPLE))
    except TavliError as exc:  # the match's settings refused, in their own words
        raise TournamentError(exc.reason) from None
    rated = body.get("rated", False)
    if type(rated) is not bool:
        raise TournamentError("rated must be true or false")
    groups = _whole(body, "groups", 2, 16) if form == "round-robin" else None
    most = MOST_PLAYERS[form] * (groups or 1) if form == "round-robin" else MOST_PLAYERS[form]
    max_players = _whole(body, "max_players", 2, most)
    if max_players is None:
        raise TournamentError("max_players must be a whole number from 2 to {most}", most=most)
    settings: dict[str, Any] = {"length": match["length"], "games": match["games"], "clock": clock, "rated": rated,
                                "max_players": max_players}
    forfeit = body.get("forfeit_minutes", DEFAULT_FORFEIT_MINUTES)
    if type(forfeit) not in (int, float) or not FORFEIT_MINUTES[0] <= forfeit <= FORFEIT_MINUTES[1]:
        raise TournamentError("forfeit_minutes must be from {least} to {most}",
                              least=FORFEIT_MINUTES[0], most=FORFEIT_MINUTES[1])
    settings["forfeit_minutes"] = float(forfeit)
    _format_settings(form, body, settings, groups)
    return name.strip(), str(form), settings, _start_time(body, now)


def _format_settings(form: str, body: dict[str, Any], settings: dict[str, Any], groups: int | None) -> None:
    """The settings of ``form`` alone, checked; another format's field is refused."""
    own = {"knockout": {"final_length", "consolation", "seeding"}, "swiss": {"rounds"}, "arena": {"minutes"},
           "round-robin": {"groups", "qualify"}}[form]
    stray = sorted(({"final_length", "consolation", "seeding", "rounds", "minutes", "groups", "qualify"} - own)
                   & set(body))
    if stray:
        raise TournamentError("{key} is not a setting of a {format} tournament", key=stray[0], format=form)
    if form == "knockout":
        settings["final_length"] = _whole(body, "final_length", settings["length"], 25)
        consolation, seeding = body.get("consolation", False), body.get("seeding", "rating")
        if type(consolation) is not bool:
            raise TournamentError("consolation must be true or false")
        if seeding not in ("rating", "lot"):
            raise TournamentError("seeding must be rating or lot")
        settings["consolation"], settings["seeding"] = consolation, seeding
    elif form == "swiss":
        rounds = _whole(body, "rounds", 1, MOST_ROUNDS)
        if rounds is None:
            raise TournamentError("a Swiss needs its rounds: 1 to {most}", most=MOST_ROUNDS)
        if rounds >= settings["max_players"] + (settings["max_players"] % 2):
            raise TournamentError("a Swiss of {players} players has at most {most} rounds",
                                  players=settings["max_players"], most=settings["max_players"] - 1
                                  + settings["max_players"] % 2)
        settings["rounds"] = rounds
    elif form == "arena":
        minutes = _whole(body, "minutes", *ARENA_MINUTES)
        if minutes is None:
            raise TournamentError("an arena needs its length: minutes from {least} to {most}",
                                  least=ARENA_MINUTES[0], most=ARENA_MINUTES[1])
        settings["minutes"] = minutes
    elif groups is not None:
        qualify = _whole(body, "qualify", 1, 6, default=2)
        assert qualify is not None
        if settings["max_players"] < 2 * groups or qualify * groups < 2:
            raise TournamentError("{groups} groups need at least {least} players", groups=groups, least=2 * groups)
        settings["groups"], settings["qualify"] = groups, qualify
    elif "qualify" in body:
        raise TournamentError("qualify goes with groups")


# -- what is stored, as read ---------------------------------------------------------------------


@dataclass
class Participant:
    account_id: int
    name: str
    rating: float
    joined: float
    withdrawn: bool
    paused: bool

    @property
    def key(self) -> str:
        """His name in the pairing rules: his account's id (names can change, ids cannot)."""
        return str(self.account_id)


@dataclass
class Fixture:
    """One stored pairing, with its match's state."""

    stage: str
    number: int
    board: int
    white_id: int
    black_id: int | None
    match_id: str | None
    winner_id: int | None
    ending: str | None
    why_text: str
    """Why the pair was made, as stored (JSON): read only when shown (``why``)."""
    created: float
    finished: float | None
    made: bool = False
    """Its match is stored (made after the pairing: a restart in between makes it at the next look)."""
    result: tuple[str, str] | None = None
    """Its match's kept result (the winner's seat, or "" for none; the ending), once over."""

    @property
    def done(self) -> bool:
        return self.ending is not None

    def pairing(self) -> Pairing:
        return Pairing(str(self.white_id), None if self.black_id is None else str(self.black_id),
                       None if self.winner_id is None else str(self.winner_id))

    @functools.cached_property
    def why(self) -> dict[str, Any]:
        return dict(json.loads(self.why_text))


@dataclass
class Tournament:
    id: str
    name: str
    format: str
    settings: dict[str, Any]
    organiser_id: int
    status: str
    created: float
    starts_at: float | None
    started: float | None
    finished: float | None
    ends_at: float | None
    organiser: str = ""
    players: list[Participant] = field(default_factory=list)
    boards: list[Fixture] = field(default_factory=list)

    def player(self, account_id: int) -> Participant | None:
        return next((p for p in self.players if p.account_id == account_id), None)

    @property
    def active(self) -> list[Participant]:
        return [p for p in self.players if not p.withdrawn]

    def entrants(self, players: Iterable[Participant] | None = None) -> list[Entrant]:
        return [Entrant(p.key, p.rating) for p in (self.players if players is None else players)]

    def stages(self) -> dict[str, list[list[Fixture]]]:
        """The boards by stage, then round (in number order)."""
        by: dict[str, dict[int, list[Fixture]]] = defaultdict(lambda: defaultdict(list))
        for b in sorted(self.boards, key=lambda b: (b.stage, b.number, b.board)):
            by[b.stage][b.number].append(b)
        return {stage: [rounds[n] for n in sorted(rounds)] for stage, rounds in by.items()}


def _iso(at: float | None) -> str | None:
    if at is None:
        return None
    return datetime.datetime.fromtimestamp(at, datetime.UTC).isoformat(timespec="seconds").replace("+00:00", "Z")


def _stage_key(stage: str) -> tuple[int, str]:
    return STAGE_ORDER.get(stage, 2), stage


# -- the room --------------------------------------------------------------------------------------


class Tournaments:
    """The tournaments of this server process: their requests, their running (``advance``, from the
    background job and whenever a match of theirs ends) and their pages' WebSockets."""

    def __init__(self, store: Store, service: MatchService, accounts_: Accounts, lobby: Lobby) -> None:
        self.store = store
        self.service = service
        self.accounts = accounts_
        self.lobby = lobby
        self.watchers: dict[str, set[Watcher]] = defaultdict(set)
        self._locks: dict[str, asyncio.Lock] = defaultdict(asyncio.Lock)
        self._pushing: set[str] = set()
        self._pushed_at: dict[str, float] = {}
        self._waiting: set[str] = set()
        """The tournaments whose look (``advance``) is asked for and has not begun."""
        self._tasks: set[asyncio.Task[None]] = set()
        self.now: Callable[[], float] = time.time
        """The clock (tests move it on)."""
        lobby.note_listeners["tournament"].append(self.heard)

    # -- reading ---------------------------------------------------------------------------------
    @unbroken
    async def load(self, tournament_id: str) -> Tournament:
        """The tournament as stored, with its players and pairings; ``NoSuchTournament`` if none."""
        async with self.store.engine.connect() as conn:
            return await self._load(conn, tournament_id)

    async def _load(self, conn: AsyncConnection, tournament_id: str) -> Tournament:
        row = (await conn.execute(select(tournaments).where(tournaments.c.id == tournament_id))).first() \
            if isinstance(tournament_id, str) and len(tournament_id) <= 16 else None
        if row is None:
            raise NoSuchTournament("no such tournament")
        organiser = (await conn.execute(select(accounts.c.name, accounts.c.deleted)
                                        .where(accounts.c.id == row.organiser_id))).one()
        t = Tournament(row.id, row.name, row.format, json.loads(row.settings), row.organiser_id, row.status,
                       row.created, row.starts_at, row.started, row.finished, row.ends_at,
                       "(deleted)" if organiser.deleted else organiser.name)
        people = (await conn.execute(
            select(tournament_players, accounts.c.name, accounts.c.deleted)
            .join(accounts, accounts.c.id == tournament_players.c.account_id)
            .where(tournament_players.c.tournament_id == tournament_id)
            .order_by(tournament_players.c.joined, tournament_players.c.account_id))).all()
        t.players = [Participant(r.account_id, "(deleted)" if r.deleted else r.name, r.rating, r.joined, r.withdrawn,
                            r.paused) for r in people]
        boards = (await conn.execute(
            select(tournament_pairings, matches.c.id.label("made"), match_results.c.winner.label("won"),
                   match_results.c.ending.label("how"))
            .outerjoin(matches, matches.c.id == tournament_pairings.c.match_id)
            .outerjoin(match_results, match_results.c.match_id == tournament_pairings.c.match_id)
            .where(tournament_pairings.c.tournament_id == tournament_id))).all()
        t.boards = [Fixture(r.stage, r.number, r.board, r.white_id, r.black_id, r.match_id, r.winner_id, r.ending,
                          r.why, r.created, r.finished, r.made is not None,
                          None if r.won is None else (str(r.won), str(r.how))) for r in boards]
        return t

    async def view(self, tournament_id: str) -> dict[str, Any]:
        """The tournament as ``GET /api/tournaments/ID`` and its WebSocket show it."""
        return shown(await self.load(tournament_id))

    @unbroken
    async def listed(self) -> list[dict[str, Any]]:
        """The open tournaments (soonest first), the running ones, then the last finished or cancelled."""
        count = (select(tournament_players.c.tournament_id, func.count().label("n"))
                 .where(tournament_players.c.withdrawn.is_(False))
                 .group_by(tournament_players.c.tournament_id).subquery())
        winner = accounts.alias("winner")
        query = (select(tournaments, accounts.c.name.label("organiser"), func.coalesce(count.c.n, 0).label("n"),
                        winner.c.name.label("winner"))
                 .join(accounts, accounts.c.id == tournaments.c.organiser_id)
                 .outerjoin(winner, winner.c.id == tournaments.c.winner_id)
                 .outerjoin(count, count.c.tournament_id == tournaments.c.id))
        async with self.store.engine.connect() as conn:
            live = (await conn.execute(query.where(tournaments.c.status.in_(("open", "running"))))).all()
            over = (await conn.execute(query.where(tournaments.c.status.in_(("finished", "cancelled")))
                                       .order_by(tournaments.c.finished.desc()).limit(FINISHED_LISTED))).all()
        order = {"open": 0, "running": 1}
        live = sorted(live, key=lambda r: (order[r.status], r.starts_at or math.inf, r.created))
        return [summary(r) for r in [*live, *over]]

    @unbroken
    async def of_player(self, account_id: int) -> list[dict[str, Any]]:
        """The tournaments ``account_id`` played or plays, newest first, with his place in the finished ones."""
        async with self.store.engine.connect() as conn:
            ids = (await conn.execute(select(tournament_players.c.tournament_id)
                                      .join(tournaments, tournaments.c.id == tournament_players.c.tournament_id)
                                      .where(tournament_players.c.account_id == account_id,
                                             tournaments.c.status != "open")
                                      .order_by(tournaments.c.created.desc()).limit(50))).scalars().all()
            found = [await self._load(conn, tid) for tid in ids]
        out = []
        for t in found:
            places = {s["name"]: s["place"] for s in shown(t)["standings"]}
            me = t.player(account_id)
            assert me is not None
            out.append({"id": t.id, "name": t.name, "format": t.format, "status": t.status,
                        "players": len(t.players), "place": places.get(me.name) if t.status == "finished" else None,
                        "finished": _iso(t.finished)})
        return out

    # -- the requests ----------------------------------------------------------------------------
    async def create(self, account: Account, body: object) -> dict[str, Any]:
        """A new tournament, organised by ``account``; as ``view`` shows it."""
        now = self.now()
        name, form, settings, starts_at = tournament_settings(body, now)
        tournament_id = secrets.token_urlsafe(6)
        async with self.store.engine.begin() as conn:
            await conn.execute(insert(tournaments).values(
                id=tournament_id, name=name, format=form, settings=json.dumps(settings), organiser_id=account.id,
                status="open", created=now, starts_at=starts_at))
        self._push_soon(tournament_id)
        return await self.view(tournament_id)

    async def join(self, account: Account, tournament_id: str) -> dict[str, Any]:
        """``account`` joins (until the start; an arena while it runs too)."""
        t = await self.load(tournament_id)
        open_now = t.status == "open" or (t.format == "arena" and t.status == "running"
                                          and t.ends_at is not None and self.now() < t.ends_at)
        if not open_now:
            raise TournamentClosed("this tournament takes no more players: it has started or is over")
        me = t.player(account.id)
        if me is not None and not me.withdrawn:
            raise TournamentClosed("you have already joined this tournament")
        if me is None and len(t.active) >= t.settings["max_players"]:
            raise TournamentClosed("this tournament is full")
        rating = (await self._ratings([account.id], t.settings["games"]))[account.id]
        async with self.store.engine.begin() as conn:
            if me is None:
                try:
                    await conn.execute(insert(tournament_players).values(
                        tournament_id=t.id, account_id=account.id, rating=rating, joined=self.now(),
                        withdrawn=False, paused=False))
                except IntegrityError:
                    raise TournamentClosed("you have already joined this tournament") from None
            elif t.status == "open" or t.format == "arena":  # an arena's player who left comes back
                await conn.execute(self._player(t.id, account.id).values(withdrawn=False, paused=False))
        await self.advance(t.id)  # a sit-and-go starts as it fills
        self._push_soon(t.id)
        return await self.view(t.id)

    async def withdraw(self, account: Account, tournament_id: str) -> dict[str, Any]:
        """``account`` leaves: before the start he is off the list; after, he loses his match in play by
        forfeit and is paired no more."""
        t = await self.load(tournament_id)
        me = t.player(account.id)
        if me is None or me.withdrawn:
            raise TournamentClosed("you are not in this tournament")
        if t.status not in ("open", "running"):
            raise TournamentClosed("this tournament is over already")
        await self._withdraw(t, me)
        return await self.view(t.id)

    async def start(self, account: Account, tournament_id: str) -> dict[str, Any]:
        """The organiser starts the tournament now, with the players who have joined."""
        t = await self._organised(account, tournament_id)
        if t.status != "open":
            raise TournamentClosed("this tournament has started already or is over")
        if len(t.active) < self._fewest(t):
            raise TournamentClosed("this tournament needs at least {least} players to start", least=self._fewest(t))
        async with self._locks[t.id]:
            await self._begin(await self.load(t.id))
        await self.advance(t.id)
        return await self.view(t.id)

    async def cancel(self, account: Account, tournament_id: str) -> dict[str, Any]:
        """The organiser calls the tournament off: nothing more is paired (matches in play may be played out)."""
        t = await self._organised(account, tournament_id)
        if t.status not in ("open", "running"):
            raise TournamentClosed("this tournament is over already")
        await self._set_status(t, "cancelled")
        return await self.view(t.id)

    async def remove(self, account: Account, tournament_id: str, body: object) -> dict[str, Any]:
        """The organiser removes a player (``{"name": N}``), as if he withdrew."""
        t = await self._organised(account, tournament_id)
        name = body.get("name") if isinstance(body, dict) else None
        if not isinstance(name, str):
            raise TournamentError("give the name of the player to remove")
        if t.status not in ("open", "running"):
            raise TournamentClosed("this tournament is over already")
        them = next((p for p in t.players if p.name == name and not p.withdrawn), None)
        if them is None:
            raise TournamentError("{name} is not a player of this tournament", name=name)
        await self._withdraw(t, them)
        return await self.view(t.id)

    async def pause(self, account: Account, tournament_id: str, body: object) -> dict[str, Any]:
        """An arena's player pauses (he is not paired again) or comes back (``{"paused": bool}``)."""
        paused = body.get("paused") if isinstance(body, dict) else None
        if type(paused) is not bool:
            raise TournamentError("say whether to pause: paused is true or false")
        t = await self.load(tournament_id)
        me = t.player(account.id)
        if t.format != "arena":
            raise TournamentError("only an arena's players pause")
        if me is None or me.withdrawn:
            raise TournamentClosed("you are not in this tournament")
        async with self.store.engine.begin() as conn:
            await conn.execute(self._player(t.id, account.id).values(paused=paused))
        if not paused:
            await self.advance(t.id)
        self._push_soon(t.id)
        return await self.view(t.id)

    async def _organised(self, account: Account, tournament_id: str) -> Tournament:
        t = await self.load(tournament_id)
        if t.organiser_id != account.id:
            raise NotOrganiser("only the tournament's organiser may do that")
        return t

    @staticmethod
    def _player(tournament_id: str, account_id: int) -> Any:
        return update(tournament_players).where(tournament_players.c.tournament_id == tournament_id,
                                                tournament_players.c.account_id == account_id)

    async def _withdraw(self, t: Tournament, player: Participant) -> None:
        async with self.store.engine.begin() as conn:
            if t.status == "open":
                await conn.execute(delete(tournament_players).where(
                    tournament_players.c.tournament_id == t.id, tournament_players.c.account_id == player.account_id))
            else:
                await conn.execute(self._player(t.id, player.account_id).values(withdrawn=True))
        for b in t.boards:  # his match in play is lost by forfeit
            if not b.done and b.match_id is not None and player.account_id in (b.white_id, b.black_id):
                await self.service.forfeit(b.match_id, "white" if b.white_id == player.account_id else "black")
        await self.advance(t.id)
        self._push_soon(t.id)

    async def _set_status(self, t: Tournament, status: str) -> None:
        async with self.store.engine.begin() as conn:
            await conn.execute(update(tournaments).where(tournaments.c.id == t.id)
                               .values(status=status, finished=self.now()))
        self._push_soon(t.id)

    @staticmethod
    def _fewest(t: Tournament) -> int:
        return 2 * int(t.settings.get("groups") or 1)

    # -- running ---------------------------------------------------------------------------------
    async def tick(self) -> None:
        """Every few seconds: each tournament due to start, or running, looked at (``advance``)."""
        now = self.now()
        async with self.store.engine.connect() as conn:
            due = (await conn.execute(select(tournaments.c.id).where(
                (tournaments.c.status == "running")
                | ((tournaments.c.status == "open") & (tournaments.c.starts_at <= now))))).scalars().all()
        for tournament_id in due:
            with contextlib.suppress(NoSuchTournament):
                await self.advance(str(tournament_id))

    async def match_ended(self, match_id: str) -> None:
        """A match ended here (its result kept): its tournament, if any, goes on at once."""
        async with self.store.engine.connect() as conn:
            found = (await conn.execute(select(tournament_pairings.c.tournament_id)
                                        .where(tournament_pairings.c.match_id == match_id))).scalar()
        if found is not None:
            self.advance_soon(str(found))

    def advance_soon(self, tournament_id: str) -> None:
        """Look at the tournament as soon as may be, in a task of its own: the ends of many matches
        at once (an arena's) wait for one look, not one each."""
        if tournament_id not in self._waiting:
            self._waiting.add(tournament_id)
            self._spawn(self.advance(tournament_id))

    async def advance(self, tournament_id: str) -> None:
        """Move the tournament on as far as it goes now: started when due, its matches made, their
        results and forfeits kept, the next round paired, or finished. One look at a time here;
        another process's look at the same moment stores nothing twice."""
        async with self._locks[tournament_id]:
            self._waiting.discard(tournament_id)  # what changed before now, this look sees
            t = await self.load(tournament_id)
            now = self.now()
            if t.status == "open":
                full = t.starts_at is None and len(t.active) >= t.settings["max_players"]
                if full or (t.starts_at is not None and now >= t.starts_at):
                    if len(t.active) >= self._fewest(t):
                        await self._begin(t)
                    else:
                        await self._set_status(t, "cancelled")
                        return
                    t = await self.load(tournament_id)
                else:
                    return
            if t.status != "running":
                return
            changed = False
            for b in t.boards:
                if not b.done:
                    changed |= await self._settle(t, b, now)
            if changed:
                t = await self.load(tournament_id)
            for _ in range(8):  # a round of walkovers and byes alone is over at once: the next is paired
                paired = await self._pair(t, now)
                changed |= paired is not None
                if paired != "walkovers":
                    break
                t = await self.load(tournament_id)
            if changed:
                self._push_soon(tournament_id)

    async def _begin(self, t: Tournament) -> None:
        """The tournament starts: its players' ratings now are their seeds."""
        now = self.now()
        seeds = await self._ratings([p.account_id for p in t.active], t.settings["games"])
        ends = now + 60.0 * t.settings["minutes"] if t.format == "arena" else None
        async with self.store.engine.begin() as conn:
            begun = await conn.execute(update(tournaments)
                                       .where(tournaments.c.id == t.id, tournaments.c.status == "open")
                                       .values(status="running", started=now, ends_at=ends))
            if begun.rowcount != 1:
                return  # another process started it
            await conn.execute(delete(tournament_players).where(tournament_players.c.tournament_id == t.id,
                                                                tournament_players.c.withdrawn.is_(True)))
            for account_id, rating in seeds.items():
                await conn.execute(self._player(t.id, account_id).values(rating=rating))
        self._push_soon(t.id)

    async def _ratings(self, ids: list[int], games: list[str]) -> dict[int, float]:
        """The ratings of the accounts ``ids`` in the pool of ``games`` (``DEFAULT_RATING`` for none)."""
        pool = pool_of(games)
        found: dict[int, float] = {}
        if pool is not None and ids:
            async with self.store.engine.connect() as conn:
                found = {int(a): float(r) for a, r in (await conn.execute(
                    select(ratings.c.account_id, ratings.c.rating)
                    .where(ratings.c.account_id.in_(ids), ratings.c.pool == pool))).all()}
        return {i: found.get(i, DEFAULT_RATING) for i in ids}

    async def _settle(self, t: Tournament, b: Fixture, now: float) -> bool:
        """One pairing not over: its match made if it is not yet, its result kept once there, or
        the player who did not come within the forfeit time forfeited. Whether it changed."""
        assert b.match_id is not None and b.black_id is not None
        if not b.made:
            await self._make_match(t, b)
            return False
        if b.result is not None:
            seat, ending = b.result
            if seat == "":  # called off (it cannot be aborted, but an old server might have): the higher seed
                return await self._decide(t, b, self._higher(t, b.white_id, b.black_id), "forfeit")
            return await self._decide(t, b, b.white_id if seat == "white" else b.black_id, ending)
        if now - b.created < 60.0 * t.settings["forfeit_minutes"]:
            return False
        async with self.store.engine.connect() as conn:
            came = set((await conn.execute(select(presence.c.seat).where(presence.c.match_id == b.match_id)))
                       .scalars().all())
        absent = [seat for seat in ("white", "black") if seat not in came]
        if not absent:
            return False
        # he who did not come loses, and is paired no more; neither came: the higher seed is given it
        higher = self._higher(t, b.white_id, b.black_id)
        loser = absent[0] if len(absent) == 1 else ("black" if higher == b.white_id else "white")
        if not await self.service.forfeit(b.match_id, loser):
            return False  # it ended meanwhile (or another process moved it on): its result is read next
        winner = b.black_id if loser == "white" else b.white_id
        async with self.store.engine.begin() as conn:
            for seat in absent:
                await conn.execute(self._player(t.id, b.white_id if seat == "white" else b.black_id)
                                   .values(withdrawn=True))
        return await self._decide(t, b, winner, "forfeit")

    @staticmethod
    def _higher(t: Tournament, white_id: int, black_id: int) -> int:
        """The higher seed of a pairing (the better rating at the start; white on a tie)."""
        white, black = t.player(white_id), t.player(black_id)
        return black_id if white is not None and black is not None and black.rating > white.rating else white_id

    async def _decide(self, t: Tournament, b: Fixture, winner: int, ending: str) -> bool:
        async with self.store.engine.begin() as conn:
            done = await conn.execute(update(tournament_pairings).where(
                tournament_pairings.c.tournament_id == t.id, tournament_pairings.c.stage == b.stage,
                tournament_pairings.c.number == b.number, tournament_pairings.c.board == b.board,
                tournament_pairings.c.ending.is_(None)).values(winner_id=winner, ending=ending, finished=self.now()))
        return bool(done.rowcount)

    async def _make_match(self, t: Tournament, b: Fixture) -> None:
        """The match of a stored pairing, made (once: a second making finds it stored), and both players told."""
        assert b.match_id is not None and b.black_id is not None
        found = await self.accounts.by_ids([b.white_id, b.black_id])
        white, black = found.get(b.white_id), found.get(b.black_id)
        final = t.format == "knockout" and b.stage == "main" and b.why.get("final")
        settings = {"length": t.settings.get("final_length") or t.settings["length"] if final else t.settings["length"],
                    "games": t.settings["games"], "clock": t.settings["clock"], "rated": t.settings["rated"],
                    "tournament": t.id}
        if await self.store.settings_of(b.match_id) is not None:
            return  # made already (by another process, whose players were told)
        try:
            await self.service.create_pair(b.match_id, settings, [(white, None), (black, None)], drawn=False)
        except (IntegrityError, DBAPIError):
            return  # another process made it first
        for me, other in ((white, black), (black, white)):
            if me is not None:
                await self.lobby.tell({"k": "note", "person": f"a{me.id}", "message": {
                    "type": "tournament-match", "tournament": t.id, "name": t.name, "match": b.match_id,
                    "round": b.number, "stage": b.stage, "opponent": other.shown if other is not None else None}})

    async def _pair(self, t: Tournament, now: float) -> str | None:
        """Pair what can be paired now: ``"matches"`` (rounds stored, their matches made and their
        players told), ``"walkovers"`` (rounds of byes and walkovers alone, over at once),
        ``"finished"``, or None: nothing to do now."""
        planned = self._next_rounds(t, now)
        if planned is None:
            if not any(not b.done for b in t.boards) and not (t.format == "arena" and t.ends_at is not None
                                                              and now < t.ends_at):
                await self._finish(t)
                return "finished"
            return None
        if not planned or not await self._store_rounds(t, planned, now):
            return None
        fresh = await self.load(t.id)
        boards = [b for b in fresh.boards if not b.done and b.match_id is not None
                  and any(b.stage == stage and b.number == number for stage, number, _ in planned)]
        for b in boards:
            await self._make_match(fresh, b)
        return "matches" if boards else "walkovers"

    def _next_rounds(self, t: Tournament, now: float) -> list[tuple[str, int, list[Pairing]]] | None:
        """The rounds to pair now, by stage (``[]``: none yet, a round is in play); None once
        nothing is left to pair."""
        stages = t.stages()
        if t.format == "arena":
            return self._arena_wave(t, now)
        if any(not b.done for rounds in stages.values() for b in rounds[-1]) and t.format != "knockout":
            return []
        try:
            if t.format == "knockout":
                return self._knockout_rounds(t, stages)
            if t.format == "swiss":
                return self._swiss_round(t, stages)
            return self._round_robin_rounds(t, stages)
        except PairingError:
            return None

    def _knockout_rounds(self, t: Tournament, stages: dict[str, list[list[Fixture]]],
                         stage: str = "main") -> list[tuple[str, int, list[Pairing]]] | None:
        out: list[tuple[str, int, list[Pairing]]] = []
        main = stages.get(stage, [])
        left = False
        if not main:
            rng = random.Random(t.id) if t.settings.get("seeding") == "lot" else None
            return [(stage, 1, _with_final(knockout_first_round(t.entrants(t.active), rng)))]
        if all(b.done for b in main[-1]):
            following = _with_final(knockout_next_round([b.pairing() for b in main[-1]]))
            if following:
                out.append((stage, len(main) + 1, following))
        else:
            left = True
        if stage == "main" and t.settings.get("consolation"):
            consolation = stages.get("consolation", [])
            if not consolation and all(b.done for b in main[0]):
                first = consolation_first_round(t.entrants(), [b.pairing() for b in main[0]])
                if first:
                    out.append(("consolation", 1, _with_final(first)))
            elif consolation:
                if all(b.done for b in consolation[-1]):
                    following = _with_final(knockout_next_round([b.pairing() for b in consolation[-1]]))
                    if following:
                        out.append(("consolation", len(consolation) + 1, following))
                else:
                    left = True
            elif not all(b.done for b in main[0]):
                left = True
        return out if out or left else None

    def _swiss_round(self, t: Tournament, stages: dict[str, list[list[Fixture]]]
                     ) -> list[tuple[str, int, list[Pairing]]] | None:
        rounds = stages.get("main", [])
        playing = [p for p in t.players if not p.withdrawn]
        if len(rounds) >= self._swiss_rounds(t) or (rounds and len(playing) < 2):
            return None
        absent = {p.key for p in t.players if p.withdrawn}
        return [("main", len(rounds) + 1, swiss_round(t.entrants(), [[b.pairing() for b in r] for r in rounds],
                                                       absent))]

    @staticmethod
    def _swiss_rounds(t: Tournament) -> int:
        """The rounds a Swiss plays: as asked, but no more than its players can without a repeat."""
        n = len(t.players)
        return min(int(t.settings["rounds"]), n - 1 + n % 2)

    def _round_robin_rounds(self, t: Tournament, stages: dict[str, list[list[Fixture]]]
                            ) -> list[tuple[str, int, list[Pairing]]] | None:
        groups = t.settings.get("groups")
        if not groups:
            schedule = round_robin_schedule(t.entrants())
            done = len(stages.get("main", []))
            return [("main", done + 1, schedule[done])] if done < len(schedule) else None
        split = round_robin_groups(t.entrants(), int(groups))
        out = []
        for k, group in enumerate(split):
            stage = f"group-{chr(ord('A') + k)}"
            schedule = round_robin_schedule(group)
            done = len(stages.get(stage, []))
            if done < len(schedule):
                out.append((stage, done + 1, schedule[done]))
        if out:
            return out
        if "knockout" not in stages:  # the groups are over: their top players go on, group winners seeded first
            places: list[tuple[int, int, Entrant]] = []
            for k, group in enumerate(split):
                rounds = [[b.pairing() for b in r] for r in stages.get(f"group-{chr(ord('A') + k)}", [])]
                for place, e in enumerate(qualifiers(group, rounds, int(t.settings["qualify"]))):
                    if not t.player(int(e.name)) or not t.player(int(e.name)).withdrawn:  # type: ignore[union-attr]
                        places.append((place, k, e))
            seeded = [Entrant(e.name, float(len(places) - i)) for i, (_, _, e) in enumerate(sorted(
                places, key=lambda q: (q[0], -q[2].rating, q[1])))]
            if len(seeded) < 2:
                return None
            return [("knockout", 1, _with_final(knockout_first_round(seeded)))]
        return self._knockout_rounds(t, stages, "knockout")

    def _arena_wave(self, t: Tournament, now: float) -> list[tuple[str, int, list[Pairing]]] | None:
        if t.ends_at is None or now >= t.ends_at:
            return None
        busy = {i for b in t.boards if not b.done for i in (b.white_id, b.black_id)}
        waiting = [p for p in t.players if not p.withdrawn and not p.paused and p.account_id not in busy]
        if len(waiting) < 2:
            return []
        ordered = sorted((b for b in t.boards if b.done), key=lambda b: (b.finished or 0.0, b.number, b.board))
        scores = arena_scores([b.pairing() for b in ordered])
        last: dict[str, str] = {}
        for b in sorted(t.boards, key=lambda b: (b.created, b.number)):
            if b.black_id is not None:
                last[str(b.white_id)], last[str(b.black_id)] = str(b.black_id), str(b.white_id)
        wave = arena_pairings(t.entrants(waiting), scores, last)
        number = max((b.number for b in t.boards), default=0) + 1
        return [("main", number, wave)] if wave else []

    async def _store_rounds(self, t: Tournament, planned: list[tuple[str, int, list[Pairing]]], now: float) -> bool:
        """Store the rounds ``planned`` in one transaction (the higher process's lock on PostgreSQL);
        False if another process stored one of them first. A pairing with a withdrawn player is
        a walkover, decided as it is stored; a bye is its player's."""
        withdrawn = {p.account_id for p in t.players if p.withdrawn}
        rows = []
        for stage, number, pairs in planned:
            for board, p in enumerate(pairs):
                white, black = int(p.white), None if p.black is None else int(p.black)
                row = {"tournament_id": t.id, "stage": stage, "number": number, "board": board, "white_id": white,
                       "black_id": black, "why": json.dumps(p.why), "created": now, "match_id": None,
                       "winner_id": None, "ending": None, "finished": None}
                if black is None:
                    row |= {"winner_id": white, "ending": "bye", "finished": now}
                elif white in withdrawn or black in withdrawn:
                    walk = black if white in withdrawn else white
                    if walk in withdrawn:  # both gone: the higher seed, as when neither comes
                        walk = self._higher(t, white, black)
                    row |= {"winner_id": walk, "ending": "forfeit", "finished": now}
                else:
                    row["match_id"] = secrets.token_urlsafe(9)
                rows.append(row)
        try:
            async with self.store.engine.begin() as conn:
                if conn.dialect.name == "postgresql":  # one process pairs a tournament at a time
                    await conn.execute(text("SELECT pg_advisory_xact_lock(hashtext(:key))"),
                                       {"key": f"tournament:{t.id}"})
                status = (await conn.execute(select(tournaments.c.status).where(tournaments.c.id == t.id))).scalar()
                if status != "running":
                    return False
                await conn.execute(insert(tournament_pairings), rows)
        except IntegrityError:
            return False  # another process paired it first
        return True

    async def _finish(self, t: Tournament) -> None:
        """The tournament is over: its winner (first in the standings) kept for the lists."""
        table = _standings(t, {p.account_id: p.name for p in t.players})
        winner = next((p.account_id for p in t.players if table and p.name == table[0]["name"]), None)
        async with self.store.engine.begin() as conn:
            await conn.execute(update(tournaments).where(tournaments.c.id == t.id, tournaments.c.status == "running")
                               .values(status="finished", finished=self.now(), winner_id=winner))
        self._push_soon(t.id)

    # -- the pages' WebSockets --------------------------------------------------------------------
    def watch(self, tournament_id: str, watcher: Watcher) -> None:
        self.watchers[tournament_id].add(watcher)

    def unwatch(self, tournament_id: str, watcher: Watcher) -> None:
        watching = self.watchers.get(tournament_id)
        if watching is not None:
            watching.discard(watcher)
            if not watching:
                del self.watchers[tournament_id]

    def _push_soon(self, tournament_id: str, tell_others: bool = True) -> None:
        """The tournament changed: its watchers here are sent it (at most once in ``PUSH_GAP``), and
        the other processes told (``heard``)."""
        if tell_others:
            self._spawn(self.lobby.tell({"k": "tournament", "id": tournament_id}))
        if tournament_id in self._pushing:
            return
        self._pushing.add(tournament_id)
        self._spawn(self._push(tournament_id))

    def heard(self, note: dict[str, Any]) -> None:
        """Another process changed a tournament (``Lobby.note_listeners``): its watchers here are sent it."""
        tournament_id = note.get("id")
        if isinstance(tournament_id, str) and tournament_id in self.watchers:
            self._push_soon(tournament_id, tell_others=False)

    async def _push(self, tournament_id: str) -> None:
        loop = asyncio.get_running_loop()
        try:  # a change made in this turn of the loop is stored before it is read
            await asyncio.sleep(max(0.0, self._pushed_at.get(tournament_id, -math.inf) + PUSH_GAP - loop.time()))
        finally:
            self._pushing.discard(tournament_id)  # a change from now on is sent again
        self._pushed_at[tournament_id] = loop.time()
        watching = self.watchers.get(tournament_id)
        if not watching:
            return
        sent = orjson.dumps({"type": "tournament", "tournament": await self.view(tournament_id)}).decode()
        for k, watcher in enumerate(list(watching), 1):
            watcher.send_text(sent)
            if k % PUSH_SLICE == 0:  # the café's plays go out between slices, not after a thousand sends
                await asyncio.sleep(0)

    def _spawn(self, job: Any) -> None:
        task = asyncio.get_running_loop().create_task(job)
        self._tasks.add(task)
        task.add_done_callback(self._tasks.discard)


def _with_final(pairs: list[Pairing]) -> list[Pairing]:
    """A bracket's round of one match is its final (played to the final's length)."""
    if len([p for p in pairs if not p.is_bye]) == 1 and len(pairs) == 1:
        return [Pairing(p.white, p.black, p.winner, {**p.why, "final": True}) for p in pairs]
    return pairs


# -- what the pages are shown ---------------------------------------------------------------------


def summary(row: Any) -> dict[str, Any]:
    """A tournament as ``GET /api/tournaments`` lists it."""
    settings = json.loads(row.settings)
    return {"id": row.id, "name": row.name, "format": row.format, "status": row.status, "organiser": row.organiser,
            "players": int(row.n), "max_players": settings["max_players"], "length": settings["length"],
            "games": settings["games"], "clock": settings["clock"], "rated": settings["rated"],
            "starts_at": _iso(row.starts_at), "start": "when-full" if row.starts_at is None else "at-time",
            "started": _iso(row.started), "finished": _iso(row.finished), "ends_at": _iso(row.ends_at),
            "winner": row.winner}


def shown(t: Tournament) -> dict[str, Any]:
    """The tournament, as ``GET /api/tournaments/ID`` shows it (docs/tournaments.md, "The API")."""
    names = {p.account_id: p.name for p in t.players}
    s = t.settings
    rounds = []
    for stage, stage_rounds in sorted(t.stages().items(), key=lambda kv: _stage_key(kv[0])):
        for r in stage_rounds:
            rounds.append({"number": r[0].number, "stage": stage, "pairings": [
                {"white": names.get(b.white_id), "black": None if b.black_id is None else names.get(b.black_id),
                 "match": b.match_id, "winner": None if b.winner_id is None else names.get(b.winner_id),
                 "ending": b.ending, "why": b.why} for b in r]})
    planned = _rounds_planned(t)
    return {"id": t.id, "name": t.name, "format": t.format, "status": t.status, "organiser": t.organiser,
            "length": s["length"], "final_length": s.get("final_length"), "games": s["games"], "clock": s["clock"],
            "rated": s["rated"], "max_players": s["max_players"],
            "start": "when-full" if t.starts_at is None else "at-time", "starts_at": _iso(t.starts_at),
            "created": _iso(t.created), "started": _iso(t.started), "finished": _iso(t.finished),
            "rounds_planned": planned, "minutes": s.get("minutes"), "ends_at": _iso(t.ends_at),
            "forfeit_minutes": s["forfeit_minutes"], "consolation": s.get("consolation", False),
            "seeding": s.get("seeding"), "groups": s.get("groups"), "qualify": s.get("qualify"),
            "players": [{"name": p.name, "rating": round(p.rating, 1), "withdrawn": p.withdrawn, "paused": p.paused}
                        for p in t.players],
            "rounds": rounds, "standings": _standings(t, names)}


def _rounds_planned(t: Tournament) -> int | None:
    """How many rounds the tournament plays (its main bracket's, for a knockout; its groups', for
    round-robin groups), once its players are known; an arena's are not counted."""
    n = len(t.players)
    if t.format == "arena" or (t.status == "open" and t.format != "swiss"):
        return None
    if t.format == "swiss":
        return Tournaments._swiss_rounds(t) if t.status != "open" else int(t.settings["rounds"])
    if t.format == "knockout":
        return max(1, (n - 1).bit_length())
    size = max(len(g) for g in round_robin_groups(t.entrants(), int(t.settings["groups"]))) \
        if t.settings.get("groups") else n
    return size - 1 + size % 2


def _standings(t: Tournament, names: dict[int, str]) -> list[dict[str, Any]]:
    """The standings, each format's own way (docs/tournaments.md, "The API")."""
    if not t.players:
        return []
    stages = t.stages()
    done = {stage: [[b.pairing() for b in r] for r in rounds if all(b.done for b in r)]
            for stage, rounds in stages.items()}
    out: list[dict[str, Any]] = []
    if t.format == "arena":
        ordered = sorted((b for b in t.boards if b.done), key=lambda b: (b.finished or 0.0, b.number, b.board))
        scores = arena_scores([b.pairing() for b in ordered])
        wins: dict[str, int] = defaultdict(int)
        for b in ordered:
            if b.winner_id is not None and b.black_id is not None:
                wins[str(b.winner_id)] += 1
        table = sorted(t.players, key=lambda p: (-(scores[p.key].points if p.key in scores else 0), -p.rating, p.name))
        for p in table:
            score = scores.get(p.key)
            out.append({"name": p.name, "points": score.points if score else 0,
                        "tiebreaks": {"streak": score.streak if score else 0, "wins": wins[p.key]}})
    elif t.format == "knockout" or (t.format == "round-robin" and "knockout" in stages):
        stage = "main" if t.format == "knockout" else "knockout"
        reached: dict[str, tuple[int, int]] = {}
        for number, r in enumerate(stages.get(stage, []), 1):
            for b in r:
                for key in filter(None, (b.white_id, b.black_id)):
                    lost = b.winner_id is not None and b.winner_id != key
                    reached[str(key)] = (number, 0 if lost else 1)
        table = sorted(t.players, key=lambda p: (-reached.get(p.key, (0, 0))[0], -reached.get(p.key, (0, 0))[1],
                                                 -p.rating, p.name))
        wins = defaultdict(int)
        for r in stages.get(stage, []):
            for b in r:
                if b.winner_id is not None:
                    wins[str(b.winner_id)] += 1
        for p in table:
            out.append({"name": p.name, "points": wins[p.key], "tiebreaks": {"round": reached.get(p.key, (0, 0))[0]}})
    else:
        bye_points = 1 if t.format == "swiss" else 0
        groups = sorted(s for s in stages if s.startswith("group-")) or ["main"]
        for stage in groups:
            rounds = done.get(stage, [])
            keys = {k for r in stages.get(stage, []) for b in r for k in (b.white_id, b.black_id) if k is not None}
            group = [p for p in t.players if stage == "main" or p.account_id in keys]
            for s in standings(t.entrants(group), rounds, bye_points):
                row: dict[str, Any] = {"name": names[int(s.name)], "points": s.points, "tiebreaks": s.tiebreaks()}
                if stage != "main":
                    row["group"] = stage.removeprefix("group-")
                out.append(row)
    for place, row in enumerate(out, 1):
        row["place"] = place
    return out
