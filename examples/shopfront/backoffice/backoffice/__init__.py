"""shopfront back office (Django project package)."""
