"""Each detector on purpose-built graphs."""

from __future__ import annotations

from orbitkb.domain.architecture.graph import SystemGraph
from orbitkb.domain.architecture.smells import SmellSettings, detect_all, strongly_connected
from orbitkb.domain.model import Direction, TargetKind

from .builders import call, entity, msg, svc


def kinds(findings):
    return sorted((f.kind, f.services) for f in findings)


def graph(names, calls=(), messages=()):
    return SystemGraph([svc(n) for n in names], list(calls), list(messages))


def test_tarjan_components() -> None:
    adj = {"a": {"b"}, "b": {"c"}, "c": {"a"}, "d": {"e"}, "e": {"d"}, "f": set()}
    assert strongly_connected(adj) == [["a", "b", "c"], ["d", "e"], ["f"]]


def test_cycle_of_two_and_three_and_none_in_a_dag() -> None:
    g = graph("abcdexy", [call("a", "b"), call("b", "a"), call("c", "d"), call("d", "e"), call("e", "c"),
                          call("x", "y")])
    found = [f for f in detect_all(g, [], []) if f.kind == "cycle"]
    assert kinds(found) == [("cycle", ("a", "b")), ("cycle", ("c", "d", "e"))]
    assert all(f.severity == "warning" for f in found)
    assert "circle" in found[0].reason


def test_a_cycle_names_each_member_once_and_claims_no_call_that_is_not_there() -> None:
    g = graph("abc", [call("a", "c"), call("c", "b"), call("b", "a")])  # the circle runs a -> c -> b -> a
    (found,) = [f for f in detect_all(g, [], []) if f.kind == "cycle"]
    assert found.services == ("a", "b", "c")
    assert found.reason.startswith("a, b, c call each other in a circle via synchronous calls")
    assert "->" not in found.reason and found.reason.count("a, b, c") == 1


def test_self_loop_is_reported_as_info() -> None:
    g = graph("ab", [call("a", "a"), call("a", "b")])
    found = [f for f in detect_all(g, [], []) if f.kind == "cycle"]
    assert kinds(found) == [("cycle", ("a",))]
    assert found[0].severity == "info" and found[0].detail["self_loop"] is True


def test_message_links_do_not_make_cycles() -> None:
    g = graph("ab", [call("a", "b")], [msg("b", Direction.PUBLISHES, "done"), msg("a", Direction.CONSUMES, "done")])
    assert [f for f in detect_all(g, [], []) if f.kind == "cycle"] == []
    assert [(e.source, e.target, e.type) for e in g.edges] == [("a", "b", "HTTP"), ("b", "a", "MESSAGE_LINK")]


def test_disconnected_graph_has_no_findings() -> None:
    g = graph("abcd", [call("a", "b"), call("c", "d")])
    assert detect_all(g, [], []) == []


def test_fan_in_and_out_ties_at_threshold() -> None:
    callers = ["c1", "c2", "c3", "c4"]
    g = graph(["hub", *callers, "x1", "x2", "x3"], [call(c, "hub") for c in callers]
              + [call("hub", x) for x in ("x1", "x2", "x3")])
    found = detect_all(g, [], [], SmellSettings(fan_threshold=4))
    assert kinds([f for f in found if f.kind.startswith("fan")]) == [("fan_in", ("hub",))]
    fin = next(f for f in found if f.kind == "fan_in")
    assert fin.detail["count"] == 4 and fin.detail["callers"] == callers
    # one more threshold step: 3 callees now reach it
    found3 = detect_all(g, [], [], SmellSettings(fan_threshold=3))
    assert kinds([f for f in found3 if f.kind.startswith("fan")]) == [("fan_in", ("hub",)), ("fan_out", ("hub",))]
    found5 = detect_all(g, [], [], SmellSettings(fan_threshold=5))
    assert [f for f in found5 if f.kind.startswith("fan")] == []


def test_shared_database_needs_same_name_and_known_engine() -> None:
    g = graph("abc")
    ents = [entity("a", "orders", "postgres"), entity("b", "Orders", "postgres"), entity("c", "orders", "mongodb"),
            entity("a", "items", "unknown"), entity("b", "items", "unknown")]
    found = [f for f in detect_all(g, ents, []) if f.kind == "shared_database"]
    assert kinds(found) == [("shared_database", ("a", "b"))]
    assert found[0].detail == {"entity": "orders", "engine": "postgres"}


def test_duplicate_external_integration() -> None:
    g = graph("abc", [call("a", None, "Stripe API", TargetKind.EXTERNAL), call("b", None, "Stripe API", TargetKind.EXTERNAL),
                      call("c", None, "Twilio", TargetKind.EXTERNAL), call("c", None, "shipping", TargetKind.UNKNOWN),
                      call("a", None, "shipping", TargetKind.UNKNOWN)])
    found = [f for f in detect_all(g, [], []) if f.kind == "duplicate_external_integration"]
    assert kinds(found) == [("duplicate_external_integration", ("a", "b"))]


def test_deep_sync_chain_reports_each_entry_point_once() -> None:
    g = graph("abcdef", [call("a", "b"), call("b", "c"), call("c", "d"), call("d", "e"), call("f", "c")])
    found = [f for f in detect_all(g, [], [], SmellSettings(max_sync_depth=3)) if f.kind == "deep_sync_chain"]
    assert kinds(found) == [("deep_sync_chain", ("a", "b", "c", "d", "e"))]
    assert found[0].detail["count"] == 4
    assert [f for f in detect_all(g, [], [], SmellSettings(max_sync_depth=4)) if f.kind == "deep_sync_chain"] == []


def test_self_consumed_channel() -> None:
    g = graph("ab")
    msgs = [msg("a", Direction.PUBLISHES, "retry"), msg("a", Direction.CONSUMES, "retry"),
            msg("b", Direction.PUBLISHES, "x"), msg("a", Direction.CONSUMES, "x")]
    found = [f for f in detect_all(g, [], msgs) if f.kind == "self_consumed_channel"]
    assert kinds(found) == [("self_consumed_channel", ("a",))]
    assert found[0].detail == {"channel": "retry"}


def test_findings_are_deterministic_and_warnings_first() -> None:
    g = graph("abcde", [call("a", "b"), call("b", "a")])
    ents = [entity("c", "t", "postgres"), entity("d", "t", "postgres")]
    first = detect_all(g, ents, [])
    assert first == detect_all(g, ents, [])
    assert [f.severity for f in first] == sorted((f.severity for f in first), key=lambda s: s != "warning")


def test_trace_flow_returns_tied_paths_once_each() -> None:
    from orbitkb.domain.usecases.architecture import shortest_paths

    g = graph("abcd", [call("a", "b"), call("a", "c"), call("b", "d"), call("c", "d"),
                       call("b", "d", target="d-other-site")])
    paths = shortest_paths(g, "a", "d", 6)
    assert [[(e.source, e.target) for e in p] for p in paths] == [[("a", "b"), ("b", "d")], [("a", "c"), ("c", "d")]]
    assert shortest_paths(g, "d", "a", 6) == []
    assert shortest_paths(g, "a", "d", 1) == []


def test_a_gateway_routing_to_many_services_is_not_a_fan_out_smell() -> None:
    from orbitkb.domain.model import Service

    from .builders import svc as make

    targets = ["a", "b", "c", "d", "e"]
    services = [make(n) for n in targets]
    services.append(Service(make("edge").id, "edge", "r", "edge", "jvm-spring", framework="spring-cloud-gateway"))
    services.append(make("bff"))
    g = SystemGraph(services, [call("edge", t) for t in targets] + [call("bff", t) for t in targets], [])
    fans = [f for f in detect_all(g, [], []) if f.kind == "fan_out"]
    assert [f.services for f in fans] == [("bff",)]
