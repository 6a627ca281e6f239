"""`status SERVICE` counts the tokens and cost of what concerned that service only: the runs of its
repository and the change-surface runs that named it — not the whole database."""

from __future__ import annotations

from orbitkb.domain.runs import ChangeSurfaceRun, SurfaceFinding, Verification
from orbitkb.domain.usecases.status import GetStatus
from tests.unit.change.seed import seeded_store


def test_status_of_a_service_scopes_tokens_cost_and_verifications() -> None:
    store = seeded_store()
    store.add_change_surface_run(ChangeSurfaceRun(None, "pix", "t1", "llm:claude", (), (
        SurfaceFinding("payments", "primary", "owns payments", 0.9),), 100, 10, 0.5))
    store.add_change_surface_run(ChangeSurfaceRun(None, "ledger report", "t2", "llm:claude", (), (
        SurfaceFinding("ledger", "primary", "owns reports", 0.9),), 1000, 100, 2.0))
    store.add_verification(Verification(None, 1, "elsewhere", "abc", "t3"))
    everything = GetStatus(store)()
    assert everything.totals.cost_usd == 2.5 and everything.totals.input_tokens == 1100
    payments = GetStatus(store)("payments")
    assert payments.totals.cost_usd == 0.5 and payments.totals.input_tokens == 100
    assert payments.totals.output_tokens == 10
    assert payments.verifications == ()  # a verification of another repository is not this service's
    assert GetStatus(store)("catalog").totals.cost_usd is None  # nothing concerned it: unknown, never 0
