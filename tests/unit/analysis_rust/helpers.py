"""The Rust analyzer's test helpers: the shared ones (``tests/support/analysis.py``) bound to it."""

from __future__ import annotations

from orbitkb.analysis.rust import ANALYZER
from tests.support.analysis import linker, routes, show

link = linker(ANALYZER)

__all__ = ["link", "routes", "show"]
