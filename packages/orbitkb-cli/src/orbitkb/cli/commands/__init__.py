"""One module per sub-command; each exposes ``register(subparsers)``."""

from orbitkb.cli.commands import (
    analyze,
    architecture,
    backup,
    copy,
    describe,
    export,
    index,
    listing,
    remove,
    restore,
    serve,
    setup,
    status,
    ui,
)

COMMANDS = [index, listing, describe, status, analyze, export, architecture, serve, ui, remove, backup, restore, copy, setup]
