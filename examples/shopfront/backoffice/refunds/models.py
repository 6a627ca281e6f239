"""Refunds granted by support agents (Django's default table name: refunds_refund)."""

from django.conf import settings
from django.db import models


class Refund(models.Model):
    order_id = models.BigIntegerField(db_index=True)
    payment_id = models.CharField(max_length=64)
    amount_cents = models.BigIntegerField()
    reason = models.CharField(max_length=200)
    granted_by = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.PROTECT)
    payments_reference = models.CharField(max_length=64, blank=True)
    created_at = models.DateTimeField(auto_now_add=True)
