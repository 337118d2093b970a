"""The web app's tables, as SQLAlchemy Core describes them: the matches and their actions, and the
accounts, sessions and ratings of the café. The migrations (``tavli.server.storage.migrations``) make them;
this module says what they are now."""

from __future__ import annotations

from typing import Any

from sqlalchemy import Boolean, Column, Float, ForeignKey, Index, Integer, MetaData, String, Table, Text, false
from sqlalchemy.dialects.postgresql import insert as postgresql_insert
from sqlalchemy.dialects.sqlite import insert as sqlite_insert

metadata = MetaData()
LOOK_KEY_LENGTH = 200
"""The most characters of an account's look-alike key kept (a key is cut to it)."""


def insert_for(dialect: str) -> Any:
    """The INSERT of ``dialect`` (``postgresql`` or ``sqlite``) that takes ``ON CONFLICT``: both
    databases have it, so that an upsert is one statement on either.

    >>> insert_for("sqlite") is sqlite_insert
    True
    """
    return postgresql_insert if dialect == "postgresql" else sqlite_insert

matches = Table(
    "matches", metadata,
    Column("id", String(32), primary_key=True),
    Column("created", Float, nullable=False),
    Column("settings", Text, nullable=False),
    Column("white", String(32), nullable=False),
    Column("black", String(32), nullable=False),
    Column("seq", Integer, nullable=False, default=0),
    Column("over", Boolean, nullable=False, default=False),
    Column("updated", Float, nullable=False),
)

tokens = Table(
    "tokens", metadata,
    Column("hash", String(64), primary_key=True),
    Column("match_id", String(32), ForeignKey("matches.id"), nullable=False, index=True),
    Column("role", String(16), nullable=False),
)

seeds = Table(
    "seeds", metadata,
    Column("match_id", String(32), ForeignKey("matches.id"), primary_key=True),
    Column("game", Integer, primary_key=True),
    Column("seed", String(64), nullable=False),
    Column("commitment", String(64), nullable=False),
)

actions = Table(
    "actions", metadata,
    Column("match_id", String(32), ForeignKey("matches.id"), primary_key=True),
    Column("seq", Integer, primary_key=True),
    Column("seat", String(8), nullable=False),
    Column("kind", String(8), nullable=False),
    Column("data", Text, nullable=False),
    Column("at", Float, nullable=False),
)

presence = Table(
    "presence", metadata,
    Column("match_id", String(32), ForeignKey("matches.id"), primary_key=True),
    Column("seat", String(8), primary_key=True),
    # connected until this time: a heartbeat moves it on, a disconnect sets it to now
    Column("until", Float, nullable=False),
)

open_seats = Table(
    "open_seats", metadata,
    # a seat of a match that anyone on the server may take ("open matches" on the start page);
    # the row goes when someone takes it, and his token is stored then
    Column("match_id", String(32), ForeignKey("matches.id"), primary_key=True),
    Column("seat", String(8), nullable=False),
    Column("created", Float, nullable=False),
)

names = Table(
    "names", metadata,
    # the name a player gave for his seat; set once, by the first to give one
    Column("match_id", String(32), ForeignKey("matches.id"), primary_key=True),
    Column("seat", String(8), primary_key=True),
    Column("name", String(64), nullable=False),
)

analyses = Table(
    "analyses", metadata,
    Column("match_id", String(32), ForeignKey("matches.id"), primary_key=True),
    # the review of the match's first ``games`` games (those finished when it was made)
    Column("games", Integer, nullable=False),
    Column("depth", Integer, nullable=False),
    Column("data", Text, nullable=False),
    Column("at", Float, nullable=False),
)

accounts = Table(
    "accounts", metadata,
    Column("id", Integer, primary_key=True, autoincrement=True),
    Column("name", String(40), nullable=False),
    # the name as compared: NFKC, case-folded, so that no two accounts differ only in case or form
    Column("name_key", String(80), nullable=False, unique=True),
    Column("password", String(255), nullable=False),  # an argon2 hash, never the password
    Column("created", Float, nullable=False),
    Column("disabled", Boolean, nullable=False, default=False),
    Column("deleted", Boolean, nullable=False, default=False),
    # the name's look-alike key (tavli.server.storage.names): no two accounts' names look the same; null
    # for a deleted account, and for the younger of two made before the rule
    Column("look_key", String(LOOK_KEY_LENGTH)),
    # a moderator of the café (``tavli users moderator``): reads the reports and acts on them
    Column("moderator", Boolean, nullable=False, default=False, server_default=false()),
    # a moderator closed the account's chat until this time (None: never)
    Column("chat_banned_until", Float),
    Index("ix_accounts_look_key", "look_key", unique=True),
)

sessions = Table(
    "sessions", metadata,
    # a logged-in browser or terminal: the SHA-256 of its cookie's secret, never the secret
    Column("hash", String(64), primary_key=True),
    Column("account_id", Integer, ForeignKey("accounts.id"), nullable=False, index=True),
    Column("created", Float, nullable=False),
    Column("expires", Float, nullable=False),
)

login_failures = Table(
    "login_failures", metadata,
    Column("id", Integer, primary_key=True, autoincrement=True),
    Column("address", String(64), nullable=False),
    Column("name_key", String(80), nullable=False),
    Column("at", Float, nullable=False),
    Index("ix_login_failures_address_at", "address", "at"),
    Index("ix_login_failures_name_key_at", "name_key", "at"),
)

seat_accounts = Table(
    "seat_accounts", metadata,
    # the account that plays a seat: set when a logged-in player makes the match or takes the seat
    Column("match_id", String(32), ForeignKey("matches.id"), primary_key=True),
    Column("seat", String(8), primary_key=True),
    Column("account_id", Integer, ForeignKey("accounts.id"), nullable=False, index=True),
)

ratings = Table(
    "ratings", metadata,
    Column("account_id", Integer, ForeignKey("accounts.id"), primary_key=True),
    Column("pool", String(16), primary_key=True),
    Column("rating", Float, nullable=False),
    Column("deviation", Float, nullable=False),
    Column("volatility", Float, nullable=False),
    Column("matches", Integer, nullable=False),
    Column("updated", Float, nullable=False),
)

rating_changes = Table(
    "rating_changes", metadata,
    # one row per player of each rated match: the key makes a result count once, whichever
    # server process sees the match end first
    Column("match_id", String(32), ForeignKey("matches.id"), primary_key=True),
    Column("account_id", Integer, ForeignKey("accounts.id"), primary_key=True),
    Column("pool", String(16), nullable=False),
    Column("score", Float, nullable=False),
    Column("rating", Float, nullable=False),
    Column("deviation", Float, nullable=False),
    Column("new_rating", Float, nullable=False),
    Column("new_deviation", Float, nullable=False),
    Column("at", Float, nullable=False),
    Index("ix_rating_changes_account_at", "account_id", "at"),
)

match_results = Table(
    "match_results", metadata,
    # a finished match as the players' pages list it, written when it ends (and its players'
    # error rates when its review is made): the pages read this, never the actions
    Column("match_id", String(32), ForeignKey("matches.id"), primary_key=True),
    Column("finished", Float, nullable=False),
    Column("winner", String(8), nullable=False),  # white, black, or "" for an aborted match
    Column("white_points", Integer, nullable=False),
    Column("black_points", Integer, nullable=False),
    Column("ending", String(16), nullable=False),  # played, resigned, left, time, aborted
    Column("white_error_rate", Float),
    Column("black_error_rate", Float),
    # JSON: each game's name, winner, points and ending (tavli.server.cafe.results.game_ending)
    Column("games", Text, nullable=False),
)

heartbeat = Table(
    "heartbeat", metadata,
    # one row: when a server process was last alive; a process that starts reads it to know how
    # long no server ran (the clocks do not charge that time)
    Column("id", Integer, primary_key=True),
    Column("alive", Float, nullable=False),
)

outages = Table(
    "outages", metadata,
    # each time no server process was alive, stored by the next to start: from the last heartbeat
    # before it to that start; a replay leaves every outage within a running turn uncharged
    Column("id", Integer, primary_key=True, autoincrement=True),
    Column("down", Float, nullable=False),
    Column("up", Float, nullable=False, index=True),
)

seeks = Table(
    "seeks", metadata,
    # the lobby's seeks: a person asking for a match (one at a time), listed until someone accepts
    # it, its owner cancels it or leaves (``until``: his lobby connection keeps it fresh); and the
    # challenges, a seek addressed to one person (``target``), which expire at ``until``
    Column("id", String(16), primary_key=True),
    Column("owner", String(64), nullable=False),  # the person: an account or a guest
    Column("account_id", Integer, ForeignKey("accounts.id")),
    Column("name", String(32)),
    Column("rating", Float, nullable=False),
    Column("settings", Text, nullable=False),  # JSON: length, games, clock, rated, range, quick
    Column("created", Float, nullable=False),
    Column("until", Float, nullable=False),
    Column("address", String(64), index=True),  # the client's (``limits.client_address``): a few seeks each
    # the person challenged (an account's key), or "" for a seek anyone may accept: one open seek
    # per owner, one live challenge from one person to another
    Column("target", String(64), nullable=False, server_default="", index=True),
    Index("ix_seeks_owner_target", "owner", "target", unique=True),
)

lobby_paired = Table(
    "lobby_paired", metadata,
    # the people the lobby has just paired: a person is in one row at most, so that two pairings
    # at once cannot both take him (rows older than a few seconds are cleared)
    Column("person", String(64), primary_key=True),
    Column("match_id", String(32), nullable=False),
    Column("at", Float, nullable=False),
)

lobby_people = Table(
    "lobby_people", metadata,
    # who is on the start page, for the count of players online
    Column("person", String(64), primary_key=True),
    Column("until", Float, nullable=False),
)

chat_lines = Table(
    "chat_lines", metadata,
    # what was said at a match's table (docs/cafe.md, "Talk across the table"): a quick phrase by
    # its key, or a line of text as kept (``tavli.server.cafe.chat.clean_line``), in one of the
    # match's two rooms, its players' (``players``) and its spectators' (``spectators``)
    Column("id", Integer, primary_key=True, autoincrement=True),
    Column("match_id", String(32), ForeignKey("matches.id"), nullable=False),
    Column("room", String(12), nullable=False),
    Column("seat", String(16), nullable=False),  # white, black or spectator
    Column("account_id", Integer, ForeignKey("accounts.id")),
    Column("name", String(32)),  # who, as the match names him when he spoke (None: a seat's colour)
    Column("phrase", String(32)),  # a quick phrase's key, or None for a line of text
    Column("text", Text),
    Column("at", Float, nullable=False),
    Index("ix_chat_lines_match_room", "match_id", "room", "id"),
)

chat_mutes = Table(
    "chat_mutes", metadata,
    # the players a signed-in player has muted: an account (``a7``: in every match) or a guest's
    # seat of one match (``mMATCH:black``), as ``tavli.server.cafe.chat.mute_key`` writes them
    Column("account_id", Integer, ForeignKey("accounts.id"), primary_key=True),
    Column("muted", String(64), primary_key=True),
    Column("at", Float, nullable=False),
)

reports = Table(
    "reports", metadata,
    # a player reported (``POST /api/reports``), for a moderator to read: who reported (a person's
    # key, as the lobby writes it), whom (his name, and his account where he has one), in which
    # match, why (``tavli.server.cafe.chat.REPORT_REASONS``) and a note; "open" until dealt with
    Column("id", Integer, primary_key=True, autoincrement=True),
    Column("reporter", String(64), nullable=False),
    Column("reporter_name", String(32)),
    Column("reported", String(32), nullable=False),
    Column("reported_account", Integer, ForeignKey("accounts.id")),
    Column("match_id", String(32)),
    Column("reason", String(16), nullable=False),
    Column("note", Text, nullable=False, server_default=""),
    Column("at", Float, nullable=False),
    Column("status", String(12), nullable=False, server_default="open"),
    Index("ix_reports_status_at", "status", "at"),
    Index("ix_reports_reporter_at", "reporter", "at"),
)

moderation_actions = Table(
    "moderation_actions", metadata,
    # every moderator's action (docs/cafe.md, "Moderators"): who did what to which account (its
    # name then), settling which report, why, and its details (JSON: a mute's days, a renaming's
    # names); ``seen`` is False while a warning, mute or renaming waits for its player to read it
    Column("id", Integer, primary_key=True, autoincrement=True),
    Column("moderator_id", Integer, ForeignKey("accounts.id"), nullable=False),
    Column("account_id", Integer, ForeignKey("accounts.id")),
    Column("account_name", String(40)),
    Column("action", String(12), nullable=False),
    Column("report_id", Integer),
    Column("note", Text, nullable=False, server_default=""),
    Column("detail", Text, nullable=False, server_default="{}"),
    Column("at", Float, nullable=False),
    Column("seen", Boolean),
    Index("ix_moderation_actions_at", "at"),
    Index("ix_moderation_actions_account_seen", "account_id", "seen"),
)

tournaments = Table(
    "tournaments", metadata,
    # a tournament (docs/tournaments.md): its settings as asked (JSON: length, games, clock, rated,
    # max_players, the start, rounds, minutes, ...), its organiser, and where it stands: ``open``
    # (taking players), ``running``, ``finished`` or ``cancelled``
    Column("id", String(16), primary_key=True),
    Column("name", String(80), nullable=False),
    Column("format", String(16), nullable=False),
    Column("settings", Text, nullable=False),
    Column("organiser_id", Integer, ForeignKey("accounts.id"), nullable=False),
    Column("status", String(12), nullable=False),
    Column("created", Float, nullable=False),
    Column("starts_at", Float),  # None: when full
    Column("started", Float),
    Column("finished", Float),
    Column("ends_at", Float),  # an arena's end
    Column("winner_id", Integer, ForeignKey("accounts.id")),  # first in the final standings
    Index("ix_tournaments_status_created", "status", "created"),
)

tournament_players = Table(
    "tournament_players", metadata,
    # who joined a tournament, with the rating he brought (his seed); ``withdrawn`` once he left,
    # was removed, or did not come to a match (he is paired no more); ``paused`` in an arena
    Column("tournament_id", String(16), ForeignKey("tournaments.id"), primary_key=True),
    Column("account_id", Integer, ForeignKey("accounts.id"), primary_key=True, index=True),
    Column("rating", Float, nullable=False),
    Column("joined", Float, nullable=False),
    Column("withdrawn", Boolean, nullable=False, default=False),
    Column("paused", Boolean, nullable=False, default=False),
)

tournament_pairings = Table(
    "tournament_pairings", metadata,
    # each pairing of each round (``stage``: main, consolation, group-A, ..., knockout), stored in
    # one transaction before anyone is told: a round written twice fails on its key. ``black_id``
    # None is a bye; the match is made after, with the id kept here (``match_id``); ``winner_id``
    # and ``ending`` once it is over; ``why`` (JSON) the rule that made the pair
    Column("tournament_id", String(16), ForeignKey("tournaments.id"), primary_key=True),
    Column("stage", String(16), primary_key=True),
    Column("number", Integer, primary_key=True),
    Column("board", Integer, primary_key=True),
    Column("white_id", Integer, ForeignKey("accounts.id"), nullable=False),
    Column("black_id", Integer, ForeignKey("accounts.id")),
    Column("match_id", String(32), unique=True),
    Column("winner_id", Integer),
    Column("ending", String(16)),
    Column("why", Text, nullable=False, server_default="{}"),
    Column("created", Float, nullable=False),
    Column("finished", Float),
)
