"""What a request may ask of the server, checked: seats and their tokens, names, match settings
and the rating pools they count in (``pool_of``), and the refusals (``ActionError``,
``MatchRequestError``, ``SeatTaken``); an account, as a seat knows it (``SeatOwner``)."""

from __future__ import annotations

import base64
import hashlib
import hmac
import re
import unicodedata
from collections.abc import Sequence
from typing import Any, Literal, Protocol, get_args

from tavli.errors import Reason, TavliError
from tavli.match import MatchSettings
from tavli.server.play.reasons import one_line, reason_of
from tavli.server.storage.names import UnclearName, check_look
from tavli.variants import BLACK, GAMES, WHITE, Color

SEATS: dict[str, Color] = {"white": WHITE, "black": BLACK}
PRESENCE_SECONDS = 30.0
"""A seat counts as connected this long after its last heartbeat."""


ErrorCode = Literal[
    "bad-message", "too-large", "rate-limited", "not-joined", "bad-token", "private", "login", "corrupt",
    "spectator", "time", "aborted", "stale", "match-over", "offer-pending", "not-absent", "waiting",
    "not-your-turn", "illegal", "no-abort", "no-offer", "no-coach", "not-rolled", "no-chances",
    "chat-rate-limited", "chat-closed", "chat-text", "chat-banned", "no-such-tournament",
]
"""The codes of the errors a match's (or a tournament page's) socket sends (docs/web.md): a page says
each in its language (``error-CODE`` in ``static/strings-en.js`` and ``strings-el.js``)."""
ERROR_CODES: tuple[ErrorCode, ...] = get_args(ErrorCode)


class ActionError(ValueError):
    """An action the server refuses; ``code`` is the protocol's error code, ``reason`` says why
    (a template and its values, or the library's error that refused it).

    >>> str(ActionError("stale", "the match is at action {seq}, not {sent}: here is the state", seq=7, sent=6))
    'the match is at action 7, not 6: here is the state'
    """

    def __init__(self, code: ErrorCode, reason: str | BaseException, /, **params: object) -> None:
        self.reason = Reason(reason, **params) if isinstance(reason, str) else reason_of(reason)
        super().__init__(one_line(self.reason))
        self.code = code


class MatchRequestError(TavliError):
    """A request for a new match that cannot be met: a field missing, of the wrong kind or out
    of range."""


class SeatTaken(TavliError):
    """An open seat asked for that is not open (any more)."""


MATCH_ID = re.compile(r"[A-Za-z0-9_-]{1,32}")
"""What a match's id may be: anything else names no match."""
NAME_LENGTH = 24
"""The most characters a player's name may have."""


class SeatOwner(Protocol):
    """An account as a seat knows it: its id and its name (``tavli.server.cafe.accounts.Account``;
    the matches know nothing else of the café)."""

    @property
    def id(self) -> int: ...

    @property
    def name(self) -> str: ...


def player_name(value: object) -> str | None:
    """A player's name as given (None or empty: no name), in its compatibility form (NFKC), its
    spaces tidied; ``MatchRequestError`` for one that is not text, too long, holds control or
    invisible characters, or mixes scripts (``tavli.server.storage.names``). Whether it is an account's
    is the caller's to ask (``tavli.server.storage.names.looks_taken``).

    >>> player_name("  Eleni   K. "), player_name(None), player_name(""), player_name("Νίκος")
    ('Eleni K.', None, None, 'Νίκος')
    >>> player_name("Nikοs")  # a Greek omicron among Latin letters
    Traceback (most recent call last):
    ...
    tavli.server.play.seats.MatchRequestError: a name's letters must all be of one script, such as Greek or Latin
    """
    if value is None:
        return None
    if not isinstance(value, str):
        raise MatchRequestError("a name must be text")
    name = " ".join(unicodedata.normalize("NFKC", value).split())
    if len(name) > NAME_LENGTH or any(unicodedata.category(c)[0] == "C" for c in name):
        raise MatchRequestError("a name has at most {count} letters and no control characters", count=NAME_LENGTH)
    try:
        return check_look(name) or None
    except UnclearName as exc:
        raise MatchRequestError(exc.reason) from None


PEOPLE = ("friend", "anyone")
"""The opponents that are people: a friend with a link, or anyone on the server (an open seat)."""
OPEN_GRACE = 60.0
"""Seconds an open match is listed before its creator's page has connected."""
OPEN_LISTED = 50
"""The most open matches listed at once, the newest."""


def watchable(settings: dict[str, Any]) -> bool:
    """Whether anyone with a match's address may watch it, with no token, and read its record,
    dice and review: every match but one its creator made private (a match between friends or
    against a bot; open, lobby and rated matches are always watchable), until a player makes it
    public once it is over.

    >>> watchable({"length": 5}), watchable({"private": True}), watchable({"private": True, "public": True})
    (True, False, True)
    """
    return not settings.get("private", False) or bool(settings.get("public", False))


def private_request(body: dict[str, Any], opponent: str) -> bool:
    """Whether a new match's request makes it private (``MatchRequestError`` for one that cannot be)."""
    private = body.get("private", False)
    if type(private) is not bool:
        raise MatchRequestError("private must be true or false")
    if private and (opponent == "anyone" or body.get("rated") is True):
        raise MatchRequestError("an open or a rated match can always be watched: it cannot be private")
    return private


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

    >>> from tavli.server.storage.store import token_hash
    >>> spectator_rematch_token(token_hash("abc"), "m1") == rematch_token(token_hash("abc"), "m1")
    True
    """
    return rematch_token(spectator_hash, match_id)


POOLS = ("tavli", *GAMES)
"""The rating pools: the Tavli sequence, and each game alone."""


def pool_of(games: Sequence[str]) -> str | None:
    """The rating pool of a match playing ``games`` in turn; None for an order that has none (such
    a match cannot be rated).

    >>> pool_of(["portes", "plakoto", "fevga"]), pool_of(["fevga"]), pool_of(["fevga", "portes"])
    ('tavli', 'fevga', None)
    """
    if list(games) == list(GAMES):
        return "tavli"
    if len(games) == 1 and games[0] in GAMES:
        return str(games[0])
    return None


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
