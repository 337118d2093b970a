"""How the terminal looks: the checkers' glyphs and the styles of the board and of what is said."""

from __future__ import annotations

from tavli.variants import BLACK, WHITE

GLYPH = {WHITE: "○", BLACK: "●"}
PINNED = {WHITE: "(○)", BLACK: "(●)"}
CHECKER_STYLE = {WHITE: "bold bright_white", BLACK: "bold red"}
BOARD_STYLE = "on grey11"
FRAME_STYLE = "grey50"
LABEL_STYLE = "grey62"
MARK_STYLE = "bold yellow"
EMPTY_STYLE = "grey30"
ERROR_STYLE = "bold red"
NOTE_STYLE = "cyan"
