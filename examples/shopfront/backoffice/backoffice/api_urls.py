"""Second level of the URLconf: one include per app, plus the project-level dashboard."""

from django.urls import include, path

from backoffice import views

urlpatterns = [
    path("tickets/", include("support.urls")),
    path("refunds/", include(("refunds.urls", "refunds"), namespace="refunds")),
    path("stock/low/", views.low_stock, name="low-stock"),
]
