// orbitkb ui: loads the system map once, then routes (#/map, #/service/NAME, #/surface, #/smells)
// between the map's side panel and the service page. Everything shown is built by dom.js.

import { get, readOnly } from "./api.js";
import { button, clear, el, fill, go } from "./dom.js";
import { PROTOCOLS, applyFilters, createMap, focusNode, highlight, initialProtocols } from "./map.js";
import { prefetchNode } from "./evidence.js";
import { edgePanel, nodePanel } from "./panel.js";
import { renderService } from "./service.js";
import { renderSmells } from "./smells.js";
import { renderSurface } from "./surface.js";

const $ = (id) => document.getElementById(id);
const state = { cy: null, model: null, filters: { repository: "", stack: "", protocols: new Set(), query: "" }, view: null };

function status(text) {
  $("status").textContent = text;
}

function showNode(d) {
  fill($("panel"), nodePanel(state.cy, d, { onEdge: showEdge }));
  prefetchNode(d.id);  // its edges' evidence, before one of them is clicked
}

function showEdge(e) {
  state.cy.elements().unselect();
  state.cy.getElementById(e.id).select();
  fill($("panel"), edgePanel(state.cy, e));
  $("panel").focus();
}

function selectService(label) {
  const d = focusNode(state.cy, `service:${label}`) || focusNode(state.cy, `resource:${label}`)
    || focusNode(state.cy, `vendor:${label}`);
  if (d) showNode(d);
  return d;
}

// the same route twice fires no hashchange: show the choice again anyway
function openOnMap(label) {
  const before = location.hash;
  go("map", label);
  if (location.hash === before) selectService(label);
}

function refreshList() {
  const visible = applyFilters(state.cy, state.filters);
  const list = clear($("services"));
  for (const d of visible.slice(0, 500)) {
    const tags = [d.cycle ? "cycle" : "", ...(d.hot || []).map((h) => h.replace("_", "-")), d.stale ? "stale" : ""].filter(Boolean);
    const label = [d.label, tags.length ? el("span", { class: "muted" }, ` (${tags.join(", ")})`) : null];
    list.append(el("li", {}, button(label, () => openOnMap(d.label), {
      "aria-label": `${d.label}, ${d.repository}${tags.length ? `, ${tags.join(", ")}` : ""}`,
    })));
  }
  if (visible.length > 500) list.append(el("li", { class: "muted" }, `… ${visible.length - 500} more: refine the search`));
  status(`${visible.length} of ${state.model.nodes.filter((n) => n.kind === "service").length} services shown`);
}

function setupFilters(model) {
  const repo = $("filter-repository");
  for (const r of model.repositories) {
    repo.append(el("option", { value: r.name }, r.freshness && r.freshness.stale ? `${r.name} (stale)` : r.name));
  }
  const stack = $("filter-stack");
  for (const s of model.stacks) stack.append(el("option", { value: s }, s));
  const box = $("filter-protocols");
  const shown = initialProtocols(model);
  for (const p of model.protocols) {
    const on = shown.includes(p);
    if (on) state.filters.protocols.add(p);
    const id = `protocol-${p}`;
    const input = el("input", { type: "checkbox", id, name: "protocol", value: p });
    input.checked = on;
    input.addEventListener("change", () => {
      if (input.checked) state.filters.protocols.add(p); else state.filters.protocols.delete(p);
      refreshList();
    });
    box.append(el("div", {}, input, el("label", { for: id }, el("span", { class: `swatch ${PROTOCOLS[p].swatch}` }), PROTOCOLS[p].label)));
  }
  repo.addEventListener("change", () => { state.filters.repository = repo.value; refreshList(); });
  stack.addEventListener("change", () => { state.filters.stack = stack.value; refreshList(); });
  $("search").addEventListener("input", (e) => { state.filters.query = e.target.value; refreshList(); });
  $("search").addEventListener("keydown", (e) => {
    if (e.key === "Enter") {
      const first = $("services").querySelector("button");
      if (first) first.click();
    }
  });
}

function legend(model) {
  fill($("legend"), 
    ...model.protocols.map((p) => el("span", {}, el("span", { class: `swatch ${PROTOCOLS[p].swatch}` }), PROTOCOLS[p].label)),
    el("span", {}, "rounded box: service · barrel: resource · hexagon: external vendor"),
    el("span", {}, "thick vermillion border: in a cycle · double purple border: fan-in/out hot spot · dashed box: stale repository"),
    model.unresolved_calls ? el("span", { class: "muted" }, `${model.unresolved_calls} calls to unresolved addresses not drawn`) : null,
  );
}

async function route() {
  const [view, ...rest] = location.hash.replace(/^#\/?/, "").split("/");
  const arg = rest.length ? decodeURIComponent(rest.join("/")) : null;
  const name = view || "map";
  document.querySelectorAll("nav a").forEach((a) => {
    if (a.dataset.view === name || (name === "service" && a.dataset.view === "map")) a.setAttribute("aria-current", "page");
    else a.removeAttribute("aria-current");
  });
  const main = document.querySelector("main");
  const page = $("page");
  if (name === "service" && arg) {
    main.classList.add("page-mode");
    page.hidden = false;
    await renderService(page, arg);
    state.view = "service";
    return;
  }
  main.classList.remove("page-mode");
  page.hidden = true;
  if (state.cy) state.cy.resize();
  if (name === "surface") {
    if (state.view !== "surface") await renderSurface($("panel"), { onTiers: (t) => highlight(state.cy, t) });
  } else if (name === "smells") {
    highlight(state.cy, null);
    await renderSmells($("panel"), { onShow: (services) => {
      highlight(state.cy, Object.fromEntries(services.map((s) => [s, "primary"])));
      selectService(services[0]);
    } });
  } else {
    if (state.view !== "map" && state.view !== null) highlight(state.cy, null);
    if (arg) selectService(arg);
    else fill($("panel"), el("p", { class: "muted" }, "Click a service, resource, vendor or edge — or pick a service from the list."));
  }
  state.view = name;
}

async function start() {
  $("mode-note").hidden = !readOnly();
  status("loading the map…");
  const model = await get("/api/map");
  performance.mark("orbitkb:map-fetched");
  if (model.empty) {
    fill($("panel"), el("p", {}, model.guidance));
    status("nothing indexed");
    return;
  }
  state.model = model;
  setupFilters(model);
  legend(model);
  state.cy = createMap($("cy"), model, {
    onNode: (d) => openOnMap(d.label),
    onEdge: showEdge,
    onBackground: () => { state.cy.elements().unselect(); },
  });
  performance.mark("orbitkb:map-built");
  window.orbitkb = { cy: state.cy, state };
  refreshList();
  performance.mark("orbitkb:list-built");
  state.cy.one("render", () => {
    document.body.dataset.ready = "map";
    document.body.dataset.firstRenderMs = String(Math.round(performance.now()));  // since navigation start
  });
  state.cy.forceRender();
  window.addEventListener("hashchange", route);
  document.addEventListener("keydown", (e) => {
    const typing = ["INPUT", "TEXTAREA", "SELECT"].includes(document.activeElement.tagName);
    if (e.key === "/" && !typing) { e.preventDefault(); $("search").focus(); }
    if (e.key === "Escape") { state.cy.elements().unselect(); highlight(state.cy, null); }
  });
  await route();
}

start().catch((err) => {
  status(`error: ${err.message}`);
  fill($("panel"), el("p", { class: "error" }, err.message));
});
