"""Refund URLs, included under /api/backoffice/refunds/."""

from django.urls import path

from refunds import views

app_name = "refunds"

urlpatterns = [
    path("", views.list_refunds, name="list"),
    path("<int:order_id>/", views.issue_refund, name="issue"),
]
