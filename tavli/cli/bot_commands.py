"""The bots' commands: ``tavli selfplay`` (bot against bot), ``tavli train`` and ``tavli
teach`` (the networks), ``tavli plot-training`` and ``tavli engine`` (a bot over stdin/stdout)."""

from __future__ import annotations

import random
import sys
import time
from pathlib import Path
from typing import TYPE_CHECKING

import click

from tavli.bots import LEVELS
from tavli.cli.options import SEATS, InputError, check_writable
from tavli.errors import TavliError
from tavli.game import Game
from tavli.match import MatchSettings
from tavli.variants import BLACK, GAMES, WHITE, Color, Variant, variant_from_string

if TYPE_CHECKING:
    from tavli.bots import Player


@click.command()
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
    from tavli.bots.duel import play_game
    from tavli.formats.record import MatchRecord, PlayerInfo, RecordedGame, write

    try:
        v = variant_from_string(variant)
    except ValueError as e:
        raise InputError(str(e)) from None
    if record is not None:
        check_writable(record)
    recorded: list[RecordedGame] = []
    rng = random.Random(seed)
    seats: dict[Color, Player] = {WHITE: make_bot(white, rng), BLACK: make_bot(black, rng)}
    wins = {WHITE: 0, BLACK: 0}
    doubles = {WHITE: 0, BLACK: 0}
    ties = 0
    turns = 0
    for index in track(range(games), description=f"{v.name}", disable=not sys.stderr.isatty(),
                       console=None, transient=True):
        first = WHITE if index % 2 == 0 else BLACK
        game = Game(v, first) if record is not None else None
        score = play_game(v, seats[first], seats[first.other], rng, color=first,
                          on_turn=None if game is None else game.play)
        if game is not None:
            recorded.append(RecordedGame.from_game(game))
        turns += score.turns
        if score.points == 0:
            ties += 1
        else:
            winner = first if score.points > 0 else first.other
            wins[winner] += 1
            doubles[winner] += abs(score.points) == 2
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


@click.command()
@click.option("--variant", "-v", type=click.Choice(GAMES), required=True)
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
        from tavli.bots.gnubg_player import available

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


@click.command()
@click.argument("out", type=click.Path(dir_okay=False, path_type=Path))
@click.option("--variant", "-v", type=click.Choice(GAMES), required=True)
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


@click.command("plot-training")
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


@click.command()
@click.option("--level", "-l", type=click.Choice(LEVELS), default="expert", show_default=True)
@click.option("--seed", type=int, help="repeatable choices for the noisy levels")
@click.option("--protocol", type=click.Choice(["auto", "arena", "tavli"]), default="auto", show_default=True,
              help="tavli: every game (set variant, position, play); arena: Portes, the arena's; "
                   "auto: the arena's if the first command is one of its own")


def engine(level: str, seed: int | None, protocol: str) -> None:
    """Play any game over stdin/stdout, one line each way (docs/engine.md)."""
    from tavli.engines.arena import main as serve_engine

    serve_engine(level, seed, protocol)


