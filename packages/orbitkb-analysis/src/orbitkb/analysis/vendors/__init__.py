"""Vendors: external SDKs a service declares, imports or configures."""
