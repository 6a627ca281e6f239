"""StaticCodeAnalyzer: the CodeAnalyzer port — a source tree in, deterministic facts out.

Stages: read (walk, hash, parse through the cache) -> layout (services, libraries, resources)
-> link (each service's files through its language analyzer) -> configuration -> resolution of
calls, channels and engines -> domain facts. Nothing here raises on bad input: problems are gaps.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence

from orbitkb.analysis import filetypes as ft
from orbitkb.analysis import layout as layout_rules
from orbitkb.analysis import paths
from orbitkb.analysis.config.dotnet import is_appsettings, read_appsettings
from orbitkb.analysis.config.spring import SpringDoc, is_spring_config, read_spring
from orbitkb.analysis.facts import LanguageAnalyzer
from orbitkb.analysis.gateways.calls import is_proxy_config, proxy_server
from orbitkb.analysis.grpc.bind import BIND_VERSION
from orbitkb.analysis.layout import workflows
from orbitkb.analysis.layout.balancer import only_balances_replicas
from orbitkb.analysis.layout.deploy import DeploymentReader
from orbitkb.analysis.layout.manifests import Manifest, manifest_kind, nest_monorepo, read_manifest
from orbitkb.analysis.layout.services import LayoutInput, detect
from orbitkb.analysis.pipeline import Pipeline
from orbitkb.analysis.reading import vocabulary
from orbitkb.analysis.reading.parsing import default_workers
from orbitkb.analysis.reading.sources import read_sources
from orbitkb.analysis.reading.walk import DEFAULT_SIZE_CAP
from orbitkb.analysis.registry import DEFAULT_MODULES, LoadedAnalyzer, load_analyzers, suffix_table
from orbitkb.analysis.vendors import code as vendorcode
from orbitkb.domain.model import Gap
from orbitkb.domain.ports import AnalysisCache, AnalysisRequest, AnalysisResult, SourceTree

PIPELINE_VERSION = "4"


def _workflows(tree: SourceTree, walked: Sequence[Gap]) -> dict[str, str]:
    """CI workflow texts (the walk prunes hidden folders): listed again only when it pruned ``.github``."""
    if not any(g.path == ".github" and g.kind == "skipped_hidden" for g in walked):
        return {}
    files = [e.path for e in tree.list_files(workflows.keep_workflows) if e.kind == "file"]
    return workflows.read_workflows(files, lambda p: tree.read_bytes(p).decode("utf-8", "replace"))


class StaticCodeAnalyzer:
    """Parsers + manifests + deployment configuration -> AnalysisResult.

    ``analyzers`` overrides the language analyzers (tests, plug-ins); by default they are
    imported from ``modules`` and any that fails to import is reported as a gap.
    ``workers`` caps the parse processes (None: automatic, 0/1: parse in this process).
    """

    def __init__(
        self,
        analyzers: Sequence[LanguageAnalyzer] | None = None,
        modules: Sequence[str] = DEFAULT_MODULES,
        size_cap: int = DEFAULT_SIZE_CAP,
        workers: int | None = None,
    ) -> None:
        if analyzers is None:
            loaded, self._problems = load_analyzers(modules)
        else:
            loaded, self._problems = [LoadedAnalyzer(None, a) for a in analyzers], []
        self._analyzers = {a.analyzer.stack: a for a in loaded}
        self._suffixes = suffix_table(loaded)
        self._size_cap = size_cap
        self._workers = workers

    @property
    def version(self) -> str:
        """Every version the facts depend on: the pipeline, each stack's analyzer, the layout rules
        and the tables the parse and link caches are keyed by (source words, gRPC binding, vendor
        scans); what a fitted ranking records it was fitted on (benchmarks/realhistory/fit.py)."""
        parts = [f"{s}-{a.analyzer.version}" for s, a in sorted(self._analyzers.items())]
        caches = [f"vocabulary-{vocabulary.VERSION}", f"grpc-bind-{BIND_VERSION}", vendorcode.version(),
                  f"layout-{layout_rules.VERSION}"]
        return "+".join([f"pipeline-{PIPELINE_VERSION}", *parts, *caches])

    def analyze(
        self,
        tree: SourceTree,
        request: AnalysisRequest,
        cache: AnalysisCache,
        progress: Callable[[str, int, int], None] | None = None,
    ) -> AnalysisResult:
        report = progress or (lambda stage, done, total: None)
        repo = request.repository
        gaps = [Gap(repo, module, "analyzer_unavailable", reason) for module, reason in self._problems]
        src = read_sources(
            tree, repo, self._analyzers, self._suffixes, cache, self._size_cap, self._workers, report,
            signature=f"pipeline-{PIPELINE_VERSION}",
        )  # fmt: skip
        gaps += src.gaps
        manifests: list[Manifest] = []
        spring_docs: list[SpringDoc] = []
        for path, text in sorted(src.texts.items()):
            if ft.is_test_path(path):
                continue
            if manifest_kind(paths.basename(path)):
                manifest, error = read_manifest(path, text)
                nest = nest_monorepo(src.texts.get(paths.join(paths.parent(path), "nest-cli.json") or ""))
                if nest is not None and paths.basename(path) == "package.json":
                    manifest.entry, manifest.aggregator = None, True
                manifests.append(manifest)
                if error:
                    gaps.append(Gap(repo, path, "manifest_error", error))
            elif is_spring_config(path) or is_appsettings(path):
                docs, error = (read_appsettings if is_appsettings(path) else read_spring)(path, text)
                spring_docs.extend(docs)
                if error:
                    gaps.append(Gap(repo, path, "config_error", error))
        reader = DeploymentReader(src.texts, repo, _workflows(tree, src.gaps))
        deployment = reader.read()
        gaps += reader.gaps
        nginx = sorted(p for p, t in src.texts.items() if is_proxy_config(p, t))

        def app_name(root: str) -> str | None:
            """The unit's own spring.application.name: a default-profile document in Spring's own
            locations first, then the shallowest (a nested module's must not name the folder above)."""
            found = [
                (_spring_rank(root, doc.file), doc.file, value.value)
                for doc in spring_docs
                if doc.profile is None
                and (value := doc.props.get("spring.application.name")) is not None
                and value.value.strip()
                and paths.is_under(doc.file, root)
                and "${" not in value.value
            ]
            return min(found)[2].strip() if found else None

        nest_libraries = [
            paths.join(paths.parent(p), root) or root
            for p, t in src.texts.items()
            if paths.basename(p) == "nest-cli.json"
            for root in nest_monorepo(t) or ()
        ]
        entry_files = {
            p: ft.CODE_STACKS.get(ft.suffix_of(p), "")
            for p in sorted(src.entry_files)
            if not any(paths.is_under(p, lib) for lib in nest_libraries)
        }
        code_paths = [
            r.path for r in src.records
            if not r.test and (ft.suffix_of(r.name) in ft.CODE_STACKS or ft.suffix_of(r.name) in ft.OTHER_CODE)
        ]  # fmt: skip
        layout = detect(
            LayoutInput(
                repo, manifests, code_paths, entry_files, deployment, nginx, app_name, request.forced_service,
                {p: proxy_server(src.texts[p], p) for p in nginx},
                frozenset(p for p in nginx if only_balances_replicas(src.texts[p])),
            )
        )
        gaps += layout.gaps
        pipeline = Pipeline(
            repo,
            tree.commit,
            self._analyzers,
            src,
            layout,
            deployment,
            spring_docs,
            nginx,
            report,
            cache,
            self._workers if self._workers is not None else default_workers(),
        )
        services, files, more_gaps = pipeline.run()
        gaps += more_gaps
        unique_gaps = sorted(set(gaps), key=lambda g: (g.path, g.kind, g.reason))
        return AnalysisResult(
            services=tuple(services),
            resources=tuple(layout.resources),
            gaps=tuple(unique_gaps),
            files=tuple(files),
            files_parsed=src.files_parsed + getattr(src.parsed, "files_parsed", 0),
        )


def _spring_rank(root: str, file: str) -> tuple[bool, int, bool]:
    rel = file if root == "." else file[len(root) + 1 :]
    standard = "/" not in rel or rel.startswith(("src/main/resources/", "config/"))
    return not standard, rel.count("/"), paths.basename(rel).startswith("bootstrap")
