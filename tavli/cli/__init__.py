"""The ``tavli`` command: legal plays, terminal and web matches, bots, training, analysis."""

from __future__ import annotations

import json
import os
import random
import sys
import time
from collections.abc import Callable, Iterable, Mapping
from pathlib import Path
from typing import TYPE_CHECKING, TextIO, TypeVar

import click

from tavli.bots import BOTS, LEVELS
from tavli.dice import Dice, DiceRoller
from tavli.errors import LANGUAGES, TavliError
from tavli.game import Game
from tavli.gnubg_id import POSITION_ID
from tavli.match import MatchSettings
from tavli.position import Position
from tavli.variants import BLACK, WHITE, Color, Variant, variant_from_string

if TYPE_CHECKING:
    from rich.progress import Progress

    from tavli.bots import Player
    from tavli.formats.record import MatchRecord

class InputError(click.ClickException):
    """Bad input from the user: one line on stderr, exit status 2."""

    exit_code = 2


def read_position(variant_text: str | None, position_text: str) -> tuple[Position, bool]:
    """A position from a position string (its game field may be left out when
    ``variant_text`` names the game) or a GNU Backgammon Position ID (Portes,
    White on roll); also says whether it was an ID."""
    variant = variant_from_string(variant_text) if variant_text is not None else None
    text = position_text.strip()
    if POSITION_ID.fullmatch(text):
        if variant is not None and variant.name != "portes":
            raise TavliError(f"a GNU Backgammon Position ID is a Portes position, not {variant.name}")
        return Position.from_gnubg_id(text), True
    if len(text.split()) == 4:
        if variant is None:
            raise TavliError("the position string has no game field: give the game with --variant")
        text = f"{variant} {text}"
    pos = Position.from_string(text)
    if variant is not None and pos.variant != variant:
        raise TavliError(f"the position is {pos.variant} but the game asked for is {variant}")
    return pos, False


def legal_lines(variant_text: str | None, position_text: str, dice_text: str) -> list[str]:
    """The answer of ``tavli legal``: one line per play, tab-separated."""
    pos, as_id = read_position(variant_text, position_text)
    legal = pos.legal_plays(Dice.parse(dice_text))
    plays = [str(p) for p in legal] or ["pass"]
    lines = []
    for play, after in zip(plays, legal.positions(), strict=True):
        line = f"{play}\t{after}"
        if as_id:
            line += f"\t{after.gnubg_id()}"
        lines.append(line)
    return lines


def _answer_queries(lines: Iterable[str], out: TextIO) -> None:
    for raw in lines:
        line = raw.strip()
        if not line or line.startswith("#"):
            continue
        try:
            fields = line.split()
            if len(fields) < 3:
                raise TavliError("a query is: VARIANT POSITION DICE")
            block = legal_lines(fields[0], " ".join(fields[1:-1]), fields[-1])
        except ValueError as e:
            block = [f"error: {e}"]
        out.write("\n".join(block) + "\n\n")
        out.flush()


@click.group(context_settings={"help_option_names": ["-h", "--help"]})
@click.version_option(package_name="tavli")
def cli() -> None:
    """Tavli: Portes, Plakoto and Fevga."""


@cli.command()
@click.option("--variant", "-v",
              help="portes, plakoto or fevga, with house rules like fevga,prime_limits=off "
              "(default: the game the position names; Portes for a Position ID)")
@click.option("--position", "-p", help="position string or GNU Backgammon Position ID; "
              "without it, queries 'VARIANT POSITION DICE' are read from stdin, one per line")
@click.option("--dice", "-d", help="the roll, like 62")
def legal(variant: str | None, position: str | None, dice: str | None) -> None:
    """Print every legal play: notation, a tab, the resulting position."""
    if position is None:
        if dice is not None:
            raise InputError("--dice needs --position (or give queries on stdin)")
        _answer_queries(sys.stdin, sys.stdout)
        return
    if dice is None:
        raise InputError("--dice is required with --position")
    try:
        lines = legal_lines(variant, position, dice)
    except ValueError as e:
        raise InputError(str(e)) from None
    click.echo("\n".join(lines))


SEATS = ("human", *BOTS)
DEFAULT_LEVEL = "expert"  # tavli.bots.neural.DEFAULT_LEVEL, without loading the networks


F = TypeVar("F", bound=Callable[..., object])


def house_rule_options(command: F) -> F:
    """The house rules a match can choose (``MatchSettings``), as ``--mother-pin``,
    ``--prime-limits`` and ``--prime-in-opponent-start``; ``_settings`` reads them."""
    options = (
        click.option("--mother-pin", type=click.Choice(["double", "single", "off"]), default="double",
                     show_default=True, help="Plakoto: points for pinning the mother"),
        click.option("--prime-limits", type=click.Choice(["on", "off"]), default="on", show_default=True,
                     help="Fevga: the prime limits (off = Moultezim)"),
        click.option("--prime-in-opponent-start", type=click.Choice(["on", "off"]), default="on",
                     show_default=True, help="Fevga: forbid holding all of points 7-12"),
    )
    for option in reversed(options):
        command = option(command)
    return command


def locale_language(environ: Mapping[str, str] = os.environ) -> str:
    """``el`` where the locale is Greek, else ``en``: the first of ``LANGUAGE``, ``LC_ALL``,
    ``LC_MESSAGES`` and ``LANG`` that is set decides, as for gettext.

    >>> locale_language({"LANG": "el_GR.UTF-8"}), locale_language({"LC_ALL": "C", "LANG": "el_GR"})
    ('el', 'en')
    """
    for name in ("LANGUAGE", "LC_ALL", "LC_MESSAGES", "LANG"):
        value = environ.get(name, "").split(":")[0]
        if value:
            return "el" if value.lower().startswith("el") else "en"
    return "en"


def language_option(command: F) -> F:
    """``--lang``: the language of what the terminal says; by default the locale's."""
    return click.option("--lang", "language", type=click.Choice(LANGUAGES), default=lambda: locale_language(),
                        show_default="el in a Greek locale, else en",
                        help="speak English or Greek")(command)


def _settings(length: int, games: str, mother_pin: str, prime_limits: str,
              prime_in_opponent_start: str) -> MatchSettings:
    try:
        return MatchSettings(length=length, games=MatchSettings.parse_games(games),
                             mother_pin=mother_pin,  # type: ignore[arg-type]  # click.Choice checked it
                             prime_limits=prime_limits == "on",
                             prime_in_opponent_start=prime_in_opponent_start == "on")
    except ValueError as e:
        raise InputError(str(e)) from None


@cli.command()
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
    from tavli.terminal import play_match

    seats = {WHITE: white, BLACK: black}
    settings = _settings(length, games, mother_pin, prime_limits, prime_in_opponent_start)
    record = None
    if resume is not None:
        path = _kept_file(resume) if resume else _last_kept()
        record, settings = _resumed(path, seats)
        save = save or path
    if no_save:
        save = None
    elif save is None:
        save = _new_kept()
    if save is not None:
        _check_writable(save)
    play_match(settings, seats, DiceRoller(seed), save=save, language=language, record=record, tutor=tutor,
               chances=chances)


def kept_matches() -> Path:
    """The folder where ``tavli play`` keeps its matches unless told otherwise: ``matches`` in
    the user's folder for Tavli (``click.get_app_dir``: ``~/.config/tavli`` on Linux)."""
    return Path(click.get_app_dir("tavli")) / "matches"


def _new_kept() -> Path | None:
    """A new file for a match in ``kept_matches()``, named by the local time; None (and a line on
    stderr) where the folder cannot be made: the match is then played without a record."""
    folder = kept_matches()
    try:
        folder.mkdir(parents=True, exist_ok=True)
    except OSError as e:
        click.echo(f"warning: cannot keep the match in {folder}: {e.strerror or e}", err=True)
        return None
    stem = time.strftime("%Y-%m-%d-%H%M%S")
    path, n = folder / f"{stem}.json", 1
    while path.exists():
        n += 1
        path = folder / f"{stem}-{n}.json"
    return path


def _kept_file(name: str) -> Path:
    """``--resume``'s file: as given, or a bare name that is not here from ``kept_matches()``
    (the names ``tavli matches`` lists, with or without ``.json``)."""
    path = Path(name)
    if path.exists() or path.name != name:
        return path
    return next((kept for kept in (kept_matches() / name, kept_matches() / f"{name}.json") if kept.is_file()), path)


def _last_kept() -> Path:
    """The newest match in ``kept_matches()`` that can go on: readable and not won."""
    from tavli.formats.record import RecordError, read

    folder = kept_matches()
    files = sorted(folder.glob("*.json"), key=lambda p: p.stat().st_mtime, reverse=True) if folder.is_dir() else []
    for path in files:
        try:
            record = read(path)
        except RecordError:
            continue
        if record.winner is None and not record.series:
            return path
    raise InputError(f"no match to go on with in {folder}: name its file, tavli play --resume FILE")


@cli.command("matches")
@click.option("--limit", "-n", type=click.IntRange(min=0), default=20, show_default=True,
              help="show the newest so many (0: all)")
@language_option
def matches(limit: int, language: str) -> None:
    """The matches tavli play kept, the last played first: who played, the score, and whether each
    is won. Go on with one by tavli play --resume MATCH."""
    from rich.console import Console

    from tavli.formats.record import RecordError, read
    from tavli.terminal import Words
    from tavli.terminal.reports import kept_view

    words = Words(language)
    folder = kept_matches()
    files = sorted(folder.glob("*.json"), key=lambda p: p.stat().st_mtime, reverse=True) if folder.is_dir() else []
    if not files:
        click.echo(words.plain("No match is kept in {folder} yet: tavli play keeps every match there.", folder=folder))
        return
    kept, unreadable = [], 0
    for path in files[:limit or None]:
        try:
            kept.append((path.stem, read(path)))
        except (RecordError, OSError):
            unreadable += 1
    console = Console(highlight=False)
    console.print(words("The matches kept in {folder}, the last played first:", folder=folder))
    console.print(kept_view(kept, language))
    if unreadable:
        console.print(words("1 file could not be read as a match record.") if unreadable == 1 else
                      words("{count} files could not be read as match records.", count=unreadable))
    if len(files) > len(kept) + unreadable:
        console.print(words("{count} older: --limit 0 shows them all.", count=len(files) - len(kept) - unreadable))
    newest = next((name for name, record in kept if record.winner is None and not record.series), None)
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


@cli.command()
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
@language_option
def join(link: str, opponent: str | None, length: int, games: str, seat: str, mother_pin: str, prime_limits: str,
         prime_in_opponent_start: str, name: str | None, language: str) -> None:
    """Play your seat of a match on a Tavli server (tavli serve) at the terminal: LINK is the
    link the server gave you or your friend (http://HOST/match/ID#t=TOKEN), or the server's
    address (http://HOST:PORT) to take the seat of one of its open matches, or with --new to
    make a match there.

    \b
    tavli join 'http://HOST/match/ID#t=TOKEN'
    tavli join http://HOST:8000
    tavli join http://HOST:8000 --new friend --length 7
    """
    from tavli.terminal.remote import RemoteError
    from tavli.terminal.remote import join as join_match

    if name is not None and (len(" ".join(name.split())) > 24 or not name.isprintable()):
        raise InputError("--name has at most 24 letters and no control characters")
    new = None
    if opponent is not None:
        new = {"opponent": opponent, "length": length, "games": games, "seat": seat, "mother_pin": mother_pin,
               "prime_limits": prime_limits == "on", "prime_in_opponent_start": prime_in_opponent_start == "on"}
    try:
        join_match(link, language=language, new=new, name=name)
    except RemoteError as e:
        raise InputError(str(e)) from None
    except KeyboardInterrupt:
        raise SystemExit(130) from None


@cli.command("met")
@click.option("--length", "-n", type=click.IntRange(min=1, max=25), default=7, show_default=True,
              help="points to win the match")
@click.option("--games", default="tavli", show_default=True,
              help="tavli (Portes, Plakoto, Fevga, ...), one game, or an order like fevga,portes")
@click.option("--next-game", type=click.IntRange(min=0), default=0, show_default=True,
              help="which game of the order comes next (0 = the first)")
@click.option("--starter", type=click.Choice(["roll-off", "me", "opponent"]), default="roll-off",
              show_default=True, help="who starts the next game, seen from the row's side")
@house_rule_options
@click.option("--json", "as_json", is_flag=True, help="print JSON for tools")
@language_option
def met_command(length: int, games: str, next_game: int, starter: str, mother_pin: str, prime_limits: str,
                prime_in_opponent_start: str, as_json: bool, language: str) -> None:
    """Print the match equity table: the chance of winning the match, needing the row's points
    against the column's (docs/match-equity.md)."""
    from tavli.bots.match_equity import MatchEquity, Starter, measured_as, outcomes_for

    settings = _settings(length, games, mother_pin, prime_limits, prime_in_opponent_start)
    met = MatchEquity.for_settings(settings)
    table = met.table(length, next_game, Starter(starter))
    next_name = settings.games[next_game % len(settings.games)]
    if as_json:
        click.echo(json.dumps({
            "length": length, "games": list(settings.games), "next_game": next_game, "next_game_name": next_name,
            "starter": starter, "rules": {"mother_pin": mother_pin, "prime_limits": prime_limits == "on",
                                          "prime_in_opponent_start": prime_in_opponent_start == "on"},
            "outcomes": {str(v): vars(outcomes_for(v)) for v in met.games},
            "measured_as": {str(v): measured_as(v) for v in met.games},
            "equity": table,
            "about": "equity[i][j]: chance of winning the match needing i + 1 points against j + 1",
        }, indent=1))
        return
    from rich.console import Console

    from tavli.terminal import Words
    from tavli.terminal.reports import met_view

    Console(highlight=False).print(met_view(table, next_name, starter, language))
    words = Words(language)
    for v in met.games:
        if measured_as(v) != str(v):  # house rules not measured: say whose figures stand in
            click.echo(words.plain("{game}: not measured with its house rules; the figures of {measured} stand in",
                                   game=v, measured=measured_as(v)))


@cli.command()
@click.argument("game", default="portes", type=click.Choice(["portes", "plakoto", "fevga"]))
@click.option("--rolls", type=click.IntRange(1), default=None, help="stop after this many rolls (default: at q)")
@click.option("--seed", type=int, default=None, help="deal the same rolls again")
@language_option
def practise(game: str, rolls: int | None, seed: int | None, language: str) -> None:
    """Practise the openings of GAME: play opening rolls from the start and see what each play
    gives up against the best by the opening tables.

    \b
    tavli practise plakoto
    """
    import random

    from tavli.terminal import practise_openings

    try:  # the count follows each roll
        practise_openings(game, rolls=rolls, rng=random.Random(seed), language=language)
    except KeyboardInterrupt:
        raise SystemExit(130) from None


@cli.command()
@click.argument("game", required=False, type=click.Choice(["portes", "plakoto", "fevga"]))
@click.argument("roll", required=False)
@click.option("--json", "as_json", is_flag=True, help="print JSON for tools")
@language_option
def openings(game: str | None, roll: str | None, as_json: bool, language: str) -> None:
    """The opening tables (docs/openings.md): each roll's best play by rollouts, or with GAME and
    ROLL (like 6-5) every play of that roll worth a look.

    \b
    tavli openings                # the three games
    tavli openings plakoto        # one game
    tavli openings plakoto 6-5    # the plays of one roll
    """
    from rich.console import Console

    from tavli.study.openings import GAMES, opening_roll, shipped
    from tavli.terminal.reports import opening_roll_view, openings_view

    tables = shipped()
    if roll is not None:
        assert game is not None  # click fills the arguments in order
        dice = opening_roll(roll)
        if as_json:
            plays = tables.summary(game, dice)
            shown = [p for k, p in enumerate(plays) if p.rolled_out or k < 8]
            click.echo(json.dumps({"game": game, "roll": str(dice), "plays": [p.to_json() for p in shown]}, indent=1))
            return
        Console(highlight=False).print(opening_roll_view(tables, game, dice, language))
        return
    games = [game] if game else list(GAMES)
    if as_json:
        click.echo(json.dumps({g: {"mean": tables.mean(g), "rolls": {
            str(d): tables.summary(g, d)[0].to_json() for d in tables.rolls(g)}} for g in games}, indent=1))
        return
    Console(highlight=False).print(openings_view(tables, games, language))


def _check_writable(path: Path) -> None:
    """Fail now, in one line, rather than after the match."""
    existed = path.exists()
    try:
        with path.open("a"):
            pass
    except OSError as e:
        raise InputError(f"cannot write {path}: {e.strerror or e}") from None
    if not existed:
        path.unlink()


@cli.command()
@click.option("--variant", "-v", default="portes", show_default=True,
              help="portes, plakoto or fevga, with house rules like plakoto,mother_pin=single")
@click.option("--games", "-g", type=click.IntRange(min=1), default=100, show_default=True)
@click.option("--seed", "-s", type=int, default=0, show_default=True)
@click.option("--white", type=click.Choice(SEATS[1:]), default="heuristic", show_default=True)
@click.option("--black", type=click.Choice(SEATS[1:]), default="random", show_default=True)
@click.option("--record", type=click.Path(dir_okay=False, path_type=Path),
              help="write the games as one match record (a series of games, docs/formats.md) to this file")
def selfplay(variant: str, games: int, seed: int, white: str, black: str,
             record: Path | None) -> None:
    """Bot-versus-bot games with a summary. Same seed, same games."""
    from rich.progress import track

    from tavli.bots import make_bot
    from tavli.formats.record import MatchRecord, PlayerInfo, RecordedGame, write

    try:
        v = variant_from_string(variant)
    except ValueError as e:
        raise InputError(str(e)) from None
    if record is not None:
        _check_writable(record)
    recorded: list[RecordedGame] = []
    rng = random.Random(seed)
    seats: dict[Color, Player] = {WHITE: make_bot(white, rng), BLACK: make_bot(black, rng)}
    wins = {WHITE: 0, BLACK: 0}
    doubles = {WHITE: 0, BLACK: 0}
    ties = 0
    turns = 0
    for index in track(range(games), description=f"{v.name}", disable=not sys.stderr.isatty(),
                       console=None, transient=True):
        game = play_bot_game(v, seats, rng, WHITE if index % 2 == 0 else BLACK)
        if record is not None:
            recorded.append(RecordedGame.from_game(game))
        turns += len(game.history)
        result = game.result
        assert result is not None
        if result.winner is None:
            ties += 1
        else:
            wins[result.winner] += 1
            doubles[result.winner] += result.points == 2
    click.echo(f"{games} games of {v} ({white} as White, {black} as Black), seed {seed}")
    for color, name in ((WHITE, white), (BLACK, black)):
        click.echo(f"{color!s:6} {name:10} wins {wins[color]:6} ({100 * wins[color] / games:5.1f}%)"
                   f"  2-point wins {doubles[color]}")
    click.echo(f"ties {ties}; average length {turns / games:.1f} turns")
    if record is not None:
        players = {WHITE: PlayerInfo("bot", white), BLACK: PlayerInfo("bot", black)}
        write(MatchRecord(settings_of_variant(v), players, recorded,
                          {"event": f"tavli selfplay --seed {seed}"}, series=True), record)
        click.echo(f"wrote {len(recorded)} games to {record}")


def settings_of_variant(variant: Variant) -> MatchSettings:
    """Settings whose every game is ``variant``, house rules included."""
    return MatchSettings(length=1, games=(variant.name,), mother_pin=getattr(variant, "mother_pin", "double"),
                         prime_limits=getattr(variant, "prime_limits", True),
                         prime_in_opponent_start=getattr(variant, "prime_in_opponent_start", True))


def play_bot_game(variant: Variant, seats: Mapping[Color, Player], rng: random.Random, first: Color) -> Game:
    """Play one game between bots with dice from ``rng``."""
    game = Game(variant, first)
    while not game.is_over:
        dice = Dice(rng.randint(1, 6), rng.randint(1, 6))
        legal = game.legal_plays(dice)
        game.play(dice, legal[seats[game.turn].choose(legal)] if len(legal) else None)
    return game


@cli.command()
@click.option("--variant", "-v", type=click.Choice(["portes", "plakoto", "fevga"]), required=True)
@click.option("--games", "-g", type=click.IntRange(min=1), default=100_000, show_default=True,
              help="train until the network has played this many games in all")
@click.option("--checkpoint", type=click.Path(dir_okay=False, path_type=Path),
              help="checkpoint file [default: checkpoints/VARIANT.npz]; resumed when it exists")
@click.option("--fresh", is_flag=True, help="start a new network even if the checkpoint exists")
@click.option("--threads", type=click.IntRange(min=0), default=0, show_default=True,
              help="worker threads (0 = one per core)")
@click.option("--hidden", type=click.IntRange(min=1), default=None,
              help="hidden units of a new network (default 80); on a resume, widen the network to this "
                   "many (the new units start silent, so its play is unchanged)")
@click.option("--inputs", type=click.IntRange(min=0), default=None,
              help="inputs a new network reads: where one of its game's groups of inputs ends, to leave "
                   "out the last groups (default: all of them); on a resume, let the network read this "
                   "many (the new inputs start silent; 0: all)")
@click.option("--alpha", type=click.FloatRange(min=0, min_open=True), default=0.1, show_default=True,
              help="initial learning rate of a new network")
@click.option("--alpha-min", type=click.FloatRange(min=0, min_open=True), default=None,
              help="floor of the learning rate (default 0.02, or the checkpoint's)")
@click.option("--explore", type=click.FloatRange(min=0, max=1), default=None,
              help="chance that a self-play turn plays a random legal play (default 0, or the checkpoint's)")
@click.option("--lookahead", type=click.IntRange(min=0, max=2), default=None,
              help="1: learn each position's 1-ply value instead of the value after the roll played "
                   "(about 20 times slower); 2: its 2-ply value (20 times slower again; default 0, or "
                   "the checkpoint's)")
@click.option("--lambda", "td_lambda", type=click.FloatRange(min=0, max=1, max_open=True), default=None,
              help="TD(λ)'s trace decay: each turn's error also moves the positions before it, by this "
                   "factor less a turn further back (default 0, TD(0), or the checkpoint's)")
@click.option("--eval-every", type=click.IntRange(min=0), default=20_000, show_default=True,
              help="measure strength against the heuristic bot and the yardstick every N games (0 = never)")
@click.option("--eval-games", type=click.IntRange(min=2), default=400, show_default=True)
@click.option("--yardstick-games", type=click.IntRange(min=0), default=200, show_default=True,
              help="at each measurement, games against the shipped network and (Portes) GNU Backgammon "
                   "0-ply, less luck (0 = none)")
@click.option("--seed", type=int, default=1, show_default=True)
def train(variant: str, games: int, checkpoint: Path | None, fresh: bool, threads: int, hidden: int | None,
          inputs: int | None, alpha: float, alpha_min: float | None, explore: float | None, lookahead: int | None,
          td_lambda: float | None, eval_every: int, eval_games: int, yardstick_games: int, seed: int) -> None:
    """Train a game's network by self-play (TD learning); Ctrl-C saves and stops."""
    from tavli.bots.training import TrainConfig, Trainer, TrainState, new_state

    path = checkpoint or Path("checkpoints") / f"{variant}.npz"
    if path.exists() and not fresh:
        state = TrainState.load(path)
        if state.config.variant != variant:
            raise InputError(f"{path} trains {state.config.variant}, not {variant}")
        state.config.games = games
        state.config.threads = threads
        state.config.eval_every = eval_every
        state.config.eval_games = eval_games
        state.config.yardstick_games = yardstick_games
        if explore is not None:
            state.config.explore = explore
        if lookahead is not None:
            state.config.lookahead = lookahead
        if td_lambda is not None:
            state.config.td_lambda = td_lambda
        if alpha_min is not None:
            state.config.alpha_min = alpha_min
        try:
            if hidden is not None:
                state.widen(hidden)
            if inputs is not None:
                state.read_more(inputs)
        except TavliError as e:
            raise InputError(str(e)) from None
        click.echo(f"resuming {path} at {state.games:,} games with {state.config.hidden} hidden units",
                   err=True)
    else:
        config = TrainConfig(variant=variant, games=games, inputs=inputs or 0,
                             hidden=TrainConfig.hidden if hidden is None else hidden, alpha=alpha,
                             alpha_min=TrainConfig.alpha_min if alpha_min is None else alpha_min,
                             explore=explore or 0.0, lookahead=lookahead or 0, td_lambda=td_lambda or 0.0,
                             threads=threads, eval_every=eval_every, eval_games=eval_games,
                             yardstick_games=yardstick_games, seed=seed)
        try:
            state = new_state(config)
        except TavliError as e:
            raise InputError(str(e)) from None
    if variant == "portes" and eval_every and yardstick_games:
        from tavli.engines.gnubg_player import available

        if not available():
            click.echo("note: GNU Backgammon's module (pip install gnubg) cannot be imported: "
                       "the yardstick leaves it out", err=True)
    state = Trainer(state, path).run(progress=sys.stderr.isatty())
    minutes = state.seconds / 60
    click.echo(f"{variant}: {state.games:,} games in {minutes:.1f} min "
               f"({state.games / max(state.seconds, 1e-9):.0f} games/s overall); saved {path}")
    for entry in state.log[-3:]:
        line = f"  at {entry['games']:>9,} games: {entry['ppg']:+.3f} ± {entry['ci95']:.3f} ppg vs heuristic (0-ply)"
        for name, label in (("shipped", "shipped network"), ("gnubg", "gnubg 0-ply")):
            if name in entry:
                line += f"; {entry[name]:+.3f} ± {entry[name + '_ci95']:.3f} vs {label}, less luck"
        click.echo(line)


@cli.command()
@click.argument("out", type=click.Path(dir_okay=False, path_type=Path))
@click.option("--variant", "-v", type=click.Choice(["portes", "plakoto", "fevga"]), required=True)
@click.option("--teacher", type=click.Choice(["gnubg", "network"]), default="gnubg", show_default=True,
              help="gnubg: GNU Backgammon (Portes; pip install gnubg); network: the network's own search")
@click.option("--ply", type=click.IntRange(min=0, max=2), default=0, show_default=True,
              help="the teacher's depth (the network's own search: 0 or 1)")
@click.option("--network", type=click.Path(exists=True, dir_okay=False, path_type=Path),
              help="the network to teach, which also plays the games [default: the game's shipped one]")
@click.option("--positions", type=click.IntRange(min=0), default=1_000_000, show_default=True,
              help="new positions of the network's self-play, valued by the teacher, to learn from")
@click.option("--explore", type=click.FloatRange(min=0, max=1), default=0.1, show_default=True,
              help="chance that a self-play turn plays a random legal play")
@click.option("--lesson", "lessons", multiple=True, type=click.Path(exists=True, dir_okay=False, path_type=Path),
              help="valued positions saved before (--save-lesson) to learn from as well; repeatable")
@click.option("--save-lesson", type=click.Path(dir_okay=False, path_type=Path),
              help="save the new valued positions here, to learn from again without asking the teacher")
@click.option("--epochs", type=click.IntRange(min=1), default=12, show_default=True,
              help="passes over the positions")
@click.option("--rate", type=click.FloatRange(min=0, min_open=True), default=3e-4, show_default=True,
              help="Adam's step, halving each pass over the second half")
@click.option("--hidden", type=click.IntRange(min=0), default=0,
              help="widen the network to this many hidden units first (the new ones start silent)")
@click.option("--jobs", type=click.IntRange(min=1), default=None, help="processes [default: one per core]")
@click.option("--seed", type=int, default=1, show_default=True)
def teach(out: Path, variant: str, teacher: str, ply: int, network: Path | None, positions: int, explore: float,
          lessons: tuple[Path, ...], save_lesson: Path | None, epochs: int, rate: float, hidden: int,
          jobs: int | None, seed: int) -> None:
    """Teach a network a teacher's judgement: positions of its own games, valued by GNU
    Backgammon (or by its own deeper search), learned by its weights; saved to OUT.

    \b
    tavli teach portes-taught.npz --variant portes --positions 1000000 --save-lesson lesson1.npz
    tavli teach portes-2.npz -v portes --network portes-taught.npz --lesson lesson1.npz --positions 2000000
    """
    import multiprocessing

    from tavli.bots.neural import Evaluator
    from tavli.bots.teacher import Lesson, fit, make_teacher, save_network
    from tavli.bots.teacher import lesson as make_lesson

    started = time.monotonic()
    try:
        evaluator = Evaluator.from_file(network) if network else Evaluator.for_variant(variant)
        if evaluator.kernel_id != variant_from_string(variant).kernel_id:
            raise TavliError(f"{network} is not a {variant} network")
        make_teacher(teacher, ply, evaluator, variant)  # refused here, before any self-play
        parts = [Lesson.load(path) for path in lessons]
        for path, part in zip(lessons, parts, strict=True):
            if part.variant != variant:
                raise TavliError(f"{path} holds {part.variant} positions, not {variant}")
        if not positions and not parts:
            raise TavliError("nothing to learn from: give --positions or a --lesson")
        if positions:
            jobs = jobs or multiprocessing.cpu_count()
            shares = [positions // jobs + (k < positions % jobs) for k in range(jobs)]
            args = [(str(network) if network else None, variant, n, explore, seed * 1009 + k, teacher, ply)
                    for k, n in enumerate(shares) if n]
            with multiprocessing.get_context("spawn").Pool(len(args)) as pool:
                new = Lesson.joined(pool.starmap(make_lesson, args))
            if save_lesson is not None:
                new.save(save_lesson)
            parts.append(new)
        taught = Lesson.joined(parts)
        fitted = fit(evaluator.network, taught, epochs, rate, seed, hidden)
        save_network(out, fitted.network, {**evaluator.meta, "hidden": int(fitted.network[1].shape[0]), "taught": {
            "teacher": teacher, "ply": ply, "positions": len(taught), "new_positions": positions,
            "explore": explore, "epochs": epochs, "rate": rate, "from": evaluator.fingerprint}})
    except (TavliError, OSError) as e:
        raise InputError(str(e)) from None
    source = ", ".join([*(f"{len(part):,} from {path}" for path, part in zip(lessons, parts, strict=False)),
                        *([f"{positions:,} new, valued by {teacher} at {ply} ply"] if positions else [])])
    click.echo(f"{variant}: {len(taught):,} positions ({source}); the network's equity less the teacher's, "
               f"rms over {fitted.held_out:,} held out: {fitted.before:.4f} → {fitted.after:.4f}; "
               f"saved {out} ({time.monotonic() - started:.0f} s)")


@cli.command("plot-training")
@click.argument("networks", nargs=-1, required=True,
                type=click.Path(exists=True, dir_okay=False, path_type=Path))
@click.option("--out", "-o", type=click.Path(dir_okay=False, path_type=Path), required=True,
              help="PNG file to write")
def plot_training(networks: tuple[Path, ...], out: Path) -> None:
    """Plot strength against games trained from checkpoints or shipped networks (needs matplotlib)."""
    from tavli.bots.training import TrainState, plot

    states = {}
    for path in networks:
        state = TrainState.load(path)
        states[state.config.variant] = state
    try:
        plot(states, out)
    except ImportError:
        raise InputError("plotting needs matplotlib: pip install -e '.[train]'") from None
    click.echo(f"wrote {out}")


@cli.command()
@click.option("--level", "-l", type=click.Choice(LEVELS), default="expert", show_default=True)
@click.option("--seed", type=int, help="repeatable choices for the noisy levels")
@click.option("--protocol", type=click.Choice(["auto", "arena", "tavli"]), default="auto", show_default=True,
              help="tavli: every game (set variant, position, play); arena: Portes, the arena's; "
                   "auto: the arena's if the first command is one of its own")
def engine(level: str, seed: int | None, protocol: str) -> None:
    """Play any game over stdin/stdout, one line each way (docs/engine.md)."""
    from tavli.engines.arena import main as serve_engine

    serve_engine(level, seed, protocol)


@cli.command()
@click.option("--host", default="127.0.0.1", show_default=True, help="address to listen on (0.0.0.0 for all)")
@click.option("--port", "-p", type=click.IntRange(0, 65535), default=8000, show_default=True)
@click.option("--database", "--db", default="sqlite:///tavli.db", show_default=True,
              help="sqlite:///FILE or postgresql://user:password@host/dbname")
@click.option("--claim-after", type=click.FloatRange(min=0), default=120.0, show_default=True,
              help="seconds an absent opponent has before the game can be claimed")
@click.option("--bot-delay", type=click.FloatRange(min=0), default=0.5, show_default=True,
              help="seconds a bot waits before each roll and play, so that people can follow")
@click.option("--create-limit", type=click.IntRange(min=1), default=30, show_default=True,
              help="new matches a minute per client address")
@click.option("--connection-limit", type=click.IntRange(min=1), default=100, show_default=True,
              help="open WebSocket connections per client address")
@click.option("--message-limit", type=click.FloatRange(min=1), default=20.0, show_default=True,
              help="WebSocket messages a second per connection (bursts of twice as many)")
@click.option("--trusted-proxy", "trusted_proxies", multiple=True, metavar="ADDRESS",
              help="a reverse proxy whose X-Forwarded-For is believed (an address or network; repeatable; "
                   "none by default)")
@click.option("--allow-origin", "allowed_origins", multiple=True, metavar="URL",
              help="a web origin besides this server's own whose pages may connect (repeatable)")
@click.option("--header-timeout", type=click.FloatRange(min=0, min_open=True), default=10.0, show_default=True,
              help="seconds a client has to send its request headers")
@click.option("--workers", "-w", type=click.IntRange(1, 256), default=1, show_default=True,
              help="server processes on the one port (more than 1 needs PostgreSQL; docs/deploy.md)")
@click.option("--bot-workers", type=click.IntRange(1, 256), default=None,
              help="processes that think for the bots, per server process  [default: the cores / --workers]")
@click.option("--poll-seconds", type=click.FloatRange(min=0), default=2.0, hidden=True,
              help="how often to look for other processes' actions besides being told (0: never)")
def serve(host: str, port: int, database: str, claim_after: float, bot_delay: float, create_limit: int,
          connection_limit: int, trusted_proxies: tuple[str, ...], allowed_origins: tuple[str, ...],
          header_timeout: float, workers: int, bot_workers: int | None, poll_seconds: float,
          message_limit: float) -> None:
    """Run the web app: play in the browser against a bot or a friend (docs/web.md)."""
    import os
    import socket

    from tavli.server.app import check_proxies, origin_netloc
    from tavli.server.store import async_url
    from tavli.server.workers import ServeOptions, run_server, run_workers

    full_url = async_url(database)  # a bad URL is one line, before anything starts
    if workers > 1 and not full_url.startswith("postgresql"):
        raise InputError("--workers above 1 needs PostgreSQL (--database postgresql://...): the processes "
                         "tell each other of every move through it")
    for url in allowed_origins:
        if origin_netloc(url) is None:
            raise InputError(f"--allow-origin {url!r} is not an origin: give scheme and host, "
                             "such as https://example.com")
    try:
        check_proxies(trusted_proxies)
    except ValueError as e:
        raise InputError(f"--trusted-proxy: {e}") from None
    try:  # a busy port fails at once, not after the warm-up
        sock = socket.create_server((host, port), reuse_port=False)
    except OSError as e:
        raise InputError(f"cannot listen on {host}:{port}: {e.strerror}") from None
    from tavli.server.service import WARM_UP_STAGES, warm_up

    click.echo("Getting ready (the very first start compiles and builds tables, about 90 s; "
               "later starts take a second):", err=True)
    for stage, work in WARM_UP_STAGES:
        click.echo(f"  {stage}…", nl=False, err=True)
        start = time.perf_counter()
        work()
        click.echo(f" {time.perf_counter() - start:.1f} s", err=True)
    options = ServeOptions(database, claim_after=claim_after, bot_delay=bot_delay, matches_per_minute=create_limit,
                           connections_per_address=connection_limit, messages_per_second=message_limit,
                           message_burst=2 * message_limit, trusted_proxies=trusted_proxies,
                           allowed_origins=allowed_origins, header_timeout=header_timeout,
                           poll_seconds=poll_seconds,
                           bot_workers=bot_workers or max(1, (os.cpu_count() or 1) // workers))
    shown = "127.0.0.1" if host in ("0.0.0.0", "") else host
    processes = f"; {workers} processes" if workers > 1 else ""
    click.echo(f"Tavli is running at http://{shown}:{sock.getsockname()[1]}/  (database {database}{processes}; "
               "Ctrl-C stops it)", err=False)
    sys.stdout.flush()
    if workers == 1:
        run_server(sock, options)
    else:
        run_workers(sock, options, workers, warm_up, lambda line: click.echo(line, err=True))


@cli.command("export")
@click.argument("record_file", metavar="RECORD", type=click.Path(dir_okay=False, path_type=Path))
@click.option("--to", "to", type=click.Choice(["mat"]), default="mat", show_default=True,
              help="mat: GNU Backgammon's match file (the record's Portes games)")
@click.option("--output", "-o", type=click.Path(dir_okay=False, path_type=Path),
              help="file to write (default: standard output)")
def export(record_file: Path, to: str, output: Path | None) -> None:
    """Write a match record in another format (docs/formats.md)."""
    from tavli.formats.mat import export_mat
    from tavli.formats.record import read

    try:
        text = export_mat(read(record_file))
    except ValueError as e:
        raise InputError(f"{record_file}: {e}") from None
    _write_out(text, output)


@cli.command("import")
@click.argument("mat_file", metavar="FILE.mat", type=click.Path(dir_okay=False, path_type=Path))
@click.option("--output", "-o", type=click.Path(dir_okay=False, path_type=Path),
              help="match record to write (default: standard output)")
def import_(mat_file: Path, output: Path | None) -> None:
    """Read a GNU Backgammon .mat file of Portes games into a match record."""
    from tavli.formats.mat import read_mat
    from tavli.formats.record import dumps

    try:
        record = read_mat(mat_file)
    except ValueError as e:
        raise InputError(str(e)) from None
    _write_out(dumps(record), output)
    if output is not None:
        click.echo(f"{len(record.games)} game(s) imported into {output}", err=True)


def _write_out(text: str, output: Path | None) -> None:
    if output is None:
        click.echo(text, nl=False)
        return
    try:
        output.write_text(text, encoding="utf-8")
    except OSError as e:
        raise InputError(f"cannot write {output}: {e.strerror or e}") from None


@cli.command("verify-dice")
@click.argument("url")
def verify_dice(url: str) -> None:
    """Check every finished game's dice of a match against its published seed.

    URL is the match's address, its /api/matches/ID/dice, or a file saved from there
    (or a match record, such as the match page's download).
    """
    import urllib.request

    from tavli.fairdice import check_game, dice_of_rolls

    target = url.split("#")[0].rstrip("/")
    if Path(url).is_file():
        try:
            record = json.loads(Path(url).read_text())
        except (OSError, ValueError) as e:
            raise InputError(f"cannot read {url}: {e}") from None
    elif "/api/matches/" not in target:
        if "/match/" not in target:
            raise InputError("give the match's address (http://host/match/ID) or its /api/matches/ID/dice")
        base, match_id = target.rsplit("/match/", 1)
        target = f"{base}/api/matches/{match_id}/dice"
    if not Path(url).is_file():
        try:
            with urllib.request.urlopen(target, timeout=30) as answer:
                record = json.load(answer)
        except (OSError, ValueError) as e:
            raise InputError(f"cannot read {target}: {e}") from None
    if isinstance(record, dict) and record.get("format") == "tavli-match":
        _verify_record(url, record)
        return
    if not isinstance(record, dict) or not isinstance(record.get("games"), list):
        raise InputError(f"{url} is not a match's dice record")
    checked = 0
    for game in record.get("games", []):
        if game.get("seed") is None:
            click.echo(f"game {game['index'] + 1} ({game['variant']}): not over, seed not yet revealed")
            continue
        try:
            dice = dice_of_rolls(game["opening"], game["rolls"])
            check_game(game["seed"], game["commitment"], dice)
        except (KeyError, TypeError) as e:
            raise InputError(f"game {game.get('index')}: the record lacks {e}") from None
        checked += 1
        click.echo(f"game {game['index'] + 1} ({game['variant']}): {len(dice)} dice match seed {game['seed'][:12]}… "
                   f"and commitment {game['commitment'][:12]}…")
    click.echo(f"{checked} finished game(s) checked: the dice are the seeds' dice")


def _progress_bar(description: str) -> tuple[Progress, Callable[[int, int], None]]:
    """A rich progress bar on stderr and the callback that moves it."""
    from rich.console import Console
    from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeElapsedColumn

    bar = Progress(TextColumn(description), BarColumn(), MofNCompleteColumn(), TimeElapsedColumn(),
                   console=Console(stderr=True), transient=True, disable=not sys.stderr.isatty())
    task = bar.add_task(description, total=None)

    def advance(done: int, total: int) -> None:
        bar.update(task, completed=done, total=total)

    return bar, advance


def _rollout_keys(values: tuple[str, ...]) -> list[tuple[int, int]]:
    keys = []
    for text in values:
        game, _, turn = text.partition(":")
        if not (game.isdecimal() and turn.isdecimal()) or int(game) < 1 or int(turn) < 1:
            raise InputError(f"--rollout takes GAME:TURN, like 2:14 (counting from 1), not {text!r}")
        keys.append((int(game) - 1, int(turn)))
    return keys


@cli.command()
@click.argument("record_file", metavar="RECORD", type=click.Path(dir_okay=False, path_type=Path))
@click.option("--depth", "-d", type=click.IntRange(0, 3), default=None,
              help="plies of search, 0 to 3 [default: 2, the strongest within the speed goal]")
@click.option("--json", "as_json", is_flag=True, help="print one JSON object (docs/analysis.md) instead")
@click.option("--plot", type=click.Path(dir_okay=False, path_type=Path),
              help="draw the chances of winning through the match, mistakes marked, into this PNG")
@click.option("--top", type=click.IntRange(min=0), default=10, show_default=True,
              help="how many of the worst mistakes to show")
@click.option("--workers", "-j", type=click.IntRange(min=1), default=None,
              help="decisions valued at once [default: one per core]")
@click.option("--rollout", "rollout_at", multiple=True, metavar="GAME:TURN",
              help="value this decision's best plays by rollouts instead (repeatable)")
@click.option("--trials", type=click.IntRange(min=1), default=216, show_default=True,
              help="trials per play for --rollout")
@click.option("--boards", is_flag=True, help="draw the board of each mistake shown, as its player saw it")
@language_option
def analyse(record_file: Path, depth: int | None, as_json: bool, plot: Path | None, top: int,
            workers: int | None, rollout_at: tuple[str, ...], trials: int, boards: bool, language: str) -> None:
    """Analyse a match record: every play against the best, error rates, blunders and luck."""
    from tavli.bots.rollout import RolloutSettings
    from tavli.formats.record import read
    from tavli.study import analysis as A
    from tavli.terminal import Words

    words = Words(language)
    keys = _rollout_keys(rollout_at)
    try:
        record = read(record_file)
    except OSError as e:
        raise InputError(f"cannot read {record_file}: {e.strerror}") from None
    except ValueError as e:
        raise InputError(f"{record_file}: {e}") from None
    settings = RolloutSettings(trials=trials)
    bar, advance = _progress_bar(words.plain("analysing"))
    try:
        with bar:
            found = A.analyse_record(record, A.DEFAULT_DEPTH if depth is None else depth, workers, advance,
                                     rollouts={k: settings for k in keys})
    except ValueError as e:
        raise InputError(f"{record_file}: {e}") from None
    if plot is not None:
        try:
            A.plot(found, plot)
        except OSError as e:
            raise InputError(f"cannot write {plot}: {e.strerror}") from None
    if as_json:
        click.echo(json.dumps(found.to_json()))
        return
    from rich.console import Console

    from tavli.terminal.reports import analysis_view

    Console(highlight=False, width=max(Console().width, 120)).print(analysis_view(found, top, language, boards))
    if plot is not None:
        click.echo(words.plain("wrote {path}", path=plot))


@cli.command()
@click.argument("position")
@click.option("--variant", "-v", help="the game, when the position string leaves it out")
@click.option("--dice", "-d", help="value each of the best plays of this roll instead of the position")
@click.option("--trials", "-n", type=click.IntRange(min=1), default=1296, show_default=True)
@click.option("--level", "-l", type=click.Choice(LEVELS), default="advanced", show_default=True,
              help="the level that plays both sides")
@click.option("--candidates", type=click.IntRange(min=1), default=5, show_default=True,
              help="with --dice: how many of the best plays (by 1-ply) to roll out")
@click.option("--seed", type=int, default=1, show_default=True)
@click.option("--no-luck", is_flag=True, help="do not subtract the rolls' luck")
@click.option("--workers", "-j", type=click.IntRange(min=1), default=None,
              help="processes [default: one per core]")
@click.option("--json", "as_json", is_flag=True, help="print the figures as one JSON object")
@language_option
def rollout(position: str, variant: str | None, dice: str | None, trials: int, level: str, candidates: int,
            seed: int, no_luck: bool, workers: int | None, as_json: bool, language: str) -> None:
    """Value a position (a position string or GNU Backgammon ID) by playing it out many times."""
    from tavli.bots import rollout as R
    from tavli.terminal import Words

    try:
        pos, _ = read_position(variant, position)
        roll = Dice.parse(dice) if dice is not None else None
        settings = R.RolloutSettings(trials=trials, level=level, seed=seed, luck=not no_luck)
        if pos.result() is not None:
            raise R.RolloutError("the game is over in this position: nothing to roll out")
        if roll is not None and len(pos.legal_plays(roll)) == 0:
            raise R.RolloutError(f"{roll} cannot be played here: the turn passes")
    except ValueError as e:
        raise InputError(str(e)) from None
    bar, advance = _progress_bar(Words(language).plain("rolling out"))
    with bar:
        if roll is None:
            rows = [("", R.rollout(pos, settings, workers, advance))]
        else:
            rows = [(r.play, r.result) for r in R.rollout_plays(pos, roll, settings, candidates, workers, advance)]
    if as_json:
        click.echo(json.dumps({"position": str(pos), "dice": str(roll) if roll else None, "level": level,
                               "trials": trials, "luck": not no_luck, "results": [
                                   {"play": play, "equity": round(r.equity, 4), "ci95": round(r.ci95, 4),
                                    "win": round(r.win, 4), "win2": round(r.win2, 4), "lose2": round(r.lose2, 4),
                                    "raw_equity": round(r.raw_equity, 4), "raw_ci95": round(r.raw_ci95, 4)}
                                   for play, r in rows]}))
        return
    from rich.console import Console

    from tavli.terminal.reports import rollout_view

    Console(highlight=False).print(rollout_view(pos, roll, level, rows, not no_luck, language), soft_wrap=True)


@cli.command()
@click.argument("position")
@click.argument("dice")
@click.option("--variant", "-v", help="the game, when the position string leaves it out")
@click.option("--depth", type=click.IntRange(0, 3), default=2, show_default=True,
              help="plies searched: 0 to 2 are the advanced, expert and champion levels' own")
@click.option("--match", "length", type=click.IntRange(1, 64), default=None,
              help="rank the plays for a match to this many points, at --score")
@click.option("--score", default="0-0", show_default=True, help="with --match: White's and Black's points so far")
@click.option("--games", "--order", "order", default="tavli", show_default=True,
              help="with --match: the games in order, as tavli play and tavli met take them: tavli, one "
                   "game, a list like fevga,portes, or single (the position's game alone)")
@click.option("--json", "as_json", is_flag=True, help="print the plays as one JSON object")
@language_option
def hint(position: str, dice: str, variant: str | None, depth: int, length: int | None, score: str, order: str,
         as_json: bool, language: str) -> None:
    """Rank every play of DICE (like 6-4) in POSITION (a position string or GNU Backgammon ID),
    for points per game or, with --match, for the match at --score.

    \b
    tavli hint 4HPwATDgc/ABMA 31
    tavli hint 'plakoto 15b................1w1w....13w b 0:0 0:0' 64 --depth 1
    tavli hint 'portes 2w2w3w.2w3w3b..1b.2b2w1b..1w.4b.2b.2b. b 0:0 0:0' 51 --match 3 --score 2-1
    """
    from rich.console import Console

    from tavli.bots.match_equity import MatchScore, parse_order
    from tavli.study.analysis import rank_plays

    try:
        pos, _ = read_position(variant, position)
        rolled = Dice.parse(dice)
        roll = Dice(max(rolled), min(rolled))  # high-low, as players say it
        at = None
        if length is not None:
            white, black = _score_pair(score)
            at = MatchScore.for_colors(pos.variant, pos.turn, white, black, length, parse_order(order))
        ranked = rank_plays(pos, roll, depth, score=at)
    except ValueError as e:
        raise InputError(str(e)) from None
    if as_json:
        match = None if at is None else {"length": length, "score": score, "order": order}
        click.echo(json.dumps({"position": str(pos), "dice": str(roll), "depth": depth, "match": match, "plays": [
            {"play": str(r.play), "depth": r.depth, "equity": round(r.equity, 4), "win": round(r.probabilities.win, 4),
             "win2": round(r.probabilities.win2, 4), "lose2": round(r.probabilities.lose2, 4),
             "loss": round(r.loss, 4), "skill": r.skill}
            | ({} if r.mwc is None else {"mwc": round(r.mwc, 4), "mwc_loss": round(r.mwc_loss or 0.0, 4)})
            for r in ranked]}))
        return
    from tavli.terminal import hint_view

    ranked_for = None if length is None else (length, score, order)
    Console(highlight=False).print(hint_view(pos, roll, ranked, ranked_for, language), soft_wrap=True)  # whole lines


def _score_pair(text: str) -> tuple[int, int]:
    """``2-1`` as (2, 1): White's and Black's points."""
    parts = text.replace(":", "-").split("-")
    if len(parts) != 2 or not all(p.strip().isdecimal() for p in parts):
        raise InputError(f"write the score as White's points and Black's, like 2-1, not {text!r}")
    return int(parts[0]), int(parts[1])


def _verify_record(url: str, data: dict[str, object]) -> None:
    from tavli.formats.record import from_json

    try:
        record = from_json(data)  # checks each revealed seed against its commitment and the dice
    except ValueError as e:
        raise InputError(f"{url}: {e}") from None
    checked = 0
    for number, game in enumerate(record.games, 1):
        if game.seed is None:
            why = "no published seed" if game.commitment is None else "not over, seed not yet revealed"
            click.echo(f"game {number} ({game.variant}): {why}")
            continue
        checked += 1
        click.echo(f"game {number} ({game.variant}): {len(game.dice())} dice match seed {game.seed[:12]}… "
                   f"and commitment {(game.commitment or '')[:12]}…")
    click.echo(f"{checked} finished game(s) checked: the dice are the seeds' dice")


def main() -> None:
    """Entry point: usage errors become one line on stderr and exit status 2."""
    try:
        cli.main(standalone_mode=False)
    except click.exceptions.Abort:
        click.echo("aborted", err=True)
        sys.exit(130)
    except click.ClickException as e:
        click.echo(f"error: {e.format_message()}", err=True)
        sys.exit(2 if isinstance(e, click.UsageError | InputError) else e.exit_code)
    except ValueError as e:
        click.echo(f"error: {e}", err=True)
        sys.exit(2)


if __name__ == "__main__":
    main()
