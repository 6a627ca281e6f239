"""Vendors a service's configuration names: a vendor's host in a value, a vendor's credential key.

A service often reaches a vendor through a plain HTTP client or a mail transport whose address
lives only in configuration (``spring.mail.host: smtp.gmail.com``, ``SLACK_WEBHOOK=https://hooks.
slack.com/...``), or through an SDK pulled in by a shared manifest while the service's own
environment holds the vendor's secret (``STRIPE_SECRET_KEY``, ``TWILIO_AUTH_TOKEN``). Both are
data: hosts come from the domain's vendor list, key prefixes from ``config_keys`` in ``sdks.json``.
A credential key alone is no use of the vendor (``aws.access.key_id`` in a service that never loads
an AWS SDK): it counts only where a manifest of the service, its own or one it shares with others,
declares that vendor's SDK.
A key counts only when one of its words is a credential word (``key``, ``secret``, ``token``,
``dsn``, ``webhook``...): ``STRIPE_CURRENCY`` alone says nothing about a call. A credential key
left empty (``AWS_ACCESS_KEY_ID=``, the boilerplate a framework's env template lists for every
app) or only passed through from an unset variable (``AzureStorageAccountKey=${STORAGE_KEY}``,
an optional feature the deployer may switch on), and anything a test configuration sets
(``docker-compose.tests.yml``), say nothing either.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Mapping

from attrs import frozen

from orbitkb.analysis.config.model import ConfigValue
from orbitkb.analysis.vendors.code import is_page_host, vendor_of_scheme
from orbitkb.analysis.vendors.manifests import tables
from orbitkb.domain.integrations import find_vendor, host_of

HOST_NOTE = "configured host "
KEY_NOTE = "configured credential "

_URL = re.compile(r"^[a-z][a-z0-9+.-]*://[^\s/]+", re.I)
_HOSTNAME = re.compile(r"^(?:[a-z0-9-]+\.)+[a-z]{2,}(?::\d+)?/?$", re.I)
_TEST_FILE = re.compile(r"(?:^|[-_.])(?:test|tests|spec|e2e)(?:[-_.]|$)", re.I)
_EMPTY = frozenset(("", "null", "none", "nil", "~", "''", '""'))
_PASS_THROUGH = re.compile(r"\$\{[A-Za-z_][\w.]*(?::-?)?\}|\$[A-Za-z_]\w*")
_WORD = re.compile(r"[A-Z]?[a-z0-9]+|[A-Z0-9]+(?![a-z])")


@frozen
class ConfiguredVendor:
    vendor: str
    key: str
    why: str  # HOST_NOTE or KEY_NOTE
    file: str
    line: int


def _words(key: str) -> list[str]:
    """``STRIPE_SECRET_KEY``, ``stripe.secret-key``, ``Stripe:SecretKey`` -> stripe, secret, key."""
    return [w.lower() for part in re.split(r"[^A-Za-z0-9]+", key) for w in _WORD.findall(part)]


def vendor_of_value(value: str) -> str | None:
    """The vendor whose host a configured value names: a URL or a bare host name, never an e-mail
    address (``no-reply@gmail.com`` is a sender, not a call), nor a vendor's web page (an OAuth scope
    ``https://www.googleapis.com/auth/userinfo.email`` names a permission)."""
    text = value.strip().strip("\"'")
    if by_scheme := vendor_of_scheme(text):
        return by_scheme  # a storage URI: gs://bucket, s3://bucket
    if not (_URL.match(text) or _HOSTNAME.match(text)) or is_page_host(host_of(text)):
        return None
    vendor = find_vendor(text)
    return vendor.name if vendor is not None else None


def vendor_of_key(key: str, table: Mapping[str, str] | None = None) -> str | None:
    """The vendor whose credential a key holds: its leading words are a prefix of ``config_keys``
    and a later word is a credential word."""
    keys: Mapping[str, str] = table if table is not None else tables()["config_keys"]["prefixes"]
    words = _words(key)
    credentials = set(tables()["config_keys"]["credential_words"])
    for size in (3, 2, 1):
        prefix = "_".join(words[:size])
        if len(words) > size and prefix in keys and credentials & set(words[size:]):
            return keys[prefix]
    return None


def _is_empty(value: str) -> bool:
    return _PASS_THROUGH.sub("", value).strip().lower() in _EMPTY


def configured_vendors(values: Iterable[ConfigValue]) -> list[ConfiguredVendor]:
    """Every vendor the given configuration values name, first evidence per (vendor, reason)."""
    out: dict[tuple[str, str], ConfiguredVendor] = {}
    for v in sorted(values, key=lambda v: (v.file, v.line, v.key)):
        if _TEST_FILE.search(v.file.rsplit("/", 1)[-1]):
            continue
        by_host = vendor_of_value(v.value)
        if by_host is not None:
            out.setdefault((by_host, HOST_NOTE), ConfiguredVendor(by_host, v.key, HOST_NOTE, v.file, v.line))
        by_key = None if _is_empty(v.value) else vendor_of_key(v.key)
        if by_key is not None:
            out.setdefault((by_key, KEY_NOTE), ConfiguredVendor(by_key, v.key, KEY_NOTE, v.file, v.line))
    return sorted(out.values(), key=lambda c: (c.vendor, c.why != HOST_NOTE, c.file, c.line))


def backed_by_sdks(found: Iterable[ConfiguredVendor], sdk_vendors: Iterable[str]) -> list[ConfiguredVendor]:
    """Hosts as found; credential keys only for vendors an SDK of ``sdk_vendors`` talks to (the
    generic ``AWS`` credential for any AWS service's SDK)."""
    vendors = set(sdk_vendors)
    aws = any(v.startswith("AWS") for v in vendors)
    return [c for c in found if c.why != KEY_NOTE or c.vendor in vendors or (c.vendor == "AWS" and aws)]
