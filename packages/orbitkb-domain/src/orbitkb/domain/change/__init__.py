"""Change intelligence: from a task's words to the smallest set of services it likely touches."""
