"""find_architecture_smells shapes an answer once while its report stays the same (the same run,
the same question): asked again it returns that answer; another question, or a new run recorded
since (a new index, from any process), is shaped anew."""

from __future__ import annotations

from orbitkb.domain.runs import ArchitectureFinding, ArchitectureRun
from orbitkb.mcp import tools
from tests.unit.change.seed import seeded_store

from .test_mcp_tools import call, data, make_server


def _counting_fit(monkeypatch) -> list[str]:
    shaped: list[str] = []
    real = tools.fit

    def fit(answer, keys, *rest, **kw):
        if "findings" in keys:
            shaped.append("smells")
        return real(answer, keys, *rest, **kw)

    monkeypatch.setattr(tools, "fit", fit)
    return shaped


def test_the_same_report_is_shaped_once_and_answers_the_same(monkeypatch) -> None:
    shaped = _counting_fit(monkeypatch)
    server = make_server(seeded_store())
    first = data(call(server, "find_architecture_smells", {"limit": 3}))
    again = data(call(server, "find_architecture_smells", {"limit": 3}))
    assert again == first and len(shaped) == 1
    other = data(call(server, "find_architecture_smells", {"limit": 1}))  # another question: shaped for it
    assert len(other["findings"]) <= 1 and len(shaped) == 2
    assert data(call(server, "find_architecture_smells", {"limit": 3})) == first  # questions taken in turn
    assert data(call(server, "find_architecture_smells", {"limit": 1})) == other and len(shaped) == 2


def test_a_run_recorded_since_is_answered(monkeypatch) -> None:
    shaped = _counting_fit(monkeypatch)
    store = seeded_store()
    server = make_server(store)
    before = data(call(server, "find_architecture_smells", {}))
    store.add_architecture_run(ArchitectureRun(None, "2099-01-01T00:00:00Z", (
        ArchitectureFinding("hub", "info", ("ledger-keeper",), "everything calls the ledger keeper"),)))
    after = data(call(server, "find_architecture_smells", {}))
    assert after["run_id"] != before["run_id"] and len(shaped) == 2
    assert [f["services"] for f in after["findings"]] == [["ledger-keeper"]]
