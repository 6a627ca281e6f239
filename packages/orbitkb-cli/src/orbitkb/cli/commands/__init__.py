"""One module per sub-command; each exposes ``register(subparsers)``."""

from orbitkb.cli.commands import analyze, architecture, export, index, listing, not_yet, status

COMMANDS = [index, listing, status, analyze, export, architecture, not_yet]

not_yet.PENDING.update({
    "serve": ("run the MCP server on stdio", "orbitkb serve --tools core"),
})
