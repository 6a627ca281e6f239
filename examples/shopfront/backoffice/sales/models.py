"""The orders table, written by the orders service and read here (unmanaged: no migrations)."""

from django.db import models


class Order(models.Model):
    id = models.BigIntegerField(primary_key=True)
    customer_id = models.BigIntegerField()
    status = models.CharField(max_length=32)
    total_cents = models.BigIntegerField()
    currency = models.CharField(max_length=3)
    payment_id = models.CharField(max_length=64, null=True)
    created_at = models.DateTimeField()

    class Meta:
        managed = False
        db_table = "orders"
