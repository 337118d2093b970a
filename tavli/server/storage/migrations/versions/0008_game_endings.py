"""Each finished game's ending in the results (played out, resigned, on time, claimed), so that a
player's page counts as gammons only the games won for 2 points on the board; and no error rate
for a side that had no decision to analyse (it read as a perfect 0.0).

Data only, no new column: the results' ``games`` JSON gains each game's ``ending``, read from the
match's stored review (which keeps each game's reason) or, for a match never reviewed, the last
game's from the match's ending and the others' as played out.
"""

from __future__ import annotations

import json
from typing import Any

import sqlalchemy as sa
from alembic import op

revision = "0008_game_endings"
down_revision = "0007_seek_addresses"
branch_labels = None
depends_on = None

REASONS = {"resigned": "resigned", "resigned the match": "resigned", "lost on time": "time",
           "claimed: the opponent was absent": "claimed"}
"""A game's result reason (``tavli.match``) and its ending (``tavli.server.cafe.results.game_ending``),
as they are at this step: a migration keeps its own copy."""
LAST_GAME = {"resigned": "resigned", "time": "time", "left": "claimed"}
"""A match's ending and the ending of its last game, for a match never reviewed."""

results = sa.table("match_results", sa.column("match_id", sa.String), sa.column("ending", sa.String),
                   sa.column("games", sa.Text), sa.column("white_error_rate", sa.Float),
                   sa.column("black_error_rate", sa.Float))
analyses = sa.table("analyses", sa.column("match_id", sa.String), sa.column("data", sa.Text))


def upgrade() -> None:
    conn = op.get_bind()
    for row in conn.execute(sa.select(results)).all():
        review = conn.execute(sa.select(analyses.c.data).where(analyses.c.match_id == row.match_id)).scalar()
        found = json.loads(review) if review else {}
        games = json.loads(row.games)
        rates = {seat: getattr(row, f"{seat}_error_rate") for seat in ("white", "black")}
        new_rates = {seat: None if rate is not None and found.get("players", {}).get(seat, {}).get("unforced") == 0
                     else rate for seat, rate in rates.items()}
        new_games = with_endings(games, str(row.ending), found.get("games", []))
        if new_games != games or new_rates != rates:
            conn.execute(sa.update(results).where(results.c.match_id == row.match_id).values(
                games=json.dumps(new_games), white_error_rate=new_rates["white"],
                black_error_rate=new_rates["black"]))


Games = list[dict[str, Any]]


def with_endings(games: Games, match_ending: str, reviewed: Games) -> Games:
    """``games`` each with its ending: kept if it has one, else its review's reason, else guessed
    from the match's ending (the last game) or played out (the others)."""
    endings = []
    for index, game in enumerate(games):
        reason = reviewed[index].get("reason") if index < len(reviewed) else None
        if "ending" in game:
            endings.append(game["ending"])
        elif isinstance(reason, str):
            endings.append(REASONS.get(reason, "played"))
        else:
            endings.append(LAST_GAME.get(match_ending, "played") if index == len(games) - 1 else "played")
    return [game | {"ending": ending} for game, ending in zip(games, endings, strict=True)]


def downgrade() -> None:
    pass  # the endings stay: the code before this step reads past them
