"""Refund endpoints used by support agents."""

import json

from django.contrib.admin.views.decorators import staff_member_required
from django.http import JsonResponse
from django.shortcuts import get_object_or_404
from django.views.decorators.http import require_GET, require_POST
from shopfront_common.money import format_cents

from refunds.clients import refund_payment
from refunds.models import Refund
from sales.models import Order


@require_GET
@staff_member_required
def list_refunds(request):
    """The last 50 refunds, newest first."""
    refunds = Refund.objects.order_by("-created_at")[:50]
    return JsonResponse(
        {"refunds": [{"order_id": r.order_id, "amount": format_cents(r.amount_cents), "reason": r.reason} for r in refunds]}
    )


@require_POST
@staff_member_required
def issue_refund(request, order_id: int):
    """Refund an order (fully by default) through the payments service and record who did it."""
    order = get_object_or_404(Order, pk=order_id)
    body = json.loads(request.body or "{}")
    amount = int(body.get("amount_cents", order.total_cents))
    result = refund_payment(order.payment_id, amount, body.get("reason", "support"))
    refund = Refund.objects.create(
        order_id=order.id,
        payment_id=order.payment_id,
        amount_cents=amount,
        reason=body.get("reason", "support"),
        granted_by=request.user,
        payments_reference=result.get("id", ""),
    )
    return JsonResponse({"refund_id": refund.pk, "amount": format_cents(amount, order.currency)}, status=201)
