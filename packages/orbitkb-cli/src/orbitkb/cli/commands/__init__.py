"""One module per sub-command; each exposes ``register(subparsers)``."""

from orbitkb.cli.commands import analyze, architecture, export, index, listing, serve, status

COMMANDS = [index, listing, status, analyze, export, architecture, serve]
