"""Read-only view of the orders owned by the orders service."""

from django.apps import AppConfig


class SalesConfig(AppConfig):
    name = "sales"
