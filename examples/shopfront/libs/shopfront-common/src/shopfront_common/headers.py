"""Names of the headers every service forwards on outbound calls."""

REQUEST_ID = "X-Request-Id"
CUSTOMER_ID = "X-Customer-Id"
INTERNAL_TOKEN = "X-Internal-Token"

FORWARDED = (REQUEST_ID, CUSTOMER_ID)


def forward_headers(incoming: dict[str, str]) -> dict[str, str]:
    """Copy the tracing headers of an incoming request onto an outbound one."""
    return {name: incoming[name] for name in FORWARDED if name in incoming}
