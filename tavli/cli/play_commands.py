"""The commands that play: ``tavli play`` (a match at the terminal, kept as it goes), ``tavli
matches`` (the kept matches) and ``tavli join`` (a seat of a match on a Tavli server)."""

from __future__ import annotations

import os
from pathlib import Path
from typing import TYPE_CHECKING

import click

from tavli.bots import LEVELS
from tavli.bots.levels import DEFAULT_LEVEL
from tavli.cli.options import (
    SEATS,
    InputError,
    check_writable,
    house_rule_options,
    language_option,
    match_settings,
)
from tavli.dice import DiceRoller
from tavli.match import MatchSettings
from tavli.variants import BLACK, WHITE, Color

if TYPE_CHECKING:
    from tavli.formats.record import MatchRecord


@click.command()
@click.option("--white", type=click.Choice(SEATS), default="human", show_default=True,
              help="human, or a bot as for --black")


@click.option("--black", type=click.Choice(SEATS), default=DEFAULT_LEVEL, show_default=True,
              help="random, heuristic, or a neural level from beginner to champion")


@click.option("--length", "-n", type=click.IntRange(min=1), default=5, show_default=True,
              help="points to win the match")


@click.option("--games", default="tavli", show_default=True,
              help="tavli (Portes, Plakoto, Fevga, ...), one game, or an order like fevga,portes")


@house_rule_options
@click.option("--seed", type=int, help="reproducible dice (default: cryptographic dice)")
@click.option("--save", type=click.Path(dir_okay=False, path_type=Path),
              help="keep the match record (JSON, docs/formats.md) in this file, written after every turn "
              "(default: a new file in the folder of kept matches)")


@click.option("--no-save", is_flag=True, help="keep no record of the match")
@click.option("--resume", is_flag=False, flag_value="", default=None, metavar="[FILE]",
              help="go on with the match in this record (from --save or the web app, or a kept match's name "
              "as tavli matches lists it; alone: the last match kept and not won), saving it there; the "
              "players are the record's unless --white or --black says otherwise")


@click.option("--tutor", is_flag=True, help="ask before playing a blunder (judged as the hints judge)")
@click.option("--chances", is_flag=True, help="show each side's chance of winning the match beside the board")
@language_option
def play(white: str, black: str, length: int, games: str, mother_pin: str, prime_limits: str,
         prime_in_opponent_start: str, seed: int | None, save: Path | None, no_save: bool, resume: str | None,
         tutor: bool, chances: bool, language: str) -> None:
    """Play a match in the terminal against a bot or a friend. The match is kept as it goes (see
    --save), and --resume goes on with one left before its end."""
    from tavli.terminal.match_loop import play_match
    from tavli.terminal.saved_matches import NoKeptMatch, kept_file, last_kept

    seats = {WHITE: white, BLACK: black}
    settings = match_settings(length, games, mother_pin, prime_limits, prime_in_opponent_start)
    record = None
    if resume is not None:
        try:
            path = kept_file(resume) if resume else last_kept()
        except NoKeptMatch as e:
            raise InputError(str(e)) from None
        record, settings = _resumed(path, seats)
        save = save or path
    if no_save:
        save = None
    elif save is None:
        save = _new_kept()
    if save is not None:
        check_writable(save)
    play_match(settings, seats, DiceRoller(seed), save=save, language=language, record=record, tutor=tutor,
               chances=chances)


def _new_kept() -> Path | None:
    """A new file for a match in the folder of kept matches (``tavli.terminal.saved_matches``);
    None (and a line on stderr) where the folder cannot be made: the match is then played without
    a record."""
    from tavli.terminal.saved_matches import kept_matches, new_kept_file

    try:
        return new_kept_file()
    except OSError as e:
        click.echo(f"warning: cannot keep the match in {kept_matches()}: {e.strerror or e}", err=True)
        return None


@click.command("matches")
@click.option("--limit", "-n", type=click.IntRange(min=0), default=20, show_default=True,
              help="show the newest so many (0: all)")


@language_option
def matches(limit: int, language: str) -> None:
    """The matches tavli play kept, the last played first: who played, the score, and whether each
    is won. Go on with one by tavli play --resume MATCH."""
    from rich.console import Console

    from tavli.terminal.reports import kept_view
    from tavli.terminal.saved_matches import can_go_on, kept_files, kept_matches, read_kept
    from tavli.terminal.words import Words

    words = Words(language)
    folder = kept_matches()
    files = kept_files()
    if not files:
        click.echo(words.plain("No match is kept in {folder} yet: tavli play keeps every match there.", folder=folder))
        return
    kept, unreadable = read_kept(files[:limit or None])
    console = Console(highlight=False)
    console.print(words("The matches kept in {folder}, the last played first:", folder=folder))
    console.print(kept_view(kept, language))
    if unreadable:
        console.print(words("1 file could not be read as a match record.") if unreadable == 1 else
                      words("{count} files could not be read as match records.", count=unreadable))
    if len(files) > len(kept) + unreadable:
        console.print(words("{count} older: --limit 0 shows them all.", count=len(files) - len(kept) - unreadable))
    newest = next((name for name, record in kept if can_go_on(record)), None)
    if newest is not None:
        console.print(words("To go on with one: {command} (--resume alone takes {name})",
                            command=("tavli play --resume MATCH", "bold"), name=newest), soft_wrap=True)


MATCH_OPTIONS = ("length", "games", "mother_pin", "prime_limits", "prime_in_opponent_start")
"""The options of ``tavli play`` that a resumed match takes from its record."""


def _resumed(path: Path, seats: dict[Color, str]) -> tuple[MatchRecord, MatchSettings]:
    """The record to go on from, checked, and its settings; ``seats`` given by default take the
    record's players. One line (InputError) for a record that cannot go on."""
    from click.core import ParameterSource

    from tavli.formats.record import read

    context = click.get_current_context()
    for name in MATCH_OPTIONS:
        if context.get_parameter_source(name) not in (ParameterSource.DEFAULT, None):
            raise InputError(f"--{name.replace('_', '-')} comes from the match record with --resume")
    try:
        record = read(path)
        match = record.to_match()
    except ValueError as e:
        raise InputError(f"{path}: {e}") from None
    if match.is_over:
        winner = match.winner
        assert winner is not None
        raise InputError(f"{path}: the match is over: {winner} won {match.score[winner]}-"
                         f"{match.score[winner.other]}")
    for color, name in ((WHITE, "white"), (BLACK, "black")):
        if context.get_parameter_source(name) != ParameterSource.DEFAULT:
            continue
        player = record.players[color]
        if player.kind == "human":
            seats[color] = "human"
        elif player.name in SEATS:
            seats[color] = player.name
        else:
            raise InputError(f"{path}: the {name} bot {player.name!r} is not one of Tavli's: "
                             f"choose with --{name}")
    return record, record.settings


@click.command()
@click.argument("link")
@click.option("--new", "opponent", type=click.Choice(["friend", "anyone", *LEVELS]), default=None,
              help="with a server's address: make a new match there against a friend (his link is shown to send "
                   "him), anyone on the server (an open match) or a bot level, and play it")


@click.option("--length", "-n", type=click.IntRange(1, 25), default=5, show_default=True,
              help="with --new: points to win the match")


@click.option("--games", default="tavli", show_default=True, help="with --new: tavli, one game, or an order")
@click.option("--seat", type=click.Choice(["white", "black", "random"]), default="white", show_default=True,
              help="with --new: your side")


@house_rule_options
@click.option("--name", default=None, help="your name, for your opponent to see (at most 24 letters)")
@click.option("--user", default=None, metavar="NAME",
              help="play as your account on the server (the password is asked, or read from TAVLI_PASSWORD)")
@click.option("--rated", is_flag=True, help="with --new friend or anyone and --user: a rated match")
@click.option("--seek", "seek_length", type=click.IntRange(1, 25), default=None, metavar="POINTS",
              help="with a server's address: play now in its lobby, a match to POINTS with whoever asks for the "
                   "same (--games, --clock); the match is shown when paired, then played")
@click.option("--clock", type=click.Choice(["kafeneio", "blitz", "relaxed", "none"]), default="kafeneio",
              show_default=True, help="with --seek: the match's clock")
@click.option("--tournament", default=None, metavar="ID",
              help="with a server's address and --user: play your matches of this tournament one after another "
                   "as they are paired, joining it first if you are not in it")
@language_option
def join(link: str, opponent: str | None, length: int, games: str, seat: str, mother_pin: str, prime_limits: str,
         prime_in_opponent_start: str, name: str | None, user: str | None, rated: bool, seek_length: int | None,
         clock: str, tournament: str | None, language: str) -> None:
    """Play your seat of a match on a Tavli server (tavli serve) at the terminal: LINK is the
    link the server gave you or your friend (http://HOST/match/ID#t=TOKEN), or the server's
    address (http://HOST:PORT) to take the seat of one of its open matches, or with --new to
    make a match there, or with --tournament to play your matches of a tournament there.

    \b
    tavli join 'http://HOST/match/ID#t=TOKEN'
    tavli join http://HOST:8000
    tavli join http://HOST:8000 --new friend --length 7
    tavli join http://HOST:8000 --user Eleni --new anyone --rated
    tavli join http://HOST:8000 --seek 5 --clock blitz
    tavli join http://HOST:8000 --user Eleni --tournament Xa3k9QpL
    """
    from tavli.terminal.remote import RemoteError, join_tournament
    from tavli.terminal.remote import join as join_match
    from tavli.terminal.words import Words

    words = Words(language)
    if tournament is not None and user is None:
        raise InputError(words.plain("--tournament needs --user NAME: a tournament is played as your account"))
    if tournament is not None and (opponent is not None or seek_length is not None):
        raise InputError(words.plain("--tournament does not go with --new or --seek"))
    if name is not None and (len(" ".join(name.split())) > 24 or not name.isprintable()):
        raise InputError("--name has at most 24 letters and no control characters")
    if seek_length is not None and opponent is not None:
        raise InputError("--seek and --new do not go together: choose one")
    if rated and (user is None or (opponent not in ("friend", "anyone") and seek_length is None)):
        raise InputError("--rated needs --user and --new friend, --new anyone or --seek")
    seek = None if seek_length is None else {"length": seek_length, "games": games, "clock": clock,
                                             **({"rated": True} if rated else {})}
    new = None
    if opponent is not None:
        new = {"opponent": opponent, "length": length, "games": games, "seat": seat, "mother_pin": mother_pin,
               "prime_limits": prime_limits == "on", "prime_in_opponent_start": prime_in_opponent_start == "on"}
        if rated:
            new["rated"] = True
    login = None
    if user is not None:
        password = os.environ.get("TAVLI_PASSWORD") or click.prompt(f"Password for {user}", hide_input=True,
                                                                    err=True)
        login = (user, password)
    try:
        if tournament is not None and login is not None:
            join_tournament(link, tournament, login, language=language)
        else:
            join_match(link, language=language, new=new, name=name, login=login, seek=seek)
    except RemoteError as e:
        raise InputError(str(e)) from None
    except KeyboardInterrupt:
        raise SystemExit(130) from None


