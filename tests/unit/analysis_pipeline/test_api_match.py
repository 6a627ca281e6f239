"""Linking a call's path to one of the callee's HTTP APIs: literal segments compared without regard
to case (ASP.NET's ``[controller]`` token spells ``/api/Declarations``; callers write it lower-case),
and a call whose known segments were all dropped as a prefix links to nothing rather than to any
one-segment API."""

from __future__ import annotations

from orbitkb.analysis.resolution.apimatch import match_api
from orbitkb.analysis.resolution.values import Sentinels
from orbitkb.domain.model import Api, ApiKind


def _http(method: str, path: str) -> Api:
    return Api(f"api:{method}:{path}", "customs", method, path, f"{method} {path}", "f", 1, 1, kind=ApiKind.HTTP)


APIS = [_http("GET", "/api/Declarations/{id}"), _http("GET", "/health"), _http("POST", "/api/Declarations")]


def _unknown() -> str:
    return Sentinels().add("${id}", "prop")


def test_literal_segments_match_in_any_case() -> None:
    assert match_api("GET", f"/api/declarations/{_unknown()}", APIS) is APIS[0]
    assert match_api("POST", "/API/DECLARATIONS", APIS) is APIS[2]
    assert match_api("GET", "/api/declarations/7", APIS) is APIS[0]


def test_a_call_left_with_only_unknown_segments_links_to_nothing() -> None:
    assert match_api("GET", f"/api/tariffs/{_unknown()}", APIS) is None
    assert match_api("GET", f"/v1/{_unknown()}", APIS) is None


def test_a_dropped_gateway_prefix_still_links_known_segments() -> None:
    assert match_api("GET", "/customs/health", APIS) is APIS[1]
    assert match_api("GET", f"/gw/customs/api/declarations/{_unknown()}", APIS) is APIS[0]
