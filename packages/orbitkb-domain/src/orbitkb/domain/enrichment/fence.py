"""Fencing repository text as data inside a prompt, with a size cap per section.

Each block opens with ``<<<DATA <tag> <label>>>>`` and closes with ``<<<END DATA <tag>>>>`` where
the tag is derived from the block's own content: text inside a block cannot forge its closing
line, because it would have to contain a hash of itself.
"""

from __future__ import annotations

import re

from orbitkb.domain.ids import content_hash

# Control characters (except tab and newline) can hide text from a human reviewer of the prompt.
_CONTROL = re.compile(r"[\x00-\x08\x0b-\x1f\x7f\u202a-\u202e\u2066-\u2069]")
_LABEL_UNSAFE = re.compile(r"[^\w./:@{}\-+ ]")
LABEL_CAP = 160


def cap_text(text: str, cap: int) -> str:
    """``text`` cut to ``cap`` characters with a note saying how much was left out."""
    if len(text) <= cap:
        return text
    dropped = len(text) - cap
    return text[:cap] + f"\n[... {dropped} more characters not shown]"


def clean(text: str) -> str:
    return _CONTROL.sub("", text.replace("\r\n", "\n").replace("\r", "\n"))


def safe_label(label: str) -> str:
    """A one-line label (a path, a name) with nothing that could end the fence line early."""
    one_line = _LABEL_UNSAFE.sub("_", " ".join(label.split()))
    return one_line[:LABEL_CAP]


def fence(label: str, text: str, cap: int) -> str:
    body = cap_text(clean(text), cap)
    tag = content_hash(body)[:12]
    return f"<<<DATA {tag} {safe_label(label)}>>>\n{body}\n<<<END DATA {tag}>>>"
