"""Project-level views: health and the low-stock dashboard."""

import httpx
from django.contrib.auth.decorators import login_required
from django.http import JsonResponse
from django.views.decorators.http import require_GET


@require_GET
def healthz(request):
    """Liveness probe."""
    return JsonResponse({"status": "ok"})


@require_GET
@login_required
def low_stock(request):
    """SKUs that are nearly sold out, straight from the inventory service, for the morning report."""
    resp = httpx.get("http://inventory:8080/api/v1/inventory", params={"threshold": 3}, timeout=5.0)
    resp.raise_for_status()
    return JsonResponse({"items": resp.json()})
