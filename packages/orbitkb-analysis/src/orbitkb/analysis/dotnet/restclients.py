"""HTTP calls through RestSharp and Flurl.

RestSharp: a client made with its base address (``new RestClient("http://catalog")``,
``new RestClient(new RestClientOptions(url))``, ``new RestClientOptions { BaseUrl = new Uri(url) }``)
and requests made with a resource path and a method (``new RestRequest("api/items/{id}", Method.Get)``,
``Method.GET`` of older versions) or sent with a verb (``client.PostAsync<T>(request)``, the one
request of that method); JSON helpers take the path themselves (``client.GetJsonAsync<T>("api/items")``).
A class (or top-level program) that makes one RestSharp client gives its base to every request it
makes. Flurl: a URL string, setting or ``new Url(...)`` extended with path segments and sent
(``baseUrl.AppendPathSegment("items").GetJsonAsync<T>()``)."""

from __future__ import annotations

from typing import Any

from orbitkb.analysis.dotnet.clients import _verb, join
from orbitkb.analysis.dotnet.index import ServiceIndex, Site, simple
from orbitkb.analysis.facts import RawCall

Parts = list[list[Any]]

#: RestClient methods sending a request with a verb of their own.
REST_SEND_VERBS = {
    "GetAsync": "GET", "PostAsync": "POST", "PutAsync": "PUT", "PatchAsync": "PATCH", "DeleteAsync": "DELETE",
    "Get": "GET", "Post": "POST", "Put": "PUT", "Patch": "PATCH", "Delete": "DELETE",
    "ExecuteGetAsync": "GET", "ExecutePostAsync": "POST", "ExecutePutAsync": "PUT", "ExecuteDeleteAsync": "DELETE",
}  # fmt: skip
#: RestClient JSON helpers taking the resource path as their first argument.
REST_JSON_HELPERS = {"GetJsonAsync": "GET", "PostJsonAsync": "POST", "PutJsonAsync": "PUT", "PatchJsonAsync": "PATCH",
                     "DeleteJsonAsync": "DELETE"}  # fmt: skip
_REST_CLIENTS = frozenset({"RestClient", "IRestClient"})
#: Flurl send methods (on a URL string or a ``Url``) -> verb.
FLURL_SENDS = {
    "GetAsync": "GET", "GetJsonAsync": "GET", "GetStringAsync": "GET", "GetBytesAsync": "GET", "GetStreamAsync": "GET",
    "PostAsync": "POST", "PostJsonAsync": "POST", "PostUrlEncodedAsync": "POST", "PostStringAsync": "POST",
    "PutAsync": "PUT", "PutJsonAsync": "PUT", "PatchAsync": "PATCH", "PatchJsonAsync": "PATCH", "DeleteAsync": "DELETE",
}  # fmt: skip
_SEGMENTS = ("AppendPathSegment", "AppendPathSegments")


class RestClients:
    def __init__(self, index: ServiceIndex) -> None:
        self.index = index

    def calls(self) -> list[RawCall]:
        out: list[RawCall] = []
        if self.index.uses("RestSharp"):
            out += self._restsharp()
        if self.index.uses("Flurl", "Flurl.Http"):
            out += self._flurl()
        return out

    # ------------------------------------------------------------------ RestSharp

    def _bases(self) -> dict[tuple[str, str | None], list[Parts]]:
        """(file, owner type) -> the base addresses of the RestSharp clients made there."""
        out: dict[tuple[str, str | None], list[Parts]] = {}
        for site in self.index.sites("new"):
            d = site.data
            ty, args, init = simple(str(d.get("ty", ""))), d.get("a") or [], d.get("init") or {}
            base: Parts | None = None
            if ty in ("RestClient", "RestClientOptions") and args and "v" in args[0]:
                if simple(str(args[0].get("ty", ""))) in ("RestClientOptions", "HttpClient"):
                    continue  # the options (or HttpClient) made beside it carry the address
                base = args[0]["v"]
            elif ty == "RestClientOptions" and "BaseUrl" in init:
                base = init["BaseUrl"]
            if base is None:
                continue
            owner = site.owner.name if site.owner else None
            folded = self.index.fold(_unwrap_uri(base), owner)
            if folded and not all(p[0] == "unknown" for p in folded):
                out.setdefault((site.file, owner), []).append(folded)
        return out

    def _restsharp(self) -> list[RawCall]:
        bases = self._bases()
        out: list[RawCall] = []
        sends: dict[tuple[str, int, int], list[str]] = {}  # (file, type, method) -> verbs of sends there
        for site in self.index.sites():
            d = site.data
            if d.get("n") in REST_SEND_VERBS and simple(str(d.get("rt", ""))) in _REST_CLIENTS:
                sends.setdefault((site.file, d.get("t", -1), d.get("m", -1)), []).append(REST_SEND_VERBS[d["n"]])
            elif d.get("n") in REST_JSON_HELPERS and simple(str(d.get("rt", ""))) in _REST_CLIENTS:
                args = d.get("a") or []
                if args and "v" in args[0]:
                    out.append(self._call(site, REST_JSON_HELPERS[d["n"]], args[0]["v"], bases, "RestSharp"))
        made = [s for s in self.index.sites("new") if simple(str(s.data.get("ty", ""))) == "RestRequest"]
        per_method: dict[tuple[str, int, int], int] = {}
        for site in made:
            key = (site.file, site.data.get("t", -1), site.data.get("m", -1))
            per_method[key] = per_method.get(key, 0) + 1
        for site in made:
            args = site.data.get("a") or []
            if not args or "v" not in args[0]:
                continue
            verb = _verb(args[1].get("v")) if len(args) > 1 else None
            if verb is None and "Method" in (site.data.get("init") or {}):
                verb = _verb(site.data["init"]["Method"])
            key = (site.file, site.data.get("t", -1), site.data.get("m", -1))
            sent = sorted(set(sends.get(key, [])))
            if verb is None and per_method[key] == 1 and len(sent) == 1:
                verb = sent[0]
            out.append(self._call(site, verb or "GET", args[0]["v"], bases, "RestSharp"))
        return out

    def _call(self, site: Site, verb: str, path: Parts, bases: dict[tuple[str, str | None], list[Parts]],
              client: str) -> RawCall:  # fmt: skip
        owner = site.owner.name if site.owner else None
        found = bases.get((site.file, owner)) or []
        base = found[0] if len({repr(b) for b in found}) == 1 else None
        parts = join(base, self.index.fold(path, owner))
        return RawCall("http", site.file, site.line, int(site.data.get("e", site.line)), client,
                       url=self.index.expr(parts), method=verb, component=owner)  # fmt: skip

    # ------------------------------------------------------------------ Flurl

    def _flurl(self) -> list[RawCall]:
        """``X.AppendPathSegment(a).AppendPathSegments(b, c).GetJsonAsync<T>()`` and ``"url".GetJsonAsync()``:
        the chain's root value joined with its segments; sends on anything but a string, a setting or
        a ``Url`` are other libraries' (an ``HttpClient``'s ``GetAsync`` is read by ``clients``)."""
        out: list[RawCall] = []
        for site in self.index.sites():
            d = site.data
            verb = FLURL_SENDS.get(str(d.get("n", "")))
            if verb is None or "ri" not in d and "r" not in d:
                continue
            url = self._flurl_url(site)
            if url is None:
                continue
            owner = site.owner.name if site.owner else None
            parts = self.index.fold(url, owner)
            if not parts or all(p[0] == "unknown" for p in parts):
                continue
            out.append(RawCall("http", site.file, site.line, int(d.get("e", site.line)), "Flurl",
                               url=self.index.expr(parts), method=verb, component=owner))  # fmt: skip
        return out

    def _flurl_url(self, site: Site) -> Parts | None:
        segments: list[Parts] = []
        d: Any = site.data
        used_segments = False
        while "ri" in d:  # walk the receiver chain back to its root
            inner = self.index.invocation(site.file, d["ri"])
            if inner is None:
                return None
            if inner.get("n") in _SEGMENTS:
                for a in reversed(inner.get("a") or []):
                    if "v" not in a:
                        return None
                    segments.insert(0, a["v"])
                used_segments = True
            elif inner.get("n") not in ("WithHeader", "WithHeaders", "WithOAuthBearerToken", "WithTimeout",
                                        "SetQueryParam", "SetQueryParams", "WithBasicAuth", "AllowAnyHttpStatus"):
                return None
            d = inner
        root = d.get("rv")
        if root is None:
            return None
        if not used_segments and not (len(root) >= 1 and root[0][0] == "lit" and str(root[0][1]).startswith("http")):
            return None  # a bare send on a variable is any client's; a literal URL or segments say Flurl
        url: Parts = [list(p) for p in _unwrap_uri(root)]
        for seg in segments:
            url = join(url, seg) if url else seg
        return url


def _unwrap_uri(parts: Parts) -> Parts:
    return parts
