"""Calls to the payments service."""

import os

import requests
from shopfront_common.headers import INTERNAL_TOKEN

PAYMENTS_URL = os.getenv("PAYMENTS_URL", "http://payments:3000")
_TOKEN = os.getenv("INTERNAL_API_TOKEN", "")


def refund_payment(payment_id: str, amount_cents: int, reason: str) -> dict:
    """Ask payments to refund (part of) a captured payment; returns the payments record."""
    resp = requests.post(
        f"{PAYMENTS_URL}/api/payments/{payment_id}/refund",
        json={"amountCents": amount_cents, "reason": reason},
        headers={INTERNAL_TOKEN: _TOKEN},
        timeout=10,
    )
    resp.raise_for_status()
    return resp.json()
