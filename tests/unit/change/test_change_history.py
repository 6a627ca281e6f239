"""The history vocabulary: commit messages give the services whose folders they touched their
words; sweeps, trailers and addresses give none; the index reads history up to its commit only."""

from __future__ import annotations

from orbitkb.domain.change_history import MAX_SERVICES_PER_COMMIT, history_words, owner_of, with_history
from orbitkb.domain.fakes import FakeGitReader, InMemoryKnowledgeStore, MemorySourceTree, ScriptedAnalyzer
from orbitkb.domain.ids import service_id
from orbitkb.domain.model import Service, ServiceFacts
from orbitkb.domain.ports import AnalysisRequest, AnalysisResult, CommitRecord
from orbitkb.domain.search_docs import documents_for
from orbitkb.domain.usecases.indexing import IndexRepository, IndexRequest


def facts(*roots: tuple[str, str]) -> list[ServiceFacts]:
    return [ServiceFacts(Service(service_id("r", n), n, "r", root, "python")) for n, root in roots]


def test_a_commit_gives_its_words_to_the_services_whose_folders_it_touched() -> None:
    fs = facts(("basket", "services/basket"), ("ledger", "services/ledger"))
    commits = [CommitRecord("c2", "BSK-12 voucher stacking in the basket", "", ("services/basket/cart.py",)),
               CommitRecord("c1", "Ledger: nightly reconciliation", "run it at 2am", ("services/ledger/run.go",))]
    bags = history_words(fs, commits)
    assert {"bsk", "voucher", "stacking", "basket"} <= set(bags["basket"])
    assert "reconciliation" in bags["ledger"] and "nightly" in bags["ledger"] and "voucher" not in bags["ledger"]


def test_recurring_words_repeat_with_the_log_of_their_count() -> None:
    fs = facts(("basket", "basket"))
    commits = [CommitRecord(f"c{i}", "voucher" if i < 4 else "other", "", ("basket/a.py",)) for i in range(6)]
    bag = history_words(fs, commits)["basket"]
    assert bag.count("voucher") == 3 and bag.count("other") == 2  # 4 commits -> 3 copies, 2 -> 2
    assert bag[0] == "voucher"  # most frequent first


def test_sweeps_trailers_addresses_and_unowned_files_give_nothing() -> None:
    names = [(f"s{i}", f"s{i}") for i in range(MAX_SERVICES_PER_COMMIT + 1)]
    fs = facts(*names)
    sweep = CommitRecord("c3", "bump dependencies everywhere", "", tuple(f"{r}/pom.xml" for _, r in names))
    docs_only = CommitRecord("c2", "typo in the top readme", "", ("README.md",))
    trailer = CommitRecord("c1", "lenient parsing", "Signed-off-by: Ann Smith <ann@example.org>\nsee https://x.io/1",
                           ("s0/parse.py",))
    bags = history_words(fs, [sweep, docs_only, trailer])
    assert set(bags) == {"s0"}
    assert set(bags["s0"]) == {"lenient", "parsing", "see"}


def test_the_longest_root_owns_a_file_and_the_root_folder_owns_the_rest() -> None:
    roots = [("api/gateway", "gateway"), ("api", "api"), (".", "root")]
    assert owner_of("api/gateway/x.py", roots) == "gateway"
    assert owner_of("api/y.py", roots) == "api"
    assert owner_of("apix/z.py", roots) == "root"
    assert owner_of("apix/z.py", roots[:2]) is None
    fs = with_history(facts(("web", "."), ("worker", "worker")),
                      [CommitRecord("c", "queue retries", "", ("worker/q.py",)),
                       CommitRecord("d", "dark mode toggle", "", ("ui/theme.css",))])
    by = {f.service.name: set(f.history) for f in fs}
    assert by == {"web": {"dark", "mode", "toggle"}, "worker": {"queue", "retries"}}


def test_history_is_a_search_field_of_its_own_and_absent_without_history() -> None:
    f = with_history(facts(("basket", "basket")), [CommitRecord("c", "voucher", "", ("basket/a.py",))])
    docs = documents_for(f)
    assert [(d.kind, d.text) for d in docs if d.kind == "history"] == [("history", "voucher")]
    assert not [d for d in documents_for(facts(("basket", "basket"))) if d.kind == "history"]


def _analysis(request: AnalysisRequest) -> AnalysisResult:
    return AnalysisResult(tuple(facts(("basket", "basket"), ("ledger", "ledger"))))


def _index(commit: str | None, limit: int = 1000) -> InMemoryKnowledgeStore:
    git = FakeGitReader({"c1": {"basket/a.py": "1"}, "c2": {"basket/a.py": "2"},
                         "c3": {"basket/a.py": "2", "ledger/b.py": "1"}},
                        messages={"c1": "voucher basics", "c2": "voucher stacking", "c3": "ledger reconciliation"})
    store = InMemoryKnowledgeStore()
    IndexRepository(store=store, analyzer=ScriptedAnalyzer(_analysis), git=git,
                    open_tree=lambda p: MemorySourceTree({}), history_limit=limit)(IndexRequest("/repo", commit=commit))
    return store


def _history_text(store: InMemoryKnowledgeStore) -> dict[str, str]:
    return {h.service: h.name for h in store.search(["voucher"], kinds=("history",))} | {
        h.service: h.name for h in store.search(["reconciliation"], kinds=("history",))}


def test_an_index_of_a_past_commit_never_reads_a_later_message() -> None:
    # the real-history benchmark indexes each task at its parent: the task's own message is later
    past = _index("c2")
    assert set(_history_text(past)) == {"basket"}
    assert not past.search(["reconciliation"], kinds=("history",))
    assert past.search(["stacking"], kinds=("history",))
    head = _index(None)  # a working-tree index reads up to HEAD
    assert set(_history_text(head)) == {"basket", "ledger"}


def test_a_zero_limit_reads_no_history() -> None:
    assert not _index(None, limit=0).search(["voucher"], kinds=("history",))


class _CountingGit(FakeGitReader):
    """The fake git reader, counting how often the log is read."""

    def __init__(self, *args, **kwargs) -> None:
        super().__init__(*args, **kwargs)
        self.history_reads = 0

    def history(self, path: str, until: str, limit: int):
        self.history_reads += 1
        return super().history(path, until, limit)


def test_a_commit_that_changes_no_fact_neither_reads_the_log_nor_rewrites_the_history() -> None:
    git = _CountingGit({"c1": {"basket/a.py": "1"}, "c2": {"basket/a.py": "2"},
                        "c3": {"basket/a.py": "2", "ledger/b.py": "1"}},
                       messages={"c1": "voucher basics", "c2": "voucher stacking", "c3": "ledger reconciliation"})
    services = [("basket", "basket")]
    store = InMemoryKnowledgeStore()
    index = IndexRepository(store=store, analyzer=ScriptedAnalyzer(lambda r: AnalysisResult(tuple(facts(*services)))),
                            git=git, open_tree=lambda p: MemorySourceTree({}))
    index(IndexRequest("/repo", commit="c2"))
    assert git.history_reads == 1 and store.search(["stacking"], kinds=("history",))
    index(IndexRequest("/repo", commit="c3"))  # the same facts: only the indexed commit moves
    assert git.history_reads == 1
    assert [r.indexed_commit for r in store.list_repositories()] == ["c3"]
    assert not store.search(["reconciliation"], kinds=("history",))  # catches up at the next change
    services.append(("ledger", "ledger"))
    index(IndexRequest("/repo", commit="c3"))
    assert git.history_reads == 2
    assert set(_history_text(store)) == {"basket", "ledger"}
