// The change-surface explorer: a task lights up its primary / secondary / no-change services on
// the map, with confidence, reasons, evidence and contracts at risk; past runs with their
// verification against git; feedback buttons (the only write besides running a task).

import { get, post, readOnly } from "./api.js";
import { button, clear, el, evidenceList, fill, go, percent, section } from "./dom.js";

const TIER_TITLES = { primary: "Primary — will change", secondary: "Secondary — may change",
  no_change_hint: "Context — should not need to change" };

function feedbackButtons(runId, service, given) {
  const status = el("span", { class: "muted", role: "status" }, given ? ` recorded: ${given}` : "");
  const send = async (outcome) => {
    try {
      const r = await post("/api/feedback", { run_id: runId, service, outcome });
      status.textContent = ` recorded: ${r.outcome} (history: ${r.history.confirmed} confirmed, ${r.history.rejected} rejected)`;
    } catch (err) {
      status.textContent = ` ${err.message}`;
    }
  };
  return el("span", { class: "feedback" },
    button("✓ changed", () => send("confirmed"), { "aria-label": `confirm that ${service} changed` }),
    " ",
    button("✗ did not", () => send("rejected"), { "aria-label": `reject ${service}: it did not change` }),
    status);
}

function finding(runId, f, tier, feedback) {
  return el("li", { class: `tier-${tier}`, dataset: { service: f.service, tier } },
    button(f.service, () => go("map", f.service), { class: "link" }),
    ` · confidence ${percent(f.confidence)}`,
    tier !== "no_change_hint" && runId && !readOnly() ? feedbackButtons(runId, f.service, feedback[f.service]) : null,
    el("div", {}, f.reason),
    f.evidence && f.evidence.length ? evidenceList(f.evidence, 3) : null);
}

export function tiersOf(result) {
  const tiers = {};
  for (const tier of ["no_change_hint", "secondary", "primary"]) {
    for (const f of result[tier] || []) tiers[f.service] = tier;
  }
  return tiers;
}

export function renderResult(target, result, feedback = {}) {
  fill(target, 
    el("h2", {}, `Run ${result.run_id ?? "—"}: `, el("q", {}, result.task)),
    el("p", { class: "muted" }, `classified by ${result.classified_by || "?"} · retrieval ${result.retrieval || "?"}`),
    result.note ? el("p", {}, result.note) : null,
    ["primary", "secondary", "no_change_hint"].map((tier) => section(`${TIER_TITLES[tier]} (${(result[tier] || []).length})`,
      el("ul", { class: "items surface-tier", dataset: { tier } },
        (result[tier] || []).map((f) => finding(result.run_id, f, tier, feedback))))),
    (result.contracts_at_risk || []).length ? section("Contracts at risk", el("ul", { class: "items" },
      result.contracts_at_risk.map((c) => el("li", {}, el("strong", {}, c.contract), ` (${c.kind}) · producer ${c.producer}`,
        ` · consumers ${(c.consumers || []).join(", ") || "none known"}`, el("div", {}, c.reason), evidenceList(c.evidence, 2))))) : null,
    (result.persistence_affected || []).length ? section("Persistence affected", el("ul", { class: "items" },
      result.persistence_affected.map((p) => el("li", {}, `${p.service}: ${p.entity} (${p.kind}, ${p.engine})`)))) : null,
    (result.unknowns || []).length ? section("Unknowns", el("ul", { class: "items" },
      result.unknowns.map((u) => el("li", {}, u.reason, u.suggestion ? el("div", { class: "muted" }, u.suggestion) : null)))) : null,
  );
}

function runItem(past, onShow) {
  const r = past.run;
  const checks = past.verifications.map((v) => el("div", { class: "muted" },
    `verified on ${v.repository} since ${String(v.since_commit).slice(0, 12)}: precision ${percent(v.precision)}, recall ${percent(v.recall)}`));
  const fb = past.feedback.map((f) => `${f.service} ${f.outcome}`).join(", ");
  return el("li", {},
    button(`#${r.id} ${r.task}`, () => onShow(past), { class: "link" }),
    el("span", { class: "muted" }, ` · ${r.created_at} · ${r.findings.filter((f) => f.tier !== "no_change_hint").length} services`),
    checks.length ? checks : el("div", { class: "muted" }, "not verified yet (orbitkb verify RUN --repository R --since COMMIT)"),
    fb ? el("div", { class: "muted" }, `feedback: ${fb}`) : null);
}

export async function renderSurface(target, { onTiers }) {
  const input = el("textarea", { id: "task", name: "task", placeholder: "e.g. Let customers pay with Pix at checkout" });
  const result = el("div", { id: "surface-result", "aria-live": "polite" });
  const runs = el("ul", { class: "items", id: "past-runs" });
  const analyze = async () => {
    if (!input.value.trim()) return;
    fill(result, el("p", { class: "muted" }, "analysing…"));
    try {
      const r = await post("/api/surface", { task: input.value });
      renderResult(result, r);
      onTiers(tiersOf(r));
      await loadRuns();
    } catch (err) {
      fill(result, el("p", { class: "error" }, err.message));
    }
  };
  const showPast = (past) => {
    const r = past.run;
    const shaped = { task: r.task, run_id: r.id, classified_by: r.backend, retrieval: "—" };
    for (const tier of ["primary", "secondary", "no_change_hint"]) {
      shaped[tier] = r.findings.filter((f) => f.tier === tier);
    }
    renderResult(result, shaped, Object.fromEntries(past.feedback.map((f) => [f.service, f.outcome])));
    onTiers(tiersOf(shaped));
  };
  const loadRuns = async () => {
    const data = await get("/api/runs", { limit: 20 });
    fill(runs, data.runs.length ? data.runs.map((p) => runItem(p, showPast))
      : el("li", { class: "muted" }, "no runs yet"));
  };
  input.addEventListener("keydown", (e) => { if (e.key === "Enter" && (e.ctrlKey || e.metaKey)) analyze(); });
  fill(target, 
    el("h2", {}, "Change surface"),
    readOnly() ? el("p", { class: "note", id: "read-only-note" },
      "This server is read-only: a task is analysed but not recorded, and feedback is off.") : null,
    el("label", { for: "task" }, "Task"), input,
    el("p", {}, button("Analyze", analyze, { class: "primary", id: "analyze" }),
      el("span", { class: "muted" }, " or Ctrl+Enter; "),
      button("clear the highlight", () => { clear(result); onTiers(null); }, { class: "link" })),
    result,
    section("Past runs", runs),
  );
  await loadRuns().catch((err) => runs.append(el("li", { class: "error" }, err.message)));
}
