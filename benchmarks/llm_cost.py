"""LLM cost of the semantic layer: calls and prompt bytes per service, cold and after a one-file
change, measured with a recording fake ``claude`` CLI (no network, no real model).

    uv run python benchmarks/llm_cost.py                 # the synthetic system
    uv run python benchmarks/llm_cost.py --examples examples/shopfront
    uv run python benchmarks/llm_cost.py --fake inprocess   # skip the subprocess per call

For each service it prints the calls and bytes sent on a cold run, the bytes of the service's
source files (what pasting whole files once would cost) and of the handler files pasted once
per endpoint (the reference's approach), then the calls and bytes after one handler changed.
Aims: far fewer bytes than pasting files per endpoint; after the change, only the changed
endpoint, its component and its service overview are sent again; a warm re-run sends nothing.
"""

from __future__ import annotations

import argparse
import hashlib
import os
import stat
import sys
import tempfile
import time
from collections.abc import Mapping
from pathlib import Path
from typing import Any

from orbitkb.domain.enrichment import EnrichKnowledge, EnrichRequest, EnrichResult
from orbitkb.domain.fakes import InMemoryKnowledgeStore, MemorySourceTree
from orbitkb.domain.fakes.llm import FakeLLMBackend, synthesize
from orbitkb.domain.ids import make_id, service_id
from orbitkb.domain.model import (
    Api,
    CallKind,
    Component,
    Direction,
    Evidence,
    Message,
    PersistenceEntity,
    Repository,
    Service,
    ServiceCall,
    ServiceFacts,
    TargetKind,
)

REPO = "synthetic"

FAKE_CLAUDE = """#!{python}
# A recording fake of `claude -p --output-format json --json-schema ...`: appends the size of
# the prompt read on stdin to $ORBITKB_FAKE_LOG and answers with a schema-valid object whose text
# depends on the prompt (as a real model's would), so a changed endpoint changes its summary.
import hashlib, json, os, sys
from orbitkb.domain.fakes.llm import synthesize
prompt = sys.stdin.buffer.read()
schema = json.loads(sys.argv[sys.argv.index("--json-schema") + 1])
with open(os.environ["ORBITKB_FAKE_LOG"], "a") as log:
    log.write(json.dumps({{"bytes": len(prompt)}}) + "\\n")
print(json.dumps({{"type": "result", "subtype": "success", "is_error": False, "result": "",
                   "structured_output": synthesize(schema, tag=hashlib.sha256(prompt).hexdigest()[:8])}}))
"""


# --------------------------------------------------------------------------- synthetic system

HANDLER = '''
@router.{verb}("/{res}/{i}")
def {name}(payload: dict):
    """{doc}"""
    checked = _validate_{name}(payload)
    total = sum(item["qty"] * item["price"] for item in checked["items"])
    record = {{"id": payload.get("id"), "total": total, "status": "new"}}
    return _store_{name}(record)


def _validate_{name}(payload):
    if "items" not in payload:
        raise ValueError("items required")
    return payload


def _store_{name}(record):
    repository.save(record)
    return record
'''

PADDING = '''

class {model}Model:
    """A persisted {res} record (padding that a whole-file paste would carry along)."""

    fields = ["id", "status", "total", "created_at", "updated_at", "owner", "notes"]

    def to_dict(self):
        return {{f: getattr(self, f, None) for f in self.fields}}
'''


def synthetic(
    services: int = 8, files: int = 3, handlers: int = 4
) -> tuple[list[ServiceFacts], dict[str, str]]:
    sources: dict[str, str] = {}
    out: list[ServiceFacts] = []
    names = [f"svc-{i:02d}" for i in range(services)]
    for si, name in enumerate(names):
        svc = Service(service_id(REPO, name), name, REPO, name, "python", "fastapi")
        comps: list[Component] = []
        apis: list[Api] = []
        calls: list[ServiceCall] = []
        for fi in range(files):
            path = f"{name}/api/res{fi}.py"
            text = "from fastapi import APIRouter\nrouter = APIRouter()\n"
            comp = Component(make_id("comp", svc.id, path), svc.id, f"res{fi}", path, "module")
            comps.append(comp)
            for hi in range(handlers):
                handler = f"handle_{fi}_{hi}"
                start = text.count("\n") + 2
                text += HANDLER.format(
                    verb="post", res=f"res{fi}", i=hi, name=handler, doc=f"Handles {handler}."
                )
                end = start + 7
                api = Api(
                    make_id("api", svc.id, "POST", f"/res{fi}/{hi}"),
                    svc.id,
                    "POST",
                    f"/res{fi}/{hi}",
                    handler,
                    path,
                    start,
                    end,
                    component_id=comp.id,
                )
                apis.append(api)
                if hi == 0 and si + 1 < services:
                    target = names[si + 1]
                    calls.append(
                        ServiceCall(
                            make_id("call", svc.id, api.id, target),
                            svc.id,
                            CallKind.HTTP,
                            target,
                            TargetKind.INTERNAL,
                            to_service_id=service_id(REPO, target),
                            from_api_id=api.id,
                            evidence=(Evidence(path, start + 4, start + 4),),
                        )
                    )
            text += "".join(PADDING.format(model=f"M{k}", res=f"res{fi}") for k in range(12))
            sources[path] = text
        entity = PersistenceEntity(
            make_id("ent", svc.id, "records"), svc.id, f"{name}_records", "sql_table", "postgres"
        )
        message = Message(
            make_id("msg", svc.id, "evt"), svc.id, Direction.PUBLISHES, f"{name}.created", "kafka", apis[0].id
        )
        out.append(ServiceFacts(svc, tuple(comps), tuple(apis), tuple(calls), (entity,), (message,)))
    return out, sources


def change_one_handler(sources: Mapping[str, str], api: Api) -> dict[str, str]:
    """The same file with one line of one handler edited (line count unchanged)."""
    lines = sources[api.file].split("\n")
    idx = api.start_line + 4  # inside the handler body
    lines[idx] = lines[idx] + "  # tax rounding fixed"
    return {**sources, api.file: "\n".join(lines)}


# --------------------------------------------------------------------------- examples via the analyzer


def analyzed(path: str) -> tuple[list[ServiceFacts], dict[str, str]] | None:
    try:
        from orbitkb.analysis import StaticCodeAnalyzer  # type: ignore[attr-defined]
        from orbitkb.domain.ports import AnalysisRequest
    except ImportError:
        return None
    root = Path(path)
    sources = {
        p.relative_to(root).as_posix(): p.read_text("utf-8", "replace")
        for p in sorted(root.rglob("*"))
        if p.is_file() and p.stat().st_size < 500_000 and ".git" not in p.parts
    }
    result = StaticCodeAnalyzer().analyze(
        MemorySourceTree(sources, root=str(root)),
        AnalysisRequest(REPO),
        InMemoryKnowledgeStore().analysis_cache(),
    )
    return list(result.services), sources


# --------------------------------------------------------------------------- measuring


def fake_backend(kind: str, workdir: str) -> tuple[Any, Path]:
    log = Path(workdir, "calls.jsonl")
    if kind == "inprocess":
        return FakeLLMBackend(responder=_varying), log
    from orbitkb.llm_cli import ClaudeCliBackend

    exe = Path(workdir, "claude")
    exe.write_text(FAKE_CLAUDE.format(python=sys.executable))
    exe.chmod(exe.stat().st_mode | stat.S_IEXEC)
    env = {**os.environ, "ORBITKB_FAKE_LOG": str(log)}
    return ClaudeCliBackend(executable=str(exe), env=env), log


def _varying(prompt: str, schema: Mapping[str, Any]) -> Any:
    return synthesize(schema, tag=hashlib.sha256(prompt.encode()).hexdigest()[:8])


def run(store: InMemoryKnowledgeStore, backend: Any, sources: Mapping[str, str], jobs: int) -> EnrichResult:
    return EnrichKnowledge(store, backend).execute(
        EnrichRequest(REPO, MemorySourceTree(dict(sources)), jobs=jobs)
    )


def per_endpoint_file_bytes(facts: list[ServiceFacts], sources: Mapping[str, str]) -> dict[str, int]:
    return {f.service.name: sum(len(sources.get(a.file, "").encode()) for a in f.apis) for f in facts}


def service_file_bytes(facts: list[ServiceFacts], sources: Mapping[str, str]) -> dict[str, int]:
    out = {}
    for f in facts:
        prefix = f.service.root_dir.rstrip("/") + "/" if f.service.root_dir not in ("", ".") else ""
        out[f.service.name] = sum(len(t.encode()) for p, t in sources.items() if p.startswith(prefix))
    return out


def report(title: str, facts: list[ServiceFacts], sources: dict[str, str], fake: str, jobs: int) -> None:
    with tempfile.TemporaryDirectory(prefix="orbitkb-bench-") as workdir:
        backend, log = fake_backend(fake, workdir)
        store = InMemoryKnowledgeStore()
        store.replace_repository_facts(Repository(REPO, "/bench"), facts, [], [], [], [])
        t0 = time.perf_counter()
        cold = run(store, backend, sources, jobs)
        t_cold = time.perf_counter() - t0
        warm = run(store, backend, sources, jobs)
        first_api = next(a for f in facts for a in f.apis)
        changed = change_one_handler(sources, first_api)
        store.replace_repository_facts(Repository(REPO, "/bench"), facts, [], [], [], [])  # re-index
        after = run(store, backend, changed, jobs)
        recorded = len(log.read_text().splitlines()) if log.exists() else None

    whole = service_file_bytes(facts, sources)
    per_endpoint = per_endpoint_file_bytes(facts, sources)
    after_by = {s.service: s for s in after.services}
    print(f"\n## {title}  (fake={fake}, jobs={jobs}, cold run {t_cold:.1f}s)")
    print(
        f"{'service':<24}{'apis':>5}{'calls':>7}{'sent KB':>9}{'files KB':>10}{'per-api KB':>11}{'Δcalls':>8}{'ΔKB':>7}"
    )
    for s in cold.services:
        n_apis = next(len(f.apis) for f in facts if f.service.id == s.service_id)
        a = after_by[s.service]
        print(
            f"{s.service:<24}{n_apis:>5}{s.llm_calls:>7}{s.prompt_bytes / 1024:>9.1f}"
            f"{whole[s.service] / 1024:>10.1f}{per_endpoint[s.service] / 1024:>11.1f}"
            f"{a.llm_calls:>8}{a.prompt_bytes / 1024:>7.1f}"
        )
    total_pe = sum(per_endpoint.values())
    print(
        f"total: cold {cold.llm_calls} calls / {cold.prompt_bytes / 1024:.1f} KB "
        f"(whole files once {sum(whole.values()) / 1024:.1f} KB, per endpoint {total_pe / 1024:.1f} KB); "
        f"warm re-run {warm.llm_calls} calls; after one-file change {after.llm_calls} calls "
        f"/ {after.prompt_bytes / 1024:.1f} KB; failed {len(cold.failed)}"
        + (f"; CLI invocations recorded {recorded}" if recorded is not None else "")
    )


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--examples", help="index this folder with the static analyzer first")
    parser.add_argument("--services", type=int, default=8)
    parser.add_argument("--fake", choices=("cli", "inprocess"), default="cli")
    parser.add_argument("--jobs", type=int, default=2)
    args = parser.parse_args(argv)
    facts, sources = synthetic(args.services)
    report(f"synthetic system: {args.services} services", facts, sources, args.fake, args.jobs)
    if args.examples:
        got = analyzed(args.examples)
        if got is None:
            print(f"\n## {args.examples}: skipped (orbitkb.analysis.StaticCodeAnalyzer not available yet)")
        elif not any(f.apis for f in got[0]):
            print(f"\n## {args.examples}: skipped (the analyzer found no endpoints)")
        else:
            report(args.examples, *got, args.fake, args.jobs)
    return 0


if __name__ == "__main__":
    sys.exit(main())
