"""HTTP API of the catalog, one module per resource."""
