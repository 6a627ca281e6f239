// Architecture smells with their trend since the previous index; each finding shows its
// services on the map.

import { get } from "./api.js";
import { button, el, fill, section } from "./dom.js";

const TITLES = { cycle: "Cycle", fan_in: "Fan-in hot spot", fan_out: "Fan-out hot spot", shared_database: "Shared database",
  duplicate_external_integration: "Same vendor from several services", deep_sync_chain: "Deep synchronous chain",
  self_consumed_channel: "Service consumes its own channel" };

export async function renderSmells(target, { onShow }) {
  fill(target, el("p", { class: "muted" }, "loading…"));
  let data;
  try {
    data = await get("/api/smells", { limit: 200 });
  } catch (err) {
    fill(target, el("p", { class: "error" }, err.message));
    return;
  }
  if (data.empty) {
    fill(target, el("p", {}, data.guidance));
    return;
  }
  const t = data.trend;
  const key = (f) => `${f.kind}|${f.services.join(",")}`;
  const fresh = new Set((t ? t.new_findings : []).map(key));
  fill(target, 
    el("h2", {}, `Smells (${data.total})`),
    t ? el("p", { class: "trend" }, `since run ${t.previous_run_id}: ${t.new_findings.length} new, ` +
      `${t.resolved_findings.length} resolved, ${t.count_deltas.length} changed counts`)
      : el("p", { class: "muted" }, "no trend yet: the first architecture run has nothing to compare with"),
    el("ul", { class: "items", id: "smells" }, data.findings.map((f) => el("li", {},
      button(`${TITLES[f.kind] || f.kind}: ${f.services.join(", ")}`, () => onShow(f.services), { class: "link" }),
      el("span", { class: f.severity === "warning" ? "tag warn" : "tag" }, f.severity),
      fresh.has(key(f)) ? el("span", { class: "tag" }, "new") : null,
      el("div", {}, f.reason)))),
    t && t.resolved_findings.length ? section("Resolved since the previous run", el("ul", { class: "items" },
      t.resolved_findings.map((f) => el("li", {}, `${TITLES[f.kind] || f.kind}: ${f.services.join(", ")}`)))) : null,
    t && t.count_deltas.length ? section("Changed counts", el("ul", { class: "items" },
      t.count_deltas.map((d) => el("li", {}, `${TITLES[d.kind] || d.kind} ${d.services.join(", ")}: ${d.previous_count} → ${d.current_count}`)))) : null,
  );
}
