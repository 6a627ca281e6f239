"""Indexing speed of the real orbitkb pipeline on the synthetic system (issue 3 item 10, issue 4
item 7).

    uv run python benchmarks/index_speed.py [--services 300 --files 20000 --seed 1] [--profile]
    uv run python benchmarks/index_speed.py --stacks CLONES   # cold cost per file of each language analyzer

Generates the system (cached under benchmarks/out/), then, in a fresh child process, indexes it
through the composition root (Settings(backend="offline", embedder="off")): cold throughput
(files/s, MB/s), peak memory, no-change re-index (in process and as a fresh `orbitkb index`),
re-index after touching one file, per-stage timings from the progress callback, and extraction
recall against expected.json. --profile adds a cProfile of a single-process cold index (hot spots,
and the self time of the extraction-only modules). Prints a Markdown table and writes
benchmarks/out/index_speed.json.
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import subprocess
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))

from benchlib.corpus import OUT_DIR, ensure_system  # noqa: E402

TARGET_FILES_PER_S = 1000
TARGET_NOCHANGE_S = 2.0


def _child(args: list[str]) -> dict:
    with tempfile.NamedTemporaryFile(suffix=".json", delete=False) as fh:
        result_path = fh.name
    try:
        subprocess.run([sys.executable, os.path.abspath(__file__), *args, result_path], check=True)
        return json.loads(Path(result_path).read_text())
    finally:
        os.unlink(result_path)


def table(doc: dict) -> str:
    m, c = doc["measure"], doc["corpus"]
    cold = m["cold"]
    secs = cold["seconds"]
    rows = [
        (
            "services / source files / all indexed files",
            f"{c['services']} / {c['source_files']} / {cold['files_total']}",
            "",
        ),
        ("cold index", f"{secs:.1f} s", ""),
        (
            "cold throughput (indexed files)",
            f"{cold['files_total'] / secs:,.0f} files/s",
            "target >= 1,000" + (" ✔" if cold["files_total"] / secs >= TARGET_FILES_PER_S else " ✘"),
        ),
        ("cold throughput (source files)", f"{c['source_files'] / secs:,.0f} files/s", ""),
        (
            "cold throughput (bytes)",
            f"{m['indexed_bytes'] / 1e6 / secs:.2f} MB/s",
            f"{m['indexed_bytes'] / 1e6:.1f} MB indexed",
        ),
        (
            "peak RSS (main / parse worker)",
            f"{m['peak_rss_mb']['self']:.0f} / {m['peak_rss_mb']['parse_workers_max']:.0f} MB",
            "",
        ),
        (
            "no-change re-index (in process)",
            f"{m['nochange']['seconds']:.2f} s",
            "target < 2 s" + (" ✔" if m["nochange"]["seconds"] < TARGET_NOCHANGE_S else " ✘"),
        ),
    ]
    if "nochange_cli_seconds" in m:
        rows.append(
            (
                "no-change re-index (fresh `orbitkb index`)",
                f"{m['nochange_cli_seconds']:.2f} s",
                "includes interpreter start and imports",
            )
        )
    rows.append(
        (
            "re-index after touching one file",
            f"{m['touch_one']['seconds']:.2f} s",
            f"{m['touch_one']['files_parsed']} file(s) parsed",
        )
    )
    b = cold["breakdown"]
    rows.append(
        (
            "cold: analyze / store write / hooks+rest",
            f"{b['analyze']:.1f} / {b['store_write']:.1f} / {b['hooks_and_rest']:.1f} s",
            "",
        )
    )
    for stage, span in cold["stages"].items():
        rows.append(
            (f"cold stage `{stage}` (progress reports)", f"{span['from']:.1f} → {span['to']:.1f} s", "")
        )
    if "profile" in doc:
        p = doc["profile"]["cold"]
        share = p["extraction_self_share"] or 0
        rows.append(
            (
                "extraction-only modules, self time (profiled)",
                f"{p['extraction_self_seconds']:.1f} of {p['profiled_seconds']:.1f} s ({share:.0%})",
                f"≈ {1 / (1 - share):.2f}× discovery alone (lower bound), target ≤ 1.5×" if share < 1 else "",
            )
        )
    for key, label in (
        ("services", "recall: services"),
        ("apis", "recall: APIs (method+path exact)"),
        ("apis_loose_params", "recall: APIs (param spelling ignored)"),
        ("calls_edges", "recall: call edges (from→to)"),
        ("calls", "recall: calls (+method+path)"),
        ("channels", "recall: channel sites (+provider)"),
        ("entities", "recall: entities"),
    ):
        r = m["recall"][key]
        val = f"{r['recall']:.1%}" if r["recall"] is not None else "n/a"
        rows.append(
            (label, f"{val} ({r['found']}/{r['expected']})", f"{r['unexpected']} not in expected.json")
        )
    out = ["| measure | value | note |", "|---|---|---|"]
    out += [f"| {a} | {b} | {n} |" for a, b, n in rows]
    return "\n".join(out)


def main(argv: list[str] | None = None) -> int:
    argv = sys.argv[1:] if argv is None else argv
    if argv and argv[0] == "--child":  # internal: the measuring process
        from benchlib.measure import child_main

        return child_main(argv[1], argv[2], argv[4], argv[3] == "cli")
    if argv and argv[0] == "--child-profile":
        from benchlib.profile import profile

        Path(argv[2]).write_text(json.dumps(profile(Path(argv[1])), indent=1))
        return 0
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--services", type=int, default=300)
    ap.add_argument("--files", type=int, default=20000)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--cache-dir", type=Path, default=OUT_DIR, help="where generated systems are kept")
    ap.add_argument("--json", type=Path, default=OUT_DIR / "index_speed.json", help="result file")
    ap.add_argument("--profile", action="store_true", help="also profile a single-process cold index")
    ap.add_argument("--no-cli", action="store_true", help="skip the fresh-process `orbitkb index` re-index")
    ap.add_argument("--stacks", type=Path, metavar="CLONES",
                    help="instead: cold analyzer cost per file of each stack on real clones in CLONES, vs the JVM's")
    args = ap.parse_args(argv)
    if args.stacks is not None:
        from benchlib.stackspeed import measure
        from benchlib.stackspeed import table as stack_table

        results = measure(args.stacks)
        args.json.parent.mkdir(parents=True, exist_ok=True)
        args.json.with_name("index_speed_stacks.json").write_text(json.dumps(results, indent=1) + "\n")
        print(stack_table(results))
        return 0
    t0 = time.perf_counter()
    folder, expected = ensure_system(args.services, args.files, args.seed, args.cache_dir)
    print(f"system: {folder} (ready in {time.perf_counter() - t0:.1f}s)", file=sys.stderr)
    doc = {
        "date": time.strftime("%Y-%m-%d"),
        "machine": {
            "cpus": os.cpu_count(),
            "python": platform.python_version(),
            "platform": platform.platform(),
        },
        "corpus": {
            **expected["counts"],
            "params": expected["params"],
            "frameworks": expected.get("frameworks"),
        },
    }
    expected_path = folder / "expected.json"
    doc["measure"] = _child(["--child", str(folder), str(expected_path), "nocli" if args.no_cli else "cli"])
    if args.profile:
        doc["profile"] = _child(["--child-profile", str(folder)])
    args.json.parent.mkdir(parents=True, exist_ok=True)
    args.json.write_text(json.dumps(doc, indent=1) + "\n")
    print(table(doc))
    print(f"\nwritten: {args.json}", file=sys.stderr)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
