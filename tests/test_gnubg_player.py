"""GNU Backgammon as a Portes player: its boards, its choices, and the games it refuses."""

from __future__ import annotations

import pytest

from tavli import BLACK, Dice, Position
from tavli.gnubg_player import GnubgPlayer, NotPortesError, available, board_after, board_before

gnubg = pytest.importorskip("gnubg")


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
