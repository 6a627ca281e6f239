"""FastembedEmbedder: the Embedder port over fastembed. The model loads lazily, on the first
embed() call, so commands that never embed pay nothing; the packaged model runs on onnxruntime
directly (``runner.OnnxSentenceModel``: fastembed's vectors, without fastembed's import)."""

from __future__ import annotations

import threading
from collections.abc import Sequence
from typing import Any

from orbitkb.fastembed.packaged import PACKAGED_DIM, PACKAGED_MODEL_ID, packaged_model_dir


class FastembedEmbedder:
    def __init__(self, model_name: str = PACKAGED_MODEL_ID, model_dir: str | None = None, dim: int | None = None,
                 batch_size: int = 16) -> None:
        self._name = model_name
        self._dir = model_dir
        self._dim = dim
        self._batch = batch_size
        self._model: Any = None
        self._lock = threading.Lock()

    @property
    def model_id(self) -> str:
        return self._name

    @property
    def dim(self) -> int:
        if self._dim is None:
            self._dim = len(self.embed(["dimension probe"])[0])
        return self._dim

    def _load(self) -> Any:
        with self._lock:
            if self._model is None:
                if self._name == PACKAGED_MODEL_ID:
                    from orbitkb.fastembed.runner import OnnxSentenceModel

                    self._model = OnnxSentenceModel(self._dir or packaged_model_dir())
                else:
                    from fastembed import TextEmbedding

                    self._model = TextEmbedding(self._name, specific_model_path=self._dir or None)
        return self._model

    def prepare(self) -> None:
        """Start loading the model on a background thread (a first index calls this once its files
        are analysed, so the model loads while the facts are written); embed() waits for it. A load
        that fails there fails again, with its error, in embed(). Not to be called before a fork."""
        if self._model is None:
            threading.Thread(target=self._load_quietly, name="orbitkb-embedder-load", daemon=True).start()

    def _load_quietly(self) -> None:
        try:
            self._load()
        except Exception:  # noqa: BLE001 - embed() loads again and raises
            pass

    def embed(self, texts: Sequence[str]) -> list[tuple[float, ...]]:
        if not texts:
            return []
        model = self._load()
        return [tuple(v.tolist()) for v in model.embed(list(texts), batch_size=self._batch)]


def load_embedder(name: str | None = None) -> FastembedEmbedder:
    """The packaged offline model by default; any fastembed model name when online."""
    if name in (None, "", "auto", PACKAGED_MODEL_ID):
        packaged_model_dir()  # raises ModelNotInstalled (an ImportError) when the model is absent
        return FastembedEmbedder(PACKAGED_MODEL_ID, dim=PACKAGED_DIM)
    return FastembedEmbedder(name)
