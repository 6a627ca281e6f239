"""FakeEmbedder: deterministic vectors from hashed word features (no model), so texts that share
words are close. For tests and for scripts that want hybrid retrieval without a model."""

from __future__ import annotations

import hashlib
import math
from collections.abc import Sequence

from orbitkb.domain.text import stem, words


class FakeEmbedder:
    def __init__(self, dim: int = 512, model_id: str = "fake/hashed-words") -> None:
        self._dim = dim
        self._model_id = model_id
        self.calls: list[list[str]] = []

    @property
    def model_id(self) -> str:
        return self._model_id

    @property
    def dim(self) -> int:
        return self._dim

    def embed(self, texts: Sequence[str]) -> list[tuple[float, ...]]:
        self.calls.append(list(texts))
        out = []
        for text in texts:
            vec = [0.0] * self._dim
            for w in words(text):
                h = int.from_bytes(hashlib.blake2b(stem(w).encode(), digest_size=8).digest(), "big")
                vec[h % self._dim] += 1.0 if (h >> 32) & 1 else -1.0
            norm = math.sqrt(sum(x * x for x in vec)) or 1.0
            out.append(tuple(x / norm for x in vec))
        return out
