"""Reads every deployment description of a repository: compose, Kubernetes, helm, skaffold,
`docker build` commands in Makefiles, scripts and CI workflows, Procfiles.

Only files that can be deployment config are parsed (by name, or a cheap ``apiVersion``/``kind:``
or compose ``services:`` text check), so a repository full of unrelated YAML costs nothing. Bad YAML becomes a gap.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping

import yaml
from attrs import define, field

from orbitkb.analysis import paths
from orbitkb.analysis.layout import buildimages, dockerbuild, helm, workflows
from orbitkb.analysis.layout.compose import (
    ComposeService,
    compose_rank,
    is_compose_file,
    looks_like_compose,
    read_compose,
)
from orbitkb.analysis.layout.k8s import K8sModel, looks_like_k8s, read_k8s
from orbitkb.analysis.layout.procfile import Process, is_procfile
from orbitkb.analysis.yamlines import LDict, LList, load_all
from orbitkb.domain.model import Gap


@define
class SkaffoldArtifact:
    image: str
    context: str
    dockerfile: str | None
    file: str
    line: int


@define
class Deployment:
    compose: list[ComposeService] = field(factory=list)  # overrides first, then base files
    k8s: K8sModel = field(factory=K8sModel)
    charts: dict[str, helm.Chart] = field(factory=dict)
    # images built from a folder: skaffold artifacts, `docker build` in Makefiles and scripts, and
    # the image a pom.xml / build.gradle names (layout.buildimages)
    skaffold: list[SkaffoldArtifact] = field(factory=list)
    procfiles: dict[str, str] = field(factory=dict)  # Procfile path -> text (layout.procfile)
    functions: list[Process] = field(factory=list)  # serverless.yml functions: their folder is deployed


def _line_map(origin: list[int]) -> Callable[[int], int]:
    """Rendered-template line -> template line."""
    return lambda n: origin[n - 1] if 0 < n <= len(origin) else n


def _is_yaml(path: str) -> bool:
    return path.endswith((".yml", ".yaml"))


#: The Serverless Framework's service file.
SERVERLESS_FILES = frozenset({"serverless.yml", "serverless.yaml"})


def _spring_like(name: str) -> bool:
    return name.startswith(("application", "bootstrap"))


class DeploymentReader:
    def __init__(
        self, texts: Mapping[str, str], repository: str, workflows: Mapping[str, str] | None = None
    ) -> None:
        self._texts = texts
        self._workflows = workflows or {}  # CI workflows (layout.workflows): never read as compose or k8s
        self._repo = repository
        self.gaps: list[Gap] = []

    def _load(self, path: str, text: str | None = None) -> list[object]:
        try:
            return load_all(self._texts[path] if text is None else text)
        except (yaml.YAMLError, ValueError, RecursionError) as exc:
            reason = str(exc).splitlines()[0][:200] if str(exc) else type(exc).__name__
            if text is not None:  # a helm template after the cheap rendering
                reason = f"helm template not renderable without helm ({reason}); values.yaml is still used"
            else:
                reason = f"YAML could not be parsed: {reason}"
            self.gaps.append(Gap(self._repo, path, "config_error", reason))
            return []

    def read(self) -> Deployment:
        dep = Deployment()
        yaml_files = sorted(p for p in self._texts if _is_yaml(p))
        for path in yaml_files:
            if paths.basename(path) == "Chart.yaml":
                self._chart(dep, path)
        compose_files = sorted((p for p in yaml_files if self._is_compose(p, dep.charts)), key=compose_rank)
        compose_set = set(compose_files)
        for path in compose_files:
            for doc in self._load(path)[:1]:
                dep.compose.extend(read_compose(path, doc, self._texts))
        for path in yaml_files:
            name = paths.basename(path)
            if path in compose_set or _spring_like(name) or name in ("Chart.yaml", "values.yaml"):
                continue
            if name.startswith("skaffold"):
                self._skaffold(dep, path)
                continue
            if name in SERVERLESS_FILES:
                self._serverless(dep, path)
                continue
            chart = helm.chart_of(path, dep.charts)
            if chart is not None:
                rendered, origin = helm.render(self._texts[path], chart)
                if looks_like_k8s(rendered):
                    docs = self._load(path, rendered)
                    read_k8s(dep.k8s, path, docs, "helm", _line_map(origin))
            elif looks_like_k8s(self._texts[path]):
                read_k8s(dep.k8s, path, self._load(path))
        for chart in dep.charts.values():
            dep.k8s.workloads.extend(helm.values_workloads(chart))
        for path in sorted(p for p in self._texts if dockerbuild.is_build_script(p)):
            dep.skaffold.extend(SkaffoldArtifact(*b) for b in dockerbuild.read_builds(path, self._texts[path]))
        for path in sorted(p for p in self._texts if paths.basename(p) in buildimages.BUILD_FILES):
            dep.skaffold.extend(SkaffoldArtifact(*b) for b in buildimages.read_images(path, self._texts[path]))
        dep.skaffold.extend(SkaffoldArtifact(*b) for b in workflows.builds(self._workflows))
        dep.procfiles = {p: t for p, t in sorted(self._texts.items()) if is_procfile(p)}
        return dep

    def _is_compose(self, path: str, charts: Mapping[str, helm.Chart]) -> bool:
        """Named like a compose file, or any other YAML that reads like one (not Spring config,
        a file of a helm chart, nor a tool's own file)."""
        name = paths.basename(path)
        if is_compose_file(name):
            return True
        if _spring_like(name) or name.startswith(("values", "skaffold")) or name in SERVERLESS_FILES:
            return False
        if any(paths.is_under(path, chart) for chart in charts):
            return False
        return looks_like_compose(self._texts[path])

    def _chart(self, dep: Deployment, path: str) -> None:
        docs = self._load(path)
        meta = docs[0] if docs and isinstance(docs[0], LDict) else LDict()
        folder = paths.parent(path)
        chart = helm.Chart(dir=folder, name=str(meta.get("name") or paths.basename(folder)))
        deps = meta.get("dependencies")
        for i, item in enumerate(deps if isinstance(deps, LList) else []):
            if isinstance(item, LDict) and item.get("name") and isinstance(deps, LList):
                chart.dependencies.append((str(item["name"]), deps.line(i)))
        values_path = paths.join(folder, "values.yaml")
        if values_path and values_path in self._texts:
            values = self._load(values_path)
            if values and isinstance(values[0], LDict):
                chart.values, chart.values_file = values[0], values_path
        dep.charts[folder] = chart

    def _serverless(self, dep: Deployment, path: str) -> None:
        """The Serverless Framework deploys the folder of its serverless.yml as ``functions``."""
        docs = self._load(path)
        functions = docs[0].get("functions") if docs and isinstance(docs[0], LDict) else None
        if isinstance(functions, LDict):
            for name in functions:
                dep.functions.append(
                    Process(str(name), paths.parent(path), path, functions.line(name), "function")
                )

    def _skaffold(self, dep: Deployment, path: str) -> None:
        base = paths.parent(path)
        for doc in self._load(path):
            build = doc.get("build") if isinstance(doc, LDict) else None
            artifacts = build.get("artifacts") if isinstance(build, LDict) else None
            for i, art in enumerate(artifacts if isinstance(artifacts, list) else []):
                # skaffold before v1beta1 wrote imageName and workspace for image and context
                image = art.get("image", art.get("imageName")) if isinstance(art, LDict) else None
                if not image:
                    continue
                context = paths.join(base, str(art.get("context", art.get("workspace", ".")))) or base
                docker = art.get("docker")
                dockerfile = docker.get("dockerfile") if isinstance(docker, LDict) else None
                dep.skaffold.append(
                    SkaffoldArtifact(
                        str(image), context,
                        paths.join(context, str(dockerfile)) if dockerfile else None,
                        path, artifacts.line(i),  # type: ignore[union-attr]
                    )
                )  # fmt: skip
