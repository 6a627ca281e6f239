"""Configuration values with provenance: the value, the file:line it was read from and the source."""

from __future__ import annotations

from attrs import frozen

#: Env precedence when a variable is set in several places (first wins): compose > k8s > helm >
#: the image's Dockerfile ENV (what a deployment overrides) > .env files (loaders keep what is set).
SOURCE_ORDER = ("docker-compose", "kubernetes", "helm", "dockerfile", "dotenv", "spring", "code")


@frozen
class ConfigValue:
    key: str  # env var name or property key
    value: str
    file: str
    line: int
    source: str  # one of SOURCE_ORDER

    def note(self) -> str:
        kind = "property" if self.source == "spring" else "env"
        return f"{kind} {self.key} set in {self.source} {self.file}:{self.line}"


@frozen
class ConfigRef:
    """An env var whose value lives in a Kubernetes ConfigMap: resolved once all maps are read."""

    key: str
    configmap: str
    configmap_key: str
    file: str
    line: int
    source: str


def source_rank(source: str) -> int:
    return SOURCE_ORDER.index(source) if source in SOURCE_ORDER else len(SOURCE_ORDER)
