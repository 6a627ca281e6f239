"""Infrastructure as resources: compose services, Kubernetes workloads and helm dependencies
running database, broker, cache, search or stock reverse-proxy images."""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from orbitkb.analysis import paths
from orbitkb.analysis.layout.candidates import Candidate, Unit
from orbitkb.analysis.layout.compose import ComposeService
from orbitkb.analysis.layout.deploy import Deployment
from orbitkb.analysis.layout.infra import edge_of, infra_of
from orbitkb.analysis.layout.k8s import Container, Workload
from orbitkb.analysis.layout.model import Layout
from orbitkb.analysis.layout.refs import Refs
from orbitkb.domain.model import Evidence, Resource


def collect_resources(
    repository: str,
    dep: Deployment,
    loose_compose: Sequence[ComposeService],
    loose_workloads: Sequence[tuple[Workload, Container]],
    cands: Mapping[str, Candidate],
    units: Sequence[Unit],
    refs: Mapping[int, Refs],
    layout: Layout,
) -> list[Resource]:
    found: dict[str, Resource] = {}

    def add(name: str, image: str | None, kind_engine: tuple[str, str] | None, file: str, line: int) -> None:
        if kind_engine and name not in found:
            found[name] = Resource(
                name, repository, kind_engine[0], kind_engine[1], image, (Evidence(file, line, line),)
            )

    finals = {m.path: m.images[-1] for c in cands.values() for m in c.manifests if m.images}
    for svc in loose_compose:  # an image, or a build FROM one (``dockerfile: db.dockerfile``)
        image = svc.image or finals.get(svc.dockerfile or "")
        add(svc.name, image, infra_of(image) or edge_of(image), svc.file, svc.line)
    service_roots = {s.root for s in layout.services}
    for i, unit in enumerate(units):  # built from a Dockerfile FROM an infrastructure image
        image = unit.candidate.infra_image()
        if unit.root in service_roots or image is None:
            continue
        for svc in refs[i].compose if i in refs else []:
            add(svc.name, image, infra_of(image), svc.file, svc.line)
    for workload, container in loose_workloads:
        add(workload.name, container.image, infra_of(container.image), workload.file, workload.line)
    for chart in dep.charts.values():
        chart_file = paths.join(chart.dir, "Chart.yaml") or "Chart.yaml"
        for name, line in chart.dependencies:
            add(name, None, infra_of(name), chart_file, line)
    return sorted(found.values(), key=lambda r: r.name)
