"""The packaged model runs on onnxruntime directly: the same vectors fastembed gives for it, for any
batch, and a process that embeds with it never imports fastembed."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

pytest.importorskip("orbitkb.fastembed")
from orbitkb.fastembed.packaged import PACKAGED_DIM, PACKAGED_MODEL_ID, ModelNotInstalled, packaged_model_dir  # noqa: E402

TEXTS = ["refund a card payment", "", "Größe prüfen ✓", "ship parcels " * 300, "post orders order id cancel",
         "List handles GET on invoices."]


@pytest.fixture(scope="module")
def model_dir(tmp_path_factory: pytest.TempPathFactory) -> Path:
    try:
        return packaged_model_dir(cache=tmp_path_factory.mktemp("models"))
    except ModelNotInstalled as exc:
        pytest.skip(f"the packaged embedding model is not installed: {exc}")


def test_the_runner_gives_fastembeds_vectors(model_dir: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    np = pytest.importorskip("numpy")
    fastembed = pytest.importorskip("fastembed")
    from fastembed.common.model_description import ModelSource, PoolingType

    from orbitkb.fastembed.runner import OnnxSentenceModel

    monkeypatch.setenv("HF_HUB_OFFLINE", "1")
    try:
        fastembed.TextEmbedding.add_custom_model(model=PACKAGED_MODEL_ID, pooling=PoolingType.MEAN, normalization=True,
                                                 sources=ModelSource(hf="sentence-transformers/all-MiniLM-L6-v2"),
                                                 dim=PACKAGED_DIM, model_file="model.onnx")
    except ValueError:
        pass  # registered already in this process
    theirs = np.array(list(fastembed.TextEmbedding(PACKAGED_MODEL_ID, specific_model_path=str(model_dir))
                           .embed(TEXTS, batch_size=4)))
    ours = np.array(OnnxSentenceModel(model_dir).embed(TEXTS, batch_size=4))
    assert ours.shape == (len(TEXTS), PACKAGED_DIM)
    assert np.abs(ours - theirs).max() < 1e-5
    one_by_one = np.array([OnnxSentenceModel(model_dir, threads=1).embed([t])[0] for t in TEXTS])
    assert np.abs(one_by_one - theirs).max() < 1e-4  # the batch around a text does not move its vector


def test_embedding_with_the_packaged_model_never_imports_fastembed(model_dir: Path) -> None:
    probe = ("import sys\nfrom orbitkb.fastembed import load_embedder\n"
             "vectors = load_embedder(None).embed(['charge a card', 'ship a parcel'])\n"
             "assert len(vectors) == 2 and len(vectors[0]) == 384\n"
             "print(','.join(sorted(m for m in ('fastembed', 'huggingface_hub', 'onnxruntime') if m in sys.modules)))")
    out = subprocess.run([sys.executable, "-c", probe], capture_output=True, text=True, check=True,
                         env={"HF_HUB_OFFLINE": "1", "XDG_CACHE_HOME": str(model_dir.parent.parent),
                              "PATH": "/usr/bin:/bin"})
    assert out.stdout.strip() == "onnxruntime"


def test_a_folder_without_the_model_is_a_clear_error(tmp_path: Path) -> None:
    from orbitkb.fastembed.runner import OnnxSentenceModel

    with pytest.raises(FileNotFoundError, match="tokenizer_config.json"):
        OnnxSentenceModel(tmp_path)


class _RecordingSession:
    """The real session, with the shape of every batch it is fed."""

    def __init__(self, real: object) -> None:
        self.real, self.shapes = real, []

    def run(self, names: object, feed: dict[str, object]) -> object:
        self.shapes.append(feed["input_ids"].shape)  # type: ignore[attr-defined]
        return self.real.run(names, feed)  # type: ignore[attr-defined]


def test_texts_are_batched_by_their_token_counts_and_answered_in_order(model_dir: Path) -> None:
    np = pytest.importorskip("numpy")
    from orbitkb.fastembed.runner import OnnxSentenceModel

    long_a = "refunds are issued to the card that paid, within five working days of the request"
    long_b = "an invoice is sent once the parcel has left the warehouse and the carrier confirmed it"
    texts = [long_a, "pay", long_b, "ship"]
    model = OnnxSentenceModel(model_dir, threads=1)
    alone = np.array([model.embed([t])[0] for t in texts])
    model._session = recording = _RecordingSession(model._session)
    batched = np.array(model.embed(texts, batch_size=2))
    widths = [shape[1] for shape in recording.shapes]
    assert [shape[0] for shape in recording.shapes] == [2, 2]
    assert widths[0] == 3 < widths[1]  # short with short: no batch is padded to a long text
    assert np.abs(batched - alone).max() < 1e-5  # each vector back in its text's place


def test_an_empty_call_runs_nothing(model_dir: Path) -> None:
    from orbitkb.fastembed.runner import OnnxSentenceModel

    model = OnnxSentenceModel(model_dir, threads=1)
    model._session = recording = _RecordingSession(model._session)
    assert model.embed([]) == [] and recording.shapes == []


def test_batches_run_side_by_side_give_the_vectors_of_one_thread(model_dir: Path) -> None:
    np = pytest.importorskip("numpy")
    from orbitkb.fastembed.runner import OnnxSentenceModel

    texts = [*TEXTS, "refunds", "a parcel left the warehouse", "cancel a subscription before renewal",
             "the invoice of an order", "", "Größe", "ship"] * 3
    alone = np.array(OnnxSentenceModel(model_dir, threads=1).embed(texts, batch_size=3))
    side_by_side = OnnxSentenceModel(model_dir, threads=3)
    assert np.array_equal(np.array(side_by_side.embed(texts, batch_size=3)), alone)  # same rows, same order
    assert np.array_equal(np.array(side_by_side.embed(texts[:2], batch_size=3)), alone[:2])  # one batch: no pool


def test_the_embedder_loads_its_model_in_the_background_when_told_to_prepare(model_dir: Path) -> None:
    from orbitkb.fastembed import FastembedEmbedder

    embedder = FastembedEmbedder(PACKAGED_MODEL_ID, model_dir=str(model_dir), dim=PACKAGED_DIM)
    embedder.prepare()
    vectors = embedder.embed(["weigh a parcel"])  # waits for the load under way, then embeds
    assert len(vectors) == 1 and len(vectors[0]) == PACKAGED_DIM
    embedder.prepare()  # loaded: nothing to do


def test_a_background_load_that_fails_fails_again_in_embed(tmp_path: Path) -> None:
    import threading

    from orbitkb.fastembed import FastembedEmbedder

    embedder = FastembedEmbedder(PACKAGED_MODEL_ID, model_dir=str(tmp_path), dim=PACKAGED_DIM)
    embedder.prepare()  # no error here: the thread keeps it
    for thread in threading.enumerate():
        if thread.name == "orbitkb-embedder-load":
            thread.join(timeout=30)
    with pytest.raises(FileNotFoundError, match="tokenizer_config.json"):
        embedder.embed(["weigh a parcel"])
