"""Vendored and generated trees an indexer must skip (node_modules, target, vendor, .venv, dist).

Their files look like real code (routes, HTTP calls, manifests), so an indexer that walks into
them reports phantom services and APIs."""

from __future__ import annotations

from synthgen.plan import ServicePlan

_EXPRESS_ROUTER = """'use strict';
// vendored copy of a router package
var express = require('express');
var router = express.Router();
router.get('/vendored/{n}', function (req, res) {{ res.send('x'); }});
router.post('/vendored/{n}/hooks', function (req, res) {{ res.send('y'); }});
module.exports = router;
"""
_JAVA_GEN = """package com.acme.generated;

import org.springframework.web.bind.annotation.*;

@RestController
@RequestMapping("/generated/{n}")
public class GeneratedController{n} {{
    @GetMapping("/items")
    public String items() {{
        return "generated";
    }}
}}
"""
_GO_VENDOR = """package gin

import "net/http"

func init() {{
\thttp.HandleFunc("/vendored/{n}", func(w http.ResponseWriter, r *http.Request) {{}})
}}
"""
_PY_SITE = """from flask import Flask

app = Flask(__name__)


@app.route("/site-packages/{n}")
def vendored():
    return "x"
"""


def noise_files(plan: ServicePlan) -> dict[str, str | bytes]:
    """Files relative to the service root; about a dozen per service."""
    out: dict[str, str | bytes] = {}
    if plan.stack == "node-ts":
        for n, pkg in enumerate(("express", "axios", "kafkajs", "lodash", "debug")):
            base = f"node_modules/{pkg}"
            out[f"{base}/package.json"] = f'{{"name": "{pkg}", "version": "1.0.{n}", "main": "index.js"}}\n'
            out[f"{base}/index.js"] = _EXPRESS_ROUTER.format(n=n)
            out[f"{base}/lib/util.js"] = f"module.exports = function util{n}() {{ return {n}; }};\n"
        if plan.framework == "nestjs":
            out["dist/main.js"] = _EXPRESS_ROUTER.format(n=99)
            out["dist/app.module.js"] = "exports.AppModule = class AppModule {};\n"
    elif plan.stack == "jvm-spring":
        for n in range(6):
            out[f"target/generated-sources/annotations/com/acme/generated/GeneratedController{n}.java"] = (
                _JAVA_GEN.format(n=n)
            )
            out[f"target/classes/com/acme/Gen{n}.class"] = b"\xca\xfe\xba\xbe\x00\x00\x00\x41" + bytes(
                range(64)
            )
        out[f"target/{plan.name}.jar"] = b"PK\x03\x04" + bytes(200)
    elif plan.stack == "go":
        for n in range(6):
            out[f"vendor/github.com/gin-gonic/gin/vendored_{n}.go"] = _GO_VENDOR.format(n=n)
        out["vendor/modules.txt"] = (
            "# github.com/gin-gonic/gin v1.9.1\n## explicit\ngithub.com/gin-gonic/gin\n"
        )
    else:
        for n in range(6):
            out[f".venv/lib/python3.11/site-packages/vendored{n}/app.py"] = _PY_SITE.format(n=n)
        out[".venv/pyvenv.cfg"] = "home = /usr/bin\n"
        out["app/__pycache__/main.cpython-311.pyc"] = b"\xa7\r\r\n" + bytes(100)
    return out
