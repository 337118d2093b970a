"""Matches as the web app runs them: created, acted on, watched (``MatchService``).

Every action is checked by the rules library and stored before anyone sees
it; the ``Match`` objects kept here are only a cache of the stored actions
replayed (``tavli.server.play.replay``), and are rebuilt whenever the database is
ahead of them. The bots think in ``tavli.server.play.bot_pool``; the checks of a
request and the seats' tokens are ``tavli.server.play.seats``.
"""

from __future__ import annotations

import asyncio
import concurrent.futures
import contextlib
import datetime
import secrets
import time
from collections.abc import AsyncIterator, Awaitable, Callable, Sequence
from typing import Any

from tavli.bots.levels import LEVELS
from tavli.bots.match_equity import MatchScore
from tavli.errors import TavliError
from tavli.fairdice import commitment
from tavli.formats.record import MatchRecord, PlayerInfo
from tavli.server.play.bot_pool import BotPool
from tavli.server.play.clocks import DEFAULT_FOR_PEOPLE, ClockWatch, clock_settings
from tavli.server.play.live import LiveMatch, apply_action, must_pass, replay
from tavli.server.play.replay import Replays
from tavli.server.play.seats import (
    MATCH_ID,
    OPEN_GRACE,
    OPEN_LISTED,
    PEOPLE,
    SEATS,
    ActionError,
    MatchRequestError,
    SeatOwner,
    SeatTaken,
    player_name,
    pool_of,
    private_request,
    rematch_token,
    seat_name,
    settings_from_request,
    spectator_rematch_token,
)
from tavli.server.storage.names import looks_taken
from tavli.server.storage.store import Announcement, Conflict, MatchRow, Store, token_hash
from tavli.variants import BLACK, WHITE, Color

__all__ = ["Listener", "MatchService"]

Listener = Callable[[LiveMatch], Awaitable[None]]
TURN_BEGINS = frozenset({"start", "play", "resign", "accept", "decline"})
"""The stored actions after which a clock runs for a turn that begins there (a roll goes on with one)."""


def rated_request(body: dict[str, Any], opponent: str, games: list[str], account: SeatOwner | None) -> bool:
    """Whether a request makes a rated match: one it may make (``MatchRequestError`` otherwise)."""
    rated = body.get("rated", False)
    if type(rated) is not bool:
        raise MatchRequestError("rated must be true or false")
    if rated and account is None:
        raise MatchRequestError("log in to make a rated match")
    if rated and opponent not in PEOPLE:
        raise MatchRequestError("a rated match is played between two people with accounts")
    if rated and pool_of(games) is None:
        raise MatchRequestError("a rated match plays the Tavli sequence or one game")
    return rated


class MatchService:
    """Creates matches, carries out actions, runs the bots, and tells listeners."""

    def __init__(self, store: Store, claim_after: float = 120.0, bot_delay: float = 0.0,
                 bot_workers: int = 0) -> None:
        self.store = store
        self.claim_after = claim_after
        self.bot_delay = bot_delay
        self.bots = BotPool(bot_workers)
        self.replays = Replays(store)
        self.listeners: list[Listener] = []
        """Told of each action, in order, the match's lock held (wired in ``tavli.server.app``)."""
        self.clocks = ClockWatch(self.flag_due, store.clocked_in_play)

    @property
    def bot_workers(self) -> int:
        """Processes that think for the bots; 0: a thread of this process (tests, small sites)."""
        return self.bots.workers

    def start_bots(self) -> list[concurrent.futures.Future[int]]:
        """Start the bot processes (``BotPool.start``); the futures are done once they are ready."""
        return self.bots.start()

    async def bots_ready(self, timeout: float = 300.0) -> None:
        """Start the bot processes and wait until they have loaded the networks (``BotPool.ready``)."""
        await self.bots.ready(timeout)

    def close(self) -> None:
        self.clocks.close()
        self.bots.close()

    # -- creating and loading ------------------------------------------------
    async def create(self, body: object, account: SeatOwner | None = None) -> dict[str, Any]:
        """A new match from the start page's request, made by ``account`` (None: a guest); returns
        the tokens and links."""
        if not isinstance(body, dict):
            raise MatchRequestError("the request must be a JSON object")
        known = {"opponent", "length", "games", "seat", "mother_pin", "prime_limits", "prime_in_opponent_start",
                 "coach", "name", "rated", "clock", "private"}
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
        if rated_request(body, opponent, data["games"], account):
            data["rated"] = True
        if private_request(body, opponent):  # kept in the settings: a rematch is private too
            data["private"] = True
        clock = clock_settings(body.get("clock", DEFAULT_FOR_PEOPLE if opponent in PEOPLE else None))
        if clock is not None:
            data["clock"] = clock
        name = account.name if account is not None else await self.guest_name(body.get("name"))
        other = "black" if seat == "white" else "white"
        kinds = {seat: "human", other: "human" if opponent in PEOPLE else f"bot:{opponent}"}
        match_id = secrets.token_urlsafe(9)
        tokens = {seat: secrets.token_urlsafe(24), "spectator": secrets.token_urlsafe(24)}
        if opponent == "friend":
            tokens[other] = secrets.token_urlsafe(24)
        await self._new_match(match_id, data, kinds["white"], kinds["black"],
                              {token_hash(t): role for role, t in tokens.items()},
                              open_seat=other if opponent == "anyone" else None,
                              seat_names={seat: name} if name else None,
                              accounts={seat: account.id} if account is not None else None)
        link = f"/match/{match_id}#t="
        return {"match": match_id, "seat": seat, "token": tokens[seat], "play": link + tokens[seat],
                "friend": link + tokens[other] if other in tokens else None,
                "watch": link + tokens["spectator"], "open": opponent == "anyone", "rated": bool(data.get("rated"))}

    async def create_pair(self, match_id: str, settings: dict[str, Any],
                          players: Sequence[tuple[SeatOwner | None, str | None]],
                          drawn: bool = True) -> list[dict[str, Any]]:
        """A match between two people the lobby paired (``tavli.server.cafe.lobby``) or a tournament
        (``tavli.server.cafe.tournaments``): ``settings`` as a seek keeps them (length, games, clock,
        rated; a tournament's id), ``players`` each one's account and name, in seats drawn at random
        (``drawn``) or white first; each player's seat, token and link, in the order of ``players``."""
        _, data = settings_from_request({"length": settings["length"], "games": ",".join(settings["games"])})
        data["coach"] = False
        for key in ("rated", "clock", "tournament"):
            if settings.get(key):
                data[key] = settings[key]
        seats = ["white", "black"]
        if drawn:
            secrets.SystemRandom().shuffle(seats)
        tokens = {seat: secrets.token_urlsafe(24) for seat in seats} | {"spectator": secrets.token_urlsafe(24)}
        names = {seat: account.name if account is not None else name
                 for seat, (account, name) in zip(seats, players, strict=True) if account is not None or name}
        accounts = {seat: account.id for seat, (account, _) in zip(seats, players, strict=True) if account is not None}
        await self._new_match(match_id, data, "human", "human", {token_hash(t): role for role, t in tokens.items()},
                              seat_names={k: v for k, v in names.items() if v} or None, accounts=accounts or None)
        link = f"/match/{match_id}#t="
        return [{"match": match_id, "seat": seat, "token": tokens[seat], "play": link + tokens[seat],
                 "watch": link + tokens["spectator"], "rated": bool(data.get("rated"))} for seat in seats]

    async def open_matches(self, now: float | None = None) -> list[dict[str, Any]]:
        """The matches whose other seat anyone may take, newest first: what the start page lists.
        A match is listed while its creator is connected (and for ``OPEN_GRACE`` seconds after it
        was made, while his page opens), until someone takes the seat or the match ends."""
        at = time.time() if now is None else now
        found = await self.store.open_matches(at, OPEN_GRACE, OPEN_LISTED)
        shown = ("length", "games", "mother_pin", "prime_limits", "prime_in_opponent_start", "coach", "rated")
        return [{"match": o.match_id, "seat": o.seat, "name": o.name, "account": o.account,
                 "waiting": round(max(0.0, at - o.created))}
                | {key: o.settings[key] for key in shown if key in o.settings} for o in found]

    async def take_open_seat(self, match_id: str, name: object = None, account: SeatOwner | None = None,
                             ) -> dict[str, Any]:
        """Take the open seat of ``match_id`` (with the player's ``name``, if he gives one, or his
        ``account``): its token and link. ``SeatTaken`` where there is none (someone took it first,
        or it was never open); ``MatchRequestError`` for a name that cannot be one, or a rated
        match's seat asked for by a guest or by its creator."""
        given = account.name if account is not None else await self.guest_name(name)
        token = secrets.token_urlsafe(24)
        found = await self.get(match_id) if MATCH_ID.fullmatch(match_id) else None
        if found is not None and found.row.settings.get("rated"):
            if account is None:
                raise MatchRequestError("log in to take a seat in a rated match")
            if account.id in (await self.store.accounts_of(match_id)).values():
                raise MatchRequestError("you cannot play both seats of a rated match")
        seat = (await self.store.take_open_seat(match_id, token_hash(token), given,
                                                account.id if account is not None else None)
                if found is not None else None)
        if seat is None:
            raise SeatTaken("no open seat in that match: someone took it first, or it was never open")
        live = self.peek(match_id)
        if live is not None and given:
            live.names.setdefault(seat, given)
        if live is not None and account is not None:
            live.accounts[seat] = account.name
        return {"match": match_id, "seat": seat, "token": token, "play": f"/match/{match_id}#t={token}"}

    async def guest_name(self, value: object) -> str | None:
        """A guest's name (``player_name``); ``MatchRequestError`` for one that is an account's or
        looks the same as one (``looks_taken``): only its player plays under it."""
        name = player_name(value)
        if name is not None and await looks_taken(self.store.engine, name):
            raise MatchRequestError("that name is an account's: log in to play under it, or choose another")
        return name

    async def name_seat(self, live: LiveMatch, seat: str, name: object) -> None:
        """The player of ``seat`` gives his ``name`` (his page sends it as he joins): kept unless
        the seat has one. ``MatchRequestError`` for a name that cannot be one; one that is an
        account's (or looks like one) is not kept, and he plays on unnamed: his browser may have
        kept it from before the account was made."""
        given = player_name(name)
        if given and seat not in live.names and not await looks_taken(self.store.engine, given):
            await self._name(live, seat, given)

    async def _name(self, live: LiveMatch, seat: str, name: str) -> None:
        await self.store.name_seat(live.row.id, seat, name)
        live.names[seat] = (await self.store.names_of(live.row.id)).get(seat, name)

    async def seat_account(self, live: LiveMatch, seat: str, account: SeatOwner | None) -> None:
        """Let ``account`` (None: a guest) play ``seat`` with its token, or refuse (``ActionError``):
        a logged-in player takes a seat no account has; a rated match's seat is played only by
        its account's player."""
        owners = await self.store.accounts_of(live.row.id)
        owner, other = owners.get(seat), owners.get("black" if seat == "white" else "white")
        if owner is None and account is not None and account.id != other:
            owner = await self.store.bind_seat(live.row.id, seat, account.id)
            if owner == account.id:
                live.accounts[seat] = account.name
                if seat not in live.names:
                    await self._name(live, seat, account.name)
        if not live.row.settings.get("rated") or (account is not None and owner == account.id):
            return
        if account is None:
            raise ActionError("login", "this match is rated: log in to play it")
        if account.id == other:
            raise ActionError("login", "you cannot play both seats of a rated match")
        raise ActionError("login", "this seat of a rated match is another player's")

    async def reload_names(self, live: LiveMatch) -> None:
        """The names as stored: another server process may have been given one (or an account
        may have taken a seat there)."""
        if len(live.names) < 2:
            live.names = await self.store.names_of(live.row.id)
        if len(live.accounts) < 2:
            live.accounts = await self.store.account_names_of(live.row.id)

    async def wake(self, match_id: str) -> None:
        """Let the bots act if it is their turn, or answer an offer made to them (after a restart
        cut them off, say)."""
        live = await self.get(match_id)
        if live is None:
            return
        to_answer = live.offer is not None and any(live.bot_level(c) is not None for c in SEATS.values())
        if to_answer or (not live.match.is_over and live.bot_level(live.match.turn) is not None):
            async with live.lock:
                live = self.replays.current(live)
                await self._bot_answers(live)
                await self._run_bots(live)

    def forget(self, match_id: str) -> None:
        """Drop the cached replay of a match nobody watches any more."""
        self.replays.forget(match_id)

    def peek(self, match_id: str) -> LiveMatch | None:
        """The cached replay of a match, if this process has one (loads nothing)."""
        return self.replays.peek(match_id)

    def cached(self) -> list[str]:
        return self.replays.cached()

    def account_renamed(self, note: dict[str, Any]) -> None:
        """A moderator renamed or closed an account (``note``'s ``from`` and ``to``, on every
        process): the matches kept here show it under its new name from their next state on."""
        old, new = note.get("from"), note.get("to")
        if not isinstance(old, str) or not isinstance(new, str):
            return
        for match_id in self.cached():
            live = self.peek(match_id)
            if live is None:
                continue
            for seat, name in list(live.accounts.items()):
                if name == old:
                    live.accounts[seat] = new

    async def get(self, match_id: str) -> LiveMatch | None:
        """The match, replayed from the database the first time it is asked for (a clocked one
        then watched for its flag)."""
        live = await self.replays.get(match_id)
        if live is not None and live.clock is not None and not self.clocks.watching(match_id):
            self._watch_clock(live)
        return live

    async def catch_up(self, match_id: str, heard: Sequence[Announcement] = ()) -> LiveMatch | None:
        """The actions another server process stored since this one's replay (``Replays.catch_up``)."""
        return await self.replays.catch_up(match_id, heard)

    async def refresh(self, match_id: str) -> LiveMatch | None:
        """Replay the match again from the database (another process acted on it)."""
        return await self.replays.refresh(match_id)

    # -- acting ------------------------------------------------------------
    # Each action a player may take is one method, which the match's socket calls by the class of
    # the message read (``tavli.server.routes.match_socket.dispatch``); each runs in ``_acting``.

    @contextlib.asynccontextmanager
    async def _acting(self, match_id: str, role: str, seq: int, after_the_end: bool = False,
                      ) -> AsyncIterator[LiveMatch]:
        """The match to act on, with its lock held, once the checks every action shares have
        passed (``ActionError`` otherwise); the bots answer after the action. ``after_the_end``:
        the action is one a match lost on time still takes (a rematch offered, or answered);
        none is taken once the match is aborted."""
        live = await self.get(match_id)
        if live is None:
            raise ActionError("bad-token", "no such match")
        async with live.lock:
            live = self.replays.current(live)
            if role not in SEATS:
                raise ActionError("spectator", "spectators can only watch")
            # a match lost on time is over like any other: a rematch may be offered and answered
            if await self._flag_fallen(live) and not after_the_end:
                raise ActionError("time", "your time ran out: you lost the match on time"
                                  if live.clock is not None and live.clock.flagged == role
                                  else "your opponent's time ran out: you won the match on time")
            if live.match.aborted:
                raise ActionError("aborted", "the match was aborted: nothing more can be done in it")
            if seq != live.seq:
                raise ActionError("stale", "the match is at action {seq}, not {sent}: here is the state",
                                  seq=live.seq, sent=seq)
            yield live
            await self._run_bots(live)

    def _in_play(self, live: LiveMatch, role: str) -> None:
        """Refuse a move in the play (a roll, a play, a claim) once the match is over, or while
        the mover's own offer waits for its answer."""
        if live.match.is_over:
            raise ActionError("match-over", "the match is over")
        if live.offer is not None and live.offer["from"] == role:
            raise ActionError("offer-pending", "wait for the answer to your offer")

    async def _on_turn(self, live: LiveMatch, role: str) -> None:
        """Refuse a roll or a play but on the mover's turn, and before the opponent has come."""
        self._in_play(live, role)
        if live.seq == 0 and live.awaits({role, *await self.store.presence_of(live.row.id)}):
            raise ActionError("waiting", "your opponent has not come yet: the game starts "
                                         "when both players are here")
        if live.match.turn != SEATS[role]:
            raise ActionError("not-your-turn", "it is your opponent's turn")

    async def roll(self, match_id: str, role: str, seq: int, *, received: float | None = None) -> LiveMatch:
        """Roll the dice for ``role``'s turn, the match at action ``seq``, then let the bots act;
        ``ActionError`` if refused. The time from the roll ``received`` until its state goes out is
        not the roller's."""
        async with self._acting(match_id, role, seq) as live:
            await self._on_turn(live, role)
            if live.match.dice is not None:
                raise ActionError("illegal", "the dice are already rolled ({dice}): play first", dice=live.match.dice)
            await self._roll(live, role, received)
        return live

    async def play(self, match_id: str, role: str, seq: int, play: str, *,
                   received: float | None = None) -> LiveMatch:
        """Make the play ``play`` (as players write it; empty when the dice cannot be played).
        The mover's clock stops when it was ``received`` (now if None): the wait for this match's
        lock and the server's own work are not the player's time."""
        async with self._acting(match_id, role, seq) as live:
            await self._on_turn(live, role)
            match = live.match
            if match.dice is None:
                raise ActionError("illegal", "roll the dice first")
            try:
                listed = live.listed_play(play)
                parsed = listed or (match.game.position.parse_play(play, match.dice) if play else None)
                if parsed is None and len(match.legal_plays()):
                    raise TavliError("give the play to make: the dice can be played")
            except TavliError as exc:
                raise ActionError("illegal", exc) from None
            await self._commit(live, role, "play", {"play": str(parsed) if parsed else ""},
                               at=None if received is None else min(received, time.time()))
        return live

    async def claim(self, match_id: str, role: str, seq: int) -> LiveMatch:
        """Claim the game: the opponent is away on his turn, long enough (``can_claim``)."""
        async with self._acting(match_id, role, seq) as live:
            self._in_play(live, role)
            if not await self.can_claim(live, SEATS[role]):
                raise ActionError("not-absent", "you can claim only when the opponent is away on his turn "
                                                "and nothing has happened for {seconds:g} s", seconds=self.claim_after)
            await self._commit(live, role, "claim", {})
        return live

    async def resign(self, match_id: str, role: str, seq: int, points: int = 1, *,
                     whole_match: bool = False) -> LiveMatch:
        """Offer to resign the game for ``points`` (1 or 2) on one's turn, or resign the
        ``whole_match`` at any time (no answer needed); a bot answers at once."""
        async with self._acting(match_id, role, seq) as live:
            if live.match.is_over:
                raise ActionError("match-over", "the match is over")
            if live.offer is not None:
                raise ActionError("offer-pending", "an offer is waiting for its answer")
            if whole_match:
                await self._commit(live, role, "resign", {"match": True})
            else:
                if live.match.turn != SEATS[role]:
                    raise ActionError("not-your-turn", "you can offer to resign the game on your turn")
                if points not in (1, 2):
                    raise ActionError("illegal", "a game is resigned for 1 or 2 points")
                await self._commit(live, role, "resign", {"points": points})
                await self._bot_answers(live)
        return live

    async def rematch(self, match_id: str, role: str, seq: int, *, token: str = "") -> LiveMatch:
        """Offer a rematch of the match that is over; ``token`` is the sender's own (the rematch
        gives his seat the token ``rematch_token(token, new match)``). A bot accepts at once."""
        async with self._acting(match_id, role, seq, after_the_end=True) as live:
            if not live.match.is_over:
                raise ActionError("illegal", "a rematch is offered once the match is over")
            if live.rematch is not None:
                raise ActionError("illegal", "the rematch is already agreed")
            if live.offer is not None:
                raise ActionError("offer-pending", "a rematch is already offered: answer it")
            new_id = secrets.token_urlsafe(9)
            await self._commit(live, role, "rematch",
                               {"match": new_id, "hash": token_hash(rematch_token(token, new_id))})
            await self._bot_answers(live)
        return live

    async def answer(self, match_id: str, role: str, seq: int, accept: bool, *, token: str = "") -> LiveMatch:
        """Accept or decline the opponent's offer (a resignation, or a rematch: accepted, it is
        made, with the seat's token ``rematch_token(token, new match)``)."""
        async with self._acting(match_id, role, seq, after_the_end=True) as live:
            offer = live.offer
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
        return live

    async def abort(self, match_id: str, role: str, seq: int) -> LiveMatch:
        """Call the match off, as either player may before both have made a play (``Match.can_abort``):
        no winner, no points, nothing rated; a waiting offer goes with it, and the clocks stop."""
        async with self._acting(match_id, role, seq) as live:
            if live.match.is_over:
                raise ActionError("match-over", "the match is over")
            if not live.match.can_abort:
                raise ActionError("no-abort", "a match can be aborted only before both players have made a play")
            if live.row.settings.get("tournament"):
                raise ActionError("no-abort", "a tournament's match cannot be aborted: resign it instead")
            await self._commit(live, role, "abort", {})
        return live

    async def forfeit(self, match_id: str, seat: str) -> bool:
        """End ``match_id`` against ``seat``, a tournament's player who did not come in time
        (``tavli.server.cafe.tournaments``); whether it did (False once the match is over: played
        out meanwhile, or forfeited by another process first)."""
        live = await self.get(match_id)
        if live is None:
            return False
        async with live.lock:
            live = self.replays.current(live)
            if live.match.is_over:
                return False
            try:
                await self._commit(live, seat, "forfeit", {})
            except ActionError:  # another process moved it on meanwhile: it looks again later
                return False
        return True

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
        takes = await self.bots.takes(level, live.match.game.position, live.match.dice, offer["points"],
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
        owners = {swap[seat]: account for seat, account in (await self.store.accounts_of(live.row.id)).items()}
        settings = {k: v for k, v in live.row.settings.items() if k != "public"}  # made public: this match only
        await self._new_match(match_id, settings, live.row.black, live.row.white, roles,
                              seat_names={swap[seat]: name for seat, name in live.names.items()}, accounts=owners)

    async def _new_match(self, match_id: str, settings: dict[str, Any], white: str, black: str,
                         hashes: dict[str, str], open_seat: str | None = None,
                         seat_names: dict[str, str] | None = None, accounts: dict[str, int] | None = None) -> None:
        """Store a new match (its tokens by their hashes and roles), keep it, and let its bots act.
        It is replayed here as a load would replay it (which draws the first game's seed, for the
        roll-off) and stored with that seed in one transaction: no load and no second write."""
        created = time.time()
        live = replay(MatchRow(match_id, created, settings, white, black, 0, False, created), [], [])
        live.names = dict(seat_names or {})
        await self.store.create_with_hashes(match_id, settings, white, black, hashes,
                                            dict(enumerate(live.roller.seeds)), created, open_seat, seat_names,
                                            accounts)
        if accounts:
            live.accounts = await self.store.account_names_of(match_id)
        live = self.replays.keep(live)
        async with live.lock:
            await self._run_bots(live)

    # -- clocks -------------------------------------------------------------
    async def start_clock(self, live: LiveMatch, here: set[str]) -> None:
        """Start a clocked match's clocks once every player has come (``here``: the seats that
        have joined; a bot's seat is always there)."""
        async with live.lock:
            live = self.replays.current(live)
            clock = live.clock
            if clock is None or clock.started or live.match.is_over:
                return
            seats = {seat for seat, color in SEATS.items() if live.bot_level(color) is None}
            if seats <= here:
                await self._commit(live, seat_name(live.match.turn), "start", {})

    async def _flag_fallen(self, live: LiveMatch) -> bool:
        """Whether the running clock has run out: if so, the flag is stored (the match lost on
        time) and told. Called with the match's lock held."""
        clock = live.clock
        if clock is None or clock.running is None or live.match.is_over:
            return bool(clock is not None and clock.flagged)
        if clock.left_now(clock.running, time.time()) > 0:
            return False
        await self._commit(live, clock.running, "flag", {})
        return True

    def _watch_clock(self, live: LiveMatch) -> None:
        """Look again when the running clock would run out (``ClockWatch``: moved on each action)."""
        self.clocks.watch(live.row.id, None if live.match.is_over else live.clock)

    async def flag_due(self, match_id: str) -> None:
        """Store the flag of ``match_id`` if its running clock's time is up (``ClockWatch`` calls
        it when it would be), unless someone acted meanwhile: then watch it again."""
        live = await self.get(match_id)
        if live is None:
            return
        async with live.lock:
            live = self.replays.current(live)
            with contextlib.suppress(ActionError):  # another process stored it first: its state comes
                if not await self._flag_fallen(live):
                    self._watch_clock(live)

    async def _roll(self, live: LiveMatch, seat: str, received: float | None = None) -> None:
        """Roll (the dice come from the game's seed); a roll that cannot be played passes at once,
        stored with its pass in one transaction: no stored prefix ends on a roll nobody can play.
        The time from the roll ``received`` until its state goes out is not the roller's."""
        seeds_before = len(live.roller.seeds)
        try:
            dice = live.match.roll()
        except TavliError as exc:
            await self.refresh(live.row.id)
            raise ActionError("illegal", exc) from None
        entries: list[tuple[str, str, dict[str, Any]]] = [(seat, "roll", {"dice": list(dice)})]
        if must_pass(live):
            apply_action(live, "play", seat, {"play": ""})
            entries.append((seat, "play", {"play": ""}))
        await self._store(live, entries, seeds_before, received)

    async def _commit(self, live: LiveMatch, seat: str, kind: str, data: dict[str, Any],
                      at: float | None = None) -> None:
        """Apply an action (made at ``at``, now if None) to the cache and store it; on a conflict,
        reload and refuse."""
        seeds_before = len(live.roller.seeds)
        try:
            if kind == "roll":
                dice = live.match.roll()
                data = {"dice": list(dice)}
            else:
                apply_action(live, kind, seat, data, at)
        except TavliError as exc:
            await self.refresh(live.row.id)
            raise ActionError("illegal", exc) from None
        await self._store(live, [(seat, kind, data)], seeds_before, at)

    async def _store(self, live: LiveMatch, entries: list[tuple[str, str, dict[str, Any]]],
                     seeds_before: int, received: float | None = None) -> None:
        """Store actions already applied to the cache (the player's, ``received`` then), in one
        transaction; on a conflict, reload and refuse."""
        new_seeds = dict(enumerate(live.roller.seeds[seeds_before:], seeds_before))
        try:
            at = await self.store.append_actions(live.row.id, live.seq + 1, entries, new_seeds, live.match.is_over)
        except Conflict:
            await self.refresh(live.row.id)
            raise ActionError("stale", "the match moved on meanwhile: here is the state") from None
        live.seq += len(entries)
        live.last_action = at
        await self._tell(live, turn_began=any(kind in TURN_BEGINS for _, kind, _ in entries), received=received)

    async def _tell(self, live: LiveMatch, turn_began: bool = False, received: float | None = None) -> None:
        clock = live.clock
        if clock is not None and clock.running is not None:
            # storing an action is the server's time, not the player's: a new turn's time runs
            # from now, as its state goes out, and a turn that goes on (a roll) is not charged
            # from the action's reading until now (another process, or a replay, counts from
            # the stored action: some milliseconds more)
            now = time.time()
            if turn_began:
                clock.since = max(clock.since, now)
            elif received is not None:
                clock.uncharged += max(0.0, now - max(received, clock.since))
        if clock is not None:
            self._watch_clock(live)
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
            index = await self.bots.choose(level, legal, MatchScore.of(match))  # plays for the match
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
        if live.clock is not None:  # the absent player's clock runs: he loses on time instead
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
