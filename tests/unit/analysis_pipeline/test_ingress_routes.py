"""Kubernetes Ingress routes: a page served behind the ingress calling its own origin (a relative
URL) or the ingress controller's host reaches the Service whose path prefix the ingress maps."""

from __future__ import annotations

from orbitkb.analysis import StaticCodeAnalyzer
from orbitkb.analysis.layout.ingress import IngressRoute, ingress_routes, prefix_of, route_for
from orbitkb.analysis.yamlines import load_all
from orbitkb.domain.fakes import MemorySourceTree
from orbitkb.domain.ports import AnalysisRequest

from .conftest import DictCache, Run

V1BETA1 = """\
apiVersion: extensions/v1beta1
kind: Ingress
metadata:
  name: front-door
spec:
  rules:
    - host: kiosk.test
      http:
        paths:
          - path: /api/menus/?(.*)
            backend:
              serviceName: menus-svc
              servicePort: 3000
          - path: /?(.*)
            backend:
              serviceName: kiosk-svc
              servicePort: 3000
"""

V1 = """\
apiVersion: networking.k8s.io/v1
kind: Ingress
metadata:
  name: front-door
spec:
  rules:
    - http:
        paths:
          - path: /api/tabs
            pathType: Prefix
            backend:
              service:
                name: tabs-svc
                port: {number: 80}
          - path: /
            pathType: Prefix
            backend:
              service:
                name: kiosk-svc
                port: {number: 80}
"""


def _deployment(name: str) -> str:
    return f"""\
apiVersion: apps/v1
kind: Deployment
metadata:
  name: {name}
spec:
  selector:
    matchLabels: {{app: {name}}}
  template:
    metadata:
      labels: {{app: {name}}}
    spec:
      containers:
        - name: {name}
          image: diner/{name}
---
apiVersion: v1
kind: Service
metadata:
  name: {name}-svc
spec:
  selector: {{app: {name}}}
  ports: [{{port: 3000}}]
"""


def _node(name: str, code: str) -> dict[str, str]:
    return {
        f"{name}/package.json": f'{{"name": "{name}", "scripts": {{"start": "node index.js"}}}}',
        f"{name}/Dockerfile": "FROM node:20\n",
        f"{name}/index.js": code,
    }


KIOSK = """\
const express = require('express');
const axios = require('axios');
const app = express();
app.get('/', async (req, res) => {
  const menus = await fetch('/api/menus/today');
  const tabs = await axios.get('http://ingress-nginx-controller.ingress-nginx.svc.cluster.local/api/tabs');
  const page = await axios.get('/about');
  res.send([menus, tabs, page]);
});
app.listen(3000);
"""
SERVER = "const app = require('express')();\napp.get('/api/{0}/today', (q, r) => r.send([]));\napp.listen(3000);\n"


def _tree(ingress: str | None) -> dict[str, str]:
    files = {
        **_node("kiosk", KIOSK),
        **_node("menus", SERVER.format("menus")),
        **_node("tabs", "const app = require('express')();\napp.get('/api/tabs', (q, r) => r.send([]));\napp.listen(3000);\n"),
        "k8s/kiosk.yaml": _deployment("kiosk"),
        "k8s/menus.yaml": _deployment("menus"),
        "k8s/tabs.yaml": _deployment("tabs"),
    }
    if ingress is not None:
        files["k8s/ingress.yaml"] = ingress
    return files


def run(files: dict[str, str]) -> Run:
    tree = MemorySourceTree(files, commit="c0ffee")
    return Run(StaticCodeAnalyzer(workers=0).analyze(tree, AnalysisRequest("diner"), DictCache()))


def _targets(result: Run) -> list[tuple[str, str]]:
    """(callee service or "", target) of the kiosk's calls."""
    kiosk = result.service("kiosk")
    names = {f.service.id: f.service.name for f in result.result.services}
    return sorted((names.get(c.to_service_id or "", ""), c.target) for c in kiosk.calls)


def test_prefixes_of_regex_glob_and_plain_ingress_paths():
    assert prefix_of("/api/menus/?(.*)") == "/api/menus"
    assert prefix_of("/api(/|$)(.*)") == "/api"
    assert prefix_of("/api/tabs/*") == "/api/tabs"
    assert prefix_of("/api/tabs/") == "/api/tabs"
    assert [prefix_of(p) for p in ("/", "/?(.*)", "/(.*)")] == ["", "", ""]


def test_routes_of_both_ingress_api_versions():
    old = ingress_routes(load_all(V1BETA1)[0], "k8s/ingress.yaml")
    new = ingress_routes(load_all(V1)[0], "k8s/ingress.yaml")
    assert [(r.prefix, r.service, r.host, r.line) for r in old] == [
        ("/api/menus", "menus-svc", "kiosk.test", 10),
        ("", "kiosk-svc", "kiosk.test", 14),
    ]
    assert [(r.prefix, r.service, r.host) for r in new] == [("/api/tabs", "tabs-svc", None), ("", "kiosk-svc", None)]


def test_the_longest_prefix_wins_on_segment_boundaries_and_never_the_catch_all():
    routes = [
        IngressRoute("/api", "gateway", None, "i.yaml", 1),
        IngressRoute("/api/menus", "menus", None, "i.yaml", 2),
        IngressRoute("", "pages", None, "i.yaml", 3),
    ]
    assert route_for(routes, "/api/menus/7") == routes[1]
    assert route_for(routes, "/api/menusx") == routes[0]
    assert route_for(routes, "/about") is None
    assert route_for(routes, None) is None


def test_relative_and_controller_host_calls_reach_the_routed_services():
    both = V1BETA1 + "---\n" + V1
    found = _targets(run(_tree(both)))
    assert ("menus", "menus") in found and ("tabs", "tabs") in found
    assert [to for to, _ in found if to not in ("menus", "tabs")] == [""]  # /about: the pages themselves


def test_without_an_ingress_relative_calls_stay_unresolved():
    found = _targets(run(_tree(None)))
    assert not any(to in ("menus", "tabs") for to, _ in found)
