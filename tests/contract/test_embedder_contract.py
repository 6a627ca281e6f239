"""The Embedder contract: the hashed-words fake and the fastembed adapter (through the model
shipped in a package, offline: never a download — skipped when that package is absent) answer
the same questions the same way: one unit vector of ``dim`` floats per text, in order,
deterministic, any batch size, and texts about one thing closer than texts about another."""

from __future__ import annotations

import math
from collections.abc import Iterator
from pathlib import Path

import pytest

from orbitkb.domain.fakes import FakeEmbedder
from orbitkb.domain.ports import Embedder
from orbitkb.domain.retrieval import cosine

PAYMENT = "charge the customer's credit card for the order"
ALSO_PAYMENT = "the credit card charge for an order failed"
SHIPPING = "ship the parcel from the warehouse by truck"


def _packaged(tmp_path: Path) -> Embedder:
    """The adapter over the packaged model, read from the package's own files (no hub)."""
    fastembed = pytest.importorskip("orbitkb.fastembed")
    from orbitkb.fastembed.packaged import (
        PACKAGED_DIM,
        PACKAGED_MODEL_ID,
        ModelNotInstalled,
        packaged_model_dir,
    )

    try:
        model_dir = packaged_model_dir(cache=tmp_path)
    except ModelNotInstalled as exc:
        pytest.skip(f"the packaged embedding model is not installed: {exc}")
    # a small batch, so that five texts already take three batches
    embedder: Embedder = fastembed.FastembedEmbedder(PACKAGED_MODEL_ID, model_dir=str(model_dir), dim=PACKAGED_DIM,
                                                     batch_size=2)  # fmt: skip
    return embedder


@pytest.fixture(scope="module", params=["fake", "fastembed"])
def embedder(request: pytest.FixtureRequest, tmp_path_factory: pytest.TempPathFactory) -> Iterator[Embedder]:
    if request.param == "fake":
        yield FakeEmbedder(dim=64)
        return
    with pytest.MonkeyPatch.context() as patch:
        patch.setenv("HF_HUB_OFFLINE", "1")  # a download attempt fails instead of reaching the network
        yield _packaged(tmp_path_factory.mktemp("models"))


def test_it_names_its_model_and_dimension(embedder: Embedder) -> None:
    assert isinstance(embedder.model_id, str) and embedder.model_id
    assert isinstance(embedder.dim, int) and embedder.dim > 0


def test_no_texts_give_no_vectors(embedder: Embedder) -> None:
    assert embedder.embed([]) == []


def test_one_unit_vector_of_dim_floats_per_text_in_order(embedder: Embedder) -> None:
    texts = [PAYMENT, SHIPPING, ALSO_PAYMENT, "Größe prüfen ✓", PAYMENT]
    vectors = embedder.embed(texts)
    assert len(vectors) == len(texts)
    for vector in vectors:
        assert isinstance(vector, tuple) and len(vector) == embedder.dim
        assert all(isinstance(x, float) for x in vector)
        assert math.isclose(math.sqrt(sum(x * x for x in vector)), 1.0, rel_tol=1e-3)
    alone = [embedder.embed([t])[0] for t in texts]  # the same vector whatever the batch around it
    for together, single in zip(vectors, alone, strict=True):
        assert cosine(together, single) == pytest.approx(1.0, abs=1e-4)
    assert cosine(vectors[0], vectors[4]) == pytest.approx(1.0, abs=1e-6)  # deterministic


def test_texts_about_one_thing_are_closer_than_texts_about_another(embedder: Embedder) -> None:
    payment, also, shipping = embedder.embed([PAYMENT, ALSO_PAYMENT, SHIPPING])
    assert cosine(payment, also) > cosine(payment, shipping) + 0.1
