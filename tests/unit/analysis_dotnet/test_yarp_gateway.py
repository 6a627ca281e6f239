"""A YARP gateway: the ``ReverseProxy`` section of its appsettings routes requests to the clusters'
destinations; each route is a call from the gateway to the service its destination address names,
with the path the callee sees after the route's transforms (``PathRemovePrefix``, ``PathPattern``),
in both layouts YARP accepts (routes and clusters keyed by id, or arrays)."""

from __future__ import annotations

from orbitkb.analysis import StaticCodeAnalyzer
from orbitkb.analysis.gateways.yarp import yarp_routes
from orbitkb.domain.fakes.analysis import DictAnalysisCache
from orbitkb.domain.fakes.source_tree import MemorySourceTree
from orbitkb.domain.ports import AnalysisRequest

WEB = '<Project Sdk="Microsoft.NET.Sdk.Web"></Project>'
GATEWAY_WEB = '<Project Sdk="Microsoft.NET.Sdk.Web"><ItemGroup><PackageReference Include="Yarp.ReverseProxy" Version="2.1.0" /></ItemGroup></Project>'
GATEWAY_PROGRAM = """var builder = WebApplication.CreateBuilder(args);
builder.Services.AddReverseProxy().LoadFromConfig(builder.Configuration.GetSection("ReverseProxy"));
var app = builder.Build();
app.MapReverseProxy();
app.Run();
"""
KEYED = """{
  "Logging": { "LogLevel": { "Default": "Information" } },
  // the edge
  "ReverseProxy": {
    "Routes": {
      "rooms-route": {
        "ClusterId": "rooms",
        "Match": { "Path": "/rooms/{**catch-all}" },
        "Transforms": [ { "PathPattern": "/api/rooms/{**catch-all}" } ]
      },
      "guests-route": {
        "ClusterId": "guests",
        "Match": { "Path": "/guest-api/{**rest}", "Methods": [ "GET", "POST" ] },
        "Transforms": [ { "PathRemovePrefix": "/guest-api" } ]
      }
    },
    "Clusters": {
      "rooms": { "Destinations": { "d1": { "Address": "http://rooms:8080/" } } },
      "guests": { "Destinations": { "primary": { "Address": "http://guests:5000" } } }
    }
  }
}"""
ARRAYS = """{
  "ReverseProxy": {
    "Routes": [ { "RouteId": "r1", "ClusterId": "c1", "Match": { "Path": "/billing/{*any}" } } ],
    "Clusters": [ { "ClusterId": "c1", "Destinations": { "x": { "Address": "https://billing:443/" } } } ]
  }
}"""
COMPOSE = """services:
  edge:
    build: ./Edge
  rooms:
    build: ./Rooms
  guests:
    build: ./Guests
"""
PROGRAM = 'var app = WebApplication.CreateBuilder(args).Build();\napp.MapGet("/api/rooms/{id}", (int id) => id);\napp.Run();\n'
GUESTS = 'var app = WebApplication.CreateBuilder(args).Build();\napp.MapGet("/{id}", (int id) => id);\napp.Run();\n'


def test_routes_read_from_both_layouts() -> None:
    assert [(r.url, r.path, r.method) for r in yarp_routes(KEYED)] == [
        ("http://rooms:8080", "/api/rooms/**", None),
        ("http://guests:5000", "/**", "GET"),
        ("http://guests:5000", "/**", "POST"),
    ]
    assert [(r.url, r.path) for r in yarp_routes(ARRAYS)] == [("https://billing:443", "/billing/**")]


def test_the_gateway_calls_the_services_its_clusters_name() -> None:
    files = {
        "docker-compose.yml": COMPOSE,
        "Edge/Edge.csproj": GATEWAY_WEB, "Edge/Program.cs": GATEWAY_PROGRAM, "Edge/appsettings.json": KEYED,
        "Edge/Dockerfile": "FROM x\n",
        "Rooms/Rooms.csproj": WEB, "Rooms/Program.cs": PROGRAM, "Rooms/Dockerfile": "FROM x\n",
        "Guests/Guests.csproj": WEB, "Guests/Program.cs": GUESTS, "Guests/Dockerfile": "FROM x\n",
    }  # fmt: skip
    result = StaticCodeAnalyzer(workers=0).analyze(MemorySourceTree(files), AnalysisRequest("acme"), DictAnalysisCache())
    names = {s.service.id: s.service.name for s in result.services}
    edges = sorted(
        {(names[c.from_service_id], names.get(c.to_service_id or "", c.target)) for s in result.services for c in s.calls}
    )
    assert edges == [("edge", "guests"), ("edge", "rooms")]
