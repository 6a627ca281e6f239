"""Node filler and glue: controllers, NestJS services/DTOs/clients, the event bus, utils, tests."""

from __future__ import annotations

import random
import re

from synthgen.emit import camel, fields_for, pascal, prose
from synthgen.plan import Route, ServicePlan
from synthgen.words import NOUNS, VERBS

TS_TYPES = {
    "amount": "number",
    "quantity": "number",
    "total": "number",
    "weight": "number",
    "score": "number",
    "priority": "number",
    "version": "number",
    "active": "boolean",
}


#: REST action -> the NestJS service method that implements it
NEST_ACTION = {
    "list": "findAll",
    "get": "findOne",
    "create": "create",
    "update": "update",
    "delete": "remove",
}

def _functions(rng: random.Random, tag: str, count: int, ts: bool) -> list[str]:
    out = []
    for k in range(count):
        verb = rng.choice(VERBS)
        fields = fields_for(rng, rng.randint(2, 5))
        sig = (
            "(records: Array<Record<string, unknown>> = [], strict = false): Array<Record<string, unknown>>"
            if ts
            else "(records = [], strict = false)"
        )
        body = [
            "/**",
            f" * {verb.capitalize()} {tag} records. {prose(rng)}",
            " */",
            f"export function {camel(verb + '_' + tag)}{k}{sig} {{",
            "  const result = [];",
            "  for (const record of records) {",
            "    if (!record) continue;",
            "    const item = { ...record };",
        ]
        for f in fields:
            key = camel(f)
            if TS_TYPES.get(f) == "number":
                body += [
                    f"    const {key} = Number(item.{key} ?? 0);",
                    f"    if (strict && {key} < 0) throw new RangeError('{key} must not be negative');",
                    f"    item.{key} = {key};",
                ]
            else:
                body.append(f"    item.{key} = String(item.{key} ?? '').trim();")
        body += [
            "    result.push(item);",
            "  }",
            f"  return result.sort((a, b) => String(a.{camel(fields[0])})"
            f".localeCompare(String(b.{camel(fields[0])})));",
            "}",
            "",
        ]
        out.append("\n".join(body))
    return out


def util(ext: str, esm: bool):  # noqa: ANN201
    def make(rng: random.Random, plan: ServicePlan, i: int) -> tuple[str, str]:
        tag = rng.choice(NOUNS)[1]
        text = [
            f"// Helpers for {tag.lower()} records ({plan.name}).",
            f"export const PAGE_SIZE = {rng.choice((20, 50))};",
            "",
        ]
        text += _functions(rng, tag, rng.randint(5, 9), ext == "ts")
        text = "\n".join(text)
        if not esm:  # CommonJS package
            names = ["PAGE_SIZE", *re.findall(r"export function (\w+)", text)]
            text = text.replace("export function ", "function ").replace("export const ", "const ")
            text += f"\nmodule.exports = {{ {', '.join(names)} }};\n"
        folder = "src/common" if ext == "ts" else "src/utils"
        return f"{folder}/{tag.lower()}-helpers-{i}.{ext}", text

    return make


def service(ext: str):  # noqa: ANN201
    def make(rng: random.Random, plan: ServicePlan, i: int) -> tuple[str, str]:
        plural, singular = rng.choice(NOUNS)
        ts = ext == "ts"
        text = [f"// Domain logic for {plural}. {prose(rng, 1)}", ""]
        if ts:
            text += [f"export interface {singular}Record{i} {{"]
            text += [
                f"  {camel(f)}?: {TS_TYPES.get(f, 'string')};" for f in fields_for(rng, rng.randint(4, 9))
            ]
            text += ["}", ""]
        text += _functions(rng, singular + "Rule", rng.randint(4, 7), ts)
        return f"src/domain/{plural}-rules-{i}.{ext}", "\n".join(text)

    return make


def test(ext: str):  # noqa: ANN201
    def make(rng: random.Random, plan: ServicePlan, i: int) -> tuple[str, str]:
        tag = rng.choice(NOUNS)[1].lower()
        text = [f"describe('{tag} helpers {i}', () => {{"]
        for k in range(rng.randint(3, 7)):
            f = camel(fields_for(rng, 1)[0])
            text += [
                f"  it('keeps {f} stable ({k})', () => {{",
                f"    const records = [{{ {f}: {k} }}, null, {{ {f}: {k + 1} }}];",
                "    const cleaned = records.filter(Boolean);",
                "    expect(cleaned).toHaveLength(2);",
                f"    expect(cleaned[0].{f}).toBe({k});",
                "  });",
                "",
            ]
        text.append("});\n")
        suffix = "spec" if ext == "ts" else "test"
        return f"test/{tag}-{i}.{suffix}.{ext}", "\n".join(text)

    return make


def express_controller(rng: random.Random, routes: list[Route], cjs: bool) -> str:
    names = []
    text = [f"// Request handlers for {routes[0].plural}.", ""]
    for r in routes:
        fn = camel(r.action + "_" + (r.plural if r.action == "list" else r.singular))
        names.append(fn)
        text += [
            "/**",
            f" * {r.method} {r.plural}. {prose(rng, 1)}",
            " */",
            f"async function {fn}(req, res, next) {{",
            "  try {",
            f"    const id = req.params.{r.param};",
            "    const body = req.body || {};",
            f"    res.status({201 if r.method == 'POST' else 200}).json({{ id, ...body }});",
            "  } catch (err) {",
            "    next(err);",
            "  }",
            "}",
            "",
        ]
    text.append(f"module.exports = {{ {', '.join(names)} }};" if cjs else f"export {{ {', '.join(names)} }};")
    return "\n".join(text) + "\n"


def nest_service(rng: random.Random, plural: str, singular: str, routes: list[Route]) -> str:
    text = [
        "import { Injectable, NotFoundException } from '@nestjs/common';",
        "",
        "@Injectable()",
        f"export class {pascal(plural)}Service {{",
        "  private readonly items = new Map<string, Record<string, unknown>>();",
        "",
    ]
    seen = set()
    for r in routes:
        fn = NEST_ACTION.get(r.action, r.action)
        if fn in seen:
            continue
        seen.add(fn)
        text += [
            f"  async {fn}(id?: string): Promise<unknown> {{",
            "    if (id && !this.items.has(id)) {",
            f"      throw new NotFoundException('{singular} ' + id + ' not found');",
            "    }",
            "    return id ? this.items.get(id) : [...this.items.values()];",
            "  }",
            "",
        ]
    text.append("}\n")
    return "\n".join(text)


def nest_dto(rng: random.Random, singular: str) -> str:
    text = [
        "import { IsOptional, IsString } from 'class-validator';",
        "",
        f"export class Create{singular}Dto {{",
    ]
    for f in fields_for(rng, rng.randint(3, 8)):
        text += ["  @IsOptional()", f"  {camel(f)}?: {TS_TYPES.get(f, 'string')};", ""]
    text.append("}\n")
    return "\n".join(text)


def nest_client(target: str, var: str, calls: list, style: int, url) -> str:  # noqa: ANN001
    cls = pascal(target) + "Client"
    text = [
        "import { Injectable } from '@nestjs/common';",
        "import { HttpService } from '@nestjs/axios';",
        "import { ConfigService } from '@nestjs/config';",
        "import { firstValueFrom } from 'rxjs';",
        "",
        "@Injectable()",
        f"export class {cls} {{",
    ]
    if style == 0:
        text += [
            f"  private readonly baseUrl = process.env.{var} ?? 'http://{target}:3000';",
            "",
            "  constructor(private readonly http: HttpService) {}",
            "",
        ]
        base = "this.baseUrl"
    elif style == 1:
        text += [
            "  constructor(private readonly http: HttpService, private readonly config: ConfigService) {}",
            "",
            "  private get baseUrl(): string {",
            f"    return this.config.get<string>('{var}');",
            "  }",
            "",
        ]
        base = "this.baseUrl"
    else:
        text += ["  constructor(private readonly http: HttpService) {}", ""]
        base = f"process.env.{var}"
    for c in calls:
        fn = camel(c.route.action + "_" + c.route.singular)
        data = ", payload" if c.route.method in ("POST", "PUT") else ""
        text += [
            f"  async {fn}(id: string, payload?: unknown) {{",
            f"    const res = await firstValueFrom(this.http.{c.route.method.lower()}({url(c, base)}{data}));",
            "    return res.data;",
            "  }",
            "",
        ]
    text.append("}\n")
    return "\n".join(text)


def bus(plan: ServicePlan, nest: bool, rng: random.Random) -> str:
    def const(c) -> str:  # noqa: ANN001
        return "TOPICS." + c.name.upper().replace(".", "_").replace("-", "_")

    if nest:
        text = [
            "import { Inject, Injectable } from '@nestjs/common';",
            "import { ClientKafka } from '@nestjs/microservices';",
            "import * as amqp from 'amqplib';",
            "import { TOPICS } from './topics';",
            "",
            "@Injectable()",
            "export class EventBus {",
            "  constructor(@Inject('KAFKA_CLIENT') private readonly kafka: ClientKafka) {}",
            "",
        ]
    else:
        text = [
            "const { Kafka } = require('kafkajs');",
            "const amqp = require('amqplib');",
            "const { TOPICS } = require('./topics');",
            "",
            f"const kafka = new Kafka({{ clientId: '{plan.name}', brokers: (process.env.KAFKA_BROKERS || 'kafka:9092').split(',') }});",
            "const producer = kafka.producer();",
            "",
        ]
    for c in plan.publishes:
        fn = "publish" + pascal(c.name.replace(".", "_").replace("-", "_"))
        if nest:
            if c.provider == "kafka":
                text += [
                    f"  {fn}(event: unknown) {{",
                    f"    return this.kafka.emit({const(c)}, event);",
                    "  }",
                    "",
                ]
            else:
                text += [
                    f"  async {fn}(event: unknown) {{",
                    "    const conn = await amqp.connect(process.env.RABBITMQ_URL);",
                    "    const ch = await conn.createChannel();",
                    f"    ch.sendToQueue({const(c)}, Buffer.from(JSON.stringify(event)));",
                    "  }",
                    "",
                ]
        elif c.provider == "kafka":
            text += [
                f"async function {fn}(event) {{",
                f"  await producer.send({{ topic: {const(c)}, messages: [{{ value: JSON.stringify(event) }}] }});",
                "}",
                "",
            ]
        else:
            text += [
                f"async function {fn}(event) {{",
                "  const conn = await amqp.connect(process.env.RABBITMQ_URL);",
                "  const ch = await conn.createChannel();",
                f"  ch.sendToQueue({const(c)}, Buffer.from(JSON.stringify(event)), {{ persistent: true }});",
                "}",
                "",
            ]
    consumers = [c for c in plan.consumes if not (nest and c.provider == "kafka")]
    if consumers:
        ind = "  " if nest else ""
        text += [f"{ind}async startConsumers() {{" if nest else "async function startConsumers() {"]
        kafka = [c for c in consumers if c.provider == "kafka"]
        if kafka:
            text += [
                f"{ind}  const consumer = kafka.consumer({{ groupId: '{plan.name}' }});",
                f"{ind}  await consumer.connect();",
            ]
            text += [
                f"{ind}  await consumer.subscribe({{ topic: {const(c)}, fromBeginning: false }});"
                for c in kafka
            ]
            text += [
                f"{ind}  await consumer.run({{ eachMessage: async ({{ topic, message }}) => handle(topic, message) }});"
            ]
        rabbit = [c for c in consumers if c.provider == "rabbitmq"]
        if rabbit:
            text += [
                f"{ind}  const conn = await amqp.connect(process.env.RABBITMQ_URL);",
                f"{ind}  const ch = await conn.createChannel();",
            ]
            for c in rabbit:
                text += [
                    f"{ind}  await ch.assertQueue({const(c)}, {{ durable: true }});",
                    f"{ind}  ch.consume({const(c)}, (msg) => handle({const(c)}, msg));",
                ]
        text += [f"{ind}}}", ""]
    if nest:
        text.append(
            "}\n\nfunction handle(topic: string, message: unknown) {\n  return { topic, message };\n}\n"
        )
    else:
        names = ["publish" + pascal(c.name.replace(".", "_").replace("-", "_")) for c in plan.publishes]
        names += ["startConsumers"] if consumers else []
        text.append(
            "function handle(topic, message) {\n  return { topic, message };\n}\n\n"
            f"module.exports = {{ {', '.join(names)} }};\n"
        )
    return "\n".join(text)
