"""Cold analyzer cost per source file, per stack, on real clones: every file of the stack parsed
with no cache, then linked service by service (a folder holding a build manifest is a service),
in this process. Reported in ms per file and as a ratio to the JVM analyzer's, the yardstick new
stacks are held to (issue 16: within 1.5x)."""

from __future__ import annotations

import time
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any

#: stack -> the clones (benchmarks/realworld names) whose files measure it.
CORPUS: dict[str, tuple[str, ...]] = {
    "jvm-spring": ("spring-petclinic-microservices", "piggymetrics", "ftgo-application"),
    "dotnet": ("eShopOnContainers", "AspnetMicroservices", "microservices-demo"),
    "ruby": ("MfCareGR", "opbeans-ruby", "hotrod-ruby"),
    "php": ("laravel-microservices-rabbitmq", "robot-shop"),
    "rust": ("rust-microservices-architecture", "rust-microservice-with-envoy"),
}
MANIFESTS = {"jvm-spring": ("pom.xml", "build.gradle", "build.gradle.kts"), "dotnet": (".csproj",),
             "ruby": ("Gemfile",), "php": ("composer.json",), "rust": ("Cargo.toml",)}  # fmt: skip
REPEAT = 5
SKIP = ("/node_modules/", "/target/", "/build/", "/bin/", "/obj/", "/.git/", "/test/", "/tests/", "Tests/")


def _analyzer(stack: str) -> Any:
    from orbitkb.analysis.registry import load_analyzers

    loaded, _ = load_analyzers()
    return next(a.analyzer for a in loaded if a.analyzer.stack == stack)


def _files(root: Path, suffixes: Sequence[str]) -> list[Path]:
    """The files an index reads: generated ones by their name (``*.Designer.cs``, ``*Grpc.java``) are
    left out by the walker before any analyzer sees them, so they are not measured either."""
    from orbitkb.analysis.filetypes import is_generated

    return sorted(
        p
        for p in root.rglob("*")
        if p.suffix in suffixes and p.is_file() and not any(s in f"/{p}" for s in SKIP) and not is_generated(p.name)
    )


def _service_of(path: Path, roots: Sequence[Path]) -> Path:
    return max((r for r in roots if r in path.parents), key=lambda r: len(r.parts), default=path.parent)


class _Stack:
    """One stack's files, read once, timed round after round (interleaved with the other stacks)."""

    def __init__(self, stack: str, clones: Path, names: Sequence[str]) -> None:
        self.stack = stack
        self.analyzer = _analyzer(stack)
        self.files: list[tuple[Path, Path]] = []
        for name in names:
            root = clones / name
            if not root.is_dir():
                continue
            roots = [
                p.parent
                for p in root.rglob("*")
                if p.name.endswith(MANIFESTS[stack]) and "/.git/" not in str(p)
            ]
            self.files += [(f, _service_of(f, roots)) for f in _files(root, self.analyzer.suffixes)]
        self.texts = {f: f.read_text(errors="replace") for f, _ in self.files}
        self.parse_s = self.link_s = float("inf")
        self.services = 0

    def round(self) -> None:
        from orbitkb.analysis.facts import ServiceContext

        t0 = time.perf_counter()
        parsed = {f: self.analyzer.parse(str(f), self.texts[f]) for f, _ in self.files}
        self.parse_s = min(self.parse_s, time.perf_counter() - t0)
        by_service: dict[Path, dict[str, dict[str, Any]]] = {}
        for f, service in self.files:
            by_service.setdefault(service, {})[str(f)] = parsed[f]
        t1 = time.perf_counter()
        for service, group in sorted(by_service.items()):
            self.analyzer.link(ServiceContext(service.name, str(service), self.stack, "bench"), group)
        self.link_s = min(self.link_s, time.perf_counter() - t1)
        self.services = len(by_service)

    def result(self) -> dict[str, Any]:
        size = sum(len(t) for t in self.texts.values())
        spent = self.parse_s + self.link_s
        return {"files": len(self.files), "services": self.services, "kb": round(size / 1024),
                "parse_s": self.parse_s, "link_s": self.link_s, "ms_per_file": 1000 * spent / len(self.files),
                "us_per_kb": 1e6 * spent / max(1, size / 1024)}  # fmt: skip


def measure(clones: Path, corpus: Mapping[str, Sequence[str]] = CORPUS) -> dict[str, Any]:
    """Best of REPEAT rounds per stack, the rounds interleaved: the machine is shared, and a busy
    moment must not fall on one stack only."""
    stacks = [s for stack, names in corpus.items() if (s := _Stack(stack, clones, names)).files]
    for _ in range(REPEAT):
        for s in stacks:
            s.round()
    out = {s.stack: s.result() for s in stacks}
    base = out.get("jvm-spring")
    for found in out.values():
        found["ratio_to_jvm"] = found["ms_per_file"] / base["ms_per_file"] if base else None
    return out


def table(results: Mapping[str, Any]) -> str:
    rows = [
        "| stack | files (services, KB) | parse + link | per file | per KB | vs JVM |",
        "|---|---|---|---|---|---|",
    ]
    for stack, r in results.items():
        ratio = f"{r['ratio_to_jvm']:.2f}×" if r.get("ratio_to_jvm") is not None else "—"
        rows.append(f"| {stack} | {r['files']} ({r['services']}, {r['kb']}) | {r['parse_s']:.2f} + {r['link_s']:.2f} s "
                    f"| {r['ms_per_file']:.2f} ms | {r['us_per_kb']:.0f} µs | {ratio} |")  # fmt: skip
    return "\n".join(rows)
