"""orbitkb-fastembed: the Embedder adapter — local, CPU-only embeddings with fastembed, loadable
with no network from a model shipped in a package."""

from orbitkb.fastembed.embedder import FastembedEmbedder, load_embedder

__all__ = ["FastembedEmbedder", "load_embedder"]
