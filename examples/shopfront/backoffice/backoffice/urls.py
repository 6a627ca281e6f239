"""Root URLconf: the JSON API lives under /api/backoffice/."""

from django.urls import include, path

from backoffice import views

urlpatterns = [
    path("healthz", views.healthz),
    path("api/backoffice/", include("backoffice.api_urls")),
]
