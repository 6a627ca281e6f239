"""orbitkb ui: a local, read-mostly web app over the knowledge model (a driving adapter)."""
