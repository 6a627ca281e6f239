"""Python services: FastAPI (APIRouter prefixes composed across files) and Flask (blueprints)."""

from __future__ import annotations

import random

from synthgen import python_filler as filler
from synthgen.emit import ExpectedApi, ServiceOutput, fill_to_quota, handler_name, prose, snake
from synthgen.plan import Call, ServicePlan, render_path

PY_METHOD = {"GET": "get", "POST": "post", "PUT": "put", "DELETE": "delete"}


def emit(plan: ServicePlan) -> ServiceOutput:
    rng = random.Random(plan.seed)
    out = ServiceOutput()
    pkg = "app" if rng.random() < 0.6 else f"src/{snake(plan.name)}"
    mod = pkg.replace("src/", "").replace("/", ".")
    _manifest(out, plan, rng)
    _config(out, plan, pkg, rng)
    if plan.framework == "fastapi":
        _fastapi(out, plan, pkg, mod, rng)
    else:
        _flask(out, plan, pkg, mod, rng)
    _clients(out, plan, pkg, mod)
    _messaging(out, plan, pkg, mod)
    _models(out, plan, pkg, mod, rng)
    fill_to_quota(plan, out, [filler.helper(pkg), filler.schema(pkg), filler.test()], rng)
    return out


def _manifest(out: ServiceOutput, plan: ServicePlan, rng: random.Random) -> None:
    deps = [plan.framework, "httpx", "requests", "sqlalchemy", "psycopg[binary]", "kafka-python", "pika"]
    if plan.framework == "fastapi":
        deps += ["uvicorn", "pydantic-settings"]
    if rng.random() < 0.5:
        out.add("requirements.txt", "".join(f"{d}\n" for d in deps))
    else:
        body = "".join(f'    "{d}",\n' for d in deps)
        out.add(
            "pyproject.toml",
            f'[project]\nname = "{plan.name}"\nversion = "0.1.0"\n'
            f'requires-python = ">=3.11"\ndependencies = [\n{body}]\n',
        )
    cmd = (
        '["uvicorn", "app.main:app", "--host", "0.0.0.0"]'
        if plan.framework == "fastapi"
        else '["gunicorn", "wsgi:app"]'
    )
    out.add(
        "Dockerfile",
        f"FROM python:3.11-slim\nWORKDIR /srv\nCOPY . .\nRUN pip install -r requirements.txt || "
        f"pip install .\nEXPOSE {plan.port}\nCMD {cmd}\n",
    )
    out.add(
        "README.md",
        f"# {plan.name}\n\nOwns the {plan.domain} {', '.join(p for p, _ in plan.resources)}. {prose(rng)}\n",
    )


def _config(out: ServiceOutput, plan: ServicePlan, pkg: str, rng: random.Random) -> None:
    targets = sorted({c.target for c in plan.calls})
    if plan.framework == "fastapi" and rng.random() < 0.5:
        lines = [
            '"""Runtime settings read from the environment."""',
            "",
            "from pydantic_settings import BaseSettings",
            "",
            "",
            "class Settings(BaseSettings):",
            '    database_url: str = "postgresql+psycopg://app:app@postgres:5432/app"',
            '    kafka_bootstrap: str = "kafka:9092"',
            '    rabbitmq_url: str = "amqp://guest:guest@rabbitmq/"',
        ]
        lines += [f'    {t.replace("-", "_")}_url: str = "http://localhost:8000"' for t in targets]
        lines += ["", "", "settings = Settings()", ""]
    else:
        lines = [
            '"""Configuration constants, read once from the environment."""',
            "",
            "import os",
            "",
            'DATABASE_URL = os.environ.get("DATABASE_URL", "postgresql://app:app@postgres:5432/app")',
            'KAFKA_BOOTSTRAP = os.getenv("KAFKA_BOOTSTRAP", "kafka:9092")',
            'RABBITMQ_URL = os.getenv("RABBITMQ_URL", "amqp://guest:guest@rabbitmq/")',
        ]
        for t in targets:
            var = t.upper().replace("-", "_") + "_URL"
            lines.append(
                f'{var} = os.environ["{var}"]' if rng.random() < 0.3 else f'{var} = os.getenv("{var}")'
            )
        lines.append("")
    out.add(f"{pkg}/config.py", "\n".join(lines))
    out.add(
        f"{pkg}/__init__.py", "" if plan.framework == "fastapi" else out.files.get(f"{pkg}/__init__.py", "")
    )


def _handler_args(route, typed: bool) -> str:  # noqa: ANN001
    args = []
    if "{id}" in route.tail:
        args.append(f"{route.param}: int" if typed else route.param)
    if route.method in ("POST", "PUT") and typed:
        args.append(f"payload: {route.singular}In")
    return ", ".join(args)


def _fastapi(out: ServiceOutput, plan: ServicePlan, pkg: str, mod: str, rng: random.Random) -> None:
    style_inline_prefix = rng.random() < 0.5  # APIRouter(prefix=...) vs include_router(prefix=...)
    includes = []
    for plural, singular in plan.resources:
        routes = [r for r in plan.routes if r.plural == plural]
        var = rng.choice(("router", f"{singular.lower()}_router", "api"))
        ctor = f'APIRouter(prefix="/{plural}", tags=["{plural}"])' if style_inline_prefix else "APIRouter()"
        lines = [
            f'"""HTTP endpoints for {plural}."""',
            "",
            "from fastapi import APIRouter, HTTPException, status",
            "",
            f"from {mod}.schemas.{plural} import {singular}In, {singular}Out",
            f"from {mod}.services import {plural}_service as service",
            "",
            f"{var} = {ctor}",
            "",
        ]
        for r in routes:
            sub = (
                "/" + "/".join(f"{{{r.param}}}" if s.startswith("{") else s for s in r.tail) if r.tail else ""
            )
            deco_path = sub if style_inline_prefix else f"/{plural}{sub}"
            if not deco_path:
                deco_path = rng.choice(("", "/"))
            lines.append(f'@{var}.{PY_METHOD[r.method]}("{deco_path}")')
            line_no = len(lines)
            name = handler_name(r)
            kw = "async def" if rng.random() < 0.7 else "def"
            lines += [
                f"{kw} {name}({_handler_args(r, True)}):",
                f'    """{r.action.capitalize()} {r.plural}. {prose(rng, 1)}"""',
            ]
            if "{id}" in r.tail:
                lines += [
                    f"    found = service.find({r.param})",
                    "    if found is None:",
                    '        raise HTTPException(status.HTTP_404_NOT_FOUND, "not found")',
                    "    return found",
                    "",
                ]
            else:
                lines += [
                    f"    return service.{r.action}({'payload' if r.method in ('POST', 'PUT') else ''})",
                    "",
                ]
            out.apis.append(ExpectedApi(r.method, render_path(plan.prefix, r, "brace"), name))
            del line_no
        out.add(f"{pkg}/api/{plural}.py", "\n".join(lines))
        includes.append((plural, var))
    agg = ['"""Aggregates the resource routers."""', "", "from fastapi import APIRouter", ""]
    agg += [f"from {mod}.api import {p}" for p, _ in includes]
    agg += ["", "api_router = APIRouter()"]
    for p, var in includes:
        agg.append(
            f"api_router.include_router({p}.{var})"
            if style_inline_prefix
            else f'api_router.include_router({p}.{var}, prefix="")'
        )
    out.add(f"{pkg}/api/router.py", "\n".join(agg) + "\n")
    out.add(f"{pkg}/api/__init__.py", "")
    prefix_arg = f', prefix="{plan.prefix}"' if plan.prefix else ""
    main = [
        f'"""{plan.name}: application entry point."""',
        "",
        "import uvicorn",
        "from fastapi import FastAPI",
        "",
        f"from {mod}.api.router import api_router",
        "",
        f'app = FastAPI(title="{plan.name}")',
        f"app.include_router(api_router{prefix_arg})",
        "",
        "",
        '@app.get("/health")',
        "def health():",
        '    return {"status": "ok"}',
        "",
        "",
        'if __name__ == "__main__":',
        f'    uvicorn.run(app, host="0.0.0.0", port={plan.port})',
        "",
    ]
    out.apis.append(ExpectedApi("GET", "/health", "health"))
    out.add(f"{pkg}/main.py", "\n".join(main))


def _flask(out: ServiceOutput, plan: ServicePlan, pkg: str, mod: str, rng: random.Random) -> None:
    regs = []
    for plural, _singular in plan.resources:
        bp = rng.choice(("bp", f"{plural}_bp", "blueprint"))
        lines = [
            f'"""{plural} blueprint."""',
            "",
            "from flask import Blueprint, abort, jsonify, request",
            "",
            f"from {mod}.services import {plural}_service as service",
            "",
            f'{bp} = Blueprint("{plural}", __name__)',
            "",
        ]
        for r in plan.routes:
            if r.plural != plural:
                continue
            sub = (
                "/" + "/".join(f"<int:{r.param}>" if s.startswith("{") else s for s in r.tail)
                if r.tail
                else "/"
            )
            if rng.random() < 0.5:
                lines.append(f'@{bp}.route("{sub}", methods=["{r.method}"])')
            else:
                lines.append(f'@{bp}.{PY_METHOD[r.method]}("{sub}")')
            name = handler_name(r)
            lines += [f"def {name}({_handler_args(r, False)}):", f'    """{prose(rng, 1)}"""']
            if r.method in ("POST", "PUT"):
                lines.append("    payload = request.get_json(force=True)")
            lines += [
                f"    result = service.{r.action}({'payload' if r.method in ('POST', 'PUT') else ''})",
                "    if result is None:",
                "        abort(404)",
                "    return jsonify(result)",
                "",
            ]
            out.apis.append(ExpectedApi(r.method, render_path(plan.prefix, r, "flask"), name))
        out.add(f"{pkg}/routes/{plural}.py", "\n".join(lines))
        regs.append((plural, bp))
    out.add(f"{pkg}/routes/__init__.py", "")
    init = [f'"""{plan.name} application factory."""', "", "from flask import Flask, jsonify", ""]
    init += [f"from {mod}.routes.{p} import {bp} as {p}_blueprint" for p, bp in regs]
    init += ["", "", "def create_app():", "    app = Flask(__name__)"]
    init += [f'    app.register_blueprint({p}_blueprint, url_prefix="{plan.prefix}/{p}")' for p, _ in regs]
    init += [
        "",
        '    @app.route("/health")',
        "    def health():",
        '        return jsonify(status="ok")',
        "",
        "    return app",
        "",
    ]
    out.apis.append(ExpectedApi("GET", "/health", "health"))
    out.add(f"{pkg}/__init__.py", "\n".join(init))
    out.add(
        "wsgi.py",
        f'"""WSGI entry point."""\n\nfrom {mod} import create_app\n\napp = create_app()\n\n'
        f'if __name__ == "__main__":\n    app.run(host="0.0.0.0", port={plan.port})\n',
    )


def _url_expr(plan: ServicePlan, call: Call, via_settings: bool) -> tuple[str, str]:
    """(base expression, path f-string body) for one call."""
    var = call.target.upper().replace("-", "_") + "_URL"
    base = f"settings.{var.lower()}" if via_settings else f"config.{var}"
    tpl = render_path(call.target_prefix, call.route, "brace")
    return base, tpl


def _clients(out: ServiceOutput, plan: ServicePlan, pkg: str, mod: str) -> None:
    via_settings = "class Settings" in out.files[f"{pkg}/config.py"]
    imp = f"from {mod}.config import settings" if via_settings else f"from {mod} import config"
    by_target: dict[str, list[Call]] = {}
    for c in plan.calls:
        by_target.setdefault(c.target, []).append(c)
    for target, calls in sorted(by_target.items()):
        style = calls[0].style
        lines = [f'"""HTTP client for {target}."""', "", "import httpx", "import requests", "", imp, ""]
        if style == 2:
            base, _ = _url_expr(plan, calls[0], via_settings)
            lines += [
                f"BASE_URL = {base}",
                "",
                "",
                "def _call(method, path, **kwargs):",
                '    """Thin wrapper: every request gets the same timeout and error handling."""',
                "    resp = requests.request(method, BASE_URL + path, timeout=10, **kwargs)",
                "    resp.raise_for_status()",
                "    return resp.json()",
                "",
            ]
        for c in calls:
            base, tpl = _url_expr(plan, c, via_settings)
            fn = handler_name(c.route) + "_remote"
            arg = c.route.param if "{id}" in c.route.tail else ""
            body = "json=payload" if c.route.method in ("POST", "PUT") else ""
            if body:
                arg = f"{arg}, payload=None" if arg else "payload=None"
            lines += ["", "", f"def {fn}({arg}):"]
            if style == 0:
                sep = ", " if body else ""
                lines += [
                    f'    resp = requests.{PY_METHOD[c.route.method]}(f"{{{base}}}{tpl}"{sep}{body}, timeout=5)',
                    "    resp.raise_for_status()",
                    "    return resp.json()",
                ]
            elif style == 1:
                sep = ", " if body else ""
                lines += [
                    f"    with httpx.Client(base_url={base}, timeout=5.0) as client:",
                    f"        return client.{PY_METHOD[c.route.method]}({_fstr(tpl)}{sep}{body}).json()",
                ]
            else:
                path = tpl.replace("{" + c.route.param + "}", '" + str(' + c.route.param + ') + "')
                expr = f'"{path}"'.replace(' + ""', "")
                kw = ", json=payload" if body else ""
                lines += [f'    return _call("{c.route.method}", {expr}{kw})']
        out.add(f"{pkg}/clients/{snake(target)}.py", "\n".join(lines) + "\n")
    out.add(f"{pkg}/clients/__init__.py", "")
    if plan.vendor is not None:
        from synthgen.words import VENDORS

        host, path, method = VENDORS[plan.vendor]
        out.add(
            f"{pkg}/clients/vendor.py",
            f'"""Third-party API."""\n\nimport requests\n\nVENDOR_URL = "{host}"\n\n\n'
            f'def notify_vendor(payload):\n    return requests.{PY_METHOD.get(method, "post")}(VENDOR_URL + "{path}", '
            f"json=payload, timeout=5)\n",
        )


def _messaging(out: ServiceOutput, plan: ServicePlan, pkg: str, mod: str) -> None:
    chans = plan.publishes + plan.consumes
    if not chans:
        return
    topics = [f'{_const(c.name)} = "{c.name}"' for c in sorted(chans, key=lambda c: c.name)]
    out.add(f"{pkg}/events/topics.py", '"""Channel names."""\n\n' + "\n".join(topics) + "\n")
    out.add(f"{pkg}/events/__init__.py", "")
    imp = f"from {mod}.events import topics\nfrom {mod} import config\n"
    if plan.publishes:
        lines = [
            '"""Publishes domain events."""',
            "",
            "import json",
            "",
            "import pika",
            "from kafka import KafkaProducer",
            "",
            imp,
            "",
            'producer = KafkaProducer(bootstrap_servers="kafka:9092", '
            "value_serializer=lambda v: json.dumps(v).encode())",
            "",
        ]
        for c in plan.publishes:
            fn = "publish_" + _const(c.name).lower()
            if c.provider == "kafka":
                lines += ["", f"def {fn}(event):", f"    producer.send(topics.{_const(c.name)}, value=event)"]
            else:
                lines += [
                    "",
                    f"def {fn}(event):",
                    '    conn = pika.BlockingConnection(pika.URLParameters("amqp://guest:guest@rabbitmq/"))',
                    "    channel = conn.channel()",
                    f'    channel.basic_publish(exchange="", routing_key=topics.{_const(c.name)}, '
                    "body=json.dumps(event))",
                    "    conn.close()",
                ]
        out.add(f"{pkg}/events/publisher.py", "\n".join(lines) + "\n")
    if plan.consumes:
        kafka = [c for c in plan.consumes if c.provider == "kafka"]
        rabbit = [c for c in plan.consumes if c.provider == "rabbitmq"]
        lines = [
            '"""Consumes events from other services."""',
            "",
            "import json",
            "",
            "import pika",
            "from kafka import KafkaConsumer",
            "",
            imp,
            "",
            "",
            "def handle(payload):",
            "    return payload",
            "",
        ]
        if kafka:
            names = ", ".join(f"topics.{_const(c.name)}" for c in kafka)
            lines += [
                "",
                "def run_kafka():",
                f'    consumer = KafkaConsumer({names}, bootstrap_servers="kafka:9092", '
                f'group_id="{plan.name}")',
                "    for record in consumer:",
                "        handle(json.loads(record.value))",
            ]
        if rabbit:
            lines += [
                "",
                "def run_rabbit():",
                '    conn = pika.BlockingConnection(pika.URLParameters("amqp://guest:guest@rabbitmq/"))',
                "    channel = conn.channel()",
            ]
            for c in rabbit:
                lines += [
                    f"    channel.queue_declare(queue=topics.{_const(c.name)}, durable=True)",
                    f"    channel.basic_consume(queue=topics.{_const(c.name)}, "
                    "on_message_callback=lambda ch, m, p, body: handle(json.loads(body)))",
                ]
            lines.append("    channel.start_consuming()")
        out.add(f"{pkg}/events/consumer.py", "\n".join(lines) + "\n")


def _const(channel: str) -> str:
    return "".join(ch if ch.isalnum() else "_" for ch in channel).upper()


def _models(out: ServiceOutput, plan: ServicePlan, pkg: str, mod: str, rng: random.Random) -> None:
    lines = [
        '"""Persistence model."""',
        "",
        "from datetime import datetime",
        "",
        "from sqlalchemy import Boolean, DateTime, Integer, Numeric, String",
        "from sqlalchemy.orm import DeclarativeBase, Mapped, mapped_column",
        "",
        "",
        "class Base(DeclarativeBase):",
        "    pass",
        "",
    ]
    for table, cls in plan.entities:
        lines += [
            "",
            f"class {cls}(Base):",
            f'    __tablename__ = "{table}"',
            "",
            "    id: Mapped[int] = mapped_column(Integer, primary_key=True)",
            "    name: Mapped[str] = mapped_column(String(200))",
            "    status: Mapped[str | None] = mapped_column(String(32), nullable=True)",
            "    amount = mapped_column(Numeric(12, 2), nullable=False, default=0)",
            "    active = mapped_column(Boolean, default=True)",
            "    created_at: Mapped[datetime] = mapped_column(DateTime, default=datetime.utcnow)",
            "",
        ]
    out.add(f"{pkg}/db/models.py", "\n".join(lines))
    out.add(f"{pkg}/db/__init__.py", "")
    out.add(f"{pkg}/services/__init__.py", "")
    for plural, singular in plan.resources:
        out.add(
            f"{pkg}/services/{plural}_service.py", filler.service_module(rng, plan, mod, plural, singular)
        )
        out.add(f"{pkg}/schemas/{plural}.py", filler.resource_schema(rng, singular))
    out.add(f"{pkg}/schemas/__init__.py", "")


def _fstr(text: str) -> str:
    return f'f"{text}"' if "{" in text else f'"{text}"'
