"""Java's spelling of a default for a value that may be null — ``x == null ? "d" : x`` and
``x != null ? x : "d"`` — reads like Kotlin's elvis: an environment variable or property with that
default. A ternary on anything else stays an unknown value."""

from __future__ import annotations

import json

from orbitkb.analysis.facts import Env, Expr, Lit, ServiceContext
from orbitkb.analysis.jvm import ANALYZER


def render(expr: Expr | None) -> str:
    """Literals as is, ``${NAME:default}`` for environment reads, ``{?}`` for the rest."""
    out = []
    for p in expr.parts if expr is not None else ():
        if isinstance(p, Lit):
            out.append(p.text)
        elif isinstance(p, Env):
            out.append("${" + p.name + (":" + p.default if p.default is not None else "") + "}")
        else:
            out.append("{?}")
    return "".join(out)


def calls(text: str) -> list[str]:
    path = "src/main/java/org/harbour/Pilots.java"
    parsed = {path: json.loads(json.dumps(ANALYZER.parse(path, text)))}
    facts = ANALYZER.link(ServiceContext("svc", ".", "jvm-spring", "repo"), parsed)
    return sorted(render(c.url) for c in facts.calls)


def test_null_checks_on_environment_reads_give_their_default():
    text = """package org.harbour;
import org.springframework.web.client.RestTemplate;
public class Pilots {
  private static final String TUGS = System.getenv("TUGS_HOST") == null ? "tugs" : System.getenv("TUGS_HOST");
  private static final String BERTHS = (System.getenv("BERTHS_URL") != null) ? System.getenv("BERTHS_URL") : "http://berths:8081";
  private final RestTemplate rest = new RestTemplate();
  public Object tug(String id) { return rest.getForObject("http://" + TUGS + ":9080/tugs/" + id, String.class); }
  public Object berth() { return rest.getForObject(BERTHS + "/free", String.class); }
}
"""
    assert calls(text) == ["${BERTHS_URL:http://berths:8081}/free", "http://${TUGS_HOST:tugs}:9080/tugs/{?}"]


def test_other_ternaries_stay_unknown():
    text = """package org.harbour;
import org.springframework.web.client.RestTemplate;
public class Pilots {
  private static final boolean NIGHT = Boolean.parseBoolean(System.getenv("NIGHT"));
  private static final String PORT = NIGHT ? "http://night:1" : "http://day:2";
  private static final String ODD = System.getenv("A") == null ? "x" : System.getenv("B");
  private final RestTemplate rest = new RestTemplate();
  public Object a() { return rest.getForObject(PORT + "/a", String.class); }
  public Object b() { return rest.getForObject(ODD + "/b", String.class); }
}
"""
    got = calls(text)
    assert not any("night" in u or "day" in u or "${A" in u or "${B" in u for u in got), got


def test_an_optional_suffix_only_there_when_the_variable_is_set_is_left_out():
    text = """package org.harbour;
import org.springframework.web.client.RestTemplate;
public class Pilots {
  private static final String ZONE = System.getenv("HARBOUR_ZONE") == null ? "" : ("." + System.getenv("HARBOUR_ZONE"));
  private static final String TIER = System.getenv("TIER") != null ? System.getenv("TIER") + "-" : "";
  private static final String BUOYS = "http://buoys" + ZONE + ":7070/buoys";
  private final RestTemplate rest = new RestTemplate();
  public Object buoy(String id) { return rest.getForObject(BUOYS + "/" + id, String.class); }
  public Object dock() { return rest.getForObject("http://" + TIER + "docks:7071/docks", String.class); }
}
"""
    assert calls(text) == ["http://buoys:7070/buoys/{?}", "http://docks:7071/docks"]


def test_a_derived_value_with_a_real_default_stays_unknown():
    text = """package org.harbour;
import org.springframework.web.client.RestTemplate;
public class Pilots {
  private static final String LOCKS = System.getenv("LOCKS_HOST") == null ? "http://localhost:1" : "http://" + System.getenv("LOCKS_HOST");
  private final RestTemplate rest = new RestTemplate();
  public Object lock() { return rest.getForObject(LOCKS + "/locks", String.class); }
}
"""
    assert calls(text) == ["{?}/locks"]
