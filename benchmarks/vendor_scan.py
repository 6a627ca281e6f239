"""Cost of reading the vendors a file's code names (issue 11): the text scan that rides along with
every parse (``orbitkb.analysis.vendors.code.scan``), against the parse itself, per stack.

    uv run python benchmarks/vendor_scan.py --clones DIR [--limit 400] [--repeat 3]

Reads up to --limit code files per stack from the clones (sorted by path, every repository), parses
each with its stack's analyzer and scans it, best of --repeat, and prints a Markdown table: files,
MB, parse ms, scan ms and scan / parse per stack and in total. The scan must stay a small fraction
of the parse (cold index cost per file within 1.2x, issue 11).
"""

from __future__ import annotations

import argparse
import time
from collections.abc import Callable
from functools import partial
from pathlib import Path

from orbitkb.analysis import filetypes as ft
from orbitkb.analysis.registry import load_analyzers, suffix_table
from orbitkb.analysis.vendors.code import scan

SKIP_DIRS = {"node_modules", ".git", "vendor", "dist", "build", "target", "bin", "obj"}


def code_files(clones: Path, suffixes: dict[str, str], limit: int) -> dict[str, list[tuple[str, str]]]:
    """stack -> up to ``limit`` (path, text) pairs, in path order."""
    out: dict[str, list[tuple[str, str]]] = {}
    for path in sorted(clones.rglob("*")):
        if not path.is_file() or SKIP_DIRS & set(path.relative_to(clones).parts):
            continue
        stack = suffixes.get(ft.suffix_of(path.name))
        if stack is None or len(out.setdefault(stack, [])) >= limit or path.stat().st_size > 500_000:
            continue
        try:
            out[stack].append((str(path.relative_to(clones)), path.read_text("utf-8")))
        except (UnicodeDecodeError, OSError):
            continue
    return out


def best_of(repeat: int, run: Callable[[], object]) -> float:
    times = []
    for _ in range(repeat):
        t0 = time.perf_counter()
        run()
        times.append(time.perf_counter() - t0)
    return min(times)


def _each(run: Callable[[str, str], object], items: list[tuple[str, str]]) -> None:
    for path, text in items:
        run(path, text)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--clones", type=Path, required=True)
    ap.add_argument("--limit", type=int, default=400, help="files per stack")
    ap.add_argument("--repeat", type=int, default=3)
    args = ap.parse_args()
    loaded, _ = load_analyzers()
    analyzers = {a.analyzer.stack: a.analyzer for a in loaded}
    files = code_files(args.clones, suffix_table(loaded), args.limit)
    print("| stack | files | MB | parse ms | scan ms | scan / parse |\n|---|---|---|---|---|---|")
    totals = [0, 0.0, 0.0, 0.0]
    for stack, items in sorted(files.items()):
        analyzer = analyzers[stack]
        parse = best_of(args.repeat, partial(_each, analyzer.parse, items))
        scanned = best_of(args.repeat, partial(_each, scan, items))
        mb = sum(len(t) for _, t in items) / 1e6
        for i, v in enumerate((len(items), mb, parse, scanned)):
            totals[i] += v
        print(
            f"| {stack} | {len(items)} | {mb:.1f} | {parse * 1e3:.0f} | {scanned * 1e3:.0f} | {scanned / parse:.1%} |"
        )
    n, mb, parse, scanned = totals
    print(
        f"| **all** | {n} | {mb:.1f} | {parse * 1e3:.0f} | {scanned * 1e3:.0f} | **{scanned / parse:.1%}** |"
    )


if __name__ == "__main__":
    main()
