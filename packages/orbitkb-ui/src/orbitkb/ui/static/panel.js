// The side panel of the map: what a clicked node or edge is, with its evidence.

import { button, el, evidenceList, fill, go, section } from "./dom.js";
import { edgeDetail } from "./evidence.js";
import { PROTOCOLS } from "./map.js";

const KINDS = { service: "service", resource: "resource (database, broker, cache…)", vendor: "external vendor" };

function edgeLine(cy, e, onEdge) {
  const other = (id) => cy.getElementById(id).data("label") || id;
  const text = `${other(e.source)} → ${other(e.target)} · ${e.protocol}${e.channel ? ` · ${e.channel}` : ""}` +
    (e.count > 1 ? ` ×${e.count}` : "");
  return el("li", {}, button(text, () => onEdge(e), { class: "link" }));
}

export function nodePanel(cy, d, { onEdge }) {
  const node = cy.getElementById(d.id);
  const outgoing = node.outgoers("edge").map((e) => e.data());
  const incoming = node.incomers("edge").map((e) => e.data());
  const tags = [
    d.cycle ? el("span", { class: "tag warn" }, "in a cycle") : null,
    ...(d.hot || []).map((h) => el("span", { class: "tag warn" }, h === "fan_in" ? "fan-in hot spot" : "fan-out hot spot")),
    d.stale === true ? el("span", { class: "tag stale" }, "stale: re-index") : null,
  ];
  return el("div", { class: "node-panel" },
    el("h2", {}, d.label),
    el("p", { class: "muted" }, KINDS[d.kind] || d.kind, d.repository ? ` · repository ${d.repository}` : ""),
    el("p", {}, tags),
    d.kind === "service" ? el("p", {}, [d.stack, d.framework].filter(Boolean).join(" · ")) : null,
    d.detail ? el("p", {}, d.kind === "resource" ? `engine: ${d.detail}` : d.detail) : null,
    d.kind === "service" ? el("p", {}, `called by ${d.fan_in} · calls ${d.fan_out} internal services`) : null,
    d.kind === "service" ? button("Open the service page", () => go("service", d.label), { class: "primary" }) : null,
    section(`Outgoing (${outgoing.length})`, el("ul", { class: "items" }, outgoing.map((e) => edgeLine(cy, e, onEdge)))),
    section(`Incoming (${incoming.length})`, el("ul", { class: "items" }, incoming.map((e) => edgeLine(cy, e, onEdge)))),
  );
}

// the reason and the evidence arrive after the panel is shown: aria-busy until then
function edgeEvidence(id) {
  const detail = el("div", { class: "edge-detail", "aria-busy": "true" }, el("p", { class: "muted" }, "loading the evidence…"));
  const done = (...children) => { fill(detail, ...children); detail.setAttribute("aria-busy", "false"); };
  edgeDetail(id).then(
    (d) => done(d.reason ? el("p", {}, d.reason) : el("p", { class: "muted" }, "no reason recorded"),
      section("Evidence", evidenceList(d.evidence, 20))),
    (err) => done(el("p", { class: "error" }, err.message)));
  return detail;
}

export function edgePanel(cy, e) {
  const label = (id) => cy.getElementById(id).data("label") || id;
  return el("div", { class: "edge-panel" },
    el("h2", {}, `${label(e.source)} → ${label(e.target)}`),
    el("p", {}, el("span", { class: "tag" }, (PROTOCOLS[e.protocol] || {}).label || e.protocol),
      e.count > 1 ? ` ${e.count} call sites` : ""),
    e.channel ? el("p", {}, "channel: ", el("strong", {}, e.channel)) : null,
    edgeEvidence(e.id),
  );
}
