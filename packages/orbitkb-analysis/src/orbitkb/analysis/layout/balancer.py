"""An nginx configuration that only load-balances replicas of one service: a balancer, not a service.

``upstream app { server shop_app_1:8080; server shop_app_2:8080; }`` with every ``proxy_pass`` going
to ``app`` spreads requests over copies of one program (compose names replicas ``<name>_<n>`` or
``<name>-<n>``); the service is the program behind it. A configuration that routes to two
different services, serves files of its own (``root``, ``alias``, ``try_files``) or answers by
itself (``return``) is a gateway or a web server, and stays one.
"""

from __future__ import annotations

import re

_WORD = re.compile(r"[{};]|[^\s{};]+")
#: Directives with which nginx answers a request itself.
_SERVES = frozenset({"root", "alias", "try_files", "return", "fastcgi_pass", "uwsgi_pass"})
_PASS = frozenset({"proxy_pass", "grpc_pass"})
#: ``shop_app_2``, ``orders-3``, ``api.1``: a replica number after the name
_REPLICA = re.compile(r"[_\-.]?\d+$")


def _statements(text: str) -> list[tuple[list[str], list[str]]]:
    """(enclosing block heads, words) of every ``;``-ended statement, comments dropped."""
    text = "\n".join(line.split("#", 1)[0] for line in text.splitlines())
    out: list[tuple[list[str], list[str]]] = []
    stack: list[str] = []
    words: list[str] = []
    for token in _WORD.findall(text):
        if token == "{":
            stack.append(" ".join(words))
            words = []
        elif token == "}":
            stack = stack[:-1]
            words = []
        elif token == ";":
            if words:
                out.append((list(stack), words))
            words = []
        else:
            words.append(token)
    return out


def _host(url: str) -> str:
    """``http://app_servers/x`` -> ``app_servers``; ``app:8080`` -> ``app``."""
    rest = url.split("://", 1)[-1]
    return re.split(r"[:/]", rest, maxsplit=1)[0].lower()


def only_balances_replicas(text: str) -> bool:
    """True when every proxied route goes to one upstream of two or more replicas of one name and
    the configuration serves nothing itself."""
    upstreams: dict[str, list[str]] = {}
    targets: set[str] = set()
    for heads, words in _statements(text):
        head = words[0]
        if head in _SERVES:
            return False
        upstream = next((h.split()[1] for h in reversed(heads) if h.startswith("upstream ") and len(h.split()) > 1), None)
        if head == "server" and upstream is not None and len(words) > 1:
            upstreams.setdefault(upstream.lower(), []).append(_host(words[1]))
        elif head in _PASS and len(words) > 1:
            targets.add(_host(words[1]))
    if len(targets) != 1:
        return False
    servers = upstreams.get(next(iter(targets)), [])
    return len(servers) >= 2 and len({_REPLICA.sub("", s) for s in servers}) == 1
