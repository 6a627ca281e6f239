"""`orbitkb ui` in headless Chromium on the synthetic system (issue 17): first render of the map
(navigation start to the first drawn frame, page + modules + /api/map + layout), then select, open an
edge (its reason and evidence fetched on demand) and filter interactions (input to the next painted
frame), the server's memory and the page's JS heap.

    uv run python benchmarks/ui_render.py [--services 300 --files 3000] [--runs 5] [--db KB.db]
        [--screenshot docs/ui/map-300.png]

Generates and indexes the synthetic system once (cached under benchmarks/out/), serves it with
the real `orbitkb ui` command, drives Debian's Chromium (/usr/bin/chromium, or $ORBITKB_CHROMIUM)
through Playwright. Budgets: first render <= 2000 ms, select / open an edge / filter <= 200 ms
(median of the runs). Also reports the page's main-thread CPU time (Chromium's TaskDuration in thread ticks), which other
processes on a shared machine do not inflate the way they inflate wall-clock time, and the load
average during the run.
Where the first render goes is reported too (median of the runs, ms since navigation start): the
map's JSON received, the graph built, the first frame drawn; and the server's side of /api/map —
its size, and its time on the first request and on a repeat (the map is drawn once per snapshot,
when the server starts, and its JSON kept while nothing is written).
With --why, every interaction is profiled and the slowest of each kind says where its main-thread
time went: the garbage collector, our modules, the graph library, or other (the browser's native
work — style, layout, paint, canvas, JSON parsing — and the driver's messages).
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
from collections import defaultdict
from collections.abc import Callable
from pathlib import Path
from typing import Any

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
  } else if (kind === "edge") {  // an edge of the selected service: its reason and evidence asked for on demand
    document.querySelectorAll("#panel li button")[arg].click();
    while (document.querySelector("#panel .edge-detail")?.getAttribute("aria-busy") !== "false") await frame();
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


def where_it_went(profile: dict[str, Any]) -> dict[str, float]:
    """A CPU profile's busy time (ms) by who spent it: the garbage collector, our modules, the
    graph library, or anything else — the browser's native work (style, layout, paint, canvas
    calls, JSON parsing) and the driver's messages, which the profile cannot tell apart."""
    frames = {n["id"]: n["callFrame"] for n in profile["nodes"]}
    out: dict[str, float] = defaultdict(float)
    for sample, dt in zip(profile["samples"], profile["timeDeltas"], strict=False):
        name, source = frames[sample]["functionName"], frames[sample]["url"]
        if name == "(idle)":
            continue
        who = ("garbage collector" if name == "(garbage collector)" else "graph library" if "/vendor/" in source
               else "our modules" if "/static/" in source else "other")
        out[who] += dt / 1000
    return {k: round(v, 1) for k, v in sorted(out.items(), key=lambda kv: -kv[1])}


def measure(url: str, runs: int, screenshot: str | None, why: bool = False) -> dict[str, object]:
    """``why``: a CPU profile of every interaction, and for the slowest of each kind where its time went."""
    from playwright.sync_api import sync_playwright

    chromium = os.environ.get("ORBITKB_CHROMIUM", "/usr/bin/chromium")
    kinds = ("first_render_ms", "select_ms", "edge_ms", "filter_ms")
    samples: dict[str, list[float]] = {k: [] for k in kinds}
    heap: list[float] = []
    busy: dict[str, list[float]] = {k: [] for k in kinds}
    slowest: dict[str, dict[str, Any]] = {}
    counts: dict[str, int] = {}
    phases: dict[str, list[float]] = {}
    def one_run(page: Any, i: int) -> None:
        cdp = page.context.new_cdp_session(page)
        cdp.send("Performance.enable", {"timeDomain": "threadTicks"})  # durations in CPU time
        if why:
            cdp.send("Profiler.enable")
            cdp.send("Profiler.setSamplingInterval", {"interval": 250})

        def metric(name: str) -> float:
            return float(next(m["value"] for m in cdp.send("Performance.getMetrics")["metrics"] if m["name"] == name))

        def timed(key: str, act: Callable[[], float]) -> None:
            """``act`` measures itself (wall clock); its main-thread CPU and, with ``why``, its profile."""
            before = 1000 * metric("TaskDuration")
            if why:
                cdp.send("Profiler.start")
            ms = act()
            split = where_it_went(cdp.send("Profiler.stop")["profile"]) if why else {}
            samples[key].append(ms)
            busy[key].append(1000 * metric("TaskDuration") - before)
            if why and ms >= slowest.get(key, {}).get("ms", -1):
                slowest[key] = {"ms": round(ms, 1), "run": i, "cpu_ms_by": split}

        def first_render() -> float:
            page.goto(url)
            page.wait_for_selector("body[data-ready=map]", timeout=60_000)
            return float(page.get_attribute("body", "data-first-render-ms") or "nan")

        def interaction(kind: str, arg: object) -> Callable[[], float]:
            return lambda: float(page.evaluate(MEASURE, [kind, arg]))

        timed("first_render_ms", first_render)
        for name, value in page.evaluate(PHASES).items():
            if value is not None:
                phases.setdefault(name, []).append(float(value))
        counts.update(page.evaluate("({nodes: window.orbitkb.cy.nodes().length, edges: window.orbitkb.cy.edges().length})"))
        if i == 0 and screenshot:
            Path(screenshot).parent.mkdir(parents=True, exist_ok=True)
            page.screenshot(path=screenshot)
        stacks = page.eval_on_selector_all("#filter-stack option", "os => os.map(o => o.value)")
        for k in range(3):
            timed("select_ms", interaction("select", k * 7 + i))
            if page.locator("#panel li button").count():
                timed("edge_ms", interaction("edge", 0))
        for stack in [*stacks[1:3], ""]:
            timed("filter_ms", interaction("filter-stack", stack))
        cdp.send("HeapProfiler.collectGarbage")
        heap.append(round(metric("JSHeapUsedSize") / 2**20, 1))  # what the page keeps alive

    with sync_playwright() as p:
        browser = p.chromium.launch(executable_path=chromium, args=ARGS, headless=True)
        for i in range(runs):
            page = browser.new_page(viewport={"width": 1440, "height": 900})
            one_run(page, i)
            page.close()
        browser.close()
    samples["edge_ms"] = samples["edge_ms"] or [0.0]
    return {**samples, "busy": busy, "phases": phases, "page_heap_mib": heap, "slowest": slowest, **counts}


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--services", type=int, default=300)
    ap.add_argument("--files", type=int, default=3000)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--runs", type=int, default=5)
    ap.add_argument("--db", help="an existing database instead of the synthetic system")
    ap.add_argument("--screenshot", help="save the first render as this PNG")
    ap.add_argument("--why", action="store_true",
                    help="profile each interaction: where the slowest of each kind spent its main-thread time")
    ap.add_argument("--out", default=str(OUT_DIR / "ui_render.json"))
    args = ap.parse_args(argv)
    db = Path(args.db) if args.db else build_db(args.services, args.files, args.seed)
    proc, url = serve(db)
    try:
        idle = rss_mib(proc.pid)
        endpoint = map_endpoint(url)
        data = measure(url, args.runs, args.screenshot, args.why)
        loaded = rss_mib(proc.pid)
    finally:
        proc.terminate()
        proc.wait(10)
    kinds = ("first_render_ms", "select_ms", "edge_ms", "filter_ms")
    med = {k: round(statistics.median(data[k]), 1) for k in kinds}  # type: ignore[arg-type]
    worst = {k: round(max(data[k]), 1) for k in kinds}  # type: ignore[arg-type]
    ok = med["first_render_ms"] <= BUDGET_FIRST_RENDER_MS and all(med[k] <= BUDGET_INTERACTION_MS for k in kinds[1:])
    busy = {k: round(statistics.median(v), 1) if v else 0.0 for k, v in data["busy"].items()}  # type: ignore[attr-defined]
    heap = round(statistics.median(data["page_heap_mib"]), 1)  # type: ignore[arg-type]
    load = [round(x, 1) for x in os.getloadavg()]
    phases = {k: round(statistics.median(v), 1) for k, v in data["phases"].items()}  # type: ignore[attr-defined]
    report = {"map_endpoint": endpoint, "first_render_phases_median": phases, "db": str(db), "runs": args.runs, "nodes": data["nodes"], "edges": data["edges"], "median": med,
              "max": worst, "main_thread_cpu_median": busy, "load_average": load, "cpus": os.cpu_count(), "server_rss_mib": {"started": idle, "after_runs": loaded}, "page_js_heap_mib": heap, "slowest": data["slowest"], "within_budget": ok,
              "samples": {k: data[k] for k in kinds}}
    Path(args.out).parent.mkdir(parents=True, exist_ok=True)
    Path(args.out).write_text(json.dumps(report, indent=2))
    print(f"map of {data['nodes']} nodes, {data['edges']} edges drawn, {args.runs} runs (median / max):")
    print(f"  first render  {med['first_render_ms']:7.1f} / {worst['first_render_ms']:7.1f} ms  (budget {BUDGET_FIRST_RENDER_MS})")
    print(f"  select        {med['select_ms']:7.1f} / {worst['select_ms']:7.1f} ms  (budget {BUDGET_INTERACTION_MS})")
    print(f"  open an edge  {med['edge_ms']:7.1f} / {worst['edge_ms']:7.1f} ms  (budget {BUDGET_INTERACTION_MS}; "
          "its evidence fetched on demand)")
    print(f"  filter        {med['filter_ms']:7.1f} / {worst['filter_ms']:7.1f} ms  (budget {BUDGET_INTERACTION_MS})")
    print(f"  main-thread CPU (median): first render {busy['first_render_ms']} ms, select {busy['select_ms']} ms, "
          f"open an edge {busy['edge_ms']} ms, filter {busy['filter_ms']} ms")
    print(f"  first render phases (median, ms since navigation): map received {phases.get('map_received')}, "
          f"graph built {phases.get('graph_built')}, list built {phases.get('list_built')}, "
          f"first frame {phases.get('first_frame')}")
    print(f"  /api/map {endpoint['bytes'] / 1e6:.2f} MB: first request {endpoint['first_ms']} ms, "
          f"repeated {endpoint['repeat_ms']} ms")
    print(f"  server memory {idle} MiB started, {loaded} MiB after the runs; page JS heap {heap} MiB (after a GC)")
    print(f"  load average {load} on {os.cpu_count()} CPUs: wall-clock figures grow with it")
    for kind, worst_one in data["slowest"].items():  # type: ignore[attr-defined]
        spent = ", ".join(f"{who} {ms}" for who, ms in worst_one["cpu_ms_by"].items())
        print(f"  slowest {kind.removesuffix('_ms')}: {worst_one['ms']} ms (run {worst_one['run']}), main-thread CPU ms: {spent}")
    print("within budget" if ok else "OVER BUDGET")
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
