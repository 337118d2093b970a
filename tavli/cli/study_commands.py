"""The study commands: ``tavli analyse`` (a match against the best plays), ``tavli rollout``,
``tavli hint``, ``tavli openings`` (the opening tables), ``tavli practise`` (the openings
practice) and ``tavli met`` (the match equity table)."""

from __future__ import annotations

import json
import random
import sys
from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING

import click

from tavli.bots import LEVELS
from tavli.cli.options import InputError, house_rule_options, language_option, match_settings, read_position
from tavli.dice import Dice
from tavli.variants import GAMES

if TYPE_CHECKING:
    from rich.progress import Progress


@click.command("met")
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

    settings = match_settings(length, games, mother_pin, prime_limits, prime_in_opponent_start)
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

    from tavli.terminal.reports import met_view
    from tavli.terminal.words import Words

    Console(highlight=False).print(met_view(table, next_name, starter, language))
    words = Words(language)
    for v in met.games:
        if measured_as(v) != str(v):  # house rules not measured: say whose figures stand in
            click.echo(words.plain("{game}: not measured with its house rules; the figures of {measured} stand in",
                                   game=v, measured=measured_as(v)))


@click.command()
@click.argument("game", default="portes", type=click.Choice(GAMES))
@click.option("--rolls", type=click.IntRange(1), default=None, help="stop after this many rolls (default: at q)")
@click.option("--seed", type=int, default=None, help="deal the same rolls again")
@language_option
def practise(game: str, rolls: int | None, seed: int | None, language: str) -> None:
    """Practise the openings of GAME: play opening rolls from the start and see what each play
    gives up against the best by the opening tables.

    \b
    tavli practise plakoto
    """
    from tavli.terminal.opening_practice import practise_openings

    try:  # the count follows each roll
        practise_openings(game, rolls=rolls, rng=random.Random(seed), language=language)
    except KeyboardInterrupt:
        raise SystemExit(130) from None


@click.command()
@click.argument("game", required=False, type=click.Choice(GAMES))
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

    from tavli.study.openings import opening_roll, shipped
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


@click.command()
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
    from tavli.terminal.words import Words

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


@click.command()
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
    from tavli.terminal.words import Words

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


@click.command()
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
    from tavli.terminal.reports import hint_view

    ranked_for = None if length is None else (length, score, order)
    Console(highlight=False).print(hint_view(pos, roll, ranked, ranked_for, language), soft_wrap=True)  # whole lines


def _score_pair(text: str) -> tuple[int, int]:
    """``2-1`` as (2, 1): White's and Black's points."""
    parts = text.replace(":", "-").split("-")
    if len(parts) != 2 or not all(p.strip().isdecimal() for p in parts):
        raise InputError(f"write the score as White's points and Black's, like 2-1, not {text!r}")
    return int(parts[0]), int(parts[1])


