"""Spellings every language analyzer shares: HTTP methods named by title-case words, and configured
values written ``${key:default}`` for the fact builder to read back."""

from __future__ import annotations

import pytest

from orbitkb.analysis.dotnet.tables import REFIT_ATTRS
from orbitkb.analysis.facts import placeholder
from orbitkb.analysis.httpverbs import HTTP_METHODS, titled
from orbitkb.analysis.jvm.tables import MAPPINGS


def test_titled_names_map_to_the_wire_method() -> None:
    assert titled(("GET", "DELETE")) == {"Get": "GET", "Delete": "DELETE"}
    assert titled()["Options"] == "OPTIONS"
    assert set(titled().values()) == set(HTTP_METHODS)


def test_the_tables_built_from_titled_names_keep_their_rows() -> None:
    assert {k: MAPPINGS[k] for k in ("Get", "Head", "Options")} == {"Get": "GET", "Head": "HEAD", "Options": "OPTIONS"}
    assert MAPPINGS["RequestMapping"] is None  # Spring's rows stand beside them
    assert REFIT_ATTRS["Head"] == "HEAD"
    assert "Options" not in REFIT_ATTRS  # Refit's table names no OPTIONS attribute
    assert "get" not in titled()  # lower-case names are another table's (Python, Node)


@pytest.mark.parametrize(
    ("key", "default", "written"),
    [
        ("ORDERS_TABLE", None, "${ORDERS_TABLE}"),
        ("orders.table", "orders", "${orders.table:orders}"),
        ("BUS", "", "${BUS:}"),  # an empty default is still a default
    ],
)
def test_placeholder_writes_the_key_and_its_default(key: str, default: str | None, written: str) -> None:
    assert placeholder(key, default) == written
