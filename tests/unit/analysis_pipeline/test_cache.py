"""Per-file parse cache: keys, batching, real-parse counting, determinism across runs."""

from __future__ import annotations

import hashlib

from orbitkb.analysis.reading import vocabulary
from orbitkb.analysis.vendors import code as vendorcode

COMPOSE = "services:\n  orders:\n    build: ./orders\n  payments:\n    build: ./payments\n"


def system(n_extra: int = 0) -> dict[str, str]:
    files = {
        "docker-compose.yml": COMPOSE,
        "orders/requirements.txt": "requests\n",
        "orders/app.py": "# @entry\n# @api GET /orders list_orders\n"
        "# @call http requests lit:http://payments:9000/pay method=POST handler=list_orders\n",
        "orders/__init__.py": "",
        "payments/go.mod": "module example.com/payments\n",
        "payments/main.go": "// @entry\n// @api POST /pay Pay\n",
        "payments/util/__init__.py": "",
    }
    for i in range(n_extra):
        files[f"orders/mod{i}.py"] = f"# module {i}\n"
    return files


def test_second_run_parses_nothing_and_yields_identical_facts(analyze, stubs, cache):
    first = analyze(system(), stubs=stubs, cache=cache)
    assert first.result.files_parsed == 3  # app.py, main.go, and the two identical empty files once
    second = analyze(system(), stubs=stubs, cache=cache)
    assert second.result.files_parsed == 0
    for part in ("services", "resources", "gaps", "files"):
        assert getattr(second.result, part) == getattr(first.result, part)


def test_cache_keys_are_stack_version_and_content_hash(analyze, cache):
    analyze(system(), cache=cache)
    sha = hashlib.sha256(b"// @entry\n// @api POST /pay Pay\n").hexdigest()
    key = f"go:1+{vocabulary.VERSION}+{vendorcode.version()}:{sha}"
    assert key in cache.data  # the vocabulary and the vendors the code names ride with each parse
    parse_keys = [k for k in cache.data if not k.startswith("link:")]
    assert sorted({k.split(":")[0] for k in parse_keys}) == ["go", "python"]
    assert sorted(k.split(":")[1] for k in cache.data if k.startswith("link:")) == ["go", "python"]


def test_one_changed_file_is_the_only_one_parsed(analyze, stubs, cache):
    analyze(system(), stubs=stubs, cache=cache)
    files = system()
    files["orders/app.py"] += "# @api DELETE /orders/{id} delete_order\n"
    run = analyze(files, stubs=stubs, cache=cache)
    assert run.result.files_parsed == 1
    assert sorted(a.path for a in run.service("orders").apis) == ["/orders", "/orders/{id}"]


def test_unchanged_services_are_not_linked_again(analyze, stubs, cache):
    analyze(system(), stubs=stubs, cache=cache)
    files = system()
    files["orders/app.py"] += "# @api DELETE /orders/{id} delete_order\n"
    run = analyze(files, stubs=stubs, cache=cache)
    assert [ctx.name for ctx, _ in stubs[0].link_calls] == ["orders", "orders"]  # python: relinked
    assert [ctx.name for ctx, _ in stubs[3].link_calls] == ["payments"]  # go: from the cache
    assert [a.path for a in run.service("payments").apis] == ["/pay"]


def test_link_cache_round_trips_every_raw_fact():
    from orbitkb.analysis import linkcache
    from orbitkb.analysis.facts import (
        Env,
        Expr,
        LinkedFacts,
        Lit,
        ParseGap,
        Prop,
        RawApi,
        RawCall,
        RawComponent,
        RawEntity,
        RawMessage,
        Unknown,
    )

    facts = LinkedFacts(
        components=(RawComponent("A", "a.py", "module", 1, 9, "doc"),),
        apis=(RawApi("GET", "/x", "h", "a.py", 1, 2, request_fields=(("f", "int", True),)),),
        calls=(
            RawCall(
                "http",
                "a.py",
                3,
                3,
                "requests",
                Expr((Env("X", "d"), Lit("/p"), Unknown("u"), Prop("k"))),
                "GET",
            ),
            RawCall("grpc", "a.py", 4, 4, "stub", None, grpc_service="S"),
        ),
        messages=(RawMessage("publishes", Expr.lit("t"), "kafka", "a.py", 4, 4),),
        entities=(RawEntity("t", "sql_table", "a.py", 1, 2, "T", (("id", "int", False, True),), "postgres"),),
        grpc_implements=("S",),
        framework="flask",
        gaps=(ParseGap("a.py", "parse_error", "y"),),
        properties={"a": "b"},
    )
    assert linkcache.loads(linkcache.dumps(facts)) == facts


def test_a_new_analyzer_version_invalidates_its_files_only(analyze, stubs, cache):
    analyze(system(), stubs=stubs, cache=cache)
    stubs[3].version = "2"  # go
    run = analyze(system(), stubs=stubs, cache=cache)
    assert run.result.files_parsed == 1


def test_lookups_and_writes_are_batched(analyze, cache):
    analyze(system(n_extra=1200), cache=cache)
    assert cache.gets <= 4 and cache.puts <= 4  # 1205 files in batches of 512


def test_parse_crash_becomes_a_gap_and_is_not_cached(analyze, stubs, cache):
    files = system()
    files["orders/broken.py"] = "# @crash\n"
    files["orders/bad.py"] = "# @error unexpected indent (line 3)\n"
    run = analyze(files, stubs=stubs, cache=cache)
    assert ("orders/broken.py", "parse_error") in run.gaps()
    assert ("orders/bad.py", "parse_error") in run.gaps()
    reasons = {g.path: g.reason for g in run.result.gaps}
    assert reasons["orders/bad.py"] == "unexpected indent (line 3)"
    assert "RuntimeError" in reasons["orders/broken.py"]
    again = analyze(files, stubs=stubs, cache=cache)
    assert again.result.files_parsed == 1  # the crash is retried, the syntax error is cached


def test_ids_are_stable_and_facts_sorted(analyze):
    a = analyze(system(), commit="abc").result
    b = analyze(dict(reversed(list(system().items()))), commit="abc").result
    assert a.services == b.services and a.files == b.files
    assert [f.service.name for f in a.services] == sorted(f.service.name for f in a.services)
    call = a.services[0].calls[0]
    assert call.id.startswith("call:") and call.evidence[0].commit == "abc"


def test_progress_reports_every_stage(analyze, stubs):
    from orbitkb.analysis import StaticCodeAnalyzer
    from orbitkb.domain.fakes import MemorySourceTree
    from orbitkb.domain.ports import AnalysisRequest

    seen: list[tuple[str, int, int]] = []
    StaticCodeAnalyzer(analyzers=stubs, workers=0).analyze(
        MemorySourceTree(system()), AnalysisRequest("shop"), _Cache(), lambda *a: seen.append(a)
    )
    stages = [s for s, _, _ in seen]
    assert {"walk", "parse", "link", "resolve"} <= set(stages)
    assert ("walk", 7, 7) in seen and ("parse", 4, 4) in seen


class _Cache:
    def get_many(self, keys):
        return {}

    def put_many(self, items):
        pass
