"""A package.json whose only sign of a program is a `main` naming a file the repository lacks (the
`index.js` of `npm init` left at a root that only runs the services' tests) is no service; a `main`
that exists, or one in a build output folder, still is."""

from __future__ import annotations

import json

from orbitkb.analysis import StaticCodeAnalyzer
from orbitkb.domain.fakes import MemorySourceTree
from orbitkb.domain.ports import AnalysisRequest

from .conftest import DictCache, Run

SERVICE = """\
const express = require('express');
const app = express();
app.get('/tills', (req, res) => res.json([]));
app.listen(4000);
"""


def _package(name: str, **extra: object) -> str:
    return json.dumps({"name": name, "dependencies": {"express": "^4.18.0"}, **extra})


def run(files: dict[str, str]) -> Run:
    tree = MemorySourceTree(files, commit="c0ffee")
    return Run(StaticCodeAnalyzer(workers=0).analyze(tree, AnalysisRequest("kiosk"), DictCache()))


def test_a_root_whose_main_file_is_missing_is_no_service() -> None:
    files = {
        "package.json": _package("kiosk", main="index.js", scripts={"test": "mocha '**/*.test.js'"}),
        "shared/auth.js": "module.exports = (req, res, next) => next();\n",
        "tills/package.json": _package("tills", scripts={"start": "node server.js"}),
        "tills/server.js": SERVICE,
    }
    assert run(files).names() == ["tills"]


def test_a_main_that_exists_or_is_built_keeps_the_package_a_service() -> None:
    present = {
        "package.json": _package("kiosk", main="index.js"),
        "index.js": SERVICE,
    }
    assert run(present).names() == ["kiosk"]
    stem_only = {
        "package.json": _package("kiosk", main="./app"),
        "app.js": SERVICE,
    }
    assert run(stem_only).names() == ["kiosk"]
    built = {
        "package.json": _package("kiosk", main="dist/server.js"),
        "src/server.ts": SERVICE,
    }
    assert run(built).names() == ["kiosk"]
