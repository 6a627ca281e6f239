"""Infrastructure images (databases, brokers, caches...) recognised from a data table."""

from __future__ import annotations

import json
from collections.abc import Mapping
from functools import cache
from importlib import resources

#: Images of reverse proxies and edge gateways (image name -> the server). One with its routing
#: configuration mounted from the repository (proxy_pass, ProxyPass, Envoy/Kong/Traefik routes) is a
#: gateway; pulled as is, with no configuration of its own, it is infrastructure, not a service.
PROXY_IMAGES: Mapping[str, str] = {
    "nginx": "nginx",
    "nginx-unprivileged": "nginx",
    "nginx-alpine": "nginx",
    "openresty": "nginx",
    "nginx-proxy": "nginx",
    "httpd": "apache-httpd",
    "envoy": "envoy",
    "kong": "kong",
    "kong-gateway": "kong",
    "traefik": "traefik",
    "haproxy": "haproxy",
    "caddy": "caddy",
    "apisix": "apisix",
    "tyk-gateway": "tyk",
    "krakend": "krakend",
}
#: Proxies that read their routes from the labels of the containers next to them.
LABEL_PROXY_IMAGES = frozenset({"traefik"})


@cache
def _table() -> dict[str, tuple[str, str]]:
    raw = json.loads(resources.files(__package__).joinpath("infra_images.json").read_text("utf-8"))
    return {k: (v[0], v[1]) for k, v in raw.items() if not k.startswith("_")}


def image_repo(image: str) -> str:
    """``docker.io/bitnami/postgresql:15@sha256:..`` -> ``bitnami/postgresql`` (lowercase)."""
    image = image.strip().lower().split("@", 1)[0]
    parts = image.split("/")
    if len(parts) > 1 and ("." in parts[0] or ":" in parts[0] or parts[0] == "localhost"):
        parts = parts[1:]  # a registry host
    last = parts[-1].split(":", 1)[0]
    return "/".join([*parts[:-1], last])


def image_name(image: str) -> str:
    """The last path segment without tag: what a service image is usually named after."""
    return image_repo(image).rsplit("/", 1)[-1]


def infra_of(image: str | None) -> tuple[str, str] | None:
    """(kind, engine) when ``image`` is infrastructure."""
    if not image or "${" in image:
        return None
    repo = image_repo(image)
    table = _table()
    return table.get(repo) or table.get(repo.rsplit("/", 1)[-1])


def is_proxy(image: str | None) -> bool:
    return bool(image) and image_name(image or "") in PROXY_IMAGES


def edge_of(image: str | None) -> tuple[str, str] | None:
    """(``"proxy"``, server) when ``image`` is a stock reverse proxy or edge gateway image."""
    server = PROXY_IMAGES.get(image_name(image)) if image and "${" not in image else None
    return ("proxy", server) if server else None


def is_label_proxy(image: str | None) -> bool:
    return bool(image) and image_name(image or "") in LABEL_PROXY_IMAGES
