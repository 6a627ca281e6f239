"""One module per sub-command; each exposes ``register(subparsers)``."""

from orbitkb.cli.commands import analyze, architecture, describe, export, index, listing, serve, status

COMMANDS = [index, listing, describe, status, analyze, export, architecture, serve]
