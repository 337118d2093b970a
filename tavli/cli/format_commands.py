"""The commands of positions and match files: ``tavli legal`` (every legal play), ``tavli
export`` and ``tavli import`` (GNU Backgammon's .mat files)."""

from __future__ import annotations

import sys
from collections.abc import Iterable
from pathlib import Path
from typing import TextIO

import click

from tavli.cli.options import InputError, read_position
from tavli.dice import Dice
from tavli.errors import TavliError


def legal_lines(variant_text: str | None, position_text: str, dice_text: str) -> list[str]:
    """The answer of ``tavli legal``: one line per play, tab-separated."""
    pos, as_id = read_position(variant_text, position_text)
    legal = pos.legal_plays(Dice.parse(dice_text))
    plays = [str(p) for p in legal] or ["pass"]
    lines = []
    for play, after in zip(plays, legal.positions(), strict=True):
        line = f"{play}\t{after}"
        if as_id:
            line += f"\t{after.gnubg_id()}"
        lines.append(line)
    return lines


def _answer_queries(lines: Iterable[str], out: TextIO) -> None:
    for raw in lines:
        line = raw.strip()
        if not line or line.startswith("#"):
            continue
        try:
            fields = line.split()
            if len(fields) < 3:
                raise TavliError("a query is: VARIANT POSITION DICE")
            block = legal_lines(fields[0], " ".join(fields[1:-1]), fields[-1])
        except ValueError as e:
            block = [f"error: {e}"]
        out.write("\n".join(block) + "\n\n")
        out.flush()


@click.command()
@click.option("--variant", "-v",
              help="portes, plakoto or fevga, with house rules like fevga,prime_limits=off "
              "(default: the game the position names; Portes for a Position ID)")


@click.option("--position", "-p", help="position string or GNU Backgammon Position ID; "
              "without it, queries 'VARIANT POSITION DICE' are read from stdin, one per line")


@click.option("--dice", "-d", help="the roll, like 62")
def legal(variant: str | None, position: str | None, dice: str | None) -> None:
    """Print every legal play: notation, a tab, the resulting position."""
    if position is None:
        if dice is not None:
            raise InputError("--dice needs --position (or give queries on stdin)")
        _answer_queries(sys.stdin, sys.stdout)
        return
    if dice is None:
        raise InputError("--dice is required with --position")
    try:
        lines = legal_lines(variant, position, dice)
    except ValueError as e:
        raise InputError(str(e)) from None
    click.echo("\n".join(lines))


@click.command("export")
@click.argument("record_file", metavar="RECORD", type=click.Path(dir_okay=False, path_type=Path))
@click.option("--to", "to", type=click.Choice(["mat"]), default="mat", show_default=True,
              help="mat: GNU Backgammon's match file (the record's Portes games)")


@click.option("--output", "-o", type=click.Path(dir_okay=False, path_type=Path),
              help="file to write (default: standard output)")


def export(record_file: Path, to: str, output: Path | None) -> None:
    """Write a match record in another format (docs/formats.md)."""
    from tavli.formats.mat import export_mat
    from tavli.formats.record import read

    try:
        text = export_mat(read(record_file))
    except ValueError as e:
        raise InputError(f"{record_file}: {e}") from None
    _write_out(text, output)


@click.command("import")
@click.argument("mat_file", metavar="FILE.mat", type=click.Path(dir_okay=False, path_type=Path))
@click.option("--output", "-o", type=click.Path(dir_okay=False, path_type=Path),
              help="match record to write (default: standard output)")


def import_(mat_file: Path, output: Path | None) -> None:
    """Read a GNU Backgammon .mat file of Portes games into a match record."""
    from tavli.formats.mat import read_mat
    from tavli.formats.record import dumps

    try:
        record = read_mat(mat_file)
    except ValueError as e:
        raise InputError(str(e)) from None
    _write_out(dumps(record), output)
    if output is not None:
        click.echo(f"{len(record.games)} game(s) imported into {output}", err=True)


def _write_out(text: str, output: Path | None) -> None:
    if output is None:
        click.echo(text, nl=False)
        return
    try:
        output.write_text(text, encoding="utf-8")
    except OSError as e:
        raise InputError(f"cannot write {output}: {e.strerror or e}") from None

