"""The result of service layout: deployable units with their names, and what they run from."""

from __future__ import annotations

from attrs import define, field

from orbitkb.analysis.layout.compose import ComposeService
from orbitkb.analysis.layout.k8s import Container, Workload
from orbitkb.analysis.layout.manifests import Manifest
from orbitkb.domain.model import Gap, Resource


@define
class ServiceUnit:
    name: str
    root: str  # repository-relative folder, "." for the root
    stack: str
    aliases: list[str] = field(factory=list)
    manifests: list[Manifest] = field(factory=list)  # its own, then its ancestors' (shared deps)
    compose: list[ComposeService] = field(factory=list)
    workloads: list[tuple[Workload, Container]] = field(factory=list)
    evidence: list[tuple[str, int]] = field(factory=list)
    framework: str | None = None  # set by layout only for gateways it recognises itself (nginx)
    split_of: str | None = None  # the candidate folder this unit was split from
    entry: str | None = None  # why it is deployable

    def deps(self) -> set[str]:
        out: set[str] = set()
        for m in self.manifests:
            out |= m.deps
        return out


@define
class Layout:
    services: list[ServiceUnit] = field(factory=list)
    resources: list[Resource] = field(factory=list)
    gaps: list[Gap] = field(factory=list)
    #: folders of shared code: candidates that are not services (libraries)
    libraries: list[str] = field(factory=list)
