"""A client class that takes its base address in its constructor (``new KilnClient(url)``), and a
project's own ``getenv(name, default)`` helper: the call made through the object carries the address
passed where the object is made; the helper folds to that environment variable."""

from __future__ import annotations

from orbitkb.analysis.jvm.resolve import render

from .test_http_interface_beans import link

KILN_CLIENT = """package org.pottery.glaze;

import org.apache.http.client.methods.HttpPost;
import org.apache.http.impl.client.HttpClients;

public class KilnClient {
  private final String base;

  public KilnClient(String base) {
    this.base = base;
  }

  public String fire(String batch) throws Exception {
    HttpPost post = new HttpPost(base + "/kilns/fire/" + batch);
    return HttpClients.createDefault().execute(post).toString();
  }

  public String status() throws Exception {
    return HttpClients.createDefault().execute(new HttpPost(base + "/kilns/status")).toString();
  }
}
"""

GLAZE_CONTROLLER = """package org.pottery.glaze;

import org.springframework.web.bind.annotation.PathVariable;
import org.springframework.web.bind.annotation.PostMapping;
import org.springframework.web.bind.annotation.RestController;

@RestController
public class GlazeController {
  private final String kilnUrl = String.format("http://%s", readEnv("KILN_HOST", "kiln:8080"));

  private String readEnv(String name, String fallback) {
    String v = System.getenv(name);
    return v == null ? fallback : v;
  }

  @PostMapping("/glaze/{batch}")
  public String glaze(@PathVariable String batch) throws Exception {
    KilnClient kiln = new KilnClient(kilnUrl);
    return kiln.fire(batch) + kiln.status();
  }
}
"""

LEDGER = """package org.pottery.sales

import org.springframework.stereotype.Service
import org.springframework.web.client.RestTemplate

class LedgerClient(private val base: String, private val rest: RestTemplate) {
    fun entries(id: String): String? = rest.getForObject("$base/entries/$id", String::class.java)
}

@Service
class Sales(private val rest: RestTemplate) {
    fun book(id: String): String? {
        val ledger = LedgerClient("http://ledger:9090", rest)
        return ledger.entries(id)
    }
}
"""


def _urls(files: dict[str, str]) -> list[tuple[str | None, str, int]]:
    return sorted((c.method, render(c.url), c.line) for c in link(files).calls)


def test_java_client_made_with_an_address_from_an_own_getenv_helper() -> None:
    got = _urls(
        {"src/main/java/KilnClient.java": KILN_CLIENT, "src/main/java/GlazeController.java": GLAZE_CONTROLLER}
    )
    assert got == [
        ("POST", "http://${KILN_HOST}/kilns/fire/{batch}", 19),
        ("POST", "http://${KILN_HOST}/kilns/status", 19),
    ]


def test_kotlin_primary_constructor_property_holds_the_base() -> None:
    got = _urls({"src/main/kotlin/Ledger.kt": LEDGER})
    assert got == [("GET", "http://ledger:9090/entries/{id}", 14)]


def test_a_client_held_in_a_field_keeps_its_base_unknown() -> None:
    held = GLAZE_CONTROLLER.replace("    KilnClient kiln = new KilnClient(kilnUrl);\n", "").replace(
        "public class GlazeController {", "public class GlazeController {\n  private KilnClient kiln;"
    )
    got = _urls({"src/main/java/KilnClient.java": KILN_CLIENT, "src/main/java/GlazeController.java": held})
    assert [u for _m, u, _l in got] == ["{base}/kilns/fire/{batch}", "{base}/kilns/status"]


def test_a_class_with_two_constructors_is_not_guessed() -> None:
    two = KILN_CLIENT.replace(
        "  public String fire(", '  public KilnClient() {\n    this.base = "";\n  }\n\n  public String fire('
    )
    got = _urls(
        {"src/main/java/KilnClient.java": two, "src/main/java/GlazeController.java": GLAZE_CONTROLLER}
    )
    assert all("${KILN_HOST}" not in u and "/kilns/" in u for _m, u, _l in got)


def test_a_getenv_of_a_fixed_name_is_no_helper() -> None:
    fixed = GLAZE_CONTROLLER.replace("System.getenv(name)", 'System.getenv("OVEN")')
    got = _urls({"src/main/java/KilnClient.java": KILN_CLIENT, "src/main/java/GlazeController.java": fixed})
    assert all("${KILN_HOST}" not in u for _m, u, _l in got)
