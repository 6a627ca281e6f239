"""Configuration sources: where a service's environment variables and properties come from."""
