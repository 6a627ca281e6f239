"""Vendor SDKs the service's own code imports (`import Stripe from "stripe"`, passport strategies).

A shared manifest (a monorepo root `package.json`) says nothing about which service calls a
vendor (``sdks.py``); the import in a service's code does. Each import of a package of the npm
table of ``sdks.json`` is recorded at parse time; the linker makes one call per vendor, to the
vendor's name (a ``target_hint`` the pipeline classifies as external), at the first import,
unless the service's messages already reach that vendor.

Mail goes through nodemailer's well-known services (``createTransport({service: "gmail"})``,
often from a settings object in another file): in a service importing nodemailer, a ``service:``
naming one of them is a call to that vendor.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import TYPE_CHECKING, Any

from tree_sitter import Node

from orbitkb.analysis.vendors.manifests import covered_by_messages, npm_vendor, tables

from ..facts import RawCall

if TYPE_CHECKING:
    from .extractor import Extractor


def vendor_of(spec: str) -> str | None:
    """The vendor of an imported module: its package (`@scope/name` or `name`, before any subpath),
    or its scope when one vendor publishes every package of it (`@aws-sdk/*`)."""
    parts = spec.split("/")
    package = "/".join(parts[:2]) if spec.startswith("@") else parts[0]
    return npm_vendor(package) if spec not in tables()["npm"] else tables()["npm"][spec]


#: nodemailer's well-known service names (lower case) -> vendor, as named in vendors.json
MAIL_SERVICES = {
    "gmail": "Gmail",
    "googlemail": "Gmail",
    "sendgrid": "SendGrid",
    "mailgun": "Mailgun",
    "postmark": "Postmark",
    "mandrill": "Mailchimp",
    "ses": "AWS SES",
    "ses-us-east-1": "AWS SES",
    "ses-us-west-2": "AWS SES",
    "ses-eu-west-1": "AWS SES",
}
MAILER = "nodemailer"


def sdk_import(ex: Extractor, spec: str, node: Node) -> None:
    if spec == MAILER:
        ex.out["mailer"] = True
    if spec.startswith(".") or vendor_of(spec) is None:
        return
    ex.out.setdefault("sdk_imports", []).append([spec, node.start_point[0] + 1])


def mail_service(ex: Extractor, pair: Node) -> None:
    """``service: "Gmail"`` in an object literal: recorded; it counts where nodemailer is used."""
    key, value = pair.child_by_field_name("key"), pair.child_by_field_name("value")
    if key is None or value is None or key.text is None or key.text.decode().strip("'\"") != "service":
        return
    name = value.text.decode().strip("'\"`") if value.type in ("string", "template_string") and value.text else ""
    if name.lower() in MAIL_SERVICES:
        ex.out.setdefault("mail_services", []).append([name.lower(), pair.start_point[0] + 1])


def sdk_calls(files: Mapping[str, dict[str, Any]], providers: Iterable[str] = ()) -> list[RawCall]:
    """One call per vendor, at the first file (by path) and line importing its SDK; none for a
    vendor the service already reaches through its message channels (an SQS queue, an SNS topic)."""
    providers = set(providers)
    found: dict[str, RawCall] = {}
    for file in sorted(files):
        for spec, line in sorted(files[file].get("sdk_imports", []), key=lambda s: s[1]):
            vendor = vendor_of(spec)
            if vendor and vendor not in found and not covered_by_messages(vendor, providers):
                found[vendor] = RawCall("http", file, line, line, f"sdk:{spec}", target_hint=vendor)
    if any(data.get("mailer") for data in files.values()):
        for file in sorted(files):
            for name, line in sorted(files[file].get("mail_services", []), key=lambda s: s[1]):
                vendor = MAIL_SERVICES[name]
                if vendor not in found:
                    found[vendor] = RawCall("http", file, line, line, f"sdk:{MAILER}", target_hint=vendor)
    return [found[v] for v in sorted(found)]
