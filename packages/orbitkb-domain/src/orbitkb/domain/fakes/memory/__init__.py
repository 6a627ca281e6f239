"""The roles of ``InMemoryKnowledgeStore``, one module each, over shared tables (``state``)."""
