"""Support tickets raised by customers and handled by agents."""

from django.conf import settings
from django.db import models


class Ticket(models.Model):
    class Status(models.TextChoices):
        OPEN = "open"
        CLOSED = "closed"

    customer_email = models.EmailField()
    order_id = models.BigIntegerField(null=True, blank=True)
    subject = models.CharField(max_length=200)
    body = models.TextField()
    status = models.CharField(max_length=16, choices=Status.choices, default=Status.OPEN)
    assignee = models.ForeignKey(settings.AUTH_USER_MODEL, null=True, on_delete=models.SET_NULL)
    created_at = models.DateTimeField(auto_now_add=True)

    def as_dict(self) -> dict:
        return {"id": self.pk, "subject": self.subject, "status": self.status, "order_id": self.order_id}
