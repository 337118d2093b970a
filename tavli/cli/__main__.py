"""``python -m tavli.cli``: the ``tavli`` command."""

from tavli.cli import main

main()
