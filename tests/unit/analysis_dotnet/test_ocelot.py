"""Ocelot route configuration (JSON with comments) read as gateway routes: one per upstream method
and downstream host, the path the callee sees, and what is not an Ocelot file."""

from __future__ import annotations

from orbitkb.analysis.gateways.ocelot import is_ocelot_config, ocelot_routes

OCELOT = """{
  // edge routes
  "Routes": [
    {
      "DownstreamPathTemplate": "/api/v1/stock/{everything}",
      "DownstreamScheme": "http",
      "DownstreamHostAndPorts": [ { "Host": "stock", "Port": 8080 }, { "Host": "stock-b", "Port": "8080" } ],
      "UpstreamPathTemplate": "/stock/{everything}",
      "UpstreamHttpMethod": [ "GET", "PUT" ],
    },
    {
      "DownstreamPathTemplate": "/ping",
      "DownstreamScheme": "https",
      "DownstreamHostAndPorts": [ { "Host": "health" } ],
      "UpstreamPathTemplate": "/ping"
    }
  ],
  "GlobalConfiguration": { "BaseUrl": "http://localhost:5000" }
}"""


def test_routes_per_method_and_host() -> None:
    got = [(r.url, r.path, r.method, r.line) for r in ocelot_routes(OCELOT)]
    assert got == [
        ("http://stock:8080", "/api/v1/stock/{everything}", "GET", 5),
        ("http://stock:8080", "/api/v1/stock/{everything}", "PUT", 5),
        ("http://stock-b:8080", "/api/v1/stock/{everything}", "GET", 5),
        ("http://stock-b:8080", "/api/v1/stock/{everything}", "PUT", 5),
        ("https://health", "/ping", None, 12),
    ]


def test_other_json_is_not_ocelot_and_broken_json_has_no_routes() -> None:
    assert is_ocelot_config(OCELOT)
    assert not is_ocelot_config('{"name": "web", "dependencies": {}}')
    assert list(ocelot_routes('{"Routes": [ {"DownstreamPathTemplate": ')) == []


DISCOVERED = """{
  "Routes": [
    { "DownstreamPathTemplate": "/api/lessons/{all}", "DownstreamScheme": "http",
      "UpstreamPathTemplate": "/lessons/{all}", "ServiceName": "LessonsApi",
      "UpstreamHttpMethod": [ "Get" ] },
    { "DownstreamPathTemplate": "/api/rooms", "UpstreamPathTemplate": "/rooms", "ServiceName": "  " },
    { "DownstreamPathTemplate": "/api/desks", "ServiceName": "DesksApi",
      "DownstreamHostAndPorts": [ { "Host": "desks", "Port": 80 } ] }
  ],
  "GlobalConfiguration": { "ServiceDiscoveryProvider": { "Type": "Consul", "Host": "consul", "Port": 8500 } }
}"""


def test_a_route_by_service_name_goes_to_the_service_registered_under_it() -> None:
    got = [(r.url, r.path, r.method) for r in ocelot_routes(DISCOVERED)]
    assert got == [
        ("http://LessonsApi", "/api/lessons/{all}", "GET"),  # discovery: the registered name
        ("http://desks:80", "/api/desks", None),  # explicit hosts win over the name
    ]  # a blank ServiceName with no hosts forwards nowhere we can name
