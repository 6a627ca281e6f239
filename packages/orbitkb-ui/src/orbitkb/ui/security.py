"""What keeps a local web app safe with hostile repository content and a hostile web: a strict
Content-Security-Policy (no inline script, nothing from another origin), a Host allow-list (a
page on another site cannot reach this server by rebinding its DNS name to 127.0.0.1), and a
per-session token without which nothing is written."""

from __future__ import annotations

import hmac
import secrets

from starlette.datastructures import Headers
from starlette.types import ASGIApp, Message, Receive, Scope, Send

CSP = "; ".join((
    "default-src 'none'",
    "script-src 'self'",
    "style-src 'self'",
    "img-src 'self' data:",
    "connect-src 'self'",
    "font-src 'self'",
    "base-uri 'none'",
    "form-action 'none'",
    "frame-ancestors 'none'",
))

HEADERS = (
    (b"content-security-policy", CSP.encode()),
    (b"x-content-type-options", b"nosniff"),
    (b"referrer-policy", b"no-referrer"),
    (b"x-frame-options", b"DENY"),
    (b"cross-origin-opener-policy", b"same-origin"),
    (b"cross-origin-resource-policy", b"same-origin"),
    (b"cache-control", b"no-store"),
)

TOKEN_HEADER = "x-orbitkb-token"
LOCAL_HOSTS = ("127.0.0.1", "localhost", "::1")


def new_token() -> str:
    return secrets.token_urlsafe(32)


def token_matches(expected: str, given: str | None) -> bool:
    return given is not None and hmac.compare_digest(expected.encode(), given.encode())


def host_of(header: str) -> str:
    """``127.0.0.1:8765`` -> ``127.0.0.1``; ``[::1]:8765`` -> ``::1``."""
    if header.startswith("["):
        return header[1:].split("]", 1)[0]
    return header.rsplit(":", 1)[0] if header.count(":") == 1 else header


class SecurityHeaders:
    """ASGI middleware: every HTTP answer carries the headers above; a request whose Host is not
    one this server was started for is refused (421) before any route runs."""

    def __init__(self, app: ASGIApp, allowed_hosts: tuple[str, ...] = LOCAL_HOSTS) -> None:
        self.app = app
        self.allowed = {h.lower() for h in allowed_hosts}

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return

        async def send_with_headers(message: Message) -> None:
            if message["type"] == "http.response.start":
                names = {h for h, _ in HEADERS}
                kept = [(k, v) for k, v in message.get("headers", []) if k.lower() not in names]
                message = {**message, "headers": [*kept, *HEADERS]}
            await send(message)

        host = host_of(Headers(scope=scope).get("host", "")).lower()
        if host not in self.allowed:
            await send_with_headers({"type": "http.response.start", "status": 421,
                                     "headers": [(b"content-type", b"text/plain; charset=utf-8")]})
            await send({"type": "http.response.body", "body": b"misdirected request: unknown Host header\n"})
            return
        await self.app(scope, receive, send_with_headers)
