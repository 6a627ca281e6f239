"""`orbitkb ui` as a person uses it, in Chromium: open the map of the example system, filter,
click a service and an edge, open the service page, run a change surface and see it on the map,
record feedback, walk with the keyboard. Screenshots go to the folder the README names."""

from __future__ import annotations

import json
import re

import pytest

from tests.e2e.conftest import git

from .conftest import UiServer, shot

pytestmark = pytest.mark.slow


def open_map(page, server) -> None:
    page.goto(server.url)
    page.wait_for_selector("body[data-ready=map]", timeout=20_000)


def click_element(page, element_id: str) -> None:
    """A real mouse click where the graph drew the node."""
    page.wait_for_function("() => !window.orbitkb.cy.animated()")  # the map still centring on a choice
    point = page.evaluate("""(id) => {
        const cy = window.orbitkb.cy, el = cy.getElementById(id);
        cy.fit(el, 80);
        const p = el.renderedPosition(), box = cy.container().getBoundingClientRect();
        return {x: box.left + p.x, y: box.top + p.y};
    }""", element_id)
    page.mouse.click(point["x"], point["y"])


def click_an_edge(page, protocol: str) -> dict:
    """A real mouse click on the middle of the first edge of ``protocol`` that no node covers there."""
    page.wait_for_function("() => !window.orbitkb.cy.animated()")
    found = page.evaluate("""(protocol) => {
        const cy = window.orbitkb.cy, box = cy.container().getBoundingClientRect();
        cy.fit(undefined, 30);
        const nodes = cy.nodes().not(".repository");
        for (const e of cy.edges('.' + protocol).sort((a, b) => a.id().localeCompare(b.id()))) {
            const p = e.renderedMidpoint();
            const covered = nodes.some((n) => { const b = n.renderedBoundingBox();
                return p.x > b.x1 - 6 && p.x < b.x2 + 6 && p.y > b.y1 - 6 && p.y < b.y2 + 6; });
            if (!covered) return {x: box.left + p.x, y: box.top + p.y,
                                  source: e.source().data('label'), target: e.target().data('label')};
        }
        return null;
    }""", protocol)
    assert found, f"every {protocol} edge is covered by a node"
    page.mouse.click(found["x"], found["y"])
    return found


def service_buttons(page) -> list[str]:
    return [t.split(" (")[0] for t in page.locator("#services button").all_inner_texts()]


def test_map_filters_and_a_click_on_a_service_and_an_edge(page, shop_ui) -> None:
    open_map(page, shop_ui)
    model = json.loads(page.evaluate("fetch('/api/map').then(r => r.text())"))
    services = sorted(n["label"] for n in model["nodes"] if n["kind"] == "service")
    assert sorted(service_buttons(page)) == services and len(services) == 10
    assert {"HTTP", "GRPC", "MESSAGE"} <= set(model["protocols"])
    shot(page, "map")

    stack = next(n["stack"] for n in model["nodes"] if n["label"] == "inventory")
    page.select_option("#filter-stack", stack)
    assert service_buttons(page) == sorted(n["label"] for n in model["nodes"]
                                           if n["kind"] == "service" and n["stack"] == stack)
    page.select_option("#filter-stack", "")
    page.uncheck("#protocol-HTTP")
    visible = page.evaluate("window.orbitkb.cy.edges().filter(e => !e.hasClass('hidden')).map(e => e.data('protocol'))")
    assert visible and "HTTP" not in visible
    page.check("#protocol-HTTP")
    page.fill("#search", "paym")  # names and descriptions
    found = service_buttons(page)
    assert "payments" in found and "inventory" not in found and len(found) < len(services)
    assert all("paym" in (n["label"] + (n["detail"] or "")).lower() for n in model["nodes"] if n["label"] in found)
    page.fill("#search", "no-such-thing")
    assert service_buttons(page) == []
    page.fill("#search", "")

    click_element(page, "service:payments")
    expect_heading(page, "payments")
    assert "in a cycle" in page.inner_text("#panel")
    edge = click_an_edge(page, "HTTP")
    expect_heading(page, f"{edge['source']} → {edge['target']}")
    page.wait_for_selector("#panel .edge-detail[aria-busy=false]")  # its evidence, asked for on the click
    panel = page.inner_text("#panel")
    assert "HTTP call" in panel and re.search(r"\.(java|kt|py|ts|js|go):\d+", panel), panel
    shot(page, "edge")

    click_element(page, "service:payments")
    page.get_by_role("button", name="Open the service page").click()
    page.wait_for_selector(".service-title")
    assert page.inner_text(".service-title") == "payments"
    callers = page.inner_text("ul.callers")  # calls in, each with its evidence (its incoming edges on the map)
    assert "orders" in callers and re.search(r"\.(java|kt|py|ts|js|go|ya?ml):\d+", callers), callers
    assert page.locator(".entity h4").count() >= 1  # the ER view
    page.locator("table button.link").first.click()  # an API: its request/response shapes
    page.wait_for_selector(".api-detail h3")
    shot(page, "service")


def expect_heading(page, text: str) -> None:
    page.wait_for_function("(t) => document.querySelector('#panel h2')?.textContent === t", arg=text)


def test_the_map_loads_without_evidence_and_a_service_brings_its_edges_evidence_in_one_request(page, shop_ui) -> None:
    asked: list[str] = []
    page.on("request", lambda r: asked.append(r.url.split("/", 3)[3]) if "/api/edge" in r.url else None)
    open_map(page, shop_ui)
    assert asked == []  # nothing asked before a choice
    page.locator("#services button", has_text="payments").first.click()
    expect_heading(page, "payments")
    links = page.locator("#panel li button")
    assert links.count() >= 2
    for i in range(links.count()):  # every edge of the service, each opened, then the service again
        page.locator("#panel li button").nth(i).click()
        page.wait_for_selector("#panel .edge-detail[aria-busy=false]")
        assert re.search(r"\.(java|kt|py|ts|js|go|ya?ml):\d+|no evidence recorded", page.inner_text("#panel"))
        page.locator("#services button", has_text="payments").first.click()
        expect_heading(page, "payments")
    assert len(asked) == 1 and asked[0].startswith("api/edges?node=service%3Apayments"), asked


def test_an_edge_clicked_before_its_services_edges_arrive_waits_for_them(page, shop_ui) -> None:
    asked: list[str] = []
    page.on("request", lambda r: asked.append(r.url.split("/", 3)[3]) if "/api/edge" in r.url else None)
    open_map(page, shop_ui)
    held: list = []  # the service's edges are held back: the click on one of them comes first
    page.route("**/api/edges?*", lambda route: held.append(route))
    page.locator("#services button", has_text="payments").first.click()
    expect_heading(page, "payments")
    while not held:
        page.wait_for_timeout(20)
    page.locator("#panel li button").first.click()
    page.wait_for_timeout(300)  # a request of its own would have gone out by now
    held[0].continue_()
    page.wait_for_selector("#panel .edge-detail[aria-busy=false]")
    assert re.search(r"\.(java|kt|py|ts|js|go|ya?ml):\d+|no evidence recorded", page.inner_text("#panel"))
    assert len(asked) == 1 and asked[0].startswith("api/edges?node=service%3Apayments"), asked


def test_evidence_that_cannot_be_had_says_why_in_the_panel(page, shop_ui) -> None:
    gone = json.dumps({"error": "no edge on the map", "hint": "the map changed since the page loaded it: reload the page"})
    page.route("**/api/edge*", lambda route: route.fulfill(status=404, content_type="application/json", body=gone))
    open_map(page, shop_ui)
    page.locator("#services button", has_text="payments").first.click()
    expect_heading(page, "payments")
    page.locator("#panel li button").first.click()
    page.wait_for_selector("#panel .edge-detail[aria-busy=false]")
    assert "reload the page" in page.inner_text("#panel .edge-detail .error")


def test_a_change_surface_lights_up_the_map_and_takes_feedback(page, shop_ui) -> None:
    open_map(page, shop_ui)
    page.get_by_role("link", name="Change surface").click()
    page.fill("#task", "Let customers pay with Pix at checkout")
    page.click("#analyze")
    page.wait_for_selector("ul[data-tier=primary] > li")
    primary = page.eval_on_selector_all("ul[data-tier=primary] > li", "els => els.map(e => e.dataset.service)")
    assert "payments" in primary
    lit = page.evaluate("""() => {
        const cy = window.orbitkb.cy;
        return {primary: cy.nodes('.primary').map(n => n.data('label')),
                faded: cy.nodes('.faded').map(n => n.data('label'))};
    }""")
    assert sorted(lit["primary"]) == sorted(primary)
    assert "payments" not in lit["faded"] and lit["faded"]
    assert "Contracts at risk" in page.inner_text("#panel")
    shot(page, "change-surface")

    item = page.locator("ul[data-tier=primary] li[data-service=payments]")
    item.get_by_role("button", name="confirm that payments changed").click()
    page.wait_for_function("() => document.querySelector('li[data-service=payments] [role=status]')"
                           "?.textContent.includes('recorded: confirmed')")
    runs = json.loads(page.evaluate("fetch('/api/runs').then(r => r.text())"))["runs"]
    assert runs[0]["run"]["task"] == "Let customers pay with Pix at checkout"
    assert [(f["service"], f["outcome"]) for f in runs[0]["feedback"]] == [("payments", "confirmed")]
    page.wait_for_selector("#past-runs li button")
    assert "Let customers pay with Pix at checkout" in page.inner_text("#past-runs")


def test_smells_show_their_services_on_the_map(page, shop_ui) -> None:
    open_map(page, shop_ui)
    page.get_by_role("link", name="Smells").click()
    page.wait_for_selector("#smells li button")
    first = page.locator("#smells li button").first
    services = first.inner_text().split(": ", 1)[1].split(", ")
    first.click()
    lit = page.evaluate("window.orbitkb.cy.nodes('.primary').map(n => n.data('label'))")
    assert sorted(lit) == sorted(services)
    shot(page, "smells")


def test_keyboard_alone_reaches_a_service_with_a_visible_focus(page, shop_ui) -> None:
    open_map(page, shop_ui)
    for _ in range(30):
        page.keyboard.press("Tab")
        if page.evaluate("document.activeElement.closest('#services') !== null"):
            break
    else:
        pytest.fail("Tab never reached the service list")
    style = page.evaluate("""() => { const s = getComputedStyle(document.activeElement);
        return {style: s.outlineStyle, width: parseFloat(s.outlineWidth)}; }""")
    assert style["style"] != "none" and style["width"] >= 2
    name = page.evaluate("document.activeElement.textContent").split(" (")[0]
    page.keyboard.press("Enter")
    expect_heading(page, name)
    page.keyboard.press("Escape")
    page.evaluate("document.activeElement.blur()")
    page.keyboard.press("/")
    assert page.evaluate("document.activeElement.id") == "search"
    shot(page, "keyboard-focus")


def tab_to(page, predicate: str, limit: int = 120) -> None:
    """Presses Tab until ``predicate`` (a JS expression on ``el``, the focused element) holds, then
    checks the focus ring is drawn there."""
    for _ in range(limit):
        page.keyboard.press("Tab")
        if page.evaluate(f"(() => {{ const el = document.activeElement; return !!({predicate}); }})()"):
            break
    else:
        pytest.fail(f"Tab never reached {predicate}")
    ring = page.evaluate("""() => { const s = getComputedStyle(document.activeElement);
        return {style: s.outlineStyle, width: parseFloat(s.outlineWidth)}; }""")
    assert ring["style"] != "none" and ring["width"] >= 2, f"no visible focus on {predicate}"


def test_keyboard_alone_runs_a_change_surface_gives_feedback_and_walks_the_smells(page, shop_ui) -> None:
    open_map(page, shop_ui)
    tab_to(page, "el.matches('nav a[data-view=surface]')")
    page.keyboard.press("Enter")
    tab_to(page, "el.id === 'task'")
    page.keyboard.type("Let customers pay with Pix at checkout")
    page.keyboard.press("Control+Enter")
    page.wait_for_selector("ul[data-tier=primary] > li")
    assert "payments" in page.evaluate("window.orbitkb.cy.nodes('.primary').map(n => n.data('label'))")
    tab_to(page, "el.getAttribute('aria-label') === 'confirm that payments changed'")
    page.keyboard.press("Enter")
    page.wait_for_function("() => document.querySelector('li[data-service=payments] [role=status]')"
                           "?.textContent.includes('recorded: confirmed')")
    tab_to(page, "el.closest('#past-runs') && el.tagName === 'BUTTON'")
    page.keyboard.press("Enter")  # a past run shown again, its services lit
    page.wait_for_function("() => document.querySelector('#surface-result h2')?.textContent.startsWith('Run ')")
    shot(page, "keyboard-surface")

    tab_to(page, "el.matches('nav a[data-view=smells]')")
    page.keyboard.press("Enter")
    page.wait_for_selector("#smells li button")
    tab_to(page, "el.closest('#smells') && el.tagName === 'BUTTON'")
    services = page.evaluate("document.activeElement.textContent").split(": ", 1)[1].split(", ")
    page.keyboard.press("Enter")
    lit = page.evaluate("window.orbitkb.cy.nodes('.primary').map(n => n.data('label'))")
    assert sorted(lit) == sorted(services)
    page.keyboard.press("Escape")
    assert page.evaluate("window.orbitkb.cy.nodes('.primary').length") == 0
    shot(page, "keyboard-smells")


def test_protocols_differ_by_line_style_and_use_a_colour_blind_safe_palette(page, shop_ui) -> None:
    open_map(page, shop_ui)
    okabe_ito = {"rgb(0,114,178)", "rgb(230,159,0)", "rgb(0,158,115)", "rgb(138,138,138)"}
    styles = page.evaluate("""() => Object.fromEntries(['HTTP', 'GRPC', 'MESSAGE'].map(p => {
        const e = window.orbitkb.cy.edges('.' + p)[0];
        return [p, {line: e.style('line-style'), color: e.style('line-color'), arrow: e.style('target-arrow-shape')}];
    }))""")
    assert len({s["line"] for s in styles.values()}) == 3  # not told apart by colour alone
    assert len({s["arrow"] for s in styles.values()}) == 3
    assert {s["color"].replace(" ", "") for s in styles.values()} <= okabe_ito


def test_a_repository_changed_since_its_index_is_marked_stale(page, cli, example_repo) -> None:
    cli.run("index", str(example_repo), "--repository-name", "shop")
    (example_repo / "NOTES.md").write_text("a commit after the index\n")
    git(example_repo, "add", "-A")
    git(example_repo, "commit", "-qm", "after the index")
    server = UiServer(cli.db, cli.cwd)
    try:
        open_map(page, server)
        assert "shop (stale)" in page.inner_text("#filter-repository")
        assert page.evaluate("window.orbitkb.cy.getElementById('group:shop').hasClass('stale')")
        page.locator("#services button").first.click()
        page.wait_for_selector("#panel .tag.stale")
    finally:
        server.stop()


def test_a_large_map_defers_resource_links_and_restyles_no_edge_when_zoomed(page, shop_ui) -> None:
    open_map(page, shop_ui)
    state = page.evaluate("""async () => {
        const { createMap, applyFilters, initialProtocols } = await import('/static/map.js');
        const nodes = [], edges = [];
        for (let i = 0; i < 60; i++) nodes.push({ id: `service:s${i}`, kind: 'service', label: `s${i}`, repository: 'big',
                                                 stack: 'go', hot: [] });
        nodes.push({ id: 'resource:big/db', kind: 'resource', label: 'db', repository: 'big', hot: [] });
        for (let i = 0; i < 60; i++) for (let k = 1; k <= 7; k++)
            edges.push({ id: `h${i}-${k}`, source: `service:s${i}`, target: `service:s${(i + k) % 60}`, protocol: 'HTTP' });
        for (let i = 0; i < 30; i++) edges.push({ id: `u${i}`, source: `service:s${i}`, target: 'resource:big/db', protocol: 'USES' });
        const model = { repositories: [{ name: 'big', freshness: {} }], nodes, edges, protocols: ['HTTP', 'USES'] };
        const box = document.createElement('div');
        box.style.width = '320px'; box.style.height = '240px';
        document.body.append(box);
        const cy = createMap(box, model, { onNode() {}, onEdge() {}, onBackground() {} });
        const before = { protocols: initialProtocols(model), uses: cy.edges('.USES').length, zoom: cy.zoom() };
        applyFilters(cy, { repository: '', stack: '', query: '', protocols: new Set(['HTTP', 'USES']) });
        const added = cy.edges('.USES').length;
        let restyled = 0;
        cy.on('style', 'edge', () => { restyled += 1; });
        for (const zoom of [1.2, 0.1, 0.8]) cy.zoom(zoom);  // far to near and back: the edges keep their style
        return { ...before, added, restyled };
    }""")
    assert state["protocols"] == ["HTTP"] and state["uses"] == 0 and state["added"] == 30
    assert state["zoom"] < 0.45 and state["restyled"] == 0


@pytest.mark.parametrize("motion,animated", [("no-preference", True), ("reduce", False)])
def test_a_small_map_glides_to_a_choice_unless_the_reader_asked_for_less_motion(page, shop_ui, motion: str,
                                                                                  animated: bool) -> None:
    page.emulate_media(reduced_motion=motion)
    open_map(page, shop_ui)
    state = page.evaluate("""async () => {
        const { focusNode } = await import('/static/map.js');
        const cy = window.orbitkb.cy;
        cy.zoom(0.3);
        focusNode(cy, 'service:payments');
        const p = cy.getElementById('service:payments').renderedPosition();
        return { animated: cy.animated(), zoom: cy.zoom(), centred: Math.abs(p.x - cy.width() / 2) < 1
                 && Math.abs(p.y - cy.height() / 2) < 1 };
    }""")
    assert state["animated"] is animated
    if not animated:  # there at once: centred, readable
        assert state["zoom"] == 0.8 and state["centred"]


def test_the_repository_filter_keeps_one_repository_and_the_vendors_it_calls(page, shop_ui) -> None:
    open_map(page, shop_ui)
    shown = page.evaluate("""async () => {
        const { createMap, applyFilters } = await import('/static/map.js');
        const svc = (repo, name) => ({ id: `service:${repo}/${name}`, kind: 'service', label: `${repo}/${name}`,
                                       repository: repo, stack: 'go', hot: [] });
        const model = {
            repositories: [{ name: 'a', freshness: {} }, { name: 'b', freshness: {} }],
            nodes: [svc('a', 'x'), svc('a', 'y'), svc('b', 'x'),
                    { id: 'vendor:Stripe', kind: 'vendor', label: 'Stripe', repository: null, hot: [] },
                    { id: 'vendor:SendGrid', kind: 'vendor', label: 'SendGrid', repository: null, hot: [] }],
            edges: [{ id: 'e1', source: 'service:a/x', target: 'service:a/y', protocol: 'HTTP' },
                    { id: 'e2', source: 'service:a/y', target: 'vendor:Stripe', protocol: 'HTTP' },
                    { id: 'e3', source: 'service:b/x', target: 'vendor:SendGrid', protocol: 'HTTP' },
                    { id: 'e4', source: 'service:b/x', target: 'service:a/x', protocol: 'GRPC' }],
            protocols: ['GRPC', 'HTTP'],
        };
        const box = document.createElement('div');
        box.style.width = '400px'; box.style.height = '300px';
        document.body.append(box);
        const cy = createMap(box, model, { onNode() {}, onEdge() {}, onBackground() {} });
        const listed = applyFilters(cy, { repository: 'a', stack: '', query: '', protocols: new Set(['GRPC', 'HTTP']) });
        const visible = (sel) => cy.$(sel).filter((e) => e.visible()).map((e) => e.id()).sort();
        return { listed: listed.map((d) => d.label), nodes: visible('node'), edges: visible('edge'),
                 restyled: cy.edges('.hidden').map((e) => e.id()) };
    }""")
    assert shown["listed"] == ["a/x", "a/y"]
    assert shown["nodes"] == ["group:a", "group:external", "service:a/x", "service:a/y", "vendor:Stripe"]
    assert shown["edges"] == ["e1", "e2"]  # b's call into a goes with b
    assert shown["restyled"] == []  # hidden with their ends, not by a class of their own (no restyle)
