"""OpenShift default route hosts (`<route>-<namespace>.apps.<cluster domain>`) name the service the
route is named after, for a namespace of the deployment; any other domain name names nothing."""

from __future__ import annotations

import pytest

from orbitkb.analysis.resolution.matcher import ServiceIndex

INDEX = ServiceIndex(
    [("tea-web", ["tea-web"], [8080]), ("tea-store", [], []), ("web", [], [])],
    namespaces=["tea-house", "house"],
)


@pytest.mark.parametrize(
    ("host", "service"),
    [
        ("tea-web-tea-house.apps.ocp.example.com", "tea-web"),
        ("tea-store-house.apps.cluster.local", "tea-store"),
        ("web-tea-house.apps.example.org", "web"),
    ],
)
def test_route_hosts_of_known_namespaces(host: str, service: str) -> None:
    found = INDEX.match(host)
    assert found is not None and (found.service, found.how) == (service, "dns")


@pytest.mark.parametrize(
    "host",
    [
        "tea-web-garden.apps.ocp.example.com",  # namespace not deployed here
        "tea-web-tea-house.cloud.example.com",  # not an apps domain
        "tea-house.apps.example.com",  # nothing before the namespace
        "tea-web.example.com",
    ],
)
def test_other_domain_names_name_no_service(host: str) -> None:
    assert INDEX.match(host) is None
