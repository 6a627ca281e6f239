"""`orbitkb ui` in headless Chromium on the synthetic system (issue 17): first render of the map
(navigation start to the first drawn frame, page + modules + /api/map + layout), then select and
filter interactions (input to the next painted frame), and the server's memory.

    uv run python benchmarks/ui_render.py [--services 300 --files 3000] [--runs 5] [--db KB.db]
        [--screenshot docs/ui/map-300.png]

Generates and indexes the synthetic system once (cached under benchmarks/out/), serves it with
the real `orbitkb ui` command, drives Debian's Chromium (/usr/bin/chromium, or $ORBITKB_CHROMIUM)
through Playwright. Budgets: first render <= 2000 ms, select / filter <= 200 ms (median of the
runs). Also reports the page's main-thread CPU time (Chromium's TaskDuration in thread ticks), which other
processes on a shared machine do not inflate the way they inflate wall-clock time, and the load
average during the run.
Where the first render goes is reported too (median of the runs, ms since navigation start): the
map's JSON received, the graph built, the first frame drawn; and the server's side of /api/map —
its size, and its time on the first request and on a repeat (the map is drawn once per snapshot,
when the server starts, and its JSON kept while nothing is written).
Writes benchmarks/out/ui_render.json; exits 1 when a budget is missed.
"""

from __future__ import annotations

import argparse
import json
import os
import socket
import statistics
import subprocess
import sys
import time
import urllib.request
from pathlib import Path

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))

from benchlib.corpus import OUT_DIR, ensure_system  # noqa: E402

ORBITKB = str(Path(sys.executable).parent / "orbitkb")
ARGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-background-networking",
        "--disable-component-update", "--disable-sync", "--no-first-run"]
BUDGET_FIRST_RENDER_MS = 2000
BUDGET_INTERACTION_MS = 200
ENV = {**os.environ, "ORBITKB_EMBEDDER": "off", "ORBITKB_BACKEND": "offline"}

#: input -> two animation frames later (the graph has repainted); run inside the page
MEASURE = """async ([kind, arg]) => {
  const frame = () => new Promise((r) => requestAnimationFrame(() => r()));
  const t0 = performance.now();
  if (kind === "select") {
    const buttons = document.querySelectorAll("#services button");
    const button = buttons[arg % buttons.length];
    const name = button.firstChild.textContent;
    button.click();
    while (document.querySelector("#panel h2")?.textContent !== name) await frame();
  } else {
    const select = document.getElementById(kind === "filter-stack" ? "filter-stack" : "filter-repository");
    select.value = arg;
    select.dispatchEvent(new Event("change"));
  }
  await frame(); await frame();
  return performance.now() - t0;
}"""


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def rss_mib(pid: int) -> float | None:
    try:
        for line in Path(f"/proc/{pid}/status").read_text().splitlines():
            if line.startswith("VmRSS:"):
                return round(int(line.split()[1]) / 1024, 1)
    except OSError:
        return None
    return None


def build_db(services: int, files: int, seed: int) -> Path:
    folder, _ = ensure_system(services, files, seed)
    db = OUT_DIR / f"ui-{folder.name}.db"
    if not db.exists():
        subprocess.run([ORBITKB, "index", str(folder), "--repository-name", "synth", "--db", str(db)],
                       check=True, env=ENV, stdout=subprocess.DEVNULL)
    return db


def serve(db: Path) -> tuple[subprocess.Popen[str], str]:
    port = free_port()
    url = f"http://127.0.0.1:{port}/"
    proc = subprocess.Popen([ORBITKB, "ui", "--db", str(db), "--port", str(port)], env=ENV,
                            stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True)
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline:
        try:
            with urllib.request.urlopen(url, timeout=2):
                return proc, url
        except OSError:
            if proc.poll() is not None:
                break
            time.sleep(0.2)
    proc.kill()
    raise SystemExit(f"orbitkb ui did not start: {proc.stderr.read() if proc.stderr else ''}")


#: the page's own marks (app.js) and the /api/map response, in ms since navigation start
PHASES = """() => {
  const at = (name) => performance.getEntriesByName(name)[0]?.startTime;
  const map = performance.getEntriesByType("resource").find((r) => r.name.endsWith("/api/map"));
  return {map_received: map ? map.responseEnd : null, map_fetched: at("orbitkb:map-fetched"),
          graph_built: at("orbitkb:map-built"), list_built: at("orbitkb:list-built"),
          first_frame: Number(document.body.dataset.firstRenderMs)};
}"""


def map_endpoint(url: str) -> dict[str, float]:
    """Size of /api/map and its time on a first and a repeated request (server side + loopback)."""
    out: dict[str, float] = {}
    for label in ("first_ms", "repeat_ms"):
        t0 = time.perf_counter()
        with urllib.request.urlopen(url + "api/map", timeout=60) as r:
            body = r.read()
        out[label] = round(1000 * (time.perf_counter() - t0), 1)
    out["bytes"] = len(body)
    return out


def measure(url: str, runs: int, screenshot: str | None) -> dict[str, object]:
    from playwright.sync_api import sync_playwright

    chromium = os.environ.get("ORBITKB_CHROMIUM", "/usr/bin/chromium")
    first: list[float] = []
    select: list[float] = []
    filters: list[float] = []
    busy: dict[str, list[float]] = {"first_render_ms": [], "select_ms": [], "filter_ms": []}
    counts: dict[str, int] = {}
    phases: dict[str, list[float]] = {}
    with sync_playwright() as p:
        browser = p.chromium.launch(executable_path=chromium, args=ARGS, headless=True)
        for i in range(runs):
            page = browser.new_page(viewport={"width": 1440, "height": 900})
            cdp = page.context.new_cdp_session(page)
            cdp.send("Performance.enable", {"timeDomain": "threadTicks"})  # durations in CPU time

            def task_ms(cdp: object = cdp) -> float:  # main-thread CPU time: what the page cost
                metrics = cdp.send("Performance.getMetrics")["metrics"]  # type: ignore[attr-defined]
                return 1000 * next(m["value"] for m in metrics if m["name"] == "TaskDuration")

            page.goto(url)
            page.wait_for_selector("body[data-ready=map]", timeout=60_000)
            first.append(float(page.get_attribute("body", "data-first-render-ms") or "nan"))
            busy["first_render_ms"].append(task_ms())
            for name, value in page.evaluate(PHASES).items():
                if value is not None:
                    phases.setdefault(name, []).append(float(value))
            counts = page.evaluate("({nodes: window.orbitkb.cy.nodes().length, edges: window.orbitkb.cy.edges().length})")
            if i == 0 and screenshot:
                Path(screenshot).parent.mkdir(parents=True, exist_ok=True)
                page.screenshot(path=screenshot)
            stacks = page.eval_on_selector_all("#filter-stack option", "os => os.map(o => o.value)")
            for k in range(3):
                before = task_ms()
                select.append(page.evaluate(MEASURE, ["select", k * 7 + i]))
                busy["select_ms"].append(task_ms() - before)
            for stack in [*stacks[1:3], ""]:
                before = task_ms()
                filters.append(page.evaluate(MEASURE, ["filter-stack", stack]))
                busy["filter_ms"].append(task_ms() - before)
            page.close()
        browser.close()
    return {"first_render_ms": first, "select_ms": select, "filter_ms": filters, "busy": busy, "phases": phases,
            **counts}


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--services", type=int, default=300)
    ap.add_argument("--files", type=int, default=3000)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--runs", type=int, default=5)
    ap.add_argument("--db", help="an existing database instead of the synthetic system")
    ap.add_argument("--screenshot", help="save the first render as this PNG")
    ap.add_argument("--out", default=str(OUT_DIR / "ui_render.json"))
    args = ap.parse_args(argv)
    db = Path(args.db) if args.db else build_db(args.services, args.files, args.seed)
    proc, url = serve(db)
    try:
        idle = rss_mib(proc.pid)
        endpoint = map_endpoint(url)
        data = measure(url, args.runs, args.screenshot)
        loaded = rss_mib(proc.pid)
    finally:
        proc.terminate()
        proc.wait(10)
    med = {k: round(statistics.median(data[k]), 1) for k in ("first_render_ms", "select_ms", "filter_ms")}  # type: ignore[arg-type]
    worst = {k: round(max(data[k]), 1) for k in ("first_render_ms", "select_ms", "filter_ms")}  # type: ignore[arg-type]
    ok = (med["first_render_ms"] <= BUDGET_FIRST_RENDER_MS and med["select_ms"] <= BUDGET_INTERACTION_MS
          and med["filter_ms"] <= BUDGET_INTERACTION_MS)
    busy = {k: round(statistics.median(v), 1) for k, v in data["busy"].items()}  # type: ignore[attr-defined]
    load = [round(x, 1) for x in os.getloadavg()]
    phases = {k: round(statistics.median(v), 1) for k, v in data["phases"].items()}  # type: ignore[attr-defined]
    report = {"map_endpoint": endpoint, "first_render_phases_median": phases, "db": str(db), "runs": args.runs, "nodes": data["nodes"], "edges": data["edges"], "median": med,
              "max": worst, "main_thread_cpu_median": busy, "load_average": load, "cpus": os.cpu_count(), "server_rss_mib": {"started": idle, "after_runs": loaded}, "within_budget": ok,
              "samples": {k: data[k] for k in ("first_render_ms", "select_ms", "filter_ms")}}
    Path(args.out).parent.mkdir(parents=True, exist_ok=True)
    Path(args.out).write_text(json.dumps(report, indent=2))
    print(f"map of {data['nodes']} nodes, {data['edges']} edges drawn, {args.runs} runs (median / max):")
    print(f"  first render  {med['first_render_ms']:7.1f} / {worst['first_render_ms']:7.1f} ms  (budget {BUDGET_FIRST_RENDER_MS})")
    print(f"  select        {med['select_ms']:7.1f} / {worst['select_ms']:7.1f} ms  (budget {BUDGET_INTERACTION_MS})")
    print(f"  filter        {med['filter_ms']:7.1f} / {worst['filter_ms']:7.1f} ms  (budget {BUDGET_INTERACTION_MS})")
    print(f"  main-thread CPU (median): first render {busy['first_render_ms']} ms, select {busy['select_ms']} ms, "
          f"filter {busy['filter_ms']} ms")
    print(f"  first render phases (median, ms since navigation): map received {phases.get('map_received')}, "
          f"graph built {phases.get('graph_built')}, list built {phases.get('list_built')}, "
          f"first frame {phases.get('first_frame')}")
    print(f"  /api/map {endpoint['bytes'] / 1e6:.2f} MB: first request {endpoint['first_ms']} ms, "
          f"repeated {endpoint['repeat_ms']} ms")
    print(f"  server memory {idle} MiB started, {loaded} MiB after the runs")
    print(f"  load average {load} on {os.cpu_count()} CPUs: wall-clock figures grow with it")
    print("within budget" if ok else "OVER BUDGET")
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
