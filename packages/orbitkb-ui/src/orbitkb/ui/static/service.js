// The service page: the content of describe_service (description with provenance, APIs with
// their shapes, calls in and out, channels, entities as an ER view, technologies, gaps,
// freshness), each list paginated.

import { get } from "./api.js";
import { button, el, evidenceList, evidenceText, fill, go, percent, section } from "./dom.js";
import { nodeEdges } from "./evidence.js";

const PAGE = 20;

function freshness(f) {
  if (!f) return null;
  const state = f.stale === true ? "stale — re-index (orbitkb update)" : f.stale === false ? "fresh" : "freshness unknown";
  return el("p", { class: f.stale ? "tag stale" : "muted" },
    `${state} · indexed ${f.indexed_at || "?"} at ${f.source_commit || "?"}`);
}

function shapeTable(fields) {
  if (!fields || !fields.length) return el("p", { class: "muted" }, "not extracted");
  return el("table", {}, el("tr", {}, el("th", {}, "field"), el("th", {}, "type"), el("th", {}, "required")),
    fields.map((f) => el("tr", {}, el("td", {}, f.field), el("td", {}, f.type_desc),
      el("td", {}, f.required === null || f.required === undefined ? "?" : f.required ? "yes" : "no"))));
}

async function showApi(target, service, a) {
  fill(target, el("p", { class: "muted" }, "loading…"));
  try {
    const d = await get("/api/api", { service, method: a.method, path: a.path });
    fill(target, 
      el("h3", {}, `${d.method} ${d.path}`),
      d.summary ? el("p", {}, d.summary, el("span", { class: "muted" }, ` (${d.summary_provenance})`)) : null,
      el("p", { class: "evidence" }, d.handler),
      el("h3", {}, "Request"), shapeTable(d.request_shape),
      el("h3", {}, "Response"), shapeTable(d.response_shape),
      d.calls.length ? el("h3", {}, "Calls it makes") : null,
      d.calls.length ? el("ul", { class: "items" }, d.calls.map((c) => el("li", {}, `${c.to_service_name} (${c.call_kind})`))) : null,
      el("h3", {}, "Evidence"), evidenceList(d.evidence),
    );
  } catch (err) {
    fill(target, el("p", { class: "error" }, err.message));
  }
}

function pager(page, total, offset, onPage) {
  const more = offset + PAGE < total;
  return el("div", { class: "pager" },
    button("← previous page", () => onPage(Math.max(0, offset - PAGE)), { disabled: offset === 0 }),
    el("span", { class: "muted" }, `${total ? offset + 1 : 0}–${Math.min(total, offset + PAGE)} of ${total}`),
    button("next page →", () => onPage(offset + PAGE), { disabled: !more }),
  );
}

const KIND_OF = { HTTP: "HTTP", GRPC: "gRPC", MESSAGE: "message", USES: "uses" };

// the calls and messages into a service, with their reasons and evidence: its incoming edges on the map
function callersSection(incoming, names) {
  if (!incoming) {  // a name the map does not draw (an alias): the callers' names only
    return section(`Called by (${names.length})`, el("ul", { class: "items" }, names.map((n) =>
      el("li", {}, button(n, () => go("service", n), { class: "link" })))));
  }
  const from = (id) => id.replace(/^(service|vendor|resource):/, "");
  return section(`Called by and messages in (${incoming.total})`, el("ul", { class: "items callers" }, incoming.edges.map((e) =>
    el("li", {},
      e.source.startsWith("service:") ? button(from(e.source), () => go("service", from(e.source)), { class: "link" }) : from(e.source),
      ` · ${KIND_OF[e.protocol] || e.protocol}${e.channel ? ` ${e.channel}` : ""}${e.count > 1 ? ` ×${e.count}` : ""}`,
      e.reason ? el("div", {}, e.reason) : null,
      el("div", { class: "evidence" }, (e.evidence || []).slice(0, 3).map(evidenceText).join(" · "))))));
}

export async function renderService(target, name, offset = 0) {
  fill(target, el("p", { class: "muted" }, `loading ${name}…`));
  let data;
  // the incoming edges of the service on the map; null when the map has no node by this name
  const incoming = nodeEdges(`service:${name}`, { direction: "in", limit: PAGE, offset }).catch(() => null);
  try {
    data = await get("/api/service", { name, limit: PAGE, offset });
  } catch (err) {
    const suggestions = (err.data && err.data.suggestions) || [];
    fill(target, el("h2", {}, name), el("p", { class: "error" }, err.message),
      suggestions.length ? el("ul", { class: "items" }, suggestions.map((s) =>
        el("li", {}, button(s, () => go("service", s), { class: "link" })))) : null);
    return;
  }
  const s = data.service;
  const callers = await incoming;
  const total = Math.max(data.apis.total, data.persistence.total || 0, data.messages.total || 0, callers ? callers.total : 0, data.gaps.total || 0,
    ...Object.values(s.pagination || {}).map((p) => (p && p.total) || 0));
  const apiDetail = el("div", { class: "api-detail" });
  fill(target, 
    el("p", {}, button("← back to the map", () => go("map", s.name), { class: "link" })),
    el("h2", { class: "service-title" }, s.name),
    el("p", { class: "muted" }, `repository ${s.repository} · ${s.root_dir} · ${s.stack}${s.framework ? ` · ${s.framework}` : ""}`),
    freshness(s.freshness),
    section("Description",
      el("p", {}, s.long_desc || s.short_desc || "no description"),
      el("p", { class: "muted" }, `provenance: ${s.desc_provenance}`)),
    pager(PAGE, total, offset, (o) => renderService(target, name, o)),
    section(`APIs (${data.apis.total})`, el("table", {},
      el("tr", {}, el("th", {}, "method"), el("th", {}, "path"), el("th", {}, "summary"), el("th", {}, "where")),
      data.apis.apis.map((a) => el("tr", {},
        el("td", {}, a.method),
        el("td", {}, button(a.path, () => showApi(apiDetail, s.name, a), { class: "link" })),
        el("td", {}, a.summary || ""),
        el("td", { class: "evidence" }, `${a.file}:${a.start_line}`)))), apiDetail),
    section(`Calls out (${s.calls.length} on this page)`, el("ul", { class: "items" }, s.calls.map((c) => el("li", {},
      el("strong", {}, c.to_service_name), ` · ${c.call_kind}${c.method ? ` ${c.method}` : ""}${c.path ? ` ${c.path}` : ""}`,
      ` · ${c.target_kind} · confidence ${percent(c.confidence)} · ${c.provenance}`,
      c.reason ? el("div", {}, c.reason) : null,
      el("div", { class: "evidence" }, (c.evidence || []).slice(0, 3).map(evidenceText).join(" · ")))))),
    callersSection(callers, s.called_by),
    section(`Channels (${data.messages.total})`, el("ul", { class: "items" }, data.messages.messages.map((m) => el("li", {},
      `${m.direction} `, el("strong", {}, m.channel), ` · ${m.provider}`,
      (m.counterparts || []).length ? ` · other side: ${m.counterparts.join(", ")}` : "",
      el("div", { class: "evidence" }, (m.evidence || []).slice(0, 2).map(evidenceText).join(" · ")))))),
    section(`Entities (${data.persistence.total})`, el("div", { class: "er", role: "list" },
      data.persistence.entities.map((e) => el("div", { class: "entity", role: "listitem" },
        el("h4", {}, `${e.name} `, el("span", { class: "muted" }, `${e.kind} · ${e.engine}`)),
        el("ul", {}, (e.fields || []).map((f) => el("li", { class: f.primary_key ? "pk" : "" },
          `${f.name}: ${f.type}${f.nullable ? "?" : ""}`))),
        (e.shared_with || []).length ? el("p", { class: "muted" }, `also persisted by ${e.shared_with.join(", ")}`) : null))),
    ),
    section(`Technologies (${(s.technologies || []).length})`, el("ul", { class: "items" }, (s.technologies || []).map((t) =>
      el("li", {}, `${t.kind}: ${t.name}${t.version ? ` ${t.version}` : ""}`,
        t.evidence ? el("span", { class: "evidence" }, ` ${t.evidence}`) : null)))),
    section(`Gaps in ${s.repository} (${data.gaps.total || 0})`, el("ul", { class: "items" }, (data.gaps.gaps || []).map((g) =>
      el("li", {}, `${g.kind}: `, el("span", { class: "evidence" }, g.path), ` — ${g.reason}`)))),
  );
  target.focus();
}
