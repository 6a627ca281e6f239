"""Outbound HTTP through the JDK's ``HttpURLConnection`` and Vert.x's ``WebClient``.

``new URL(address).openConnection()`` (the URL built in place or held in a local) is a call to
that address; ``conn.setRequestMethod("POST")`` on the connection sets its method (GET when never
set). Vert.x: ``client.get(port, host, path)``, ``client.postAbs(url)``, ``client.request(
HttpMethod.PUT, port, host, path)`` on a ``WebClient`` of a file importing Vert.x (Spring's
WebClient has other shapes: ``http_sites`` reads those).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from orbitkb.analysis.jvm.evaluate import Parts, concat, dotted, evaluate, lit, literal_text
from orbitkb.analysis.jvm.syntax import Call, E, Name

if TYPE_CHECKING:
    from orbitkb.analysis.jvm.walking import Walker

VERTX_IMPORTS = ("io.vertx.ext.web.client", "io.vertx.mutiny.ext.web.client", "io.vertx.rxjava")
_VERBS = {"get": "GET", "post": "POST", "put": "PUT", "delete": "DELETE", "patch": "PATCH", "head": "HEAD"}
def _url_of(w: Walker, recv: E | None) -> Parts | None:
    """``new URL(x)`` in place, or a local holding it: the address ``x``."""
    if isinstance(recv, Name) and recv.id in w.scope.local_exprs:
        recv = w.scope.local_exprs[recv.id]
    if isinstance(recv, Call) and recv.new_ and recv.name in ("URL", "java.net.URL") and recv.args:
        return evaluate(recv.args[0], w.scope)
    return None


def _site(w: Walker, call: Call, client: str, method: str | None, url: Parts | None) -> None:
    w.add({"k": "http", "client": client, "method": method, "url": url, "line": call.line, "end": call.end, "recv": None})


def detect(w: Walker, call: Call) -> None:
    if call.name == "openConnection":
        url = _url_of(w, call.recv)
        if url is not None:
            _site(w, call, "HttpURLConnection", "GET", url)
        return
    if call.name == "setRequestMethod" and isinstance(call.recv, Name) and call.args:
        opened = w.scope.local_exprs.get(call.recv.id)
        verb = literal_text(evaluate(call.args[0], w.scope))
        if not (isinstance(opened, Call) and opened.name == "openConnection" and verb):
            return
        for site in w.sites:
            if site["client"] == "HttpURLConnection" and site["line"] == opened.line:
                site["method"] = verb.upper()
        return
    _vertx(w, call)


def _vertx(w: Walker, call: Call) -> None:
    if call.recv is None or not any(i.startswith(VERTX_IMPORTS) for i in w.ctx.imports):
        return
    if (w.recv_type(call.recv) or "").rsplit(".", 1)[-1] != "WebClient":
        return
    name, args = call.name, call.args
    if name.endswith("Abs") and name[:-3] in _VERBS and args:
        _site(w, call, "vertx-webclient", _VERBS[name[:-3]], evaluate(args[0], w.scope))
        return
    method = _VERBS.get(name)
    if name == "request" and args:
        method = (dotted(args[0]) or "").rsplit(".", 1)[-1].upper() or None
        args = args[1:]
    if method is None or len(args) != 3:
        return
    port, host, path = (evaluate(a, w.scope) for a in args)
    url = concat(lit("http://"), host, lit(":"), port, path)
    _site(w, call, "vertx-webclient", method, url)
