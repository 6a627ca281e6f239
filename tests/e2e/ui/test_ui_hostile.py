"""A repository planted with markup and script URLs in its folder name, service descriptions,
routes, entity names and call addresses, indexed and shown by `orbitkb ui`: every string is
displayed as text, nothing executes, no policy violation is even attempted."""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from tests.e2e.conftest import Cli

from .conftest import UiServer, shot
from .hostile import IMG, JS_URL, SCRIPT, write

pytestmark = pytest.mark.slow

#: installed before any page script: records what a successful injection would do
WATCH = """
window.__violations = [];
document.addEventListener("securitypolicyviolation", (e) => window.__violations.push(e.violatedDirective));
"""

#: markup that would exist only if repository text had been parsed as HTML
INJECTED = """() => ({
  pwned: window.__pwned ?? null,
  violations: window.__violations,
  inlineScripts: document.querySelectorAll("script:not([src])").length,
  handlers: [...document.querySelectorAll("*")].filter((e) => [...e.attributes].some((a) => a.name.startsWith("on"))).length,
  scriptUrls: [...document.querySelectorAll("[href], [src], [action]")].filter((e) =>
      /^\\s*javascript:/i.test(e.getAttribute("href") || e.getAttribute("src") || e.getAttribute("action") || "")).length,
  images: document.querySelectorAll("img, svg image, iframe, object, embed").length,
})"""


@pytest.fixture(scope="module")
def hostile_ui(tmp_path_factory: pytest.TempPathFactory) -> Iterator[UiServer]:
    tmp = tmp_path_factory.mktemp("hostile")
    repo = write(tmp / '<svg onload="window.__pwned=1">')
    cli = Cli(tmp / "kb.db", tmp)
    cli.run("index", str(repo), "--repository-name", f"shop{IMG}")
    server = UiServer(cli.db, tmp)
    yield server
    server.stop()


def assert_clean(page) -> None:
    state = page.evaluate(INJECTED)
    assert state == {"pwned": None, "violations": [], "inlineScripts": 0, "handlers": 0, "scriptUrls": 0, "images": 0}


def test_hostile_names_descriptions_and_routes_are_shown_as_text(page, hostile_ui: UiServer) -> None:
    dialogs: list[str] = []
    page.on("dialog", lambda d: (dialogs.append(d.message), d.dismiss()))
    page.add_init_script(WATCH)
    page.goto(hostile_ui.url)
    page.wait_for_selector("body[data-ready=map]", timeout=20_000)
    assert_clean(page)
    assert f"shop{IMG}" in page.inner_text("#filter-repository")  # the repository name, verbatim, as text

    names = [t.split(" (")[0] for t in page.locator("#services button").all_inner_texts()]
    assert names, "the hostile repository has services"
    seen = ""
    for i in range(len(names)):
        page.goto(hostile_ui.url + "#/map")
        page.locator("#services button").nth(i).click()
        page.wait_for_selector("#panel h2")
        for link in page.locator("#panel li button").all():  # every edge of the service
            link.click()
            page.wait_for_selector("#panel .edge-detail[aria-busy=false]")  # its reason and evidence
            seen += page.inner_text("#panel")
            assert_clean(page)
            page.locator("#services button").nth(i).click()
        page.get_by_role("button", name="Open the service page").click()
        page.wait_for_selector(".service-title")
        for api in page.locator("table button.link").all():  # every API, with its shapes
            api.click()
            page.wait_for_selector(".api-detail h3")
        seen += page.inner_text("#page")
        assert_clean(page)
    assert SCRIPT in seen and IMG in seen, "the planted text is displayed, escaped"
    assert f"channel: {SCRIPT}" in seen  # a message edge whose channel is markup
    assert JS_URL in seen  # a route that is a javascript: URL, shown as a path

    page.goto(hostile_ui.url + "#/surface")
    page.fill("#task", f"Change the help page {SCRIPT} and the ledger {IMG}")
    page.click("#analyze")
    page.wait_for_selector("#surface-result h2")
    page.wait_for_selector("#past-runs li button")
    assert SCRIPT in page.inner_text("#surface-result") and SCRIPT in page.inner_text("#past-runs")
    assert_clean(page)
    page.goto(hostile_ui.url + "#/smells")
    page.wait_for_timeout(300)
    assert_clean(page)
    shot(page, "hostile")
    assert dialogs == []
