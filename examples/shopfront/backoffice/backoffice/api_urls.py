"""Second level of the URLconf: one include per app."""

from django.urls import include, path

urlpatterns = [
    path("tickets/", include("support.urls")),
    path("refunds/", include(("refunds.urls", "refunds"), namespace="refunds")),
]
