"""mypy --strict on every distribution of the workspace, each judged against its error baseline.

Every ``packages/*/src/orbitkb/<name>`` is checked in one mypy run. A distribution absent from
``scripts/mypy-baseline.json`` must have no error; one listed there (a package still being
annotated) may have at most that many, and the check says when the count went down so that the
baseline is lowered with the fix — it may only go down, never up.

    uv run python scripts/typecheck.py          # exit 1 when a distribution has more errors than allowed
"""

from __future__ import annotations

import json
import re
import subprocess
import sys
from collections import Counter
from collections.abc import Iterable, Mapping
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
BASELINE = ROOT / "scripts" / "mypy-baseline.json"
ERROR_LINE = re.compile(r"^packages/(?P<dist>[^/]+)/src/orbitkb/[^:]+:\d+: error: ")


def packages(root: Path = ROOT) -> dict[str, str]:
    """Distribution folder -> its import package (``orbitkb-mcp`` -> ``orbitkb.mcp``)."""
    found: dict[str, str] = {}
    for folder in sorted(root.glob("packages/*/src/orbitkb/*/")):
        if folder.name.isidentifier() and any(folder.glob("*.py")):
            found[folder.parents[2].name] = f"orbitkb.{folder.name}"
    return found


def count_errors(mypy_output: Iterable[str]) -> Counter[str]:
    """Errors per distribution folder, read from mypy's ``path:line: error:`` lines."""
    counts: Counter[str] = Counter()
    for line in mypy_output:
        match = ERROR_LINE.match(line)
        if match:
            counts[match.group("dist")] += 1
    return counts


def judge(counts: Mapping[str, int], baseline: Mapping[str, int], dists: Iterable[str]) -> tuple[list[str], list[str]]:
    """(failures, notes): a distribution over its baseline (0 when unlisted) fails; under it, a note."""
    failures: list[str] = []
    notes: list[str] = []
    for dist in sorted(dists):
        allowed, found = baseline.get(dist, 0), counts.get(dist, 0)
        if found > allowed:
            failures.append(f"{dist}: {found} mypy --strict errors, {allowed} allowed")
        elif found < allowed:
            notes.append(f"{dist}: {found} errors, baseline {allowed} — lower it in {BASELINE.name}")
    unknown = sorted(set(baseline) - set(dists))
    failures += [f"{dist}: in {BASELINE.name} but not a distribution" for dist in unknown]
    return failures, notes


def main() -> int:
    dists = packages()
    baseline: dict[str, int] = json.loads(BASELINE.read_text(encoding="utf-8")) if BASELINE.exists() else {}
    args = [arg for name in dists.values() for arg in ("-p", name)]
    done = subprocess.run([sys.executable, "-m", "mypy", "--strict", *args], cwd=ROOT, capture_output=True,
                          text=True)
    lines = done.stdout.splitlines()
    counts = count_errors(lines)
    failures, notes = judge(counts, baseline, dists)
    if done.returncode not in (0, 1) or (done.returncode == 1 and not counts):
        print(done.stdout + done.stderr, file=sys.stderr)  # mypy itself failed (a crash, a bad option)
        return 2
    for note in notes:
        print(f"typecheck: {note}")
    if failures:
        for line in lines:
            match = ERROR_LINE.match(line)
            if match and match.group("dist") not in baseline:  # a baselined package would drown the new error
                print(line, file=sys.stderr)
        for failure in failures:
            print(f"typecheck: {failure}", file=sys.stderr)
        return 1
    print(f"typecheck: {len(dists)} distributions, mypy --strict within baseline ({sum(counts.values())} "
          f"baselined errors)")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
