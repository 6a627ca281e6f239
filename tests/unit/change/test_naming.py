"""Loose service names in tasks: run together, split, misspelt, shortened, or the repository's name."""

from __future__ import annotations

import pytest

from orbitkb.domain.change.naming import loose_names
from orbitkb.domain.model import Service


def svc(name: str, repo: str = "mall", aliases: tuple[str, ...] = ()) -> Service:
    return Service(f"svc:{repo}:{name}", name, repo, name, "go", aliases=aliases)


SERVICES = [svc("billing-service"), svc("recommendationservice"), svc("notification-service"),
            svc("bk-parcel-service"), svc("bk-parcel-tracking-service"), svc("voting-app"), svc("storefront"),
            svc("ledger", repo="bookkeeping")]


def named(task: str) -> list[tuple[str, str]]:
    return [(m.service, m.how) for m in loose_names(task, SERVICES)]


@pytest.mark.parametrize(("task", "expected"), [
    ("Retry billingservice calls on timeout", [("billing-service", "compact")]),
    ("billing service returns 500", [("billing-service", "compact")]),
    ("Fix the votingapp counter", [("voting-app", "compact")]),
    ("recomendation service crashes on empty carts", [("recommendationservice", "typo")]),
    ("recommendaton service is slow", [("recommendationservice", "typo")]),
    ("notif emails are sent twice", [("notification-service", "prefix")]),
    ("bookkeeping: round totals", [("ledger", "repository")]),
])
def test_loosely_written_names_are_found(task: str, expected: list[tuple[str, str]]) -> None:
    assert named(task) == expected


def test_the_longest_name_a_run_spells_wins() -> None:
    assert named("bk parcel tracking is slow") == [("bk-parcel-tracking-service", "compact")]


@pytest.mark.parametrize("task", ["Bill the customer", "billed twice", "note the release", "vote",
                                  "parcel", "zzqx frobnicate the wibble"])
def test_words_that_only_brush_a_name_name_nothing(task: str) -> None:
    assert named(task) == []


def test_a_folder_written_as_a_path_names_its_service() -> None:
    services = [Service("svc:r:web", "web", "r", "frontend", "go"), Service("svc:r:books", "books", "r", "svc/books-api", "go")]
    assert [(m.service, m.how) for m in loose_names("frontend/templates: reenable empty cart", services)] == [
        ("web", "path")]
    assert [m.service for m in loose_names("./svc/books-api/: tidy", services)] == ["books"]
    assert loose_names("and/or the frontend team", services) == []
