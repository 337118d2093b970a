"""GNU Backgammon as a Portes player: its boards, its choices, and the games it refuses."""

from __future__ import annotations

import pytest

from tavli import BLACK, Dice, Position
from tavli.bots.gnubg_player import GnubgPlayer, NotPortesError, available, board_after, board_before

gnubg = pytest.importorskip("gnubg")
pytestmark = pytest.mark.gnubg


def test_boards_are_gnubg_s() -> None:
    start = Position.start("portes")
    assert gnubg.positionid(board_before(start)) == start.gnubg_id()
    legal = start.legal_plays("31")
    for k, row in enumerate(legal.results):
        assert gnubg.positionid(board_after(row)) == legal.after(k).gnubg_id()


def test_it_plays_gnubg_s_best_play() -> None:
    assert available()
    player = GnubgPlayer(0)
    assert player.name == "gnubg-0ply"
    start = Position.start("portes", BLACK)
    legal = start.legal_plays(Dice(3, 1))
    assert str(legal[player.choose(legal)]) == "8/5 6/5"  # every program's opening 3-1
    equities = player.equities(legal)
    assert max(equities) == equities[player.choose(legal)] and len(set(equities)) > 1


def test_it_refuses_other_games_and_bad_settings() -> None:
    legal = Position.start("plakoto").legal_plays("31")
    with pytest.raises(NotPortesError, match="plays Portes"):
        GnubgPlayer(0).choose(legal)
    with pytest.raises(ValueError, match="unknown utility"):
        GnubgPlayer(0, "cubeful")
    with pytest.raises(ValueError, match="ply must be 0 or more"):
        GnubgPlayer(-1)


def test_deeper_plies_search_what_the_move_filter_passes() -> None:
    position = Position.start("portes").play("13/10 24/23", "31")  # Black to answer White's opening 3-1
    legal = position.legal_plays(Dice(6, 4))
    shallow, deep = GnubgPlayer(0), GnubgPlayer(2)
    assert deep.name == "gnubg-2ply" and deep.move_filter == (8, 0.16)
    at0, at2 = shallow.equities(legal), deep.equities(legal)
    best0 = max(at0)
    searched = [i for i, (a, b) in enumerate(zip(at0, at2, strict=True)) if a != b]
    # the filter: at most 8 plays, all within 0.16 of the best at 0-ply, the best among them
    assert 1 <= len(searched) <= 8 and at0.index(best0) in searched
    assert all(at0[i] >= best0 - 0.16 for i in searched)
    assert deep.choose(legal) in searched
    row = legal.results[deep.choose(legal)]
    assert deep.equity(row, legal.position.variant.params) == shallow.equity(row, legal.position.variant.params, 2)
    assert at2[deep.choose(legal)] == max(at2[i] for i in searched)
    # the filter keeping one play plays the 0-ply choice; no filter searches every play
    assert GnubgPlayer(2, move_filter=(1, 0.0)).choose(legal) == shallow.choose(legal)
    everything = GnubgPlayer(2, move_filter=(len(legal), 9.0))
    every = everything.equities(legal)
    assert everything.choose(legal) == every.index(max(every))
    assert sum(a != b for a, b in zip(at0, every, strict=True)) > len(searched)
    with pytest.raises(ValueError, match="move filter"):
        GnubgPlayer(2, move_filter=(0, 0.1))
