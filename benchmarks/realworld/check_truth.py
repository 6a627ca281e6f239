"""Check the ground-truth files of the real-repository corpus against their clones: the schema of
each record and that every ``evidence`` names a line that exists at the recorded commit.

    python benchmarks/realworld/check_truth.py --clones DIR [NAME ...]
"""

from __future__ import annotations

import argparse
import json
import subprocess
import sys
from pathlib import Path
from typing import Any

HERE = Path(__file__).resolve().parent
KINDS: dict[str, tuple[str, ...]] = {
    "services": ("name", "root", "stack"),
    "endpoints": ("service", "method", "path"),
    "calls": ("from", "to", "protocol"),
    "messaging": ("service", "direction", "channel"),
    "persistence": ("service", "engine"),
    "external": ("service", "vendor"),
}
STACKS = {"python", "node-ts", "jvm-spring", "go", "dotnet", "ruby", "php", "rust", "other"}


def _lines(clone: Path, commit: str, path: str, cache: dict[str, int | None]) -> int | None:
    if path not in cache:
        r = subprocess.run(["git", "-C", str(clone), "show", f"{commit}:{path}"], capture_output=True)
        cache[path] = r.stdout.count(b"\n") + 1 if r.returncode == 0 else None
    return cache[path]


def check(truth: dict[str, Any], clone: Path) -> list[str]:
    errors: list[str] = []
    commit = truth.get("commit", "")
    cache: dict[str, int | None] = {}
    names = {s["name"] for s in truth.get("services", [])}

    def evidence(where: str, rec: dict[str, Any]) -> None:
        ev = rec.get("evidence")
        if not ev:
            errors.append(f"{where}: no evidence")
            return
        path, _, line = str(ev).rpartition(":")
        n = _lines(clone, commit, path, cache)
        if n is None:
            errors.append(f"{where}: {path} does not exist at {commit[:10]}")
        elif not line.isdigit() or not 1 <= int(line) <= n:
            errors.append(f"{where}: line {line} outside {path} (1..{n})")

    for kind, required in KINDS.items():
        for i, rec in enumerate(truth.get(kind, [])):
            where = f"{kind}[{i}]"
            for key in required:
                if not rec.get(key):
                    errors.append(f"{where}: missing {key}")
            for key in ("service", "from", "to"):
                if key in rec and rec[key] not in names:
                    errors.append(f"{where}: {key} {rec[key]!r} is not a service of the truth")
            if kind == "services" and rec.get("stack") not in STACKS:
                errors.append(f"{where}: stack {rec.get('stack')!r} not one of {sorted(STACKS)}")
            evidence(where, rec)
            for j, ent in enumerate(rec.get("entities", [])):
                if not (ent.get("class") or ent.get("name")):
                    errors.append(f"{where}.entities[{j}]: needs class or name")
                evidence(f"{where}.entities[{j}]", ent)
    return errors


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--clones", required=True, type=Path)
    p.add_argument("names", nargs="*")
    args = p.parse_args(argv)
    bad = 0
    for f in sorted((HERE / "truth").glob("*.json")):
        if args.names and f.stem not in args.names:
            continue
        truth = json.loads(f.read_text())
        errors = check(truth, args.clones / f.stem)
        counts = ", ".join(f"{k} {len(truth.get(k, []))}" for k in KINDS)
        print(f"{f.stem}: {'OK' if not errors else f'{len(errors)} errors'} ({counts})")
        for e in errors:
            print("  " + e)
        bad += bool(errors)
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
