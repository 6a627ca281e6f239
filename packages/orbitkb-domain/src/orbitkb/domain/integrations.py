"""Internal vs external: classify a call target the way the reference system does, with the
vendor list as data (``vendors.json``). Precedence: an indexed service (ground truth) > a known
vendor > a name that follows the system's naming convention (unmapped internal) > a public host
no vendor row names (a third party, named by its registrable domain) > unknown."""

from __future__ import annotations

import json
import re
from functools import lru_cache
from importlib import resources

from attrs import frozen

from orbitkb.domain.model import ResourceType, TargetKind


@frozen
class Vendor:
    name: str
    hosts: tuple[str, ...]
    resource_type: ResourceType
    category: str


@lru_cache(maxsize=1)
def vendors() -> tuple[Vendor, ...]:
    raw = json.loads(resources.files("orbitkb.domain").joinpath("vendors.json").read_text("utf-8"))
    return tuple(
        Vendor(v["vendor"], tuple(v["hosts"]), ResourceType(v["resource_type"]), v["category"])
        for v in raw["vendors"]
    )


_AWS = re.compile(r"(?:^|\.)(s3|sqs|sns|dynamodb|lambda|ses|email|bedrock-runtime|bedrock|cognito-idp|secretsmanager)[.-].*amazonaws\.com$")


def host_of(target: str) -> str:
    t = target.strip().lower()
    t = re.sub(r"^[a-z][a-z0-9+.-]*://", "", t)
    t = t.split("/", 1)[0].split("@")[-1]
    return t.split(":", 1)[0]


def find_vendor(target: str) -> Vendor | None:
    host = host_of(target)
    if not host or "." not in host:
        by_name = {v.name.lower(): v for v in vendors()}
        return by_name.get(target.strip().lower())
    m = _AWS.search(host)
    if m:
        service = {"email": "ses"}.get(m.group(1), m.group(1))
        for v in vendors():
            if service in v.hosts and v.name.startswith("AWS"):
                return v
    matches = [
        (len(h), -i, v)
        for i, v in enumerate(vendors())
        for h in v.hosts
        if "." in h and (host == h or host.endswith("." + h))
    ]
    return max(matches, key=lambda m: m[:2])[2] if matches else None  # the most specific host wins


_UNRESOLVED = re.compile(r"[${}()<>*]|^\s*$")


def is_unresolved_target(target: str | None) -> bool:
    """A call target static analysis could not resolve — a relative URL, an unset ``${VAR}``, an
    expression (``{string}``) — or nothing at all: a gap to report, never a vendor or a node."""
    if not target or target.strip().lower() in ("unknown", "(relative)", "?"):
        return True
    return bool(_UNRESOLVED.search(host_of(target)))


_INTERNAL_SHAPE = re.compile(r"^[a-z][a-z0-9-]*(-service|-svc|-api|-server|-worker|-gateway)$")
_CLUSTER_DNS = re.compile(r"\.svc(\.cluster\.local)?$|\.internal$|\.local$")


@lru_cache(maxsize=1)
def _public_hosts() -> dict[str, frozenset[str]]:
    raw = json.loads(resources.files("orbitkb.domain").joinpath("vendors.json").read_text("utf-8"))
    return {k: frozenset(v) for k, v in raw["public_hosts"].items() if not k.startswith("_")}


_LABEL = re.compile(r"^[a-z0-9](?:[a-z0-9-]*[a-z0-9])?$")


def public_domain(target: str) -> str | None:
    """The registrable domain of a call target's host when it is a public Internet name
    (``https://api.fxrates.io/v2`` -> ``fxrates.io``, ``geo.acme.co.uk`` -> ``acme.co.uk``); None
    for an unresolved target, an address, a single label, a private or reserved name (``.local``,
    ``.internal``, ``.test``, ``example.com``) or a top-level label that is no public one."""
    if is_unresolved_target(target):
        return None
    labels = host_of(target).split(".")
    table = _public_hosts()
    top = labels[-1]
    country = len(top) == 2 and top.isalpha() and top not in table["not_country_codes"]
    if len(labels) < 2 or not all(_LABEL.match(x) for x in labels) or not (country or top in table["generic"]):
        return None
    size = 3 if country and len(labels) >= 3 and labels[-2] in table["second_levels"] else 2
    domain = ".".join(labels[-size:])
    if len(labels) < size or labels[-size].isdigit() or domain in table["reserved"]:
        return None
    return domain


def classify_target(target: str) -> tuple[TargetKind, ResourceType, str | None]:
    """(target_kind, resource_type, vendor name) for a call target that is not an indexed service."""
    vendor = find_vendor(target)
    if vendor is not None:
        return TargetKind.EXTERNAL, vendor.resource_type, vendor.name
    host = host_of(target)
    if _INTERNAL_SHAPE.match(host) or _CLUSTER_DNS.search(host):
        return TargetKind.INTERNAL, ResourceType.NOT_APPLICABLE, None
    if host and "." not in host and re.match(r"^[a-z][a-z0-9_-]*$", host) and host not in {"localhost"}:
        # a bare single-label host ("payments:8080") is a name resolved by the platform's DNS: internal
        return TargetKind.INTERNAL, ResourceType.NOT_APPLICABLE, None
    if (domain := public_domain(target)) is not None:
        return TargetKind.EXTERNAL, ResourceType.OTHER, domain
    return TargetKind.UNKNOWN, ResourceType.NOT_APPLICABLE, None
