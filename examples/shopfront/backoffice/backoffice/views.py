"""Project-level views."""

from django.http import JsonResponse
from django.views.decorators.http import require_GET


@require_GET
def healthz(request):
    """Liveness probe."""
    return JsonResponse({"status": "ok"})
