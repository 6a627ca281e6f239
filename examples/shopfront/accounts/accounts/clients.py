"""The upstreams accounts talks to, built once per process."""

import os

from accounts.constants import STRIPE_API
from accounts.http_client import ServiceClient

stripe = ServiceClient(STRIPE_API, headers={"Authorization": f"Bearer {os.environ.get('STRIPE_SECRET_KEY', '')}"})
orders_api = ServiceClient(os.environ.get("ORDERS_URL", "http://localhost:8080"), timeout=5.0)
