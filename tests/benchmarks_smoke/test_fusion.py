"""The fusion analysis of the real-history benchmark (benchmarks/realhistory/fusion.py): reciprocal
rank fusion, where the truly changed services rank, and whose top-1 was right — on small orders
made here."""

from __future__ import annotations

import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT / "benchmarks"))

from realhistory.fusion import agreement, rrf, truth_ranks  # noqa: E402


def test_a_name_both_orders_place_second_beats_one_only_the_first_order_names() -> None:
    assert rrf([["ledger", "billing"], ["invoices", "billing"]])[0] == "billing"


def test_fusion_keeps_every_name_and_breaks_ties_by_name() -> None:
    assert rrf([["mail"], ["audit"]]) == ["audit", "mail"]
    assert rrf([[], ["audit", "mail"]]) == ["audit", "mail"]
    assert rrf([]) == []


def test_damping_decides_how_much_a_first_place_outweighs_agreement() -> None:
    orders = [["stock", "cart", "pricing"], ["pricing", "cart", "stock"], ["stock", "pricing", "cart"]]
    assert rrf(orders, k=0)[0] == "stock"  # undamped: two first places win
    split = [["a", "x", "b"], ["c", "y", "b"]]
    assert rrf(split, k=0)[0] == "a"  # undamped: one first place beats two third places
    assert rrf(split, k=60)[0] == "b"  # damped: agreement wins


def test_a_truly_changed_service_ranks_where_the_order_puts_it_or_last() -> None:
    order = ["gateway", "orders", "stock", "users", "mail", "audit", "billing"]
    assert truth_ranks(order, {"orders", "billing", "nowhere"}) == [6, 6, 2]  # sorted: billing, nowhere, orders
    assert truth_ranks(order, {"gateway"}, last=3) == [1]
    assert truth_ranks([], {"gateway"}) == [6]


def test_top_one_agreement_counts_each_task_once() -> None:
    rows = [
        (["orders"], ["orders"], {"orders"}),  # both right
        (["orders"], ["stock"], {"orders"}),  # only ours
        ([], ["stock"], {"stock"}),  # ours empty, bm25 right
        (["users"], [], {"stock"}),  # neither
        (["users", "stock"], ["mail", "stock"], {"stock"}),  # second places do not count
    ]
    assert agreement(rows) == {"both": 1, "ours only": 1, "bm25 only": 1, "neither": 2}
