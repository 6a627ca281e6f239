"""Rust code the analyzer cannot fully read never stops it: syntax errors keep what parsed, a chain
deeper than the interpreter follows is cut, a recursive router is not followed forever."""

from __future__ import annotations

from orbitkb.analysis.rust import ANALYZER
from tests.unit.analysis_rust.helpers import link, routes


def test_broken_and_odd_files():
    assert ANALYZER.parse("svc/build.rs", "fn main() {}")["skipped"]
    assert ANALYZER.parse("svc/tests/api.rs", "fn main() {}")["skipped"]
    assert ANALYZER.parse("svc/src/bin.rs", "\x00\x01")["skipped"]
    half = 'fn app() -> Router { Router::new().route("/a", get(a)) }\nfn broken( {\n'
    assert routes(link({"svc/src/main.rs": half})) == [("GET", "/a", "a", 1)]


def test_a_very_long_chain_is_cut_not_fatal():
    chain = "Router::new()" + "".join(f'.route("/r{i}", get(h{i}))' for i in range(3000))
    facts = link({"svc/src/main.rs": f"fn app() -> Router {{ {chain} }}\n"})
    assert len(facts.apis) < 3000  # what the interpreter followed, and no RecursionError


def test_routers_nesting_each_other_terminate():
    cyclic = """
    fn a() -> Router { Router::new().route("/a", get(ha)).nest("/b", b()) }
    fn b() -> Router { Router::new().route("/b", get(hb)).nest("/a", a()) }
    """
    found = routes(link({"svc/src/main.rs": cyclic}))
    assert ("GET", "/a", "ha", 1) in found and ("GET", "/b/b", "hb", 2) in found


def test_unit_tests_beside_the_code_are_not_facts():
    source = """
    pub fn app() -> Router { Router::new().route("/a", get(a)) }

    #[cfg(test)]
    mod tests {
        #[tokio::test]
        async fn calls_it() { reqwest::get("http://localhost:3000/a").await; }
    }

    #[test]
    fn sync_check() { reqwest::blocking::get("http://localhost:3000/b"); }
    """
    facts = link({"svc/src/main.rs": source})
    assert routes(facts) == [("GET", "/a", "a", 1)] and facts.calls == ()
