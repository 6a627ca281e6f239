"""orbitkb-all: a meta-distribution that installs every orbitkb package."""
