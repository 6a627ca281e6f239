"""Ticket endpoints: a class-based list/create view and two function views."""

import json

from django.contrib.auth.decorators import login_required
from django.contrib.auth.mixins import LoginRequiredMixin
from django.http import JsonResponse
from django.shortcuts import get_object_or_404
from django.views import View
from django.views.decorators.http import require_GET, require_POST

from support.models import Ticket


class TicketListView(LoginRequiredMixin, View):
    def get(self, request):
        """Open tickets, oldest first, for the support queue."""
        tickets = Ticket.objects.filter(status=Ticket.Status.OPEN).order_by("created_at")[:100]
        return JsonResponse({"tickets": [t.as_dict() for t in tickets]})

    def post(self, request):
        """Open a ticket on behalf of a customer."""
        body = json.loads(request.body)
        ticket = Ticket.objects.create(
            customer_email=body["customer_email"],
            order_id=body.get("order_id"),
            subject=body["subject"],
            body=body.get("body", ""),
        )
        return JsonResponse(ticket.as_dict(), status=201)


@login_required
@require_GET
def ticket_detail(request, pk: int):
    """One ticket with its full text."""
    ticket = get_object_or_404(Ticket, pk=pk)
    return JsonResponse({**ticket.as_dict(), "body": ticket.body, "customer_email": ticket.customer_email})


@login_required
@require_POST
def close_ticket(request, pk: int):
    """Mark a ticket as resolved."""
    ticket = get_object_or_404(Ticket, pk=pk)
    ticket.status = Ticket.Status.CLOSED
    ticket.save(update_fields=["status"])
    return JsonResponse(ticket.as_dict())
