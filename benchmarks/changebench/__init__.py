"""The change-surface quality benchmark: task corpus, git-history replay, bm25 baseline, metrics."""
