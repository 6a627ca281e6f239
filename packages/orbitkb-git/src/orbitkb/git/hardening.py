"""Run git inside a repository nobody vouched for: its own config must not run a command.

A cloned repository's ``.git/config`` (and the ``.gitattributes`` it ships) can name programs
that git runs on its own: ``core.fsmonitor`` on any working-tree read, hooks such as
``post-index-change`` when git refreshes the index, clean/smudge/process filters when it hashes
a file, external diff and textconv drivers, and transports when a partial clone lazily fetches.
Every git call orbitkb makes goes through :func:`git_argv` and :func:`git_env`, which switch all
of these off and leave git nothing to read from the caller's environment but PATH and HOME.
"""

from __future__ import annotations

import os
import subprocess
from collections.abc import Mapping, Sequence

#: Settings given on the command line win over every config file, the repository's included.
SAFE_CONFIG = (
    "core.fsmonitor=false",
    f"core.hooksPath={os.devnull}",
    "diff.external=",
    "core.pager=cat",
    "core.askPass=",
    "core.sshCommand=",
    "protocol.allow=never",  # a partial clone's lazy fetch would run transports and helpers
    "credential.helper=",
)

#: Config keys of attribute-selected drivers whose value is a command line to run.
_DRIVER_KEYS = r"^(filter|diff|merge)\..+\.(clean|smudge|process|textconv|command|driver)$"

#: From the caller's environment, only what finding git and the user's own ~/.gitconfig need.
_KEPT = ("PATH", "HOME", "SYSTEMROOT", "TMPDIR", "TEMP", "TMP")


def git_env(extra: Mapping[str, str] | None = None) -> dict[str, str]:
    """A clean environment: no GIT_DIR/GIT_EXTERNAL_DIFF/GIT_CONFIG_* from outside, no system
    config, no prompts, no pager, and no optional index writes (which would run hooks)."""
    env = {k: os.environ[k] for k in _KEPT if k in os.environ}
    env.update({
        "GIT_CONFIG_NOSYSTEM": "1",
        "GIT_TERMINAL_PROMPT": "0",
        "GIT_OPTIONAL_LOCKS": "0",
        "GIT_PAGER": "cat",
        "PAGER": "cat",
        "GIT_ASKPASS": "",
        "SSH_ASKPASS": "",
        "LC_ALL": "C",
    })
    env.update(extra or {})
    return env


def driver_overrides(git: str, cwd: str, timeout: float = 10.0) -> tuple[list[str], dict[str, str]]:
    """Empty every filter/diff/merge driver command the repository's config defines.

    Returns ``-c`` flags for ordinary names and GIT_CONFIG_COUNT variables for a name ``-c``
    cannot carry (one containing ``=``). Reading config runs nothing, so this is safe to ask.
    """
    try:
        proc = subprocess.run([git, "config", "-z", "--name-only", "--get-regexp", _DRIVER_KEYS],
                              cwd=cwd, capture_output=True, timeout=timeout, env=git_env())
    except (OSError, subprocess.SubprocessError):
        return [], {}
    keys = sorted({k for k in proc.stdout.decode("utf-8", "surrogateescape").split("\0") if k})
    drivers = sorted({k.rsplit(".", 1)[0] for k in keys if k.startswith("filter.")})
    # a required filter with no command would fail the call: make it optional as well
    settings = [(k, "") for k in keys] + [(f"{d}.required", "false") for d in drivers]
    flags: list[str] = []
    env: dict[str, str] = {}
    for key, value in settings:
        if "=" in key or "\n" in key:
            n = len(env) // 2
            env[f"GIT_CONFIG_KEY_{n}"] = key
            env[f"GIT_CONFIG_VALUE_{n}"] = value
        else:
            flags += ["-c", f"{key}={value}"]
    if env:
        env["GIT_CONFIG_COUNT"] = str(len(env) // 2)
    return flags, env


def git_argv(git: str, cwd: str, args: Sequence[str]) -> tuple[list[str], dict[str, str]]:
    """The argv and environment of one hardened git call."""
    flags, env = driver_overrides(git, cwd)
    safe = [item for setting in SAFE_CONFIG for item in ("-c", setting)]
    return [git, *safe, *flags, *args], git_env(env)
