"""Stat cache: a re-index skips reading files whose size and mtime are unchanged, and still gives
exactly the facts of a cold index after any change (edit, same-size edit, new, deleted, ignore
file, analyzer version, evicted parse results). Real folders, mtimes set explicitly."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from orbitkb.analysis import StaticCodeAnalyzer
from orbitkb.domain.fakes import MemorySourceTree
from orbitkb.domain.ports import AnalysisRequest, AnalysisResult
from orbitkb.git.working_tree import WorkingTreeSource
from tests.unit.analysis_pipeline.conftest import DictCache, StubAnalyzer, make_stubs

T0 = 1_600_000_000_000_000_000  # a fixed past mtime (ns): far from "now", so entries are trusted

SYSTEM: dict[str, str | bytes] = {
    "docker-compose.yml": "services:\n  orders:\n    build: ./orders\n  payments:\n    build: ./payments\n"
    "  web:\n    build: ./web\n",
    "orders/requirements.txt": "flask\n",
    "orders/app.py": "# @entry\n# @api GET /orders list_orders\n"
    "# @call http requests lit:http://payments:9000/pay method=POST handler=list_orders\n",
    "orders/views/extra.py": "# @api GET /orders/{id} get_order\n",
    "orders/broken.py": "# @error unexpected indent\n",
    "orders/blob.py": b"\x00\x01binary",
    "orders/latin.py": "# @api GET /caf\xe9 cafe\n".encode("latin-1"),
    "orders/tests/test_app.py": "# @api GET /never t\n",
    "payments/go.mod": "module example.com/payments\n",
    "payments/main.go": "// @entry\n// @api POST /pay Pay\n"
    "func main() { pb.RegisterPaymentsServer(s, &PaymentsImpl{}) }\n",
    "payments/proto/payments.proto": 'syntax = "proto3";\npackage pay;\n'
    "service Payments { rpc Charge (Req) returns (Res); }\n",
    "payments/README.md": "Payments takes money.\n",
    "web/package.json": '{"name": "web", "dependencies": {"express": "4"}}\n',
    "web/src/index.ts": "// @entry\n// @api GET /home home\n// @call http axios env:ORDERS_URL|http://orders:5000+lit:/orders\n",
    "web/src/logo.png": b"\x89PNG\x00\x00\x01",
    "legacy/Program.cs": "class Impl : Payments.PaymentsBase {}\n",
}


class CountingTree(WorkingTreeSource):
    """A WorkingTreeSource that remembers which files were read."""

    def __init__(self, root: Path) -> None:
        super().__init__(root)
        self.reads: list[str] = []

    def read_bytes(self, path: str) -> bytes:
        data = super().read_bytes(path)
        self.reads.append(path)
        return data


def write(root: Path, files: dict[str, str | bytes], mtime_ns: int = T0) -> None:
    for rel, content in files.items():
        path = root / rel
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_bytes(content.encode() if isinstance(content, str) else content)
        os.utime(path, ns=(mtime_ns, mtime_ns))


def index(
    root: Path, cache: DictCache, stubs: list[StubAnalyzer] | None = None, **kwargs: object
) -> tuple[AnalysisResult, CountingTree]:
    tree = CountingTree(root)
    analyzer = StaticCodeAnalyzer(analyzers=stubs if stubs is not None else make_stubs(), workers=0, **kwargs)
    return analyzer.analyze(tree, AnalysisRequest("shop"), cache), tree


def same_as_cold(result: AnalysisResult, root: Path, **kwargs: object) -> None:
    cold, _ = index(root, DictCache(), **kwargs)
    for part in ("services", "resources", "gaps", "files"):
        assert getattr(result, part) == getattr(cold, part), part


@pytest.fixture
def repo(tmp_path: Path) -> Path:
    write(tmp_path, SYSTEM)
    return tmp_path


def test_unchanged_files_are_not_read_and_facts_are_identical(repo: Path) -> None:
    cache = DictCache()
    first, tree = index(repo, cache)
    assert "orders/views/extra.py" in tree.reads
    assert any(k.startswith("stat:shop:") for k in cache.data)
    puts = cache.puts
    second, tree = index(repo, cache)
    # only what later stages need the text of is read: manifests, config, docs, .proto, C#
    assert sorted(tree.reads) == [
        "docker-compose.yml",
        "legacy/Program.cs",
        "orders/requirements.txt",
        "payments/README.md",
        "payments/go.mod",
        "payments/proto/payments.proto",
        "web/package.json",
    ]
    assert second.files_parsed == 0
    assert cache.puts == puts  # nothing changed: nothing written
    for part in ("services", "resources", "gaps", "files"):
        assert getattr(second, part) == getattr(first, part), part
    # what the walk learned from unread files is replayed: encoding gaps, gRPC registrations
    gaps = {(g.path, g.kind) for g in second.gaps}
    assert {("orders/blob.py", "binary"), ("orders/latin.py", "invalid_utf8")} <= gaps
    assert ("orders/broken.py", "parse_error") in gaps
    payments = next(f for f in second.services if f.service.name == "payments")
    assert any(a.path.endswith("Charge") for a in payments.apis), [a.path for a in payments.apis]


def test_a_changed_file_is_read_again(repo: Path) -> None:
    cache = DictCache()
    index(repo, cache)
    write(repo, {"orders/views/extra.py": "# @api DELETE /orders/{id} drop_order\n"}, T0 + 10**9)
    result, tree = index(repo, cache)
    assert "orders/views/extra.py" in tree.reads
    assert result.files_parsed == 1
    orders = next(f for f in result.services if f.service.name == "orders")
    assert "DELETE" in {a.method for a in orders.apis}
    same_as_cold(result, repo)


def test_a_same_size_edit_with_a_new_mtime_is_seen(repo: Path) -> None:
    cache = DictCache()
    index(repo, cache)
    old = (repo / "payments/main.go").read_text()
    new = old.replace("POST /pay", "PUT  /pay")
    assert len(new) == len(old)
    write(repo, {"payments/main.go": new}, T0 + 1)  # one nanosecond later is enough
    result, _ = index(repo, cache)
    payments = next(f for f in result.services if f.service.name == "payments")
    assert [(a.method, a.path) for a in payments.apis if a.path == "/pay"] == [("PUT", "/pay")]
    same_as_cold(result, repo)


def test_a_binary_file_that_becomes_text_loses_its_gap(repo: Path) -> None:
    cache = DictCache()
    index(repo, cache)
    write(repo, {"orders/blob.py": "# @api GET /blob blob\n"}, T0 + 5)
    result, _ = index(repo, cache)
    assert ("orders/blob.py", "binary") not in {(g.path, g.kind) for g in result.gaps}
    same_as_cold(result, repo)


def test_new_and_deleted_files(repo: Path) -> None:
    cache = DictCache()
    index(repo, cache)
    (repo / "orders/views/extra.py").unlink()
    (repo / "payments/main.go").unlink()  # the gRPC registration goes with it
    write(
        repo, {"orders/views/more.py": "# @api PATCH /orders/{id} patch_order\n", "web/src/util.ts": "// x\n"}
    )
    result, tree = index(repo, cache)
    assert "orders/views/more.py" in tree.reads and "orders/app.py" not in tree.reads
    paths = [f.path for f in result.files]
    assert "orders/views/extra.py" not in paths and "orders/views/more.py" in paths
    same_as_cold(result, repo)


def test_a_new_ignore_file_and_its_removal(repo: Path) -> None:
    cache = DictCache()
    index(repo, cache)
    write(repo, {".orbitkbignore": "views/\n*.ts\n"})
    ignored, _ = index(repo, cache)
    assert not any(f.path.endswith((".ts",)) or "/views/" in f.path for f in ignored.files)
    same_as_cold(ignored, repo)
    (repo / ".orbitkbignore").unlink()
    back, tree = index(repo, cache)
    assert "orders/views/extra.py" in tree.reads  # its entry went while it was ignored
    same_as_cold(back, repo)


def test_an_analyzer_version_change_reads_and_parses_its_files_again(repo: Path) -> None:
    cache = DictCache()
    index(repo, cache)
    stubs = make_stubs()
    stubs[0] = StubAnalyzer("python", [".py"], version="2")
    result, tree = index(repo, cache, stubs)
    assert sorted(stubs[0].parse_calls) == [
        "orders/app.py",
        "orders/broken.py",
        "orders/latin.py",
        "orders/views/extra.py",
    ]
    assert stubs[3].parse_calls == []  # go: unchanged version, nothing read
    assert "orders/app.py" in tree.reads and "payments/main.go" not in tree.reads
    bumped = make_stubs()
    bumped[0] = StubAnalyzer("python", [".py"], version="2")
    cold, _ = index(repo, DictCache(), bumped)
    for part in ("services", "resources", "gaps", "files"):
        assert getattr(result, part) == getattr(cold, part), part
    again, tree = index(repo, cache, [StubAnalyzer("python", [".py"], version="2"), *make_stubs()[1:]])
    assert again.files_parsed == 0 and "orders/app.py" not in tree.reads


def test_an_evicted_parse_result_is_read_and_parsed_when_its_service_relinks(repo: Path) -> None:
    cache = DictCache()
    index(repo, cache)
    for key in [k for k in cache.data if k.startswith("python:")]:
        del cache.data[key]
    write(
        repo, {"orders/app.py": "# @entry\n# @api GET /orders list_orders\n# @api POST /orders add\n"}, T0 + 7
    )
    stubs = make_stubs()
    result, tree = index(repo, cache, stubs)
    assert "orders/views/extra.py" in tree.reads  # needed to relink orders
    assert sorted(stubs[0].parse_calls) == ["orders/app.py", "orders/latin.py", "orders/views/extra.py"]
    assert result.files_parsed == 3
    same_as_cold(result, repo)


def test_an_analyzer_crash_is_not_remembered_and_the_file_is_parsed_again(repo: Path) -> None:
    cache = DictCache()
    write(repo, {"orders/views/crash.py": "# @crash\n"})
    first, _ = index(repo, cache)
    assert ("orders/views/crash.py", "parse_error") in {(g.path, g.kind) for g in first.gaps}
    stubs = make_stubs()
    second, tree = index(repo, cache, stubs)
    assert "orders/views/crash.py" in tree.reads and stubs[0].parse_calls == ["orders/views/crash.py"]
    assert second.gaps == first.gaps
    same_as_cold(second, repo)


def test_a_file_written_during_the_index_second_is_not_trusted(repo: Path) -> None:
    cache = DictCache()
    write(repo, {"orders/views/extra.py": "# @api GET /fresh fresh\n"}, mtime_ns=0)
    now = os.stat(repo / "orders/app.py").st_mtime_ns  # noqa: F841 - the others stay in the past
    (repo / "orders/views/extra.py").write_text("# @api GET /fresh fresh\n")  # mtime: now
    index(repo, cache)
    _, tree = index(repo, cache)
    assert "orders/views/extra.py" in tree.reads  # too recent to be trusted
    assert "orders/app.py" not in tree.reads


def test_a_different_size_cap_does_not_reuse_entries(repo: Path) -> None:
    cache = DictCache()
    index(repo, cache)
    result, tree = index(repo, cache, size_cap=40)
    assert "orders/views/extra.py" in tree.reads
    assert ("orders/app.py", "too_large") in {(g.path, g.kind) for g in result.gaps}
    same_as_cold(result, repo, size_cap=40)


def test_trees_without_mtimes_write_no_stat_entries() -> None:
    cache = DictCache()
    files = {k: v for k, v in SYSTEM.items()}
    analyzer = StaticCodeAnalyzer(analyzers=make_stubs(), workers=0)
    analyzer.analyze(MemorySourceTree(files, commit="abc"), AnalysisRequest("shop"), cache)
    assert not [k for k in cache.data if k.startswith("stat:")]


def test_no_fork_while_native_threads_run() -> None:
    import threading
    import time

    from orbitkb.analysis.reading.parsing import can_fork

    stop = threading.Event()
    t = threading.Thread(target=lambda: stop.wait(5))
    t.start()
    try:
        time.sleep(0.05)
        assert can_fork() is False
    finally:
        stop.set()
        t.join()


def test_skipped_and_ignored_folders_are_reported_the_same_on_a_no_change_reindex(repo: Path) -> None:
    write(
        repo,
        {
            "web/node_modules/left-pad/index.js": "// @api GET /vendored x\n",
            "payments/vendor/github.com/x/y.go": "// @api GET /vendored x\n",
            ".orbitkbignore": "/legacy/\n*.draft.py\n",
            "orders/notes.draft.py": "# @api GET /draft x\n",
        },
    )
    (repo / ".git").mkdir()
    (repo / ".git" / "HEAD").write_text("ref: refs/heads/main\n")
    cache = DictCache()
    first, _ = index(repo, cache)
    second, _ = index(repo, cache)
    expected = [
        ("legacy", "ignored"),
        ("orders/notes.draft.py", "ignored"),
        ("payments/vendor", "skipped_vendored"),
        ("web/node_modules", "skipped_vendored"),
    ]
    for result in (first, second):
        assert [(g.path, g.kind) for g in result.gaps if g.kind in ("ignored", "skipped_vendored")] == expected
    assert second.gaps == first.gaps
    same_as_cold(second, repo)
