"""Vendors of a library several Java/Kotlin, Node or Python services build against: the SDK a
library file imports is a vendor of each service whose own code imports that file's class (or a
library type the class implements, or the class's package with a wildcard), that file's exported
function or that Python module directly, of no other service referencing the library."""

from __future__ import annotations

from orbitkb.analysis import StaticCodeAnalyzer
from orbitkb.analysis.vendors.code import used_shared
from orbitkb.domain.fakes.analysis import DictAnalysisCache
from orbitkb.domain.fakes.source_tree import MemorySourceTree
from orbitkb.domain.integrations import find_vendor
from orbitkb.domain.ports import AnalysisRequest

BOOT = "plugins { id 'org.springframework.boot' }\ndependencies { implementation project(':toolkit') }\n"
MAIN = """package org.parcels.{pkg};
{imports}
@org.springframework.boot.autoconfigure.SpringBootApplication
public class {cls} {{
    {body}
    public static void main(String[] a) {{ }}
}}
"""


def _app(name: str, imports: str = "", body: str = "") -> dict[str, str]:
    cls = name.capitalize() + "App"
    return {
        f"{name}/build.gradle": BOOT,
        f"{name}/Dockerfile": "FROM eclipse-temurin:21\nCOPY build/libs/app.jar app.jar\n",
        f"{name}/src/main/java/org/parcels/{name}/{cls}.java": MAIN.format(
            pkg=name, cls=cls, imports=imports, body=body
        ),
    }


JVM = {
    "settings.gradle": "include 'toolkit', 'labels', 'alerts', 'tracking', 'depots'\n",
    "toolkit/build.gradle": "dependencies {\n  implementation 'com.sendgrid:sendgrid-java:4.10.1'\n"
    "  implementation 'com.twilio.sdk:twilio:10.0.0'\n}\n",
    "toolkit/src/main/java/org/parcels/toolkit/Courier.java": (
        "package org.parcels.toolkit;\npublic interface Courier { void tell(String who); }\n"
    ),
    "toolkit/src/main/java/org/parcels/toolkit/mail/MailCourier.java": (
        "package org.parcels.toolkit.mail;\nimport com.sendgrid.SendGrid;\nimport org.parcels.toolkit.Courier;\n"
        "public class MailCourier implements Courier {\n"
        '    public void tell(String who) { new SendGrid("k"); }\n}\n'
    ),
    "toolkit/src/main/java/org/parcels/toolkit/sms/Pager.java": (
        "package org.parcels.toolkit.sms;\nimport com.twilio.Twilio;\n"
        'public class Pager {\n    public void page(String to) { Twilio.init("a", "b"); }\n}\n'
    ),
    # labels: the injected interface the mail courier implements
    **_app("labels", "import org.parcels.toolkit.Courier;", "private final Courier courier = null;"),
    # alerts: the pager's package, by wildcard
    **_app("alerts", "import org.parcels.toolkit.sms.*;", "private final Pager pager = new Pager();"),
    # tracking: builds against the toolkit and imports none of it
    **_app("tracking", "import java.util.List;"),
}


def _vendors(files: dict[str, str]) -> dict[str, list[tuple[str, str]]]:
    result = StaticCodeAnalyzer(workers=0).analyze(
        MemorySourceTree(files), AnalysisRequest("parcels"), DictAnalysisCache()
    )
    return {
        s.service.name: sorted(
            (c.target, c.evidence[0].file) for c in s.calls if find_vendor(c.target) is not None
        )
        for s in result.services
    }


def test_a_shared_gradle_modules_vendor_belongs_to_the_services_importing_the_class_that_calls_it() -> None:
    got = _vendors(JVM)
    assert got["labels"] == [("SendGrid", "toolkit/src/main/java/org/parcels/toolkit/mail/MailCourier.java")]
    assert got["alerts"] == [("Twilio", "toolkit/src/main/java/org/parcels/toolkit/sms/Pager.java")]
    assert got["tracking"] == []
    assert "toolkit" not in got


def test_a_kotlin_service_importing_the_class_itself_uses_it() -> None:
    files = dict(JVM)
    files["depots/build.gradle"] = BOOT
    files["depots/Dockerfile"] = "FROM eclipse-temurin:21\n"
    files["depots/src/main/kotlin/org/parcels/depots/DepotsApp.kt"] = (
        "package org.parcels.depots\nimport org.parcels.toolkit.sms.Pager as Beeper\n"
        "@org.springframework.boot.autoconfigure.SpringBootApplication\nclass DepotsApp(val beeper: Beeper)\n"
        "fun main() { }\n"
    )
    assert _vendors(files)["depots"] == [
        ("Twilio", "toolkit/src/main/java/org/parcels/toolkit/sms/Pager.java")
    ]


def test_used_shared_reads_jvm_parses() -> None:
    parsed = {
        "lib/Sender.java": {
            "package": "a.lib",
            "imports": ["a.api.Port"],
            "classes": [
                {"name": "Sender", "qname": "Sender", "supers": [["Port", []]]},
                {"name": "Inner", "qname": "Sender.Inner", "supers": []},
            ],
        },
        "lib/Port.java": {
            "package": "a.api",
            "imports": [],
            "classes": [{"name": "Port", "qname": "Port", "supers": []}],
        },
        "lib/Store.java": {
            "package": "a.lib",
            "imports": [],
            "classes": [
                {"name": "Store", "qname": "Store", "supers": [["java.io.Closeable", []]]},
            ],
        },
        "x/Uses.java": {"package": "x", "imports": ["a.api.Port"], "classes": []},
        "y/Uses.java": {
            "package": "y",
            "imports": ["java.io.Closeable", "a.lib.Sender.Inner"],
            "classes": [],
        },
        "z/Uses.java": {"package": "a.lib", "imports": [], "classes": []},
    }
    library = ["lib/Port.java", "lib/Sender.java", "lib/Store.java"]
    candidates = ["lib/Sender.java", "lib/Store.java"]
    assert used_shared(candidates, library, ["x/Uses.java"], {}, parsed) == [
        "lib/Sender.java"
    ]  # through Port
    # a JDK supertype is no library type; a nested class is no top-level import; no parse: nothing
    assert used_shared(candidates, library, ["y/Uses.java"], {}, parsed) == []
    assert used_shared(candidates, library, ["z/Uses.java"], {}, parsed) == []  # same package, never imported
    assert used_shared(candidates, library, ["x/Uses.java"], {}) == []


NODE = {
    "package.json": '{"name": "shop", "private": true, "workspaces": ["packages/*", "services/*"]}',
    "packages/kit/package.json": '{"name": "@shop/kit", "main": "index.js", "dependencies": {"stripe": "14.0.0", "@slack/web-api": "7.0.0"}}',
    "packages/kit/index.js": "export { charge } from './pay.js';\nexport { shout } from './chat.js';\n",
    "packages/kit/pay.js": "import Stripe from 'stripe';\nexport async function charge(n) { return new Stripe('k').charges.create({ amount: n }); }\n",
    "packages/kit/chat.js": "import { WebClient } from '@slack/web-api';\nexport function shout(t) { return new WebClient('k').chat.postMessage({ text: t }); }\n",
}


def _node_service(name: str, code: str) -> dict[str, str]:
    return {
        f"services/{name}/package.json": '{"name": "'
        + name
        + '", "main": "server.js", "dependencies": {"@shop/kit": "*", "express": "4.0.0"}}',
        f"services/{name}/Dockerfile": 'FROM node:20\nCMD ["node", "server.js"]\n',
        f"services/{name}/server.js": "import express from 'express';\n"
        + code
        + "const app = express();\napp.get('/ping', (req, res) => res.send('ok'));\napp.listen(3000);\n",
    }


def test_a_shared_npm_packages_vendor_belongs_to_the_services_importing_the_function_that_calls_it() -> None:
    files = {
        **NODE,
        **_node_service(
            "checkout", "import { charge } from '@shop/kit';\nexport const pay = () => charge(5);\n"
        ),
        **_node_service("catalog", "import { randomUUID } from 'crypto';\n"),
    }
    got = _vendors(files)
    assert got["checkout"] == [("Stripe API", "packages/kit/pay.js")]
    assert got["catalog"] == []


def test_a_relative_imported_shared_files_vendor_belongs_to_the_services_importing_its_export() -> None:
    files = {
        "common/pay.js": "const Stripe = require('stripe');\n"
        "function charge(n) { return new Stripe('k').charges.create({ amount: n }); }\nmodule.exports = { charge };\n",
        "common/chat.js": "import { WebClient } from '@slack/web-api';\n"
        "export function shout(t) { return new WebClient('k').chat.postMessage({ text: t }); }\n",
        **_node_service(
            "checkout", "import { charge } from '../../common/pay.js';\nexport const pay = () => charge(5);\n"
        ),
        **_node_service(
            "catalog",
            "import { shout } from '../../common/chat.js';\nexport const tell = () => shout('x');\n",
        ),
        **_node_service("search", "import { randomUUID } from 'crypto';\n"),
    }
    got = _vendors(files)
    assert got["checkout"] == [("Stripe API", "common/pay.js")]
    assert got["catalog"] == [("Slack", "common/chat.js")]
    assert got["search"] == []


PY_COMPOSE = """services:
  basket:
    build: {context: ., args: {APP: basket}}
  pricing:
    build: {context: ., args: {APP: pricing}}
  stock:
    build: {context: ., args: {APP: stock}}
"""
PY_APP = "from fastapi import FastAPI\n{imports}\napp = FastAPI()\n\n@app.get('/ping')\ndef ping():\n    return {{}}\n"


def test_a_shared_python_modules_vendor_belongs_to_the_services_importing_it_directly() -> None:
    files = {
        "docker-compose.yml": PY_COMPOSE,
        "Dockerfile": "FROM python:3.12\nARG APP\nCOPY . /srv\nCMD python -m apps.${APP}.main\n",
        "requirements.txt": "fastapi\nstripe\nslack_sdk\n",
        "common/__init__.py": "",
        "common/pay.py": "import stripe\n\ndef charge(n):\n    return stripe.Charge.create(amount=n)\n",
        "common/alerts.py": "from slack_sdk import WebClient\nfrom common.pay import charge\n\n"
        "def shout(t):\n    WebClient().chat_postMessage(text=t)\n",
        "apps/__init__.py": "",
        **{f"apps/{name}/__init__.py": "" for name in ("basket", "pricing", "stock")},
        "apps/basket/main.py": PY_APP.format(imports="from common.pay import charge"),
        # pricing reaches the payment module only through the alerts helper it imports
        "apps/pricing/main.py": PY_APP.format(imports="from common import alerts"),
        "apps/stock/main.py": PY_APP.format(imports="import os"),
    }
    got = _vendors(files)
    assert got["basket"] == [("Stripe API", "common/pay.py")]
    assert got["pricing"] == [("Slack", "common/alerts.py")]
    assert got["stock"] == []
