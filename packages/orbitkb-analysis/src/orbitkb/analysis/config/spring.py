"""Spring ``application.yml``/``.properties``: flattened keys with lines, per profile.

Profiles come from file names (``application-docker.yml``) and from multi-document files whose
documents declare ``spring.config.activate.on-profile`` (or the legacy ``spring.profiles``), and from
Quarkus's ``%profile.`` key prefixes.
A service's own ``config.yaml`` (``config-dev.yml``, ``config.prod.yaml``) — what viper, koanf and
cleanenv load into tagged config structs — is read the same way: its keys are the properties a
Go ``mapstructure:``/``yaml:`` tag path names.
"""

from __future__ import annotations

import re

import yaml
from attrs import define, evolve, field

from orbitkb.analysis import paths
from orbitkb.analysis.config.model import ConfigValue
from orbitkb.analysis.yamlines import LDict, LList, load_all

SOURCE = "spring"
_FILE = re.compile(r"^(application|bootstrap)(?:-([\w.\-]+))?\.(ya?ml|properties)$")
_APP_CONFIG = re.compile(r"^(config)(?:[-.]([\w\-]+))?\.(ya?ml)$")
_PROFILE_KEYS = ("spring.config.activate.on-profile", "spring.profiles")
_QUARKUS_PROFILE_KEY = re.compile(r"^%([\w\-]+(?:,[\w\-]+)*)\.(.+)$")

_SERVLET_PREFIX = (
    "${server.servlet.context-path:}${server.context-path:}${spring.webflux.base-path:}"
    "${spring.mvc.servlet.path:}"
)
#: framework of an HTTP API -> the path the service serves every endpoint under, as placeholders
#: the fact builder resolves against the service's configuration (an unset one is empty)
SERVED_PREFIXES = {
    "spring-boot": _SERVLET_PREFIX,
    "spring-cloud-gateway": _SERVLET_PREFIX,
    "spring": _SERVLET_PREFIX,
    "quarkus": "${quarkus.http.root-path:}",
    "micronaut": "${micronaut.server.context-path:}",
}


@define
class SpringDoc:
    file: str
    profile: str | None
    props: dict[str, ConfigValue] = field(factory=dict)
    #: precedence among a service's documents, lower first: a config server's served files rank
    #: before the service's own (``config_server``)
    rank: int = 2


def is_spring_config(path: str) -> bool:
    name = paths.basename(path)
    return bool(_FILE.match(name) or _APP_CONFIG.match(name))


def _scalar(value: object) -> str:
    if isinstance(value, bool):
        return "true" if value else "false"
    return "" if value is None else str(value)


def _flatten(node: object, prefix: str, line: int, file: str, out: dict[str, ConfigValue]) -> None:
    if isinstance(node, LDict):
        for key, value in node.items():
            _flatten(value, f"{prefix}.{key}" if prefix else key, node.line(key), file, out)
    elif isinstance(node, LList):
        for i, value in enumerate(node):
            _flatten(value, f"{prefix}[{i}]", node.line(i), file, out)
        if node and all(not isinstance(v, (dict, list)) for v in node):
            out[prefix] = ConfigValue(prefix, ",".join(_scalar(v) for v in node), file, line, SOURCE)
    elif prefix:
        out[prefix] = ConfigValue(prefix, _scalar(node), file, line, SOURCE)


def _properties(text: str, file: str) -> list[dict[str, ConfigValue]]:
    docs: list[dict[str, ConfigValue]] = [{}]
    pending = ""
    start = 0
    for number, raw in enumerate(text.splitlines(), 1):
        line = raw.strip()
        if not pending:
            if line in ("#---", "!---"):
                docs.append({})
                continue
            if not line or line[0] in "#!":
                continue
            start = number
        if line.endswith("\\") and not line.endswith("\\\\"):
            pending += line[:-1]
            continue
        line, pending = pending + line, ""
        match = re.match(r"^((?:[^=:\s\\]|\\.)+)\s*[=:\s]\s*(.*)$", line)
        if match:
            key = match.group(1).replace("\\", "")
            docs[-1][key] = ConfigValue(key, match.group(2), file, start, SOURCE)
    return docs


def read_spring(path: str, text: str) -> tuple[list[SpringDoc], str | None]:
    """(documents, error) of one application/bootstrap file."""
    match = _FILE.match(paths.basename(path)) or _APP_CONFIG.match(paths.basename(path))
    file_profile = match.group(2) if match else None
    try:
        if path.endswith(".properties"):
            flat_docs = _properties(text, path)
        else:
            flat_docs = []
            for doc in load_all(text):
                out: dict[str, ConfigValue] = {}
                _flatten(doc, "", 1, path, out)
                flat_docs.append(out)
    except (yaml.YAMLError, ValueError, RecursionError) as exc:
        return (
            [],
            f"could not be parsed: {str(exc).splitlines()[0][:200] if str(exc) else type(exc).__name__}",
        )
    out_docs = []
    for props in flat_docs:
        profile = file_profile
        for key in _PROFILE_KEYS:
            if key in props and re.fullmatch(r"[\w.\-]+", props[key].value.strip()):
                profile = props[key].value.strip()
        props, profiled = _split_profile_keys(props)
        out_docs.append(SpringDoc(path, profile, props))
        out_docs.extend(SpringDoc(path, name, values) for name, values in sorted(profiled.items()))
    return out_docs, None


def _split_profile_keys(
    props: dict[str, ConfigValue],
) -> tuple[dict[str, ConfigValue], dict[str, dict[str, ConfigValue]]]:
    """Quarkus profile keys (``%dev.x=1``, ``%dev,test.x=1``, YAML ``"%dev": {x: 1}``) moved to
    documents of their profiles. ``%prod`` is what a packaged application runs with: its values
    replace the unprofiled ones."""
    if not any(k.startswith("%") for k in props):
        return props, {}
    plain: dict[str, ConfigValue] = {}
    prod: dict[str, ConfigValue] = {}
    profiled: dict[str, dict[str, ConfigValue]] = {}
    for key, value in props.items():
        match = _QUARKUS_PROFILE_KEY.match(key)
        if match is None:
            plain[key] = value
            continue
        bare = evolve(value, key=match.group(2))
        for name in match.group(1).split(","):
            target = prod if name == "prod" else profiled.setdefault(name, {})
            target[bare.key] = bare
    return {**plain, **prod}, profiled


def _fold(key: str) -> str:
    """Spring's relaxed form of a key: ``orders.baseUrl``, ``orders.base-url`` and ``orders.base_url``
    name one property (case, dashes and underscores ignored)."""
    return key.lower().replace("-", "").replace("_", "")


class SpringProps:
    """A service's properties: ``candidates(key)`` lists values, most authoritative first."""

    def __init__(self, docs: list[SpringDoc], active: list[str] | None = None) -> None:
        self._default: dict[str, ConfigValue] = {}
        self._profiles: dict[str, dict[str, ConfigValue]] = {}
        self._lower: dict[str, str] | None = None
        # served files first; application.yml before bootstrap.yml, shallower files before deeper ones
        for doc in sorted(
            docs, key=lambda d: (d.rank, paths.basename(d.file).startswith("bootstrap"), d.file)
        ):
            target = self._default if doc.profile is None else self._profiles.setdefault(doc.profile, {})
            for key, value in doc.props.items():
                target.setdefault(key, value)
        declared = self._default.get("spring.profiles.active") or self._default.get("spring.profiles.include")
        self.active = [
            p.strip()
            for p in (",".join(active) if active else declared.value if declared else "").split(",")
            if p.strip()
        ]

    def candidates(self, key: str) -> list[ConfigValue]:
        if key not in self._default and not any(key in values for values in self._profiles.values()):
            key = self._folded().get(_fold(key), key)  # viper and relaxed binding ignore case
        out = [self._profiles[p][key] for p in reversed(self.active) if key in self._profiles.get(p, {})]
        if key in self._default:
            out.append(self._default[key])
        out.extend(
            values[key] for profile, values in sorted(self._profiles.items())
            if profile not in self.active and key in values
        )  # fmt: skip
        return out

    def _folded(self) -> dict[str, str]:
        if self._lower is None:
            self._lower = {}
            for k in self.keys():
                self._lower.setdefault(_fold(k), k)
        return self._lower

    def get(self, key: str) -> ConfigValue | None:
        found = self.candidates(key)
        return found[0] if found else None

    def inactive(self, key: str) -> bool:
        """True when only profiles that are not active set ``key`` (it applies under them only)."""
        return key not in self._default and not any(key in self._profiles.get(p, {}) for p in self.active)

    def keys(self) -> list[str]:
        keys = set(self._default)
        for values in self._profiles.values():
            keys.update(values)
        return sorted(keys)

    def items_with_prefix(self, prefix: str) -> list[ConfigValue]:
        """The most authoritative value of every key starting with ``prefix``."""
        return [v for k in self.keys() if k.startswith(prefix) and (v := self.get(k)) is not None]
