"""The ``tavli`` command: legal plays, terminal and web matches, bots, training, analysis.

The commands stand in modules by family: ``tavli.cli.play_commands`` (play, matches, join),
``tavli.cli.serve_commands`` (serve, warm-up, users, verify-dice), ``tavli.cli.study_commands`` (analyse,
rollout, hint, openings, practise, met), ``tavli.cli.bot_commands`` (selfplay, train, teach,
plot-training, engine) and ``tavli.cli.format_commands`` (legal, export, import); what they
share is in ``tavli.cli.options``. ``main`` is the program's entry point.
"""

from __future__ import annotations

import sys

import click

from tavli.cli import bot_commands, format_commands, play_commands, serve_commands, study_commands
from tavli.cli.options import InputError


@click.group(context_settings={"help_option_names": ["-h", "--help"]})
@click.version_option(package_name="tavli")
def cli() -> None:
    """Tavli: Portes, Plakoto and Fevga."""


for command in (
    format_commands.legal, format_commands.export, format_commands.import_,
    play_commands.play, play_commands.matches, play_commands.join,
    study_commands.analyse, study_commands.rollout, study_commands.hint, study_commands.openings,
    study_commands.practise, study_commands.met_command,
    bot_commands.selfplay, bot_commands.train, bot_commands.teach, bot_commands.plot_training, bot_commands.engine,
    serve_commands.serve, serve_commands.warm_up_command, serve_commands.users, serve_commands.verify_dice,
):
    cli.add_command(command)


def main() -> None:
    """Entry point: usage errors become one line on stderr and exit status 2."""
    try:
        cli.main(standalone_mode=False)
    except click.exceptions.Abort:
        click.echo("aborted", err=True)
        sys.exit(130)
    except click.ClickException as e:
        click.echo(f"error: {e.format_message()}", err=True)
        sys.exit(2 if isinstance(e, click.UsageError | InputError) else e.exit_code)
    except ValueError as e:
        click.echo(f"error: {e}", err=True)
        sys.exit(2)
