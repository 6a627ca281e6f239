"""One service's configuration: environment variables from every source, and its properties.

Env precedence (first wins): docker-compose > Kubernetes > helm > the Dockerfile's ENV > .env
files > the code's own default. Every candidate is kept, most authoritative first, so the resolver
can fall back to a lower one when the first names no known service (e.g. a localhost default in .env).
"""

from __future__ import annotations

import re
from collections.abc import Iterator, Mapping, Sequence

from attrs import define, field

from orbitkb.analysis import paths
from orbitkb.analysis.config.dotenv import parse_dotenv
from orbitkb.analysis.config.dotnet import ENVIRONMENT_VARIABLES
from orbitkb.analysis.config.dotnet import env_names as dotnet_env_names
from orbitkb.analysis.config.model import ConfigValue, source_rank
from orbitkb.analysis.config.rails_database import database_yml_values
from orbitkb.analysis.config.spring import SpringDoc, SpringProps
from orbitkb.analysis.layout.k8s import K8sModel
from orbitkb.analysis.layout.manifests import Manifest
from orbitkb.analysis.layout.model import ServiceUnit

_DOTENV = re.compile(r"^(?:\.env(?:\.[\w.\-]+)?|[\w.\-]+\.env)$")
_LATE_DOTENV = ("example", "sample", "template", "dist", "defaults")


@define
class ServiceConfig:
    env: dict[str, list[ConfigValue]] = field(factory=dict)
    props: SpringProps = field(factory=lambda: SpringProps([]))
    linked: dict[str, ConfigValue] = field(factory=dict)  # properties the language linker declared

    def add_env(self, value: ConfigValue) -> None:
        self.env.setdefault(value.key, []).append(value)

    def _env_ignoring_case(self, lowered: str) -> list[ConfigValue]:
        return [v for k, values in self.env.items() if k.lower() == lowered for v in values]

    def env_candidates(self, name: str) -> list[ConfigValue]:
        return self.env.get(name, [])

    def prop_candidates(self, key: str) -> list[ConfigValue]:
        """Spring relaxed binding first (ORDERS_URL overrides orders.url; orders.base-url is read
        from ORDERS_BASEURL or, Spring's legacy form, ORDERS_BASE_URL), then the properties."""
        indexed = re.sub(r"\[(\d+)\]", r"_\1_", key).replace(".", "_").upper()
        relaxed = indexed.replace("-", "").strip("_")
        legacy = indexed.replace("-", "_").strip("_")
        out = list(self.env.get(relaxed, []))
        if legacy != relaxed:
            out += self.env.get(legacy, [])
        out += [v for name in dotnet_env_names(key) for v in self._env_ignoring_case(name)]
        out += self.props.candidates(key)
        if key in self.linked:
            out.append(self.linked[key])
        return out

    def values(self, profiles: str = "any") -> Iterator[ConfigValue]:
        """Every value, most authoritative per key. ``profiles``: ``active`` leaves out properties
        only an inactive profile sets, ``inactive`` yields only those."""
        if profiles != "inactive":
            for values in self.env.values():
                yield from values
        for key in self.props.keys():
            if profiles == "any" or self.props.inactive(key) == (profiles == "inactive"):
                yield from self.props.candidates(key)[:1]
        if profiles != "inactive":
            yield from self.linked.values()


def _dotenv_rank(path: str) -> tuple[int, int, str]:
    name = paths.basename(path)
    return (any(word in name for word in _LATE_DOTENV), name != ".env", path)


def _dockerfiles(unit: ServiceUnit) -> list[Manifest]:
    """The Dockerfiles the unit's image is built from: the ones its compose services name, else its own."""
    named = {
        c.dockerfile or paths.join(c.build_context, "Dockerfile") for c in unit.compose if c.build_context
    }
    own = [m for m in unit.manifests if m.images and m.path in named]
    return own or [
        m for m in unit.manifests if m.images and paths.parent(m.path) == unit.root
        and paths.basename(m.path) == "Dockerfile"
    ]  # fmt: skip


def build_config(
    unit: ServiceUnit,
    k8s: K8sModel,
    texts: Mapping[str, str],
    owned_config: Sequence[str],
    spring_docs: Sequence[SpringDoc],
    linked_props: Mapping[str, str],
) -> ServiceConfig:
    """``owned_config``: config-file paths inside the unit's folder (not in a nested service)."""
    config = ServiceConfig()
    found: list[ConfigValue] = []
    for compose in unit.compose:
        found.extend(compose.env.values())
    for workload, container in unit.workloads:
        found.extend(container.env.values())
        for ref in container.refs:
            data = k8s.configmaps.get(ref.configmap, {}).get(ref.configmap_key)
            if data is not None:
                found.append(ConfigValue(ref.key, data.value, data.file, data.line, workload.source))
        for name in container.env_from:
            found.extend(k8s.configmaps.get(name, {}).values())
    for manifest in _dockerfiles(unit):
        found.extend(ConfigValue(key, value, manifest.path, line, "dockerfile") for key, value, line in manifest.env)
    dotenvs = sorted((p for p in owned_config if _DOTENV.match(paths.basename(p))), key=_dotenv_rank)
    for path in dotenvs:
        for key, value, line in parse_dotenv(texts.get(path, "")):
            found.append(ConfigValue(key, value, path, line, "dotenv"))
    found += database_yml_values(owned_config, texts)
    for item in sorted(found, key=lambda v: source_rank(v.source)):  # stable: file order kept
        config.add_env(item)
    profiles = next(
        (found for name in ("SPRING_PROFILES_ACTIVE", *ENVIRONMENT_VARIABLES) if (found := config.env_candidates(name))),
        [],
    )
    active = [p for p in profiles[0].value.split(",")] if profiles else None
    config.props = SpringProps(list(spring_docs), active)
    config.linked = {k: ConfigValue(k, str(v), "", 0, "spring") for k, v in sorted(linked_props.items())}
    return config
