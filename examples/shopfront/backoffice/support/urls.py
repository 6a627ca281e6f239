"""Ticket URLs, included under /api/backoffice/tickets/."""

from django.urls import path

from support import views
from support.views import TicketListView

urlpatterns = [
    path("", TicketListView.as_view(), name="ticket-list"),
    path("<int:pk>/", views.ticket_detail, name="ticket-detail"),
    path("<int:pk>/close/", views.close_ticket, name="ticket-close"),
]
