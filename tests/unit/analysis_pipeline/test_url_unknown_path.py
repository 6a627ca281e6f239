"""Splitting resolved addresses whose path is an unresolved piece written right after the port."""

from __future__ import annotations

from orbitkb.analysis.resolution.urls import parse_address


def test_an_unknown_path_right_after_a_port_still_leaves_host_and_port():
    """`${base}${endpoint}` with base `http://localhost:8080` and an unknown endpoint."""
    joined = parse_address("http://localhost:8080\x000\x00?page=2")
    assert (joined.host, joined.port, joined.path) == ("localhost", 8080, "\x000\x00")
    assert parse_address("http://ledger\x000\x00/entries").host is None  # the host itself unknown
    assert parse_address("http://ledger:80x\x000\x00").host is None  # not a port
