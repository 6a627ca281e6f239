"""orbitkb-cli: the ``orbitkb`` command, a thin driving adapter over the use cases."""
