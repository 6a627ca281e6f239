"""Use cases: one verb each, dependencies in the constructor, one public method (``__call__``)."""
