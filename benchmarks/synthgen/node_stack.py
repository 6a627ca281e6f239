"""Node services: Express in JavaScript (CommonJS and ESM, routers mounted across modules) and
NestJS in TypeScript (controllers, global prefix, HttpService, ClientKafka, TypeORM)."""

from __future__ import annotations

import json
import random
import re

from synthgen import node_filler as filler
from synthgen.emit import ExpectedApi, ServiceOutput, camel, fill_to_quota, pascal, prose
from synthgen.plan import Call, Route, ServicePlan, render_path

NEST_ACTION = filler.NEST_ACTION
NEST_DECO = {"GET": "Get", "POST": "Post", "PUT": "Put", "DELETE": "Delete"}


def emit(plan: ServicePlan) -> ServiceOutput:
    rng = random.Random(plan.seed)
    out = ServiceOutput()
    nest = plan.framework == "nestjs"
    _manifest(out, plan, nest)
    esm = not nest and rng.random() < 0.4
    if nest:
        _nest(out, plan, rng)
    else:
        _express(out, plan, rng, esm)
    ext = "ts" if nest else "js"
    _clients(out, plan, ext, esm, nest)
    _messaging(out, plan, ext, nest, rng)
    if esm:  # one module system per package
        for path, text in list(out.files.items()):
            if path.startswith("src/events/"):
                out.files[path] = _to_esm(text)
    if not nest:
        _mongoose(out, plan, rng, esm)
    fill_to_quota(plan, out, [filler.util(ext, esm or nest), filler.service(ext), filler.test(ext)], rng)
    return out


def _manifest(out: ServiceOutput, plan: ServicePlan, nest: bool) -> None:
    deps = {"axios": "^1.6.0", "kafkajs": "^2.2.4", "amqplib": "^0.10.3"}
    if nest:
        deps.update(
            {
                "@nestjs/common": "^10.0.0",
                "@nestjs/core": "^10.0.0",
                "@nestjs/axios": "^3.0.0",
                "@nestjs/microservices": "^10.0.0",
                "@nestjs/typeorm": "^10.0.0",
                "typeorm": "^0.3.17",
                "pg": "^8.11.0",
            }
        )
    else:
        deps.update({"express": "^4.18.2", "mongoose": "^8.0.0", "node-fetch": "^3.3.2"})
    main = "dist/main.js" if nest else "src/server.js"
    pkg = {
        "name": plan.name,
        "version": "1.0.0",
        "private": True,
        "main": main,
        "scripts": {"start": f"node {main}", "test": "jest"},
        "dependencies": dict(sorted(deps.items())),
        "devDependencies": {"jest": "^29.7.0"},
    }
    out.add("package.json", json.dumps(pkg, indent=2) + "\n")
    build = "RUN npm run build\n" if nest else ""
    out.add(
        "Dockerfile",
        f"FROM node:20-alpine\nWORKDIR /app\nCOPY package*.json ./\nRUN npm ci\nCOPY . .\n{build}"
        f'EXPOSE {plan.port}\nCMD ["node", "{main}"]\n',
    )
    out.add(
        "README.md",
        f"# {plan.name}\n\n{plan.domain.capitalize()} service ({'NestJS' if nest else 'Express'}).\n",
    )


def _express_path(route: Route) -> str:
    tail = "/".join(":" + route.param if s.startswith("{") else s for s in route.tail)
    return "/" + tail


def _express(out: ServiceOutput, plan: ServicePlan, rng: random.Random, esm: bool) -> None:
    cjs = not esm
    req = (
        (lambda name, mod: f"const {name} = require('{mod}');")
        if cjs
        else (lambda name, mod: f"import {name} from '{mod}{'.js' if mod.startswith('.') else ''}';")
    )
    export = (lambda name: f"module.exports = {name};") if cjs else (lambda name: f"export default {name};")
    mounts = []
    for plural, singular in plan.resources:
        ctl = camel(plural) + "Controller"
        lines = [
            f"// Routes for {plural}.",
            req("express", "express"),
            req(ctl, f"../controllers/{plural}"),
            "",
            "const router = express.Router();",
            "",
        ]
        chain = rng.random() < 0.4
        routes = [r for r in plan.routes if r.plural == plural]
        for r in routes:
            fn = camel(r.action + "_" + (r.plural if r.action == "list" else r.singular))
            lines.append(f"router.{r.method.lower()}('{_express_path(r)}', {ctl}.{fn});")
            out.apis.append(ExpectedApi(r.method, render_path(plan.prefix, r, "colon"), fn))
        if chain:
            lines.append(f"router.route('/:{routes[0].param}/history').get((req, res) => res.json([]));")
            out.apis.append(
                ExpectedApi(
                    "GET",
                    render_path(
                        plan.prefix, Route("GET", plural, singular, ("{id}", "history"), "history"), "colon"
                    ),
                    "<anonymous>",
                )
            )
        lines += ["", export("router"), ""]
        out.add(f"src/routes/{plural}.js", "\n".join(lines))
        out.add(f"src/controllers/{plural}.js", filler.express_controller(rng, routes, cjs))
        mounts.append(plural)
    idx = ["// Mounts the resource routers.", req("express", "express")]
    idx += [req(camel(p) + "Routes", f"./{p}") for p in mounts]
    idx += ["", "const router = express.Router();"]
    idx += [f"router.use('/{p}', {camel(p)}Routes);" for p in mounts]
    idx += ["", export("router"), ""]
    out.add("src/routes/index.js", "\n".join(idx))
    mount = f"app.use('{plan.prefix}', routes);" if plan.prefix else "app.use(routes);"
    app = [
        f"// {plan.name} HTTP application.",
        req("express", "express"),
        req("routes", "./routes"),
        "",
        "const app = express();",
        "app.use(express.json());",
        mount,
        "",
        "app.get('/health', (req, res) => res.json({ status: 'ok' }));",
        "",
        export("app"),
        "",
    ]
    out.apis.append(ExpectedApi("GET", "/health", "<anonymous>"))
    out.add("src/app.js", "\n".join(app))
    server = [
        req("app", "./app"),
        "",
        f"const PORT = process.env.PORT || {plan.port};",
        "",
        "app.listen(PORT, () => {",
        f"  console.log(`{plan.name} listening on ${{PORT}}`);",
        "});",
        "",
    ]
    out.add("src/server.js", "\n".join(server))
    if not cjs:
        pkg = json.loads(out.files["package.json"])
        pkg["type"] = "module"
        out.files["package.json"] = json.dumps(pkg, indent=2) + "\n"


def _nest(out: ServiceOutput, plan: ServicePlan, rng: random.Random) -> None:
    modules = []
    for plural, singular in plan.resources:
        cls = pascal(plural) + "Controller"
        routes = [r for r in plan.routes if r.plural == plural]
        lines = [
            "import { Body, Controller, Delete, Get, Param, Post, Put } from '@nestjs/common';",
            f"import {{ {pascal(plural)}Service }} from './{plural}.service';",
            f"import {{ Create{singular}Dto }} from './dto/create-{singular.lower()}.dto';",
            "",
            f"@Controller('{plural}')",
            f"export class {cls} {{",
            f"  constructor(private readonly {camel(plural)}Service: {pascal(plural)}Service) {{}}",
            "",
        ]
        for r in routes:
            sub = "/".join(":" + r.param if s.startswith("{") else s for s in r.tail)
            fn = NEST_ACTION.get(r.action, r.action)
            lines += [
                "  /**",
                f"   * {prose(rng, 1)}",
                "   */",
                f"  @{NEST_DECO[r.method]}({repr(sub) if sub else ''})",
            ]
            params = f"@Param('{r.param}') id: string" if "{id}" in r.tail else ""
            if r.method in ("POST", "PUT"):
                params = ", ".join(p for p in (params, f"@Body() dto: Create{singular}Dto") if p)
            lines += [
                f"  async {fn}({params}) {{",
                f"    return this.{camel(plural)}Service.{fn}();",
                "  }",
                "",
            ]
            out.apis.append(ExpectedApi(r.method, render_path(plan.prefix, r, "colon"), f"{cls}.{fn}"))
        lines += ["}", ""]
        out.add(f"src/{plural}/{plural}.controller.ts", "\n".join(lines).replace("@Get('')", "@Get()"))
        out.add(f"src/{plural}/{plural}.service.ts", filler.nest_service(rng, plural, singular, routes))
        out.add(f"src/{plural}/dto/create-{singular.lower()}.dto.ts", filler.nest_dto(rng, singular))
        out.add(
            f"src/{plural}/{plural}.module.ts",
            f"import {{ Module }} from '@nestjs/common';\nimport {{ {cls} }} from './{plural}.controller';\n"
            f"import {{ {pascal(plural)}Service }} from './{plural}.service';\n\n@Module({{ controllers: [{cls}], "
            f"providers: [{pascal(plural)}Service] }})\nexport class {pascal(plural)}Module {{}}\n",
        )
        modules.append(plural)
    for table, cls in plan.entities:
        fields = "\n".join(
            f"  @Column({{ nullable: true }})\n  {camel(f)}: string;\n"
            for f in ("name", "status", "reference")
        )
        out.add(
            f"src/{table}/{cls.lower()}.entity.ts",
            "import { Column, Entity, PrimaryGeneratedColumn } from 'typeorm';\n\n"
            f"@Entity('{table}')\nexport class {cls} {{\n  @PrimaryGeneratedColumn()\n  id: number;\n\n{fields}}}\n",
        )
    imports = "".join(f"import {{ {pascal(p)}Module }} from './{p}/{p}.module';\n" for p in modules)
    kafka = (
        "    ClientsModule.register([{ name: 'KAFKA_CLIENT', transport: Transport.KAFKA, "
        "options: { client: { brokers: [process.env.KAFKA_BROKERS ?? 'kafka:9092'] } } }]),\n"
    )
    out.add(
        "src/app.module.ts",
        "import { Module } from '@nestjs/common';\nimport { HttpModule } from '@nestjs/axios';\n"
        "import { ClientsModule, Transport } from '@nestjs/microservices';\n"
        f"{imports}\n@Module({{\n  imports: [\n    HttpModule,\n{kafka}"
        f"    {', '.join(pascal(p) + 'Module' for p in modules)},\n  ],\n}})\n"
        "export class AppModule {}\n",
    )
    prefix = plan.prefix.strip("/")
    glob = f"  app.setGlobalPrefix('{prefix if rng.random() < 0.5 else '/' + prefix}');\n" if prefix else ""
    micro = ""
    if any(c.provider == "kafka" for c in plan.consumes):
        micro = (
            "  app.connectMicroservice<MicroserviceOptions>({ transport: Transport.KAFKA, options: "
            "{ client: { brokers: [process.env.KAFKA_BROKERS ?? 'kafka:9092'] } } });\n"
            "  await app.startAllMicroservices();\n"
        )
    out.add(
        "src/main.ts",
        "import { NestFactory } from '@nestjs/core';\nimport { AppModule } from './app.module';\n"
        "import { MicroserviceOptions, Transport } from '@nestjs/microservices';\n\n"
        f"async function bootstrap() {{\n  const app = await NestFactory.create(AppModule);\n{glob}{micro}"
        f"  await app.listen(process.env.PORT ?? {plan.port});\n}}\nbootstrap();\n",
    )


def _url(call: Call, base: str) -> str:
    path = render_path(call.target_prefix, call.route, "brace").replace("{" + call.route.param + "}", "${id}")
    return f"`${{{base}}}{path}`"


def _clients(out: ServiceOutput, plan: ServicePlan, ext: str, esm: bool, nest: bool) -> None:
    by_target: dict[str, list[Call]] = {}
    for c in plan.calls:
        by_target.setdefault(c.target, []).append(c)
    for target, calls in sorted(by_target.items()):
        var = target.upper().replace("-", "_") + "_URL"
        style = calls[0].style
        if nest:
            out.add(f"src/clients/{target}.client.{ext}", filler.nest_client(target, var, calls, style, _url))
            continue
        head = ["import axios from 'axios';" if esm else "const axios = require('axios');"]
        body: list[str] = []
        if style == 0:
            head.append(f"const BASE_URL = process.env.{var} || 'http://{target}:3000';")
            for c in calls:
                fn = camel(c.route.action + "_" + c.route.singular) + "Remote"
                data = ", payload" if c.route.method in ("POST", "PUT") else ""
                body += [
                    f"async function {fn}(id, payload) {{",
                    f"  const res = await axios.{c.route.method.lower()}({_url(c, 'BASE_URL')}{data});",
                    "  return res.data;",
                    "}",
                    "",
                ]
        elif style == 1:
            head.append(f"const client = axios.create({{ baseURL: process.env.{var}, timeout: 5000 }});")
            for c in calls:
                fn = camel(c.route.action + "_" + c.route.singular) + "Remote"
                url = _url(c, "''").replace("${''}", "")
                data = ", payload" if c.route.method in ("POST", "PUT") else ""
                body += [
                    f"const {fn} = async (id, payload) => (await client.{c.route.method.lower()}({url}{data})).data;",
                    "",
                ]
        else:
            head.append(f"const {{ {var} }} = process.env;")
            body += [
                "async function request(method, path, body) {",
                f"  const res = await fetch({var} + path, {{ method, headers: {{ 'content-type': 'application/json' }}, "
                "body: body && JSON.stringify(body) });",
                "  if (!res.ok) throw new Error(`upstream ${res.status}`);",
                "  return res.json();",
                "}",
                "",
            ]
            for c in calls:
                fn = camel(c.route.action + "_" + c.route.singular) + "Remote"
                path = render_path(c.target_prefix, c.route, "brace").replace(
                    "{" + c.route.param + "}", "${id}"
                )
                data = ", payload" if c.route.method in ("POST", "PUT") else ""
                body += [f"const {fn} = (id, payload) => request('{c.route.method}', `{path}`{data});", ""]
        names = sorted({camel(c.route.action + "_" + c.route.singular) + "Remote" for c in calls})
        tail = f"export {{ {', '.join(names)} }};" if esm else f"module.exports = {{ {', '.join(names)} }};"
        out.add(
            f"src/clients/{target}.js",
            f"// Client for {target}.\n" + "\n".join(head) + "\n\n" + "\n".join(body) + tail + "\n",
        )


def _messaging(out: ServiceOutput, plan: ServicePlan, ext: str, nest: bool, rng: random.Random) -> None:
    if not plan.publishes and not plan.consumes:
        return
    const = [
        f"  {c.name.upper().replace('.', '_').replace('-', '_')}: '{c.name}',"
        for c in sorted(plan.publishes + plan.consumes, key=lambda c: c.name)
    ]
    kw = "export const" if nest else "const"
    tail = "" if nest else "module.exports = { TOPICS };\n"
    out.add(f"src/events/topics.{ext}", f"{kw} TOPICS = {{\n" + "\n".join(const) + f"\n}};\n{tail}")
    out.add(f"src/events/bus.{ext}", filler.bus(plan, nest, rng))
    if nest:
        listeners = [c for c in plan.consumes if c.provider == "kafka"]
        if listeners:
            lines = [
                "import { Controller } from '@nestjs/common';",
                "import { EventPattern, Payload } from '@nestjs/microservices';",
                "",
                "@Controller()",
                "export class EventsController {",
            ]
            for c in listeners:
                fn = "on" + pascal(c.name.replace(".", "_"))
                lines += [
                    f"  @EventPattern('{c.name}')",
                    f"  async {fn}(@Payload() message: unknown) {{",
                    "    return message;",
                    "  }",
                    "",
                ]
                out.apis.append(ExpectedApi("CONSUME", c.name, f"EventsController.{fn}", "message"))
            out.add("src/events/events.controller.ts", "\n".join(lines) + "}\n")


def _mongoose(out: ServiceOutput, plan: ServicePlan, rng: random.Random, esm: bool) -> None:
    for table, cls in plan.entities:
        explicit = rng.random() < 0.5
        opts = f", {{ collection: '{table}', timestamps: true }}" if explicit else ", { timestamps: true }"
        head = "import mongoose from 'mongoose';" if esm else "const mongoose = require('mongoose');"
        tail = "export default" if esm else "module.exports ="
        out.add(
            f"src/models/{cls}.js",
            f"{head}\n\n"
            f"const {camel(cls)}Schema = new mongoose.Schema({{\n  name: {{ type: String, required: true }},\n"
            "  status: { type: String, default: 'new' },\n  amount: Number,\n  ownerId: String,\n"
            f"}}{opts});\n\n{tail} mongoose.model('{cls}', {camel(cls)}Schema);\n",
        )


def _to_esm(text: str) -> str:
    text = re.sub(
        r"const (\{[^}]*\}|\w+) = require\('([^']+)'\);",
        lambda m: f"import {m.group(1)} from '{m.group(2) + ('.js' if m.group(2).startswith('.') else '')}';",
        text,
    )
    return re.sub(r"module\.exports = (\{[^}]*\});", r"export \1;", text)
