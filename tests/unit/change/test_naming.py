"""Loose service names in tasks: run together, split, misspelt, shortened, or the repository's name."""

from __future__ import annotations

import pytest

from orbitkb.domain.change.naming import compound_head, loose_names
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


# a shortening cuts inside a syllable; a whole word that opens a compound names its own thing
SHORTENED = [svc("authorizer-service"), svc("ledger-reconciliation"), svc("transaction-log"),
             svc("recommendation-api"), svc("orders-backgroundjobs", aliases=("Orders.BackgroundJobs",)),
             svc("bookstore"), svc("webhook-relay"), svc("workflow-engine")]


@pytest.mark.parametrize(("task", "expected"), [
    ("auth tokens expire too early", ["authorizer-service"]),
    ("reconcil step skips refunds", ["ledger-reconciliation"]),
    ("transac ids are not unique", ["transaction-log"]),
    ("recomm list is empty for new users", ["recommendation-api"]),
])
def test_real_shortenings_still_name_their_service(task: str, expected: list[str]) -> None:
    assert [m.service for m in loose_names(task, SHORTENED) if m.how == "prefix"] == expected


@pytest.mark.parametrize("task", ["Put the chair back where it was", "Return the library book on Monday",
                                  "Spider web in the corner of the shed", "Work late on Friday"])
def test_a_whole_word_that_opens_a_compound_is_no_shortening_of_it(task: str) -> None:
    assert loose_names(task, SHORTENED) == []


@pytest.mark.parametrize(("word", "name_word", "head"), [
    ("back", "background", True), ("book", "bookstore", True), ("web", "webhook", True),
    ("auth", "authentication", False), ("notif", "notification", False), ("recom", "recommendation", False),
    ("transac", "transaction", False), ("inven", "inventory", False), ("ship", "shipping", False),
    ("data", "database", False),  # a head ending in a vowel is not told apart: kept as a shortening
])
def test_compound_head(word: str, name_word: str, head: bool) -> None:
    assert compound_head(word, name_word) is head
