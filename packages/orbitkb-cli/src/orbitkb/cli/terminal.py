"""Text from repositories never drives the terminal: control characters are shown, not obeyed.

A compose key or a route can carry ``ESC ]0;...`` (retitle the window), ``ESC [2J`` (clear the
screen), a C1 ``CSI`` or a bidi override that reorders what the reader sees. Everything the CLI
writes to stdout, and every error or notice line, goes through :func:`safe_text`, which spells
each such character as a ``\\uXXXX`` escape. Inside JSON that is the same string (JSON already
escapes C0 characters, and ``\\u009b`` decodes to the character it replaced), so ``--json``
output parses to the original values.
"""

from __future__ import annotations

from typing import Any, TextIO

_UNSAFE = [c for c in range(0x20) if chr(c) not in "\n\t"] + list(range(0x7F, 0xA0))
_UNSAFE += [0x061C, 0x200E, 0x200F, *range(0x202A, 0x202F), *range(0x2066, 0x206A)]  # bidi controls
_TABLE = {c: f"\\u{c:04x}" for c in _UNSAFE}


def safe_text(text: str) -> str:
    return text.translate(_TABLE)


class SafeStream:
    """A text stream that writes through :func:`safe_text`; everything else is the wrapped stream."""

    def __init__(self, stream: TextIO) -> None:
        self._stream = stream

    def write(self, text: str) -> int:
        self._stream.write(safe_text(text))
        return len(text)

    def writelines(self, lines: Any) -> None:
        for line in lines:
            self.write(line)

    def __getattr__(self, name: str) -> Any:
        return getattr(self._stream, name)
