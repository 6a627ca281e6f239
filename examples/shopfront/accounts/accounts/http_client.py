"""A thin JSON-over-HTTP client: one base URL, a shared session, a timeout, tracing headers."""

import requests
from flask import has_request_context, request
from shopfront_common.headers import forward_headers


class ServiceClient:
    """Wraps requests for one upstream. Paths are appended to ``base_url`` verbatim."""

    def __init__(self, base_url: str, *, timeout: float = 3.0, headers: dict[str, str] | None = None) -> None:
        self.base_url = base_url.rstrip("/")
        self.timeout = timeout
        self.session = requests.Session()
        self.session.headers.update(headers or {})

    def _headers(self) -> dict[str, str]:
        return forward_headers(dict(request.headers)) if has_request_context() else {}

    def get(self, path: str, **params) -> dict:
        resp = self.session.get(self.base_url + path, params=params, headers=self._headers(), timeout=self.timeout)
        resp.raise_for_status()
        return resp.json()

    def post(self, path: str, *, data: dict | None = None, json: dict | None = None) -> dict:
        resp = self.session.post(
            self.base_url + path, data=data, json=json, headers=self._headers(), timeout=self.timeout
        )
        resp.raise_for_status()
        return resp.json()
