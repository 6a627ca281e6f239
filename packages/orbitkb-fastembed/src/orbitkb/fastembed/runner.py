"""OnnxSentenceModel: the packaged model run straight on onnxruntime and tokenizers — what fastembed
does for it (tokenise with truncation at the tokenizer's limit and padding to the longest text of
the batch, run the graph, average the real tokens' states, scale to unit length), without
importing fastembed (its import pulls the hub client, HTTP stacks and image code: most of the
cost of a first embed in a short process) and with onnxruntime's worker threads sleeping instead
of spinning while they wait (on a busy machine the spinning burns the cores the indexer needs).
The vectors are fastembed's own: tests/integration/embeddings/ compares them.

Batches run side by side, one per core, each on a single onnxruntime thread: the model's texts
are short (a name, a sentence), and one batch split across cores spends its time handing rows
between threads (two intra-op threads on two cores: ~10 % more CPU and no shorter wall than one),
while two batches at once take half the time of one after the other. A batch's vectors do not
depend on the thread that ran it."""

from __future__ import annotations

import json
import os
from collections.abc import Sequence
from pathlib import Path
from typing import Any

#: The tokenizer's limit when its config names none (MiniLM's position table).
DEFAULT_MAX_TOKENS = 512
#: At most this many batches at once by default (each holds a core while it runs).
MAX_THREADS = 4


def default_threads() -> int:
    """The cores this process may run on, at most ``MAX_THREADS``."""
    try:
        cores = len(os.sched_getaffinity(0))
    except (AttributeError, OSError):  # not on Linux
        cores = os.cpu_count() or 1
    return max(1, min(cores, MAX_THREADS))


class OnnxSentenceModel:
    """A mean-pooled, normalised sentence encoder read from a folder holding ``model.onnx`` and the
    tokenizer files (``tokenizer.json``, ``tokenizer_config.json``). ``threads``: how many batches
    run at once (default: the cores this process may use, at most ``MAX_THREADS``)."""

    def __init__(self, folder: str | Path, threads: int | None = None) -> None:
        import onnxruntime as ort  # type: ignore[import-untyped]
        from tokenizers import Tokenizer

        folder = Path(folder)
        config = json.loads((folder / "tokenizer_config.json").read_text(encoding="utf-8"))
        limit = config.get("model_max_length")
        limit = limit if isinstance(limit, int) and 0 < limit <= 100_000 else DEFAULT_MAX_TOKENS
        self._tokenizer = Tokenizer.from_file(str(folder / "tokenizer.json"))
        padding = self._tokenizer.padding or {}
        self._tokenizer.enable_truncation(max_length=limit)
        self._tokenizer.no_padding()  # each batch is padded here, to its own longest text
        self._pad_id = int(padding.get("pad_id", 0))  # masked out: attention and pooling skip it
        options = ort.SessionOptions()
        options.graph_optimization_level = ort.GraphOptimizationLevel.ORT_ENABLE_ALL
        options.add_session_config_entry("session.intra_op.allow_spinning", "0")
        options.intra_op_num_threads = options.inter_op_num_threads = 1  # a run on its caller's thread
        self._threads = max(1, threads) if threads is not None else default_threads()
        self._session = ort.InferenceSession(str(folder / "model.onnx"), sess_options=options,
                                             providers=["CPUExecutionProvider"])
        self._inputs = {i.name for i in self._session.get_inputs()}

    def embed(self, texts: Sequence[str], batch_size: int = 32) -> list[Any]:
        """One unit vector (a float32 numpy row) per text, in order.

        The texts are tokenised first and run in batches of similar token counts, so that a batch
        is hardly padded: the model's cost grows with the tokens it reads, padding included, and
        texts of the same length in characters can differ twofold in tokens."""
        encoded = [e.ids for e in self._tokenizer.encode_batch(list(texts))]
        order = sorted(range(len(encoded)), key=lambda i: len(encoded[i]))
        size = max(1, batch_size)
        chunks = [order[start:start + size] for start in range(0, len(order), size)]
        out: list[Any] = [None] * len(encoded)
        if self._threads > 1 and len(chunks) > 1:
            from concurrent.futures import ThreadPoolExecutor

            # longest batches first, so that no core is left with a long one at the end
            with ThreadPoolExecutor(min(self._threads, len(chunks)), thread_name_prefix="orbitkb-embed") as pool:
                done = list(pool.map(lambda chunk: self._run(chunk, encoded), chunks[::-1]))[::-1]
        else:
            done = [self._run(chunk, encoded) for chunk in chunks]
        for chunk, vectors in zip(chunks, done, strict=True):
            for i, vector in zip(chunk, vectors, strict=True):
                out[i] = vector
        return out

    def _run(self, chunk: list[int], encoded: list[list[int]]) -> Any:
        """The unit vectors of one batch (the texts ``chunk`` indexes, shortest first)."""
        import numpy as np

        width = max(1, len(encoded[chunk[-1]]))
        ids = np.full((len(chunk), width), self._pad_id, dtype=np.int64)
        mask = np.zeros((len(chunk), width), dtype=np.int64)
        for row, i in enumerate(chunk):
            ids[row, :len(encoded[i])] = encoded[i]
            mask[row, :len(encoded[i])] = 1
        feed = {"input_ids": ids}
        if "attention_mask" in self._inputs:
            feed["attention_mask"] = mask
        if "token_type_ids" in self._inputs:
            feed["token_type_ids"] = np.zeros_like(ids)
        states = self._session.run(None, feed)[0]
        pooled = np.sum(states, axis=1, where=mask[:, :, np.newaxis].astype(bool), dtype=np.float64)
        pooled /= np.maximum(np.sum(mask, axis=1, keepdims=True), 1e-9)
        pooled /= np.maximum(np.linalg.norm(pooled, axis=1, keepdims=True), 1e-12)
        return pooled.astype(states.dtype, copy=False)
