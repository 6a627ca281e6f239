"""The headless CLIs this adapter drives, each declared once: its name (the command and the
``--backend`` value) and the hints its errors give. Everything that lists backends derives from
``BACKENDS`` — ``detect``, the settings, ``--backend``, the man page — and this module imports
nothing but attrs, so reading the choices costs a command's start-up nothing."""

from __future__ import annotations

from attrs import frozen


@frozen
class CliInfo:
    """What the error messages need to know about a CLI."""

    name: str  # "claude": the command on PATH and the --backend value
    install_hint: str
    login_hint: str


CLAUDE = CliInfo(
    name="claude",
    install_hint="install Claude Code: npm install -g @anthropic-ai/claude-code, then run `claude login`",
    login_hint="run `claude login` (or pass --claude-bare with ANTHROPIC_API_KEY set)",
)
CODEX = CliInfo(
    name="codex",
    install_hint="install Codex: npm install -g @openai/codex, then run `codex login`",
    login_hint="run `codex login` (or pass --codex-api-key with CODEX_API_KEY set)",
)

#: The CLIs by name, in auto's order of preference.
BACKENDS = {info.name: info for info in (CLAUDE, CODEX)}
#: What ``--backend`` / ORBITKB_BACKEND accept.
CHOICES = ("auto", *BACKENDS, "offline")
