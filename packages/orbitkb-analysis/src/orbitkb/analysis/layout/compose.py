"""docker-compose files: services, how they are built, their environment and what they depend on."""

from __future__ import annotations

import re
import shlex
from collections.abc import Mapping

from attrs import define, field

from orbitkb.analysis import paths
from orbitkb.analysis.config.dotenv import interpolate, parse_dotenv
from orbitkb.analysis.config.model import ConfigValue
from orbitkb.analysis.yamlines import LDict, LList

SOURCE = "docker-compose"
_COMPOSE_NAME = re.compile(r"^(?:docker-)?compose(?:[.\-_][\w.\-]*)?\.ya?ml$")


#: A compose file by its text (``apps.yml`` passed as ``docker compose -f``): a top-level
#: ``services:`` mapping (not a CI file's list) and an indented ``image:`` or ``build:`` under it,
#: no Kubernetes ``apiVersion``.
_SERVICES_KEY = re.compile(r"^services:[ \t]*(?:#.*)?\n(?:[ \t]*(?:#.*)?\n)*[ \t]+[\w.\-\"']+:", re.M)
_RUNS = re.compile(r"^[ \t]+(?:image|build):", re.M)
_K8S = re.compile(r"^apiVersion:", re.M)


def is_compose_file(name: str) -> bool:
    return bool(_COMPOSE_NAME.match(name))


def looks_like_compose(text: str) -> bool:
    """A YAML file named otherwise that is a compose file all the same (read_compose still needs
    ``services`` to be a mapping, so a CI file's ``services:`` list reads as nothing)."""
    found = _SERVICES_KEY.search(text)
    return found is not None and bool(_RUNS.search(text, found.end())) and not _K8S.search(text)


def compose_rank(path: str) -> tuple[int, int, str]:
    """Order compose files: overrides first (they win), then the base file, then variants."""
    name = paths.basename(path)
    rank = (
        0
        if "override" in name
        else 1
        if name in ("docker-compose.yml", "docker-compose.yaml", "compose.yml", "compose.yaml")
        else 2
    )
    return (path.count("/"), rank, path)


@define
class ComposeService:
    name: str
    file: str
    line: int
    build_context: str | None = None
    dockerfile: str | None = None
    image: str | None = None
    container_name: str | None = None
    hostname: str | None = None
    aliases: list[str] = field(factory=list)
    env: dict[str, ConfigValue] = field(factory=dict)
    ports: list[int] = field(factory=list)  # published host ports and container ports
    depends_on: list[str] = field(factory=list)
    mounts: list[str] = field(factory=list)  # repo-relative host paths of bind mounts
    command: list[str] = field(factory=list)  # entrypoint then command, as words
    build_args: dict[str, str] = field(factory=dict)  # ``build: args:`` (an ``ARG`` the image may run)
    labels: dict[str, ConfigValue] = field(factory=dict)  # container labels (Traefik routers)


def _text(value: object) -> str | None:
    if value is None:
        return None
    if isinstance(value, bool):  # compose passes YAML booleans as "true"/"false"
        return "true" if value else "false"
    return str(value)


def _env_items(raw: object) -> list[tuple[str, str | None, int]]:
    if isinstance(raw, LDict):
        return [(str(k), _text(v), raw.line(k)) for k, v in raw.items()]
    if isinstance(raw, LList):
        out = []
        for i, item in enumerate(raw):
            key, sep, value = str(item).partition("=")
            out.append((key.strip(), value if sep else None, raw.line(i)))
        return out
    return []


def command_words(raw: object) -> list[str]:
    """A command written as one string (shell words) or as a list."""
    if isinstance(raw, str):
        try:
            return shlex.split(raw)
        except ValueError:
            return raw.split()
    return [str(w) for w in raw] if isinstance(raw, list) else []


def _ports(raw: object) -> list[int]:
    out: list[int] = []
    for item in raw if isinstance(raw, list) else []:
        if isinstance(item, dict):
            candidates = [item.get("published"), item.get("target")]
        else:
            candidates = re.split(r"[:/]", str(item))
        out.extend(int(p) for p in candidates if p is not None and str(p).isdigit())
    return out


# Committed templates of a git-ignored env file (`.env.example` beside the `.env` compose names).
_ENV_TEMPLATES = (".example", ".sample", ".template", ".dist")


def _env_file(files: Mapping[str, str], target: str | None) -> str | None:
    """The env file ``target`` as committed, else its template (the file itself is never pushed)."""
    for candidate in (target, *(f"{target}{suffix}" for suffix in _ENV_TEMPLATES)) if target else ():
        if candidate in files:
            return candidate
    return None


def read_compose(path: str, doc: object, files: Mapping[str, str]) -> list[ComposeService]:
    """Services of one parsed compose document. ``files`` maps paths to texts (env files)."""
    if not isinstance(doc, LDict) or not isinstance(doc.get("services"), LDict):
        return []
    base = paths.parent(path)
    dotenv = {k: v for k, v, _ in parse_dotenv(files.get(_env_file(files, paths.join(base, ".env")) or "", ""))}
    lookup = dotenv.get
    services = doc["services"]
    out = []
    for name, spec in services.items():
        if not isinstance(spec, LDict):
            continue
        svc = ComposeService(name=name, file=path, line=services.line(name))
        build = spec.get("build")
        if isinstance(build, str):
            svc.build_context = paths.join(base, interpolate(build, lookup))
        elif isinstance(build, LDict):
            svc.build_context = paths.join(base, interpolate(str(build.get("context", ".")), lookup))
            if isinstance(build.get("dockerfile"), str) and svc.build_context is not None:
                svc.dockerfile = paths.join(svc.build_context, interpolate(build["dockerfile"], lookup))
            for key, value, _line in _env_items(build.get("args")):
                if value is not None:
                    svc.build_args[key] = interpolate(value, lookup)
        if isinstance(spec.get("image"), str):
            svc.image = interpolate(spec["image"], lookup)
        for key in ("container_name", "hostname"):
            if isinstance(spec.get(key), str):
                setattr(svc, key, interpolate(spec[key], lookup))
        networks = spec.get("networks")
        if isinstance(networks, LDict):
            for net in networks.values():
                if isinstance(net, LDict) and isinstance(net.get("aliases"), list):
                    svc.aliases.extend(str(a) for a in net["aliases"])
        env_files = spec.get("env_file")
        for env_file in [env_files] if isinstance(env_files, (str, LDict)) else env_files or []:
            rel = env_file.get("path") if isinstance(env_file, LDict) else env_file
            target = _env_file(files, paths.join(base, str(rel)) if rel else None)
            if target:
                for key, text, line in parse_dotenv(files[target]):
                    svc.env[key] = ConfigValue(key, interpolate(text, lookup), target, line, SOURCE)
        for key, value, line in _env_items(spec.get("environment")):
            if value is None:  # "KEY" alone passes the host's value through: take .env's
                value = dotenv.get(key)
            if value is not None:
                svc.env[key] = ConfigValue(key, interpolate(value, lookup), path, line, SOURCE)
        for key, value, line in _env_items(spec.get("labels")):
            if value is not None:
                svc.labels[key] = ConfigValue(key, interpolate(value, lookup), path, line, SOURCE)
        svc.ports = _ports(spec.get("ports")) + _ports(spec.get("expose"))
        svc.command = command_words(spec.get("entrypoint")) + command_words(spec.get("command"))
        deps = spec.get("depends_on")
        svc.depends_on = sorted(str(d) for d in (deps.keys() if isinstance(deps, LDict) else deps or []))
        for volume in spec.get("volumes") or []:
            source = volume.get("source") if isinstance(volume, LDict) else str(volume).split(":", 1)[0]
            if not source or not str(source).startswith("."):
                continue  # a named volume or an absolute host path
            mounted = paths.join(base, str(source))
            if mounted:
                svc.mounts.append(mounted)
        out.append(svc)
    return out
