"""orbitkb.domain: the System Knowledge Model, its ports and use cases. Depends on attrs and cattrs only."""
