"""Splitting a resolved address into scheme, host, port and path (unresolved pieces kept as markers)."""

from __future__ import annotations

import re

from attrs import frozen

_SCHEME = re.compile(r"^([A-Za-z][\w+.\-]*)://+")
_HOST = re.compile(r"^[A-Za-z0-9_.\-]+$")
_SLASHES = re.compile(r"/{2,}")
_PORT_THEN_UNKNOWN = re.compile("^([A-Za-z0-9_.\\-]+:\\d{1,5})(\x00.*)$", re.S)


@frozen
class Address:
    scheme: str | None
    host_region: str  # what stands where the host goes (may hold sentinels); "" when relative
    host: str | None  # a real host name, lowercase, when the region is fully known
    port: int | None
    path: str | None  # from the first "/" on, query and fragment removed
    relative: bool = False


def parse_address(text: str) -> Address:
    text = text.strip()
    scheme = None
    rest = text
    match = _SCHEME.match(text)
    if match:
        scheme, rest = match.group(1).lower(), text[match.end() :]
    elif text.startswith("/"):
        return Address(None, "", None, None, _clean_path(text), relative=True)
    slash = rest.find("/")
    region, path = (rest, None) if slash < 0 else (rest[:slash], _clean_path(rest[slash:]))
    joined = _PORT_THEN_UNKNOWN.match(region)
    if joined:  # `${base}${endpoint}` with base = http://host:8080: the unknown piece is the path
        region, path = joined.group(1), _clean_path(joined.group(2) + (rest[slash:] if slash >= 0 else ""))
    region = region.split("?", 1)[0].split("#", 1)[0]
    if "@" in region:
        region = region.rsplit("@", 1)[1]
    host, port = region, None
    port_match = re.match(r"^(.*):(\d{1,5})$", region)
    if port_match:
        host, port = port_match.group(1), int(port_match.group(2))
    host = host.strip("[]").rstrip(".")
    known = host.lower() if host and "\x00" not in host and _HOST.match(host) else None
    return Address(scheme, region, known, port, path)


def _clean_path(path: str) -> str:
    """The path without query and fragment, runs of slashes as one: a base URL configured with a
    trailing slash joined to a path with a leading one (``http://ledger:8080/`` + ``/entries``)."""
    path = _SLASHES.sub("/", path.split("?", 1)[0].split("#", 1)[0])
    return path or "/"
