"""orbitkb.fastembed."""
