// The system map: repositories as boxes, services / resources / vendors as distinct shapes,
// HTTP / gRPC / message edges as distinct line styles, cycles and hot spots outlined, filters,
// search, and the change-surface highlight. Labels are drawn on a canvas: never parsed as HTML.

import cytoscape from "./vendor/cytoscape.esm.min.js";
import { layered } from "./layout.js";

const C = { blue: "#0072B2", orange: "#E69F00", green: "#009E73", vermillion: "#D55E00", purple: "#CC79A7",
  sky: "#56B4E9", yellow: "#F0E442", ink: "#1b1b1b", grey: "#8a8a8a" };

const LARGE = 400;  // edges: above this, the faster drawing
const PAD_X = 62 + 18;  // half a node and a margin around the services of a repository
const PAD_Y = 18 + 18;
const MIN_ZOOM = 0.05;
const MAX_ZOOM = 3;

// a large map starts without the links to databases and brokers (a third of the lines, little news):
// they are added the first time their checkbox is ticked
export function isLarge(model) {
  return model.edges.length > LARGE;
}

export function initialProtocols(model) {
  return model.protocols.filter((p) => !(isLarge(model) && p === "USES"));
}

export const PROTOCOLS = {
  HTTP: { label: "HTTP call", swatch: "http" },
  GRPC: { label: "gRPC call", swatch: "grpc" },
  MESSAGE: { label: "message (publish → consume)", swatch: "message" },
  USES: { label: "uses a resource", swatch: "uses" },
};

const STYLE = [
  { selector: "node", style: { "z-index-compare": "manual", "z-index": 2, label: "data(label)", "font-size": 11, "text-valign": "center", "text-halign": "center",
    "text-wrap": "ellipsis", "text-max-width": 120, width: 124, height: 36, "background-color": "#eef3fb",
    "border-width": 1, "border-color": "#4d6a92", color: C.ink, shape: "round-rectangle", "min-zoomed-font-size": 6 } },
  { selector: "node.resource", style: { shape: "barrel", "background-color": "#fff7e0", "border-color": "#8a6d00", width: 96 } },
  { selector: "node.vendor", style: { shape: "hexagon", "background-color": "#f3f3f3", "border-color": "#555", width: 120 } },
  // a repository is a plain box drawn under its services (a compound parent costs twice the start-up)
  { selector: "node.repository", style: { "z-index": 0, events: "no", width: "data(width)", height: "data(height)",
    "text-valign": "top", "text-halign": "center", "font-size": "data(fontSize)", "font-weight": "bold",
    "min-zoomed-font-size": 0, "text-max-width": "data(width)", "background-color": "#fafafa", "border-color": "#b5b5b5",
    "border-width": 1, shape: "rectangle", "text-margin-y": -4 } },
  { selector: "node.repository.stale", style: { "border-style": "dashed", "border-color": C.vermillion, "border-width": 3 } },
  { selector: "node.cycle", style: { "border-width": 4, "border-color": C.vermillion } },
  { selector: "node.hot", style: { "border-width": 4, "border-style": "double", "border-color": C.purple } },
  { selector: "node.cycle.hot", style: { "border-style": "double", "border-color": C.vermillion } },
  { selector: "edge", style: { "z-index-compare": "manual", "z-index": 1, width: 1.6, "curve-style": "bezier", "control-point-step-size": 28, "target-arrow-shape": "triangle", "arrow-scale": .9,
    "line-color": C.blue, "target-arrow-color": C.blue, opacity: .8 } },
  { selector: "edge.GRPC", style: { "line-color": C.orange, "target-arrow-color": C.orange, "line-style": "dashed",
    "target-arrow-shape": "diamond" } },
  { selector: "edge.MESSAGE", style: { "line-color": C.green, "target-arrow-color": C.green, "line-style": "dotted",
    width: 2.4, "target-arrow-shape": "chevron" } },
  { selector: "edge.USES", style: { "line-color": C.grey, "target-arrow-color": C.grey, width: 1, "target-arrow-shape": "none" } },
  { selector: ".hidden", style: { display: "none" } },
  { selector: ".faded", style: { opacity: .18 } },
  { selector: "node.match", style: { "border-width": 4, "border-color": C.blue, "background-color": "#dcefff" } },
  { selector: "node.primary", style: { "background-color": C.vermillion, color: "#fff", "border-color": C.ink, "border-width": 3,
    "font-weight": "bold" } },
  { selector: "node.secondary", style: { "background-color": C.sky, "border-color": C.ink, "border-width": 3, "border-style": "dashed" } },
  { selector: "node.no_change_hint", style: { "background-color": "#e6e6e6", "border-style": "dotted", "border-width": 3 } },
  { selector: ":selected", style: { "overlay-color": C.yellow, "overlay-opacity": .45, "overlay-padding": 6 } },
];

export function buildElements(model, { deferred = new Set() } = {}) {
  const groups = new Map();
  const groupOf = (n) => (n.kind === "vendor" ? "group:external" : `group:${n.repository}`);
  for (const n of model.nodes) {
    const gid = groupOf(n);
    if (!groups.has(gid)) groups.set(gid, { id: gid, nodes: [] });
    groups.get(gid).nodes.push(n);
  }
  const ordered = [...groups.values()].sort((a, b) => (a.id === "group:external") - (b.id === "group:external")
    || a.id.localeCompare(b.id));
  const positions = layered(ordered, model.edges);
  const stale = new Map(model.repositories.map((r) => [r.name, r.freshness && r.freshness.stale === true]));
  const elements = [];
  for (const g of ordered) {
    const name = g.id === "group:external" ? "external vendors" : g.id.slice("group:".length);
    const isStale = stale.get(name);
    const xs = g.nodes.map((n) => positions.get(n.id).x);
    const ys = g.nodes.map((n) => positions.get(n.id).y);
    const [x1, x2, y1, y2] = [Math.min(...xs) - PAD_X, Math.max(...xs) + PAD_X, Math.min(...ys) - PAD_Y, Math.max(...ys) + PAD_Y];
    const width = x2 - x1;
    elements.push({ group: "nodes", position: { x: (x1 + x2) / 2, y: (y1 + y2) / 2 },
      data: { id: g.id, label: isStale ? `${name} (stale)` : name, kind: "repository", name, width, height: y2 - y1,
        fontSize: Math.round(Math.min(60, Math.max(13, width / 50))) },
      classes: isStale ? "repository stale" : "repository" });
  }
  for (const n of model.nodes) {
    const classes = [n.kind, n.cycle ? "cycle" : "", n.hot && n.hot.length ? "hot" : ""].filter(Boolean).join(" ");
    elements.push({ group: "nodes", data: { ...n, group: groupOf(n) }, position: positions.get(n.id), classes });
  }
  for (const e of model.edges) {
    if (!deferred.has(e.protocol)) elements.push({ group: "edges", data: { ...e }, classes: e.protocol });
  }
  return elements;
}

// the viewport that shows every repository box (and its title above it), computed from the boxes
// the layout already placed: the graph library's own fit would first style and measure every
// element, a third of the first render on a large map
export function fitted(elements, width, height, padding = 30) {
  let [x1, y1, x2, y2] = [Infinity, Infinity, -Infinity, -Infinity];
  for (const e of elements) {
    if (e.data.kind !== "repository") continue;
    const { x, y } = e.position;
    const { width: w, height: h, fontSize } = e.data;
    x1 = Math.min(x1, x - w / 2); x2 = Math.max(x2, x + w / 2);
    y1 = Math.min(y1, y - h / 2 - fontSize * 1.5); y2 = Math.max(y2, y + h / 2);
  }
  if (!Number.isFinite(x1) || width <= 0 || height <= 0) return {};
  const zoom = Math.min(MAX_ZOOM, Math.max(MIN_ZOOM,
    Math.min((width - 2 * padding) / (x2 - x1), (height - 2 * padding) / (y2 - y1))));
  return { zoom, pan: { x: (width - zoom * (x1 + x2)) / 2, y: (height - zoom * (y1 + y2)) / 2 } };
}

export function createMap(container, model, { onNode, onEdge, onBackground }) {
  // parallel edges fan out as curves on a readable system; a large one draws straight lines, much faster
  const large = isLarge(model);
  // straight lines set in the edge rule itself: a second rule would be one more style context to
  // apply to every edge on the first render
  const style = large ? STYLE.map((r) => (r.selector === "edge" ? { ...r, style: { ...r.style, "curve-style": "straight" } } : r))
    : STYLE;
  const deferred = new Set(model.protocols.filter((p) => !initialProtocols(model).includes(p)));
  const elements = buildElements(model, { deferred });
  performance.mark("orbitkb:elements-built");
  const cy = cytoscape({
    container, elements, style, pixelRatio: large ? 1 : "auto", layout: { name: "preset", fit: false },
    ...fitted(elements, container.clientWidth, container.clientHeight),
    minZoom: MIN_ZOOM, maxZoom: MAX_ZOOM, textureOnViewport: true, hideEdgesOnViewport: true,
    boxSelectionEnabled: false, autoungrabify: true,
  });
  cy.on("tap", "node", (evt) => { if (evt.target.data("kind") !== "repository") onNode(evt.target.data()); });
  cy.on("tap", "edge", (evt) => onEdge(evt.target.data()));
  cy.on("tap", (evt) => { if (evt.target === cy) onBackground(); });
  // arrow heads stay at every zoom: dropping them on a far view saved nothing measurable on the first
  // render and cost the first choice a restyle of every edge (twice its main-thread time)
  cy.scratch("orbitkb", { model, deferred });
  return cy;
}

// a class set only when it changes: every change restyles the element and redraws the map
function setClass(ele, name, on) {
  if (ele.hasClass(name) !== on) ele.toggleClass(name, on);
}

// filters: {repository, stack, protocols:Set, query}; returns the ids of the services left visible
export function applyFilters(cy, f) {
  const visible = [];
  const kept = cy.scratch("orbitkb");
  const due = kept ? [...kept.deferred].filter((p) => f.protocols.has(p)) : [];
  if (due.length) {
    due.forEach((p) => kept.deferred.delete(p));
    cy.add(kept.model.edges.filter((e) => due.includes(e.protocol)).map((e) => ({
      group: "edges", data: { ...e }, classes: e.protocol })));
  }
  const q = (f.query || "").trim().toLowerCase();
  cy.batch(() => {
    cy.nodes().forEach((n) => {
      const d = n.data();
      if (d.kind === "repository") return;
      let show = true;
      if (f.repository && d.kind !== "vendor" && d.repository !== f.repository) show = false;
      if (f.repository && d.kind === "vendor") show = n.connectedEdges().some((e) => e.source().data("repository") === f.repository);
      if (f.stack && d.kind === "service" && d.stack !== f.stack) show = false;
      if (f.stack && d.kind !== "service") show = n.connectedEdges().some((e) => e.source().data("stack") === f.stack);
      setClass(n, "hidden", !show);
      const hit = !!q && show && [d.label, d.repository, d.stack, d.framework, d.detail]
        .some((v) => v && String(v).toLowerCase().includes(q));
      setClass(n, "match", hit);
      if (show && d.kind === "service" && (!q || hit)) visible.push(d);
    });
    // an edge is hidden by its kind only: one whose end is hidden is not drawn anyway, and leaving
    // its class alone spares restyling a thousand edges when a filter hides or shows their services
    cy.edges().forEach((e) => setClass(e, "hidden", !f.protocols.has(e.data("protocol"))));
    const shown = new Set(cy.nodes().not(".repository").not(".hidden").map((n) => n.data("group")));
    cy.nodes(".repository").forEach((p) => setClass(p, "hidden", !shown.has(p.id())));
  });
  return visible;
}

const TIERS = ["primary", "secondary", "no_change_hint"];

// names: {service label -> tier}; null clears the highlight
export function highlight(cy, tiers) {
  cy.batch(() => {
    cy.elements().removeClass(["faded", ...TIERS].join(" "));
    if (!tiers) return;
    cy.nodes().forEach((n) => {
      if (n.data("kind") === "repository") return;
      const tier = n.data("kind") === "service" ? tiers[n.data("label")] : undefined;
      if (tier) n.addClass(tier); else n.addClass("faded");
    });
    cy.edges().forEach((e) => {
      const a = tiers[e.source().data("label")];
      const b = tiers[e.target().data("label")];
      if (!(a && b)) e.addClass("faded");
    });
  });
}

const reducedMotion = () => window.matchMedia("(prefers-reduced-motion: reduce)").matches;

// centre the map on a node, close enough to read it: a short glide, or at once for a reader who
// asked for less motion. (Skipping the glide on a large map was measured: the same main-thread
// work, only moved into the frame that paints the panel.)
export function focusNode(cy, id) {
  const node = cy.getElementById(id);
  if (!node || node.empty()) return null;
  cy.elements().unselect();
  node.select();
  const zoom = Math.max(cy.zoom(), 0.8);
  if (reducedMotion()) {
    const { x, y } = node.position();
    cy.viewport({ zoom, pan: { x: cy.width() / 2 - zoom * x, y: cy.height() / 2 - zoom * y } });
  } else {
    cy.animate({ center: { eles: node }, zoom }, { duration: 150 });
  }
  return node.data();
}
