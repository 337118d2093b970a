"""Positions where the match score changes the best play: found in self-play, shown with both choices.

    .venv/bin/python benchmarks/strength/score_examples.py                 # the examples of docs/match-equity.md
    .venv/bin/python benchmarks/strength/score_examples.py --search portes --away 2,1 --kind gammon-go --games 60

Without ``--search`` it values each of ``EXAMPLES`` (positions that ``--search``
found) at ``--depth`` plies (2, the analysis's default) twice, as
``tavli analyse`` would: for points per game (money play, a single game) and
at the example's match score (by the chance of winning the match, MWC, both
sides playing for the match through the search). It prints, as Markdown, each
position drawn as text, the play for points and the play for the match, and
each play's points per game (from the search for points) and MWC (from the
search at the score), with its chances of winning, winning 2 points and losing
2 points (from the search at the score).

``--search GAME`` plays ``--games`` self-play games at the advanced level with
seeded dice and ranks, at 0 ply, every decision at the score ``--away`` (points
the side to play still needs, and his opponent) by the play for points and by
the play for the match; where the two differ (and, with ``--kind``, the play
for the match aims at or saves 2-point games, or with ``--mother`` a Plakoto
mother is still at home), it values both at ``--depth`` plies and prints
the ``--top`` decisions where the match play gains most MWC.
"""

from __future__ import annotations

import argparse
import random
import sys
import time
from dataclasses import dataclass

from tavli import Dice, Position
from tavli.bots.match_equity import MatchScore
from tavli.bots.neural import Evaluator, NeuralBot
from tavli.game import Game
from tavli.match import MatchSettings
from tavli.study.analysis import Candidate, evaluate_decision
from tavli.terminal.board import board, render_text
from tavli.variants import BLACK, GAMES, WHITE


@dataclass(frozen=True)
class Example:
    """A decision at a match score: the side to play in ``position`` has ``score`` points and his
    opponent ``opp_score`` in a match of ``length`` (the Tavli order), game number ``game`` (0-based)."""

    title: str
    position: str
    dice: str
    length: int
    score: int
    opp_score: int
    game: int
    why: str


EXAMPLES = (
    Example("Gammon-go: the trailer hits", "portes 2w2w3w.2w3w3b..1b.2b2w1b..1w.4b.2b.2b. b 0:0 0:0", "5-1",
            3, 1, 2, 3,
            "Black trails 1-2 in a match to 3: a 1-point win only ties the match, a 2-point win wins it, "
            "and a 2-point loss costs him no more than a 1-point one."),
    Example("Gammon-go: the trailer blitzes", "portes 2b.2w..5w.4w...4b2w...2b2b5b...1w1w b 0:0 0:0", "6-6",
            3, 1, 2, 3, "Black trails 1-2 in a match to 3, as above."),
    Example("Gammon-save: the leader runs", "portes ..1b3w2w3w1w3w...2b1w...4b.3b2b3b.1w. b 1:0 0:0", "6-3",
            3, 2, 1, 3,
            "Black leads 2-1 in a match to 3: any win wins the match, so a 2-point win is worth no more than "
            "a 1-point one, while a 2-point loss loses the match and a 1-point loss only ties it."),
    Example("A Plakoto mother race at a tied score",
            "plakoto 1w..1w.1wb3b.2b2bw.1bw4wb1wb1b1b1bw1bw.....3w w 0:0 0:0", "4-2", 3, 2, 2, 4,
            "2-2 in a match to 3: whoever wins this game wins the match, by 1 point or 2."),
)

SETTINGS = MatchSettings()
"""The Tavli order with the standard house rules; the examples' match lengths replace its length."""


def match_score(e: Example) -> MatchScore:
    settings = MatchSettings(length=e.length)
    return MatchScore.at(settings, e.length - e.score, e.length - e.opp_score, e.game)


def both(position: Position, dice: Dice, depth: int, score: MatchScore) -> tuple[str, str, dict[str, Candidate],
                                                                              dict[str, Candidate]]:
    """The play for points and the play for the match, and both plays' values each way."""
    legal = position.legal_plays(dice)
    first = str(legal[0])
    money_best = evaluate_decision(position, dice, first, depth).best
    match_best = evaluate_decision(position, dice, first, depth, score=score).best
    found = evaluate_decision(position, dice, match_best, depth)
    at_score = evaluate_decision(position, dice, money_best, depth, score=score)
    money = {c.play: c for c in found.candidates}
    match = {c.play: c for c in at_score.candidates}
    if money_best in money and match_best in money and money[match_best].equity > money[money_best].equity:
        money_best = match_best  # searched as deeply as the other, the play for the match is worth more points
    if money_best in match and match_best in match and (match[money_best].mwc or 0.0) > (match[match_best].mwc or 0.0):
        match_best = money_best
    return money_best, match_best, money, match


def drawing(position: Position, dice: Dice) -> str:
    """The board as ``tavli play`` draws it, seen by the side to play, as plain text."""
    text = render_text(board(position, dice=dice), width=100)
    return "\n".join(line.rstrip() for line in text.rstrip().splitlines())


def show(e: Example, depth: int) -> str:
    position, dice = Position.from_string(e.position), Dice.parse(e.dice)
    score = match_score(e)
    money_best, match_best, money, match = both(position, dice, depth, score)
    side = position.turn
    after = score.after_game()
    lines = [f"### {e.title}", "",
             f"{side} to play {e.dice}. {e.why} (Match to {e.length}, {side} {e.score}, "
             f"{side.other} {e.opp_score}: {score.need}-away/{score.opp_need}-away; the next game is "
             f"{SETTINGS.variant(e.game + 1).name}.)", "",
             "```", drawing(position, dice), e.position, "```", "",
             f"After this game {side} wins the match with chance {100 * after.win1:.1f}% after a 1-point win, "
             f"{100 * after.win2:.1f}% after a 2-point win, {100 * after.lose1:.1f}% after a 1-point loss and "
             f"{100 * after.lose2:.1f}% after a 2-point loss.", "",
             f"| play | points per game | MWC at {e.score}-{e.opp_score} | win | win 2 | lose 2 |",
             "|---|---:|---:|---:|---:|---:|"]
    for play, label in ((money_best, "for points"), (match_best, "for the match")):
        c = match[play]
        mwc = c.mwc if c.mwc is not None else 0.0
        lines.append(f"| `{play}` ({label}) | {money[play].equity:+.3f} | {100 * mwc:.1f}% | {100 * c.win:.1f}% "
                     f"| {100 * c.win2:.1f}% | {100 * c.lose2:.1f}% |")
    gain = ((match[match_best].mwc or 0.0) - (match[money_best].mwc or 0.0)) * 100
    cost = money[money_best].equity - money[match_best].equity
    lines += ["", f"The play for the match gives up {cost:.3f} points per game and gains {gain:.1f} "
                  f"percentage points of match-winning chance ({depth}-ply).", ""]
    return "\n".join(lines)


def mothers_home(position: Position) -> bool:
    """A Plakoto mother race: a side still has one to four checkers on his starting point (the last
    of them, his mother, pinned there loses the game double), not pinned."""
    return any(1 <= position.checkers(c, 24) <= 4 and not position.is_pinned(c, 24) for c in (WHITE, BLACK))


def search(args: argparse.Namespace) -> None:
    need, opp_need = (int(x) for x in args.away.split(","))
    names = MatchSettings().games
    game = names.index(args.search)
    settings = MatchSettings(length=max(need, opp_need) + 1)
    score = MatchScore.at(settings, need, opp_need, game)
    after = score.after_game()
    ev = Evaluator.for_variant(args.search)
    bot, rng = NeuralBot("advanced", seed=args.seed), random.Random(args.seed)
    found = []
    for _ in range(args.games):
        g = Game(args.search)
        while not g.is_over:
            dice = Dice(rng.randint(1, 6), rng.randint(1, 6))
            legal = g.legal_plays(dice)
            if len(legal) > 1 and (not args.mother or mothers_home(g.position)):
                money = ev.analyse(legal, 0)[0]
                match = ev.analyse(legal, 0, after=after)
                if money.index != match[0].index:
                    values = {a.index: a for a in match}
                    a, b = values[match[0].index], values[money.index]
                    keep = {"gammon-go": a.probabilities.win2 > b.probabilities.win2 + 0.03,
                            "gammon-save": a.probabilities.lose2 < b.probabilities.lose2 - 0.03,
                            "any": True}[args.kind]
                    if keep:
                        found.append(((a.match_equity or 0.0) - (b.match_equity or 0.0), str(g.position), str(dice)))
            k = bot.choose(legal) if len(legal) else None
            g.play(dice, legal[k] if k is not None else None)
    found.sort(reverse=True)
    print(f"{len(found)} decisions differ at 0 ply; the best {args.top} of the first {4 * args.top} "
          f"by MWC gained at {args.depth} plies:")
    confirmed = []
    for _, text, dice_text in found[:4 * args.top]:
        position, dice = Position.from_string(text), Dice.parse(dice_text)
        money_best, match_best, by_points, by_match = both(position, dice, args.depth, score)
        if money_best == match_best:
            continue
        gain = (by_match[match_best].mwc or 0.0) - (by_match[money_best].mwc or 0.0)
        cost = by_points[money_best].equity - by_points[match_best].equity
        confirmed.append((gain, cost, text, dice_text, money_best, match_best))
    for gain, cost, text, dice_text, money_best, match_best in sorted(confirmed, reverse=True)[:args.top]:
        print(f"{100 * gain:5.2f} pp  {cost:.3f} pts  {text} {dice_text}  match: {match_best}  points: {money_best}")


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0] if __doc__ else None)
    parser.add_argument("--depth", type=int, default=2, choices=(0, 1, 2))
    parser.add_argument("--search", choices=GAMES)
    parser.add_argument("--away", default="2,1", help="NEED,OPP_NEED for --search")
    parser.add_argument("--kind", choices=("gammon-go", "gammon-save", "any"), default="any")
    parser.add_argument("--mother", action="store_true", help="Plakoto: only positions with a mother at home")
    parser.add_argument("--games", type=int, default=40)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--top", type=int, default=5)
    args = parser.parse_args(argv)
    started = time.perf_counter()
    if args.search:
        search(args)
    else:
        for e in EXAMPLES:
            print(show(e, args.depth))
    print(f"({time.perf_counter() - started:.0f} s)", file=sys.stderr)


if __name__ == "__main__":
    main()
