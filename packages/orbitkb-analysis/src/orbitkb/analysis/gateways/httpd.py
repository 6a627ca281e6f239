"""Apache httpd reverse-proxy configs as gateway routes: ``ProxyPass``/``ProxyPassMatch`` (at
server level, or inside ``<Location>``/``<LocationMatch>``), ``RewriteRule ... [P]``, and
``balancer://`` targets expanded into their ``BalancerMember``s.

ProxyPass maps the matched prefix onto the target URL's path, so the callee sees that path with
the rest of the request after it (``ProxyPass /shop http://shop:8080`` forwards ``/shop/cart`` as
``/cart``); a regex rule forwards its substitution, ``$1`` standing for whatever matched.
"""

from __future__ import annotations

import re
import shlex
from collections.abc import Iterator

from orbitkb.analysis.facts import Env, Expr, Lit, Part
from orbitkb.analysis.gateways.paths import normalize

_SECTION = re.compile(r"^<\s*(/?)\s*([A-Za-z]+)\s*(.*?)\s*>$")
_VAR = re.compile(r"\$\{([A-Za-z_][A-Za-z0-9_.]*)\}")
_SCHEMES = ("http", "https", "ws", "wss", "h2", "h2c", "ajp", "balancer")
_PROXY_FLAG = re.compile(r"\[(?:[^\]]*,)?\s*(?:P|proxy)\s*(?:,[^\]]*)?\]", re.I)
#: words in a file that make it an httpd proxy configuration
MARKERS = ("ProxyPass", "BalancerMember", "ProxyPassMatch")


def is_httpd_proxy(text: str) -> bool:
    return any(m in text for m in MARKERS) or (
        "RewriteRule" in text and _PROXY_FLAG.search(text) is not None
    )


def _lines(text: str) -> Iterator[tuple[int, list[str]]]:
    """(line, words) per directive; continuation lines joined, comments dropped."""
    pending, start = "", 0
    for number, raw in enumerate(text.splitlines(), start=1):
        line = raw.strip()
        if not pending:
            start = number
        if line.endswith("\\"):
            pending += line[:-1] + " "
            continue
        line, pending = pending + line, ""
        if not line or line.startswith("#"):
            continue
        try:
            words = shlex.split(line, comments=False, posix=True)
        except ValueError:
            words = line.split()
        if words:
            yield start, words


def _expr(url: str, defines: dict[str, str]) -> Expr:
    parts: list[Part] = []
    pos = 0
    for m in _VAR.finditer(url):
        if m.start() > pos:
            parts.append(Lit(url[pos : m.start()]))
        name = m.group(1)
        parts.append(Lit(defines[name]) if name in defines else Env(name))
        pos = m.end()
    if pos < len(url):
        parts.append(Lit(url[pos:]))
    return Expr(tuple(parts))


def _scheme(url: str) -> str:
    return url.partition("://")[0].lower() if "://" in url else ""


def _url_path(url: str) -> str:
    rest = url.partition("://")[2]
    slash = rest.find("/")
    return rest[slash:] if slash >= 0 else "/"


def prefix_downstream(prefix: str, url: str) -> tuple[str, str | None]:
    """(call path, note) of ``ProxyPass <prefix> <url>``: the prefix is replaced by the URL's path."""
    pattern = normalize(prefix.rstrip("/") + "/**")
    down = normalize(_url_path(url).rstrip("/") + "/**")
    return (down, None) if down == pattern else (down, f"ProxyPass {prefix} forwarded as {down}")


def regex_downstream(regex: str, url: str) -> tuple[str, str | None]:
    """(call path, note) of a regex rule: its substitution, captured groups as ``**``."""
    path = _url_path(url)
    down = normalize(re.sub(r"\$\d|%\{[^}]*\}", "**", path))
    down = re.sub(r"(\*\*)+", "**", down)
    return down, f"{regex} forwarded as {down}"


def httpd_routes(text: str) -> Iterator[tuple[Expr, str | None, int, str | None]]:
    """(target URL, call path, line, note) for every proxied route of one httpd config."""
    defines: dict[str, str] = {}
    balancers: dict[str, list[str]] = {}
    sections: list[tuple[str, str]] = []
    rules: list[tuple[str, str, int, bool]] = []  # (match, url, line, is_regex)
    for line, words in _lines(text):
        head = words[0]
        section = _SECTION.match(" ".join(words)) if head.startswith("<") else None
        if section:
            closing, name, arg = section.groups()
            if closing:
                if sections:
                    sections.pop()
            else:
                sections.append((name.lower(), arg.strip("\"'")))
            continue
        key = head.lower()
        if key == "define" and len(words) > 2:
            defines[words[1]] = words[2]
        elif key == "balancermember" and len(words) > 1:
            owner = next((a for n, a in reversed(sections) if n == "proxy"), None)
            if owner is not None and len(words) > 1:
                balancers.setdefault(owner.rstrip("/").lower(), []).append(words[1])
        elif key in ("proxypass", "proxypassmatch"):
            location = next((s for s in reversed(sections) if s[0] in ("location", "locationmatch")), None)
            is_regex = key == "proxypassmatch" or (location is not None and location[0] == "locationmatch")
            if len(words) > 2 and "://" in words[2]:
                rules.append((words[1], words[2], line, is_regex))
            elif len(words) > 1 and "://" in words[1] and location is not None:
                rules.append((location[1], words[1], line, is_regex))
        elif key == "rewriterule" and len(words) > 3 and _PROXY_FLAG.search(words[3]) and "://" in words[2]:
            rules.append((words[1], words[2], line, True))
    for match, url, line, is_regex in rules:
        if _scheme(url) not in _SCHEMES:
            continue
        call_path, note = regex_downstream(match, url) if is_regex else prefix_downstream(match, url)
        for target in _targets(url, balancers):
            yield _expr(target, defines), call_path, line, note


def _targets(url: str, balancers: dict[str, list[str]]) -> list[str]:
    if _scheme(url) != "balancer":
        return [url]
    rest = url.partition("://")[2]
    name, slash, tail = rest.partition("/")
    members = balancers.get(f"balancer://{name}".lower(), [])
    return [m.rstrip("/") + (slash + tail if slash else "") for m in members]
