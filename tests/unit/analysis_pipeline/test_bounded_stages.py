"""Peak index memory (issue 14): the parse and link stages keep only a bounded number of files or
services in flight, a linked service's parse results are released (read again from the cache if
asked for), its words are held packed until resolution, and the facts are the same as before."""

from __future__ import annotations

from typing import Any

import pytest

from orbitkb.analysis import StaticCodeAnalyzer, linking
from orbitkb.analysis.reading import parsing, vocabulary
from orbitkb.analysis.reading.parsing import ParseStage
from orbitkb.analysis.reading.walk import FileRecord
from orbitkb.analysis.registry import LoadedAnalyzer
from orbitkb.domain.fakes import MemorySourceTree
from orbitkb.domain.fakes.analysis import DictAnalysisCache
from orbitkb.domain.ports import AnalysisRequest

from .conftest import make_stubs


class LazyPool:
    """A pool of our own that runs a task only when its result is asked for, and counts how many
    were sent and not yet collected (what the main process holds for them)."""

    most = 0
    waiting = 0

    def __init__(self, *_args: Any, **_kwargs: Any) -> None:
        LazyPool.most = LazyPool.waiting = 0

    def __enter__(self) -> LazyPool:
        return self

    def __exit__(self, *_exc: object) -> None:
        return None

    def shutdown(self) -> None:
        return None

    def submit(self, fn: Any, *args: Any) -> Any:
        LazyPool.waiting += 1
        LazyPool.most = max(LazyPool.most, LazyPool.waiting)
        return _Later(fn, args)


class _Later:
    def __init__(self, fn: Any, args: tuple[Any, ...]) -> None:
        self.fn, self.args, self.value, self.done = fn, args, None, False

    def result(self) -> Any:
        if not self.done:
            LazyPool.waiting -= 1
            self.value, self.done = self.fn(*self.args), True
        return self.value


def services(n: int) -> dict[str, str]:
    """``n`` Python services, each with an entry point, an API, a call to the next one and words."""
    compose = "services:\n" + "".join(f"  svc{i}: {{build: ./svc{i}}}\n" for i in range(n))
    files = {"docker-compose.yml": compose}
    for i in range(n):
        files[f"svc{i}/requirements.txt"] = "requests\n"
        files[f"svc{i}/app.py"] = (f"# @entry\n# @api GET /ledger{i} read_ledger_{i}\n"
                                   f"# @call requests GET lit:http://svc{(i + 1) % n}/ledger{(i + 1) % n}\n"
                                   f"def reconcile_invoice_{i}(): pass\n")
        files[f"svc{i}/util.py"] = "def shared_helper(): pass\n"  # the same text in every service
    return files


def analyze(files: dict[str, str], workers: int, cache: DictAnalysisCache | None = None) -> Any:
    analyzer = StaticCodeAnalyzer(analyzers=make_stubs(), workers=workers)
    return analyzer.analyze(MemorySourceTree(files, commit="c0ffee"), AnalysisRequest("shop"),
                            cache if cache is not None else DictAnalysisCache())


def test_link_workers_get_a_bounded_number_of_services_and_the_facts_do_not_change(
        monkeypatch: pytest.MonkeyPatch) -> None:
    files = services(30)
    alone = analyze(files, workers=0)
    monkeypatch.setattr(linking, "ProcessPoolExecutor", LazyPool)
    monkeypatch.setattr(linking, "can_fork", lambda: True)
    pooled = analyze(files, workers=2)
    assert 1 <= LazyPool.most <= linking.MAX_PENDING * 2 < 30  # not every service at once
    assert pooled == alone
    assert all(f.vocabulary for f in pooled.services)  # words held packed, given back at resolution
    assert "reconcile" in alone.services[0].vocabulary


def test_a_worker_dying_midway_links_the_rest_here_with_the_same_facts(monkeypatch: pytest.MonkeyPatch) -> None:
    files = services(12)
    alone = analyze(files, workers=0)
    calls = {"n": 0}

    def dies_on_the_fifth(i: int) -> Any:
        calls["n"] += 1
        if calls["n"] == 5:
            raise linking.BrokenProcessPool("killed")
        return linking._link_in_worker(i)

    monkeypatch.setattr(linking, "ProcessPoolExecutor", LazyPool)
    monkeypatch.setattr(linking, "can_fork", lambda: True)
    monkeypatch.setattr(linking, "_link_in_worker", dies_on_the_fifth)
    assert analyze(files, workers=2) == alone


def test_a_warm_run_reads_link_results_from_the_cache_with_the_same_facts() -> None:
    cache = DictAnalysisCache()
    cold = analyze(services(9), workers=0, cache=cache)
    warm = analyze(services(9), workers=0, cache=cache)
    assert warm.files_parsed == 0 and cold.files_parsed == 10  # util.py's one text is parsed once
    assert (warm.services, warm.gaps, warm.files) == (cold.services, cold.gaps, cold.files)


def test_packed_counts_come_back_in_order_and_unicode_whole() -> None:
    pairs = (("café", 3), ("ledger", 2), ("\udce9x", 1))
    assert vocabulary.unpack_counts(vocabulary.pack_counts(pairs)) == pairs
    assert vocabulary.unpack_counts(vocabulary.pack_counts(())) == ()


# ------------------------------------------------------------------ the parse stage


class Words:
    """A parser of our own: the lines as a list; it fails on a line ``oops`` (a crash: not cached)."""

    stack = "words"
    version = 1
    suffixes = (".w",)

    def parse(self, path: str, text: str) -> dict[str, Any]:
        if "oops" in text:
            raise ValueError("cannot read this")
        return {"lines": text.splitlines()}


def record(path: str, text: str) -> FileRecord:
    return FileRecord(path, len(text), f"sha-{text}", text, stack="words", decoded=True)


def feed_all(workers: int, files: dict[str, str], monkeypatch: pytest.MonkeyPatch,
             cache: DictAnalysisCache) -> tuple[ParseStage, parsing.ParsedResults]:
    monkeypatch.setattr(parsing, "ProcessPoolExecutor", LazyPool)
    monkeypatch.setattr(parsing, "can_fork", lambda: True)
    monkeypatch.setattr(parsing, "_worker_parse", lambda _module, items: [
        (parsing.pack(text), ok) for text, ok in (parsing._safe_parse(Words(), p, t) for p, t in items)])
    loaded = LoadedAnalyzer("tests.words", Words())  # a module name: the stage may use the pool
    stage = ParseStage({"words": loaded}, cache, workers=workers, expected=len(files))
    for path, text in files.items():
        stage.feed(record(path, text))
    return stage, stage.finish()


FILES = {f"svc/f{i:04d}.w": f"line {i}\nmore {i % 7}\n" + "x" * (i % 300) for i in range(1200)}
FILES.update({"svc/bad1.w": "oops\n", "svc/zz/bad2.w": "oops\n", "svc/zz/copy.w": FILES["svc/f0003.w"]})


def test_parse_chunks_in_flight_are_bounded_and_results_match_parsing_here(monkeypatch: pytest.MonkeyPatch) -> None:
    here_stage, here = feed_all(0, FILES, monkeypatch, DictAnalysisCache())
    pool_stage, pooled = feed_all(2, FILES, monkeypatch, DictAnalysisCache())
    chunks = len(FILES) // parsing.CHUNK
    assert LazyPool.most <= parsing.MAX_PENDING * 2 + 1 < chunks  # not every file's text at once
    assert pooled.paths() == here.paths() == sorted(FILES)
    assert all(pooled[p] == here[p] for p in FILES)
    assert [pooled.flags(p) for p in sorted(FILES)] == [here.flags(p) for p in sorted(FILES)]
    # a twin of an uncached result collected earlier reuses it: each content is parsed once
    assert pool_stage.files_parsed == here_stage.files_parsed == len(set(FILES.values()))


def test_released_results_stay_listed_and_are_read_again_from_the_cache(monkeypatch: pytest.MonkeyPatch) -> None:
    cache = DictAnalysisCache()
    stage, results = feed_all(0, FILES, monkeypatch, cache)
    before = {p: results[p] for p in ("svc/f0001.w", "svc/f0500.w", "svc/bad1.w")}
    records = [record(p, FILES[p]) for p in before]
    results.release(records)
    assert "svc/f0001.w" not in stage.parsed and "svc/bad1.w" in stage.parsed  # an error is not cached: kept
    assert all(p in results for p in before) and len(results) == len(FILES)
    assert results.flags("svc/f0001.w") == (False, None) and "cannot read this" in str(results.flags("svc/bad1.w")[1])
    assert {p: results[p] for p in before} == before  # loaded again from the cache, byte for byte
    assert results.files_parsed == 0  # nothing parsed again


def test_a_released_result_the_cache_lost_is_parsed_again(monkeypatch: pytest.MonkeyPatch) -> None:
    cache = DictAnalysisCache()
    stage, results = feed_all(0, FILES, monkeypatch, cache)
    text = results["svc/f0002.w"]
    results.release([record("svc/f0002.w", FILES["svc/f0002.w"])])
    cache.items.clear()  # the cache was emptied meanwhile (another process, a vacuum)
    stage._reload = lambda path, sha: FILES[path]  # the file as the tree holds it
    assert results["svc/f0002.w"] == text and results.files_parsed == 1
