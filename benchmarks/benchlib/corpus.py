"""The synthetic system on disk: generated once per (services, files, seed) and cached under
benchmarks/out/, regenerated when the generator version changes."""

from __future__ import annotations

import json
import os
import sys
from pathlib import Path

BENCH_DIR = Path(__file__).resolve().parent.parent
OUT_DIR = BENCH_DIR / "out"


def ensure_system(services: int, files: int, seed: int, root: Path | None = None) -> tuple[Path, dict]:
    """(folder, expected.json) of the synthetic system, generating it if needed."""
    if str(BENCH_DIR) not in sys.path:
        sys.path.insert(0, str(BENCH_DIR))
    import synth  # the generator script, importable as a module

    folder = (root or OUT_DIR) / f"synth-{services}-{files}-{seed}"
    expected_path = folder / "expected.json"
    if expected_path.exists():
        doc = json.loads(expected_path.read_text())
        wanted = {
            "services": services,
            "files": files,
            "seed": seed,
            "generator_version": synth.GENERATOR_VERSION,
        }
        if doc.get("params") == wanted:
            return folder, doc
    os.makedirs(folder.parent, exist_ok=True)
    doc = synth.generate(folder, services, files, seed)
    return folder, doc
