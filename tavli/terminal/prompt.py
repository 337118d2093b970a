"""What a human types at the play prompt of ``tavli play`` and ``tavli join``: a play, in
notation or by its number in the list, or a command (``list``, ``help``, ``board``, ``hint``,
``position``, ``resign``, ``abort``, ``quit``), in English or in Greek; and how a line is read."""

from __future__ import annotations

import contextlib
import sys
from collections.abc import Callable, Mapping
from typing import Literal, TypeVar

from rich.columns import Columns
from rich.console import Console
from rich.text import Text

from tavli.position import LegalPlays, Play
from tavli.terminal.styles import ERROR_STYLE, LABEL_STYLE, NOTE_STYLE
from tavli.terminal.words import Words, command_words

LIST_LIMIT = 40
"""Longer lists of legal plays are shown only on request."""


def numbered_plays(legal: LegalPlays) -> Columns:
    """The legal plays in columns, numbered from 1 as the player may pick them."""
    return Columns([Text.assemble((f"{k:>3}) ", LABEL_STYLE), str(play)) for k, play in enumerate(legal, 1)],
                   padding=(0, 2))


Answer = TypeVar("Answer")


class LeaveMatch(Exception):
    """The human at the keyboard chose to leave the match."""


PROMPT_COMMANDS = ("list", "help", "board", "hint", "position", "quit", "resign", "abort")
"""The commands of the play prompt (``tavli play``, ``tavli join``), as ``command_words`` names them."""


def prompt_command(line: str, language: str = "en") -> tuple[str, list[str]]:
    """What a line typed at the play prompt asks: ``("", [])`` for nothing, one of
    ``PROMPT_COMMANDS`` with the words after it (``resign 2``), or ``("play", [text])``: a play,
    by its number in the list or in notation (``chosen_play``).

    >>> prompt_command(" Resign 2 "), prompt_command("λίστα", "el"), prompt_command("13/7 8/7", "el")
    (('resign', ['2']), ('list', []), ('play', ['13/7 8/7']))
    """
    text = line.strip()
    said = text.lower().split()
    if not said:
        return "", []
    commands = command_words(language)
    if said[0] in commands["resign"]:
        return "resign", said[1:]
    for name in PROMPT_COMMANDS:
        if " ".join(said) in commands[name]:
            return name, []
    return "play", [text]


def chosen_play(legal: LegalPlays, text: str, words: Words) -> Play | Text:
    """The play ``text`` names, by its number in the list or in notation; else why not, in words."""
    if text.isdecimal():  # not isdigit: "¹" is a digit that int() refuses
        number = int(text)
        if 1 <= number <= len(legal):
            return legal[number - 1]
        return words("✗ there is no play {number}: pick 1 to {count}, or type list to see them", ERROR_STYLE,
                     number=number, count=len(legal))
    try:
        return legal.position.parse_play(text, legal.dice)
    except ValueError as e:
        return words.error(e)


def answer_prompt(line: str, legal: LegalPlays, words: Words, console: Console, ask: Callable[[str], str],
                  actions: Mapping[str, Callable[[list[str]], Answer | None]]) -> Play | Answer | None:
    """One line typed at the play prompt of ``tavli play`` or ``tavli join``: the play it names
    (Enter alone: the only one), else what its command's action in ``actions`` answers (one for
    each of ``PROMPT_COMMANDS`` but ``help`` and ``quit``, which are the same everywhere:
    ``quit`` raises ``LeaveMatch`` once the player says yes; a command with no action there,
    ``abort`` at ``tavli play``, is said to be for a match on a server), or None after saying
    why the line names no play."""
    name, args = prompt_command(line, words.language)
    if name == "" and len(legal) == 1:
        return legal[0]
    if name == "":
        console.print(words("Type a move like 24/18 13/11, a number from the list, or help.", NOTE_STYLE))
    elif name == "help":
        console.print(words(HELP, NOTE_STYLE))
    elif name == "quit":
        if ask(words.plain("Leave the match? [y/N] ")).strip().lower() in command_words(words.language)["yes"]:
            raise LeaveMatch
    elif name == "play":
        chosen = chosen_play(legal, args[0], words)
        if isinstance(chosen, Play):
            return chosen
        console.print(chosen)
    elif name not in actions:
        console.print(words("✗ {command} is for a match on a server (tavli join)", ERROR_STYLE, command=name))
    else:
        return actions[name](args)
    return None


def resignation(what: list[str], words: Words, console: Console) -> int | Literal["match"] | None:
    """What ``resign`` and the words after it offer: the game for 1 or 2 points, or the whole
    match; None, after saying how to write it, for anything else.

    >>> resignation(["2"], Words(), Console()), resignation(["αγώνα"], Words("el"), Console())
    (2, 'match')
    """
    if what in ([], ["1"], ["2"]):
        return int(what[0]) if what else 1
    if len(what) == 1 and what[0] in command_words(words.language)["match"]:
        return "match"
    console.print(words("✗ type resign, resign 2 or resign match", ERROR_STYLE))
    return None


HELP = """\
Type your move in notation, from your side (your points are numbered 24 down to 1):
  24/18 13/11    two checkers, one die each     13/7(2)   the same move twice
  13/7/5 or 13/5 one checker with both dice     8/4*/2    * marks a hit or a pin
  bar/22         enter from the bar (Portes)    6/off     bear off
or type the number of a play in the list.
  list or ?   show the legal plays again       board   draw the board again
  hint        the expert bot's best plays      help    this help
  position    the position string, for tavli hint or the web app's position page
  resign      offer to resign the game for 1 point; resign 2 for 2 points; resign match
  quit        leave the match (--save keeps it, tavli play --resume goes on)
  abort       call off a match on a server before both sides have played: no result"""


def console_reader(console: Console) -> Callable[[str], str]:
    """Read a line at ``console``'s prompt (with line editing where the
    platform has readline); echo it when stdin is not a terminal."""
    echo = not sys.stdin.isatty()
    if not echo:
        with contextlib.suppress(ImportError):
            import readline  # noqa: F401  (input() edits lines once it is loaded)

    def read(prompt: str) -> str:
        line = console.input(Text(prompt, style="bold"))
        if echo:
            console.print(line, markup=False, highlight=False)
        return line

    return read

