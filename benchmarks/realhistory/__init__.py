"""The change-surface benchmark on real git history: tasks mined from public repositories."""
