"""The port a Node server listens on: stated as the service's `server.port`, so a localhost call
with that port reaches the one service listening there."""

from __future__ import annotations

import textwrap
from typing import Any

import pytest

from orbitkb.analysis import StaticCodeAnalyzer
from orbitkb.domain.fakes import MemorySourceTree
from orbitkb.domain.fakes.analysis import DictAnalysisCache
from orbitkb.domain.ports import AnalysisRequest

from .support import analyze


@pytest.mark.parametrize(
    ("code", "port"),
    [
        ("app.listen(process.env.PORT ?? 4301);", "4301"),
        ("app.listen(8080, () => console.log('up'));", "8080"),
        ("const PORT = process.env.PORT || 5150;\napp.listen(PORT);", "5150"),
        ("server.listen({ port: 7007, host: '0.0.0.0' });", "7007"),
    ],
)
def test_the_port_a_server_listens_on(code: str, port: str) -> None:
    facts = analyze({"src/main.js": "const app = require('express')();\nconst server = app;\n" + code + "\n"})
    assert facts.properties == {"server.port": port}


@pytest.mark.parametrize(
    "code",
    [
        "app.listen(process.env.PORT);",  # no default: not known
        "app.listen(3000);\nadmin.listen(3001);",  # two servers: which one others call is not read
        "app.listen(99999);",  # not a port
        "this.listen(3000);",  # a class's own method
    ],
)
def test_no_port_stated(code: str) -> None:
    facts = analyze({"src/main.js": "const app = require('express')();\nconst admin = app;\n" + code + "\n"})
    assert facts.properties == {}


def _index(files: dict[str, str]) -> dict[str, Any]:
    tree = MemorySourceTree({p: textwrap.dedent(t).lstrip("\n") for p, t in files.items()}, commit="c0ffee")
    result = StaticCodeAnalyzer(workers=0).analyze(tree, AnalysisRequest("shop"), DictAnalysisCache())
    return {f.service.name: f for f in result.services}


def _shop(stock_port: str) -> dict[str, str]:
    return {
        "stock/package.json": '{"name": "stock", "dependencies": {"express": "4"}}',
        "stock/src/main.js": f"""\
            const app = require('express')()
            app.get('/levels/:sku', (req, res) => res.json({{}}))
            app.listen(process.env.PORT || {stock_port})
            """,
        "till/package.json": '{"name": "till", "dependencies": {"express": "4", "axios": "1"}}',
        "till/src/main.js": """\
            const app = require('express')()
            const axios = require('axios')
            app.post('/sales', async (req, res) => {
              const level = await axios.get(`http://localhost:4410/levels/${req.body.sku}`)
              res.json(level.data)
            })
            app.listen(process.env.PORT || 4420)
            """,
    }


def test_a_localhost_call_reaches_the_service_listening_on_its_port() -> None:
    services = _index(_shop("4410"))
    till, stock = services["till"], services["stock"]
    assert [(c.to_service_id, c.path) for c in till.calls] == [(stock.service.id, "/levels/:sku")]


def test_negative_no_service_listens_on_the_called_port() -> None:
    services = _index(_shop("4999"))
    assert [c.to_service_id for c in services["till"].calls] == [None]
