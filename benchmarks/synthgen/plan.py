"""The system plan: services, routes, calls, channels and entities, drawn from a seeded RNG.

Emitters render the plan into files; ``expected.json`` is written from the same plan, so the
benchmark can measure extraction recall against what was generated on purpose.
"""

from __future__ import annotations

import random
from dataclasses import dataclass, field

from synthgen.words import ACTIONS, DOMAINS, EVENTS, NOUNS, ROLES

#: framework -> (stack, how path parameters are written, default port)
FRAMEWORKS = {
    "fastapi": ("python", "brace", 8000),
    "flask": ("python", "flask", 8000),
    "express": ("node-ts", "colon", 3000),
    "nestjs": ("node-ts", "colon", 3000),
    "spring": ("jvm-spring", "brace", 8080),
    "gin": ("go", "colon", 8080),
    "nethttp": ("go", "brace", 8080),
}
STACK_FRAMEWORKS = {
    "python": ("fastapi", "flask"),
    "node-ts": ("express", "nestjs"),
    "jvm-spring": ("spring",),
    "go": ("gin", "nethttp"),
}
PREFIXES = ("/api/v1", "/api", "/v1", "/api/v2", "")


@dataclass
class Route:
    method: str
    plural: str
    singular: str
    tail: tuple[str, ...]  # segments after the resource; "{x}" marks a parameter
    action: str  # handler base name: list, get, create, update, delete, or a custom verb

    @property
    def param(self) -> str:
        return self.singular.lower() + "_id"


@dataclass
class Call:
    target: str
    route: Route
    style: int  # index into the emitter's table of client styles
    target_prefix: str = ""  # the callee's path prefix, so the URL hits a declared API
    target_path: str = ""  # the callee's API path as the callee declares it (expected)


@dataclass
class Channel:
    name: str
    provider: str  # kafka | rabbitmq
    publisher: str
    consumers: list[str] = field(default_factory=list)


@dataclass
class ServicePlan:
    name: str
    domain: str
    root_dir: str
    framework: str
    prefix: str
    port: int
    resources: list[tuple[str, str]]
    routes: list[Route] = field(default_factory=list)
    calls: list[Call] = field(default_factory=list)
    publishes: list[Channel] = field(default_factory=list)
    consumes: list[Channel] = field(default_factory=list)
    entities: list[tuple[str, str]] = field(default_factory=list)  # (table, class)
    vendor: int | None = None  # index into VENDORS when the service calls a SaaS API
    k8s: bool = False
    env_style: int = 0  # compose environment as mapping (0), list (1) or env_file (2)
    quota: int = 60  # source files to produce
    seed: int = 0

    @property
    def stack(self) -> str:
        return FRAMEWORKS[self.framework][0]

    @property
    def folder(self) -> str:
        return self.root_dir.rsplit("/", 1)[-1]

    def env_var(self) -> str:
        """The variable other services read this service's base URL from."""
        return self.name.upper().replace("-", "_") + "_URL"

    def url(self) -> str:
        return f"http://{self.name}:{self.port}"


def render_path(prefix: str, route: Route, style: str) -> str:
    """The full path as the framework writes it (the expected API path)."""
    parts = [prefix.strip("/"), route.plural]
    for seg in route.tail:
        if seg.startswith("{"):
            name = route.param
            parts.append({"brace": f"{{{name}}}", "colon": ":" + name, "flask": f"<int:{name}>"}[style])
        else:
            parts.append(seg)
    return "/" + "/".join(p for p in parts if p)


def _routes(rng: random.Random, resources: list[tuple[str, str]]) -> list[Route]:
    out: list[Route] = []
    for plural, singular in resources:
        out += [
            Route("GET", plural, singular, (), "list"),
            Route("GET", plural, singular, ("{id}",), "get"),
            Route("POST", plural, singular, (), "create"),
            Route("PUT", plural, singular, ("{id}",), "update"),
            Route("DELETE", plural, singular, ("{id}",), "delete"),
        ]
        for action in rng.sample(ACTIONS, rng.randint(0, 2)):
            out.append(Route("POST", plural, singular, ("{id}", action), action))
    return out


def _names(rng: random.Random, count: int) -> list[tuple[str, str]]:
    combos = [(d, r) for d in DOMAINS for r in ROLES]
    rng.shuffle(combos)
    out = [(d, f"{d}-{r}") for d, r in combos[:count]]
    for i in range(len(out), count):  # more services than combinations: number them
        d, r = combos[i % len(combos)]
        out.append((d, f"{d}-{r}-{i}"))
    return out


def _root_dir(rng: random.Random, domain: str, name: str) -> str:
    style = rng.randrange(4)
    return (f"services/{name}", f"{domain}/{name}", f"services/{name}-service", f"apps/{name}")[style]


def plan_system(services: int, files: int, seed: int) -> list[ServicePlan]:
    rng = random.Random(seed)
    stacks = list(STACK_FRAMEWORKS)
    plans: list[ServicePlan] = []
    for i, (domain, name) in enumerate(_names(rng, services)):
        framework = rng.choice(STACK_FRAMEWORKS[stacks[i % len(stacks)]])
        resources = rng.sample(NOUNS, rng.randint(2, 4))
        plan = ServicePlan(
            name=name,
            domain=domain,
            root_dir=_root_dir(rng, domain, name),
            framework=framework,
            prefix=rng.choice(PREFIXES),
            port=FRAMEWORKS[framework][2],
            resources=resources,
            k8s=rng.random() < 0.2,
            env_style=rng.randrange(3),
            quota=files // services + (1 if i < files % services else 0),
            seed=rng.randrange(1 << 30),
        )
        plan.routes = _routes(rng, resources)
        plan.entities = [(p, s) for p, s in resources[: rng.randint(1, len(resources))]]
        plan.vendor = rng.randrange(4) if rng.random() < 0.15 else None
        plans.append(plan)
    for plan in plans:
        for target in rng.sample([p for p in plans if p is not plan], rng.randint(1, 4)):
            for route in rng.sample(target.routes, rng.randint(1, 2)):
                style = FRAMEWORKS[target.framework][1]
                plan.calls.append(
                    Call(
                        target.name,
                        route,
                        rng.randrange(3),
                        target.prefix,
                        render_path(target.prefix, route, style),
                    )
                )
    _plan_channels(rng, plans)
    return plans


def _plan_channels(rng: random.Random, plans: list[ServicePlan]) -> None:
    for i in range(len(plans) // 3):
        publisher = rng.choice(plans)
        provider = "kafka" if rng.random() < 0.6 else "rabbitmq"
        noun = rng.choice(publisher.resources)[1].lower()
        event = rng.choice(EVENTS)
        name = (
            f"{publisher.domain}.{noun}.{event}"
            if provider == "kafka"
            else f"{publisher.domain}-{noun}-{event}-{i}"
        )
        if any(c.name == name for p in plans for c in p.publishes):
            continue
        channel = Channel(name, provider, publisher.name)
        publisher.publishes.append(channel)
        for consumer in rng.sample([p for p in plans if p is not publisher], rng.randint(1, 3)):
            channel.consumers.append(consumer.name)
            consumer.consumes.append(channel)
