"""Score-aware against score-blind play: the same level, over whole Tavli matches.

    .venv/bin/python benchmarks/strength/matchplay.py [--level expert] [--lengths 5,7] [--games tavli]
        [--matches N] [--jobs J] [--max-seconds S] [--seed X] [--out FILE]
        [--descending] [--merge FILE ...]

For each match length, ``--matches`` matches (2000 by default) of
``tavli.match.Match`` (the Tavli order by default) between
``NeuralBot(level).choose(legal, MatchScore.of(match))`` (score-aware,
``tavli.bots.match_equity``) and the same level choosing for points per game. Matches
come in pairs that replay the same dice (one stream of rolls from the
match's seed, roll-off included) with the seats swapped, so the aware side
starts one match of each pair. Pairs run in ``--jobs`` processes (2 by
default); ``--max-seconds`` stops each length after the pairs under way.

Prints per length: matches played, the aware side's match win rate with
its 95% interval (each mirrored pair one sample: the two matches share
their dice), the same less his luck (``tavli.bots.duel``: each roll's worth in
match-winning chance by the network at 0 ply, which averages zero over the
throws, so the estimate is unbiased and its interval much narrower),
whether that interval is clear of 50%, and the time taken.
``--out FILE`` writes every match's result (JSON), after every pair, and a
later run with the same ``--out`` and settings (the number of matches, the
match equity table and the networks among them) goes on from there: a run
fixed in advance can be played out in sittings. It can be shared between
machines too: each pair's dice come from its number alone, so a second
machine plays the pairs from the last down (``--descending``, its own
``--out``), and ``--merge`` adds its file's pairs to the first's before that
one goes on.
"""

from __future__ import annotations

import argparse
import hashlib
import json
import math
import multiprocessing
import os
import time
from importlib import resources
from pathlib import Path
from typing import Any

from tavli.bots.duel import DuelResult
from tavli.bots.match_equity import MatchScore, Starter, measured_as
from tavli.bots.neural import Evaluator, NeuralBot
from tavli.dice import DiceRoller
from tavli.match import Match, MatchSettings
from tavli.variants import BLACK, WHITE, Color

MAX_TURNS = 10_000


def play_match(settings: MatchSettings, level: str, aware: Color, seed: int) -> dict[str, Any]:
    """One match; ``aware`` plays for the match, the other side for points per game.

    Also measures the aware side's luck in the match: each roll's worth to the roller in
    match-winning chance (his best play of it by the network at 0 ply, valued at the score,
    less the mean over the 36 throws: ``Evaluator.luck``), and each roll-off's (the table's
    chance with the aware side starting the game, or the other, less their mean)."""
    bot = NeuralBot(level, seed=seed)
    match = Match(settings, DiceRoller(seed))
    luck = 0.0
    games_seen = 0
    for _ in range(MAX_TURNS):
        if match.is_over:
            break
        if len(match.records) > games_seen:  # a game has started: was its starter rolled off?
            games_seen = len(match.records)
            if match.records[-1].opening_rolls:
                mine = MatchScore.of(match, aware)
                table, g = mine.table, len(match.records) - 1
                first = table.equity(mine.need, mine.opp_need, g, Starter.ME)
                second = table.equity(mine.need, mine.opp_need, g, Starter.OPPONENT)
                luck += (first - second) / 2 * (1 if match.game.start.turn == aware else -1)
        score = MatchScore.of(match)
        dice = match.roll()
        x = Evaluator.for_variant(match.game.variant).luck(match.game.position, dice, score.after_game())
        luck += x if match.turn == aware else -x
        legal = match.legal_plays()
        if len(legal) == 0:
            match.play(None)
            continue
        match.play(legal[bot.choose(legal, score if match.turn == aware else None)])
    else:
        raise RuntimeError(f"match not over after {MAX_TURNS} turns")
    return {"aware_won": match.winner == aware, "luck": luck, "games": len(match.records),
            "score": [match.score[aware], match.score[aware.other]]}


def play_pair(job: tuple[int, int, str, str, int]) -> dict[str, Any]:
    length, pair, games, level, seed = job
    settings = MatchSettings(length=length, games=MatchSettings.parse_games(games))
    match_seed = seed * 1_000_003 + length * 10_007 + pair
    t0 = time.monotonic()
    first = play_match(settings, level, WHITE, match_seed)
    second = play_match(settings, level, BLACK, match_seed)
    return {"length": length, "pair": pair, "matches": [first, second], "seconds": time.monotonic() - t0}


def table_id(games: str) -> str:
    """Which outcome figures the match equity table of ``games`` is made of (those of
    ``tavli/data/outcomes.json`` it uses; figures for other games or house rules added later
    do not change it): matches played with another table are not pooled."""
    data = json.loads((resources.files("tavli") / "data" / "outcomes.json").read_text())
    settings = MatchSettings(games=MatchSettings.parse_games(games))
    used = {measured_as(settings.variant(i)) for i in range(len(settings.games))}
    figures = {k: v for k, v in data["variants"].items() if k in used}
    return hashlib.sha256(json.dumps(figures, sort_keys=True).encode()).hexdigest()[:12]


def networks_id(games: str) -> dict[str, str]:
    """Which networks play the matches (``Evaluator.fingerprint`` of each game's): a run goes on
    only with the networks it started with."""
    order = MatchSettings.parse_games(games)
    return {g: Evaluator.for_variant(g).fingerprint for g in sorted(set(order))}


def summary(pairs: list[dict[str, Any]]) -> DuelResult:
    """The aware side's matches as a duel: 1 for a match won, 0 for one lost, with his luck;
    ``ppg`` is his win rate, ``adjusted_ppg`` the same less luck, intervals by pairs."""
    result = DuelResult()
    for p in sorted(pairs, key=lambda p: p["pair"]):
        for m in p["matches"]:
            result.points.append(int(m["aware_won"]))
            result.luck.append(m["luck"])
    return result


def merge(done: dict[str, Any], others: list[Path]) -> None:
    """Add to ``done`` the pairs of each file in ``others`` that it lacks; a file made with other
    settings is refused."""
    have = {(p["length"], p["pair"]) for p in done["pairs"]}
    for path in others:
        other = json.loads(path.read_text())
        if other["settings"] != done["settings"]:
            raise SystemExit(f"{path} was made with {other['settings']}, not {done['settings']}: not merged")
        new = [p for p in other["pairs"] if (p["length"], p["pair"]) not in have]
        done["pairs"].extend(new)
        have.update((p["length"], p["pair"]) for p in new)
        print(f"merged {len(new)} pairs of {len(other['pairs'])} from {path}")


def write(done: dict[str, Any], path: Path) -> None:
    """Write ``done`` whole or not at all: a run stopped at any moment loses no pair."""
    tmp = path.with_suffix(".tmp")
    tmp.write_text(json.dumps(done))
    os.replace(tmp, path)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--level", default="expert")
    parser.add_argument("--lengths", default="5,7")
    parser.add_argument("--games", default="tavli")
    parser.add_argument("--matches", type=int, default=2000, help="matches per length (pairs of two)")
    parser.add_argument("--jobs", type=int, default=2)
    parser.add_argument("--max-seconds", type=float, default=math.inf, help="per length")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--out", type=Path)
    parser.add_argument("--descending", action="store_true",
                        help="play the pairs from the last down, for a second machine sharing a run")
    parser.add_argument("--merge", type=Path, nargs="+", default=[],
                        help="first add to --out the pairs of these files, made with the same settings")
    args = parser.parse_args()
    settings = {"level": args.level, "games": args.games, "seed": args.seed, "luck": True,
                "table": table_id(args.games), "networks": networks_id(args.games), "matches": args.matches}
    done: dict[str, Any] = {"settings": settings, "pairs": []}
    if args.out is not None and args.out.exists():
        done = json.loads(args.out.read_text())
        if done["settings"] != settings:
            raise SystemExit(f"{args.out} was made with {done['settings']}: use the same settings or another --out")
    if args.merge:
        if args.out is None:
            raise SystemExit("--merge adds to the file of --out: give one")
        merge(done, args.merge)
        write(done, args.out)
    lengths = [int(x) for x in args.lengths.split(",")]
    for length in lengths:
        have = {p["pair"] for p in done["pairs"] if p["length"] == length}
        numbers = range(args.matches // 2)
        todo = [(length, k, args.games, args.level, args.seed) for k in (reversed(numbers) if args.descending
                                                                          else numbers) if k not in have]
        start = time.monotonic()
        with multiprocessing.Pool(args.jobs) as pool:  # one pool a length: running out of time ends it
            for result in pool.imap_unordered(play_pair, todo):
                done["pairs"].append(result)
                if args.out is not None:
                    write(done, args.out)
                if time.monotonic() - start > args.max_seconds:
                    pool.terminate()
                    break
    for length in lengths:
        pairs = [p for p in done["pairs"] if p["length"] == length]
        if not pairs:
            continue
        figures = summary(pairs)
        rate, half = figures.adjusted_ppg, figures.adjusted_ci95
        seconds = sum(p["seconds"] for p in pairs)
        clear = "clear of 50%" if rate - half > 0.5 or rate + half < 0.5 else "not clear of 50%"
        print(f"{length}-point matches ({args.games}, {args.level}): {figures.games} matches, score-aware wins "
              f"{100 * figures.ppg:.1f}% ± {100 * figures.ci95:.1f}; less luck {100 * rate:.1f}% ± {100 * half:.1f} "
              f"({clear}; luck multiple {figures.luck_weight:.2f}); {seconds:.0f} s of play in all")

if __name__ == "__main__":
    main()
