"""Parse results are held packed until linking reads them (issue 14: peak index memory): what is
read back is the JSON text the parser wrote, byte for byte; flags (entry point, error) are known
without unpacking; a worker hands its results over packed; a result loaded later stays text."""

from __future__ import annotations

import json
from typing import Any

from orbitkb.analysis.reading import parsing
from orbitkb.analysis.reading.parsing import ParseStage, pack, unpack
from orbitkb.analysis.reading.walk import FileRecord
from orbitkb.analysis.registry import LoadedAnalyzer
from orbitkb.domain.fakes.analysis import DictAnalysisCache


class Lines:
    """A parser of our own: one "fn" per line starting with ``def``; ``main`` marks an entry point,
    a line ``boom`` makes it fail."""

    stack = "lines"
    version = 1

    def parse(self, path: str, text: str) -> dict[str, Any]:
        if "boom" in text:
            raise ValueError("cannot read this")
        names = [line[4:] for line in text.splitlines() if line.startswith("def ")]
        return {"fns": names, "entrypoint": True} if "main" in names else {"fns": names}


def stage(cache: DictAnalysisCache | None = None) -> ParseStage:
    return ParseStage({"lines": LoadedAnalyzer(None, Lines())}, cache or DictAnalysisCache(), workers=0)  # type: ignore[arg-type]


def record(path: str, text: str) -> FileRecord:
    return FileRecord(path, len(text), f"sha-{path}", text, stack="lines", decoded=True)


BIG = "".join(f"def handler_{i}\n" for i in range(60))
FILES = {"svc/app.lines": "def main\ndef serve\n", "svc/big.lines": BIG, "svc/util.lines": "def helper\n", "svc/bad.lines": "boom\n",
         "svc/copy.lines": "def helper\n", "svc/ünï.lines": "def café\n"}


def run(cache: DictAnalysisCache | None = None) -> tuple[ParseStage, parsing.ParsedResults]:
    st = stage(cache)
    for path, text in FILES.items():
        st.feed(record(path, text))
    return st, st.finish()


def test_results_are_held_packed_and_read_back_as_the_parser_wrote_them() -> None:
    st, results = run()
    assert isinstance(st.parsed["svc/big.lines"], bytes) and len(st.parsed["svc/big.lines"]) < len(results["svc/big.lines"]) / 3
    assert isinstance(st.parsed["svc/util.lines"], str)  # a short one is held as it came
    assert json.loads(results["svc/app.lines"]) | {"_vocab": None} == {"fns": ["main", "serve"], "entrypoint": True,
                                                                       "_vocab": None}
    assert json.loads(results["svc/ünï.lines"])["fns"] == ["café"]
    text, _ = parsing._safe_parse(Lines(), "svc/util.lines", FILES["svc/util.lines"])
    assert results["svc/util.lines"] == text  # byte for byte
    big, _ = parsing._safe_parse(Lines(), "svc/big.lines", BIG)
    assert results["svc/big.lines"] == big and json.loads(big)["fns"][-1] == "handler_59"


def test_flags_are_known_without_unpacking() -> None:
    st, results = run()
    assert results.flags("svc/app.lines") == (True, None)
    entry, error = results.flags("svc/bad.lines")
    assert entry is False and error is not None and "cannot read this" in error
    assert results.flags("svc/util.lines") == (False, None)  # the usual ones are not even kept
    assert set(st.flags) == {"svc/app.lines", "svc/bad.lines"}


def test_the_cache_gets_text_and_a_run_from_the_cache_holds_the_same_results() -> None:
    cache = DictAnalysisCache()
    _, first = run(cache)
    assert all(isinstance(v, str) and v.startswith("{") for v in cache.items.values())
    st, second = run(cache)
    assert isinstance(st.parsed["svc/big.lines"], bytes) and st.files_parsed == 1  # the failing one: never cached
    assert {p: second[p] for p in FILES} == {p: first[p] for p in FILES}
    assert second.flags("svc/app.lines") == (True, None)


def test_a_worker_hands_its_results_over_packed(monkeypatch: Any) -> None:
    import sys
    import types

    module = types.ModuleType("orbitkb_test_lines_analyzer")
    module.ANALYZER = Lines()  # type: ignore[attr-defined]
    monkeypatch.setitem(sys.modules, module.__name__, module)
    items = [("a.lines", "def main\n"), ("b.lines", "boom\n"), ("c.lines", BIG)]
    handed = parsing._worker_parse(module.__name__, items)
    assert [type(h) for h, _ in handed] == [str, str, bytes]
    assert [(unpack(h), ok) for h, ok in handed] == [parsing._safe_parse(Lines(), p, t) for p, t in items]


def test_unpack_reads_text_as_it_came_and_packed_text() -> None:
    assert pack('{"fns":[]}') == '{"fns":[]}' and unpack('{"fns":[]}') == '{"fns":[]}'
    long = json.dumps({"name": "\u00e9t\u00e9 \ud800", "fns": [f"f{i}" for i in range(80)]}, ensure_ascii=False)
    assert isinstance(pack(long), bytes) and unpack(pack(long)) == long  # any text, a lone surrogate too


class RecordingCache(DictAnalysisCache):
    def __init__(self) -> None:
        super().__init__()
        self.puts: list[int] = []

    def put_many(self, items: Any) -> None:
        self.puts.append(len(items))
        super().put_many(items)


def test_results_from_workers_are_held_packed_and_their_text_goes_to_the_cache_in_batches(monkeypatch: Any) -> None:
    import sys
    import types

    if not parsing.can_fork():
        import pytest

        pytest.skip("parse workers are forked only from a single-threaded Linux process")
    module = types.ModuleType("orbitkb_test_lines_workers")
    module.ANALYZER = Lines()  # type: ignore[attr-defined]
    monkeypatch.setitem(sys.modules, module.__name__, module)
    monkeypatch.setattr(parsing, "BATCH", 16)
    monkeypatch.setattr(parsing, "CHUNK", 4)
    monkeypatch.setattr(parsing, "POOL_MIN_MISSES", 8)
    files = {f"svc/f{i}.lines": BIG + f"def only_{i}\n" for i in range(40)}

    def held(workers: int, cache: RecordingCache) -> tuple[ParseStage, parsing.ParsedResults]:
        st = ParseStage({"lines": LoadedAnalyzer(module.__name__, Lines())}, cache, workers=workers,  # type: ignore[arg-type]
                        expected=len(files))
        for path, text in files.items():
            st.feed(record(path, text))
        return st, st.finish()

    pooled_cache, alone_cache = RecordingCache(), RecordingCache()
    pooled, pooled_results = held(2, pooled_cache)
    _, alone_results = held(0, alone_cache)
    assert pooled.files_parsed == len(files) and all(isinstance(v, bytes) for v in pooled.parsed.values())
    assert {p: pooled_results[p] for p in files} == {p: alone_results[p] for p in files}
    assert pooled_cache.items == alone_cache.items
    assert sum(pooled_cache.puts) == len(files) and max(pooled_cache.puts) < len(files)  # not all at the end
