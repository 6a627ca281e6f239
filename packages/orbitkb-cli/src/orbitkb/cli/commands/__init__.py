"""One module per sub-command; each exposes ``register(subparsers)``."""

from orbitkb.cli.commands import architecture, export, index, listing, not_yet, status

COMMANDS = [index, listing, status, export, architecture, not_yet]

not_yet.PENDING.update({
    "analyze": ("find the services a task will likely change", 'orbitkb analyze "Add Pix payments to checkout"'),
    "verify": ("check a change-surface prediction against the real git diff",
               "orbitkb verify 1 --repository shopfront --since HEAD~3"),
    "serve": ("run the MCP server on stdio", "orbitkb serve --tools core"),
})
