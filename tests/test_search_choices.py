"""Each level's plays on a fixed set of positions of the three games, as the evaluator chose them
before its search was made faster: a faster search must choose the same plays and value the best
ones the same.

The positions are every fifth decision (with more than one play) of games the intermediate level
plays against itself with seeded dice; for each: the position, the roll, the play of each level in
``LEVELS`` order (one bot per level, seeded 64, playing the positions in turn, so that the noisy
levels' draws follow one another as in a game), the champion's play at 2-away, 4-away in a 5-point
match, and the three best plays of the analysis's 2-ply search (``tavli.study.analysis.FILTER``)
with their depth and equity.
"""

from __future__ import annotations

import pytest

from tavli import Dice, Position
from tavli.bots.levels import LEVELS
from tavli.bots.match_equity import MatchScore
from tavli.bots.neural import Evaluator, NeuralBot
from tavli.match import MatchSettings
from tavli.study.analysis import FILTER

Case = tuple[str, str, tuple[str, ...], str, tuple[tuple[str, int, float], ...]]

CASES: tuple[Case, ...] = (
    ('portes 2b.1w..5w.2w...5b5w...2b.4b2b.1w.1w w 0:0 0:0', '63',
     ('24/15', '24/15', '24/18 6/3', '22/16 6/3', '22/16 6/3', '22/16 6/3'),
     '22/16 6/3', (('22/16 6/3', 2, -0.10709), ('24/18 6/3', 2, -0.13998), ('13/7 6/3', 1, -0.18362))),
    ('portes 2b2w2w2w2b4w....2w2b1w.2w.3b.2b2b2b... w 0:0 0:0', '63',
     ('13/4', '13/4', '13/4', '13/4', '13/4', '13/4'),
     '13/4', (('13/4', 2, 0.36926), ('13/7 6/3', 1, 0.17967), ('15/6', 0, 0.0498))),
    ('portes .2w3w3w2b3w2w.2b.2w2b....1b1b2b3b2b... b 0:0 0:0', '14',
     ('13/9 5/4', '13/9 5/4', '13/9 5/4', '13/8', '13/9 8/7', '13/9 8/7'),
     '13/9 8/7', (('13/9 8/7', 2, -0.60684), ('13/8', 2, -0.61144), ('13/12 13/9', 1, -0.68599))),
    ('portes 1w3w5w2w2b2w2w.2b......1b1b1b2b3b2b.1b. w 0:0 0:0', '51',
     ('7/6 7/2', '7/6 7/2', '7/6 7/2', '7/6 7/2', '7/6 7/2', '7/6 7/2'),
     '7/6 7/2', (('7/6 7/2', 2, 1.23398), ('7/1', 0, 0.85054), ('7/2 3/2', 0, 0.79319))),
    ('portes 1w4w4w2w2b.......2b..1b.1b2b3b3b.1b. b 0:0 4:0', '34',
     ('20/17 6/2', '20/17 6/2', '20/17 20/16', '20/16 9/6', '20/16 9/6', '20/16 9/6'),
     '20/16 9/6', (('20/16 9/6', 2, -1.74104), ('12/8 9/6', 2, -1.75013), ('20/17 9/5', 1, -1.76948))),
    ('portes 1b...2w4w1b2w...4b5w.1b.3b.5b....2w w 0:0 0:0', '21',
     ('13/11 8/7*', '13/11 8/7*', '13/11 8/7*', '8/7*/5', '13/11 8/7*', '8/7*/5'),
     '8/7*/5', (('13/11 8/7*', 2, 0.13987), ('24/22 8/7*', 2, 0.13248), ('8/7*/5', 1, 0.1363))),
    ('portes 2b.2w.2w4w1w1w...3b3w.2b.3b.4b....1b b 2:0 0:0', '64',
     ('10/4 8/4', '24/18* 13/9', '24/18* 13/9', '24/18* 13/9', '24/18* 13/9', '24/18* 13/9'),
     '24/18* 13/9', (('24/18* 13/9', 2, 0.09325), ('24/18*/14', 1, 0.05656), ('24/18* 10/6', 1, -0.01221))),
    ('portes .1b2w1b2w4w.1w...3b3w.1b2b3b.2b2b..1w1w w 1:0 0:0', '26',
     ('bar/23 13/7', 'bar/23 13/7', 'bar/23 8/2*', 'bar/23 8/2*', 'bar/23 8/2*', 'bar/23 8/2*'),
     'bar/23 8/2*', (('bar/23 8/2*', 2, -0.32237), ('bar/23 24/18', 0, -0.58059), ('bar/23 13/7', 0, -0.68849))),
    ('plakoto 14b.....1b.........1w......14w w 0:0 0:0', '32',
     ('24/19', '24/19', '24/22 24/21', '24/22 24/21', '24/22 24/21', '24/22 24/21'),
     '24/22 24/21', (('24/22 24/21', 2, 0.0094), ('24/19', 1, -0.08384), ('24/21 17/15', 1, -0.09656))),
    ('plakoto 12b1b..1b...........1bw1w.2w...11w b 0:0 0:0', '62',
     ('24/18 20/18', '24/18 20/18', '24/18 20/18', '24/18 23/21', '24/18 23/21', '24/18 23/21'),
     '24/18 23/21', (('24/18 23/21', 2, 0.69128), ('24/18 20/18', 2, 0.6751), ('24/22 23/17', 1, 0.64804))),
    ('plakoto 7b2b.1b.1b3b.........1bw3w1w2w...8w w 0:0 0:0', '54',
     ('24/20 24/19', '24/20 24/19', '24/20 24/19', '24/20 24/19', '24/20 24/19', '24/20 24/19'),
     '24/20 24/19', (('24/20 24/19', 2, -0.70739), ('19/14 18/14', 1, -0.76663), ('20/15 19/15', 1, -0.83576))),
    ('plakoto 6b..1b.2b3b2b........1bw4w4w2w...4w b 0:0 0:0', '52',
     ('24/17', '24/17', '24/17', '21/16 18/16', '21/16 18/16', '21/16 18/16'),
     '21/16 18/16', (('21/16 18/16', 2, 0.82719), ('24/17', 1, 0.77694), ('24/19 21/19', 1, 0.77655))),
    ('plakoto 4b....3b2b2b3b...2w...1bw4w3w2w...3w w 0:0 0:0', '15',
     ('24/18', '24/18', '24/18', '19/13', '24/18', '24/18'),
     '24/18', (('24/18', 2, -0.77445), ('19/13', 2, -0.78084), ('20/19 18/13', 1, -0.88949))),
    ('plakoto .1b..2b3b3b.3b..2b3w...1bw4w3w4w.... b 0:0 0:0', '24',
     ('23/19 18/16', '18/14 16/14', '18/14 16/14', '18/14 16/14', '23/19 18/16', '23/19 18/16'),
     '23/19 18/16', (('23/19 18/16', 2, 0.56034), ('18/14 16/14', 1, 0.45379), ('19/13', 1, 0.35757))),
    ('plakoto ....2b2b2b.2b.2b2b3w2b.2w1bw4w3w2w.... w 0:0 0:0', '41',
     ('20/19 20/16', '20/19 20/16', '20/19 20/16', '20/19 20/16', '20/19 20/16', '20/19 20/16'),
     '20/19 20/16', (('20/19 20/16', 2, -0.55365), ('19/15 16/15', 0, -0.86849), ('20/16 19/18', 0, -0.9438))),
    ('plakoto ...1w.2b2b.3b2w2b3b3w2b2w.1bw3w3w..... b 0:0 0:0', '15',
     ('19/18 19/14', '19/18 19/14', '19/18 19/14', '19/18 19/14', '19/18 19/14', '19/18 19/14'),
     '19/18 19/14', (('19/18 19/14', 2, 0.67038), ('14/13 14/9', 0, 0.3428), ('19/18 16/11', 0, 0.32342))),
    ('fevga .....1w.1w..1b13b........1b..13w b 0:0 0:0', '62',
     ('24/22 23/17', '24/22 23/17', '24/22 23/17', '24/16', '24/16', '24/16'),
     '24/16', (('24/16', 2, -0.44), ('24/22 23/17', 2, -0.44439), ('24/22 9/3', 1, -0.63886))),
    ('fevga ....1b1w.1w...12b..1b...1w1b1w1w1w9w w 0:0 0:0', '54',
     ('19/10', '19/10', '19/10', '19/10', '19/10', '19/10'),
     '19/10', (('19/10', 2, 1.11496), ('21/17 19/14', 0, 0.95362), ('22/13', 0, 0.90178))),
    ('fevga 1b....1w1w1w.1b1b10b1b1w.....1b1w2w1w7w b 0:0 0:0', '56',
     ('13/7 8/3', '13/7 8/3', '13/7 8/3', '13/7 8/3', '13/7 8/3', '13/7 8/3'),
     '13/7 8/3', (('13/7 8/3', 2, -1.31902), ('22/17 13/7', 1, -1.39581), ('23/17 13/8', 0, -1.48552))),
    ('fevga 1b..1b.1w1w1w.1b.9b1b2w1b1w1w1w1b.1w1w1w4w w 0:0 0:0', '42',
     ('24/22 24/20', '24/22 24/20', '24/22 24/20', '24/22 24/20', '24/22 24/20', '24/22 24/20'),
     '24/22 24/20', (('24/22 24/20', 2, 1.45745), ('24/20 16/14', 2, 1.45242), ('24/20 18/16', 1, 1.45041))),
    ('fevga 1b..1b2b1w1w1w1w..8b1b2w2b1w1w..1w2w1w1w2w b 0:0 0:0', '62',
     ('24/22 13/7', '24/22 13/7', '24/22 13/7', '24/22 13/7', '24/22 13/7', '24/22 13/7'),
     '24/22 13/7', (('24/22 13/7', 2, -1.77961), ('24/16', 1, -1.87518), ('17/15 13/7', 1, -1.92664))),
    ('fevga 1b..2b2b1w1w1w1w.1w6b1b2w2b2w.1w1b1w1w1w1w1w w 0:0 0:0', '46',
     ('16/10 14/10', '16/10 14/10', '16/10 14/10', '16/10 14/10', '18/14 16/10', '18/14 16/10'),
     '18/14 16/10', (('18/14 16/10', 2, 1.91162), ('16/10 14/10', 2, 1.90691), ('20/10', 1, 1.89958))),
    ('fevga 1b.1b1b1b1w1w1w2w2w1w6b1b1w2b1w1w.2b.1w1w1w1w b 0:0 0:0', '21',
     ('7/6 3/1', '7/6 3/1', '7/6 3/1', '7/6 3/1', '7/6 3/1', '7/6 3/1'),
     '7/6 3/1', (('7/6 3/1', 2, -1.92589), ('16/14 7/6', 2, -1.93205), ('15/14 3/1', 1, -1.91258))),
    ('fevga 1b..1b1b1w2w1w1w2w2w6b3b1w2b1w..1b1w1w1w1w. w 0:0 0:0', '42',
     ('20/14', '20/14', '20/14', '20/14', '11/9 10/6', '20/14'),
     '20/14', (('20/14', 2, 1.97592), ('11/9 10/6', 2, 1.97469), ('21/17 11/9', 1, 1.97364))),
)


def cases(game: str) -> list[Case]:
    return [c for c in CASES if c[0].startswith(game + " ")]


@pytest.mark.slow
@pytest.mark.parametrize("game", ["portes", "plakoto", "fevga"])
def test_every_level_plays_as_before(game: str) -> None:
    bots = {name: NeuralBot(name, seed=64) for name in LEVELS}
    score = MatchScore.at(MatchSettings(length=5), need=2, opp_need=4, game=1)
    found = cases(game)
    assert len(found) == 8
    for text, roll, choices, at_score, _ in found:
        legal = Position.from_string(text).legal_plays(Dice(int(roll[0]), int(roll[1])))
        assert tuple(str(legal[bots[name].choose(legal)]) for name in LEVELS) == choices, text
        assert str(legal[bots["champion"].choose(legal, score)]) == at_score, text


@pytest.mark.slow
@pytest.mark.parametrize("game", ["portes", "plakoto", "fevga"])
def test_the_analysis_values_the_best_plays_as_before(game: str) -> None:
    ev = Evaluator.for_variant(game)
    for text, roll, _, _, top in cases(game):
        legal = Position.from_string(text).legal_plays(Dice(int(roll[0]), int(roll[1])))
        found = ev.analyse(legal, 2, FILTER)[:3]
        assert [(str(legal[a.index]), a.depth) for a in found] == [(play, depth) for play, depth, _ in top], text
        assert [a.equity for a in found] == pytest.approx([equity for _, _, equity in top], abs=2e-5), text
