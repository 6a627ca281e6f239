"""Load once, reuse: a ModelReader that keeps the last SystemModel until the snapshot changes.

A long-lived process (the MCP server, a CLI command answering several questions) wraps its store
in one ``CachedModelReader``: each ``load_model()`` costs one fingerprint read while nothing was
written, and reloads the whole model after an index, update, enrichment or removal made by this
process or any other.
"""

from __future__ import annotations

import threading

from orbitkb.domain.ports import ModelReader
from orbitkb.domain.system_model import SystemModel


class CachedModelReader:
    """``CachedModelReader(store)`` — the store's SystemModel, reloaded only when its fingerprint moved."""

    def __init__(self, reader: ModelReader) -> None:
        self._reader = reader
        self._model: SystemModel | None = None
        self._lock = threading.Lock()
        self.loads = 0  # how many times the whole model was read (for tests and benchmarks)

    def snapshot_fingerprint(self) -> str:
        return self._reader.snapshot_fingerprint()

    def load_model(self) -> SystemModel:
        current = self._reader.snapshot_fingerprint()
        model = self._model
        if model is not None and model.fingerprint == current:
            return model
        with self._lock:  # one reload at a time; a thread that waited reuses what the first read
            model = self._model
            if model is None or model.fingerprint != current:
                model = self._reader.load_model()
                self._model = model
                self.loads += 1
            return model
