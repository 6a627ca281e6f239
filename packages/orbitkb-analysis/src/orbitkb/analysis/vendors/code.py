"""Vendors a service's own code names, in every stack: the SDKs it imports and vendor hosts it spells.

A manifest says which SDKs a build pulls in; the code says which ones a service uses
(``import stripe``, ``import com.stripe.Stripe;``, ``import "github.com/stripe/stripe-go/v76"``,
``using Stripe;``, ``use Stripe\\StripeClient;``, ``Stripe::Charge.create``, ``use stripe::Client``).
Each parsed file is scanned once, with its parse and cached with it (``KEY``): import statements
are matched against ``code_imports`` in ``sdks.json`` (longest dotted prefix wins; a null row is a
prefix that is not a vendor call), and a string literal that is wholly a URL or host of a vendor
(``"https://api.stripe.com/v1"``, ``"smtp.sendgrid.net"``) in server-side code names that vendor
too — never a vendor's bare domain (a link to ``stripe.com``) nor a web page, CDN or console host
(``fonts.googleapis.com``, ``dashboard.stripe.com``). The linker then makes one call per vendor, at
the first file and line naming it (``calls``). Node/TS imports are read by its own parser
(``node/sdk_imports.py``: ``require`` through variables), with the npm table.
"""

from __future__ import annotations

import hashlib
import json
import re
from collections.abc import Iterable, Iterator, Mapping, Sequence
from functools import cache
from typing import Any

from orbitkb.analysis.facts import RawCall, RawMessage
from orbitkb.analysis.vendors.manifests import covered_by_messages, tables
from orbitkb.domain.integrations import Vendor, find_vendor, host_of, vendors
from orbitkb.domain.model import ResourceType, ServiceCall

KEY = "vendor_refs"
IMPORT_CLIENT = "sdk:"
HOST_CLIENT = "host:"

#: file suffix -> the import syntax (a table of ``code_imports``) it is written in
LANGUAGES = {
    ".py": "python", ".java": "jvm", ".kt": "jvm", ".kts": "jvm", ".scala": "jvm", ".groovy": "jvm",
    ".go": "go", ".cs": "dotnet", ".php": "php", ".rb": "ruby", ".rs": "rust",
}  # fmt: skip

# Each statement pattern starts with its keyword (a literal prefix the regex engine finds fast); a
# match counts only at the start of its line (``_LEAD``: indentation, ``global using``, ``pub use``).
_PY_FROM = re.compile(r"from[ \t]+([A-Za-z_][\w.]*)[ \t]+import[ \t]+(\([^)]*\)|[^\n#;]*)")
_PY_IMPORT = re.compile(r"import[ \t]+([A-Za-z_][^\n#;]*)")
_JVM_IMPORT = re.compile(r"import[ \t]+(?:static[ \t]+)?([A-Za-z_][\w.]*)")
_GO_BLOCK = re.compile(r"import[ \t]*\(([^)]*)\)")
_GO_ONE = re.compile(r'import[ \t]+(?:[\w.]+[ \t]+)?"([^"\n]+)"')
_GO_SPEC = re.compile(r'"([^"\n]+)"')
_CS_USING = re.compile(r"using[ \t]+(?:static[ \t]+)?(?:\w+[ \t]*=[ \t]*)?([A-Za-z_][\w.]*)[ \t]*;")
_PHP_USE = re.compile(r"use[ \t]+\\?([A-Za-z_][\w\\]*)")
_PHP_QUALIFIED = re.compile(r"\\([A-Z]\w*(?:\\[A-Za-z_]\w*)+)")
_RUBY_CONSTANT = re.compile(r"^[^#\n]*?(?<![\w:@$])([A-Z]\w*(?:::[A-Z]\w*)*)(?:::|\.[a-z_])", re.M)
_RUST_USE = re.compile(r"(?:use[ \t]+(?:::)?|extern[ \t]+crate[ \t]+)(\w+)")
_LEAD = re.compile(r"[ \t]*(?:(?:global|pub(?:\([^)]*\))?)[ \t]+)?")
_LITERAL = re.compile(
    r"""["'`]((?:[a-z][a-z0-9+.-]*://)?[A-Za-z0-9-]+(?:\.[A-Za-z0-9-]+)+(?::\d+)?(?:/[^\s"'`]*)?)["'`]"""
)
#: what surrounds a literal that is a key, not a value: a subscript (``log["logging.googleapis.com/
#: trace"] = ...``) before it, a ``:`` or ``=>`` after it (``{"api.stripe.com": ...}``)
_KEY_BEFORE = re.compile(r"[\w)\]][ \t]*\[[ \t]*$")
_KEY_AFTER = re.compile(r"[ \t]*(?::|=>)")
_VERSION_SEGMENT = re.compile(r"/v\d+(?=/|$)")
#: the text before a literal that makes it the fallback of a setting (``env('MAILGUN_ENDPOINT',
#: 'api.mailgun.net')``, ``os.getenv("X", "...")``): a framework template's default, not a call
_SETTING_DEFAULT = re.compile(
    r"""(?:env|environ|getenv|getproperty|config)\w*(?:\.\w+)?\s*[(\[]\s*["'][^"'\n]*["']\s*,\s*$""", re.I
)


@cache
def _storage_uri() -> re.Pattern[str]:
    """A string literal that is wholly a storage URI of a scheme of ``literal_hosts.schemes``."""
    schemes = "|".join(re.escape(s) for s in sorted(tables()["code_imports"]["literal_hosts"]["schemes"]))
    return re.compile(r"""["'`]((?:""" + schemes + r""")://[^\s"'`]+)["'`]""", re.I)


@cache
def _domains() -> frozenset[str]:
    """The last two labels of every vendor host (``stripe.com``, ``amazonaws.com``): a host outside
    them names no vendor, known without walking the vendor list."""
    return frozenset(".".join(h.split(".")[-2:]) for v in vendors() for h in v.hosts if "." in h)


@cache
def version() -> str:
    """Part of the parse and link cache keys: a digest of every table the scans read (the npm table
    too: the Node parser records the imports it names)."""
    data = [tables()["code_imports"], tables()["go"], tables()["npm"], [(v.name, v.hosts) for v in vendors()]]
    return "vc-" + hashlib.sha256(json.dumps(data, sort_keys=True).encode()).hexdigest()[:10]


def _lookup(table: Mapping[str, str | None], name: str, sep: str = ".") -> tuple[str | None, bool]:
    """(vendor, known) of the longest prefix of ``name`` (by ``sep`` segments) that the table has."""
    parts = name.split(sep)
    for size in range(len(parts), 0, -1):
        key = sep.join(parts[:size])
        if key in table:
            return table[key], True
    return None, False


def vendor_of_import(language: str, name: str) -> str | None:
    """The vendor an imported module, package or namespace belongs to (None: not a vendor SDK)."""
    own: Mapping[str, str | None] = tables()["code_imports"].get(language, {})
    if language != "go":
        return _lookup(own, name.replace("\\", ".").replace("::", ".").strip("."))[0]
    path = _VERSION_SEGMENT.sub("", name)
    vendor, known = _lookup(own, path, "/")
    return vendor if known else _lookup(tables()["go"], path, "/")[0]


def _line(text: str, pos: int) -> int:
    return text.count("\n", 0, pos) + 1


def _statements(pattern: re.Pattern[str], text: str) -> Iterator[re.Match[str]]:
    """The matches of a statement pattern that begin their line."""
    for m in pattern.finditer(text):
        if _LEAD.fullmatch(text, text.rfind("\n", 0, m.start()) + 1, m.start()):
            yield m


def _imports(language: str, text: str) -> Iterator[tuple[str, int]]:
    """(imported name, position) of every import statement of one file."""
    if language == "python":
        for m in _statements(_PY_FROM, text):
            if not m.group(1).startswith("."):
                yield m.group(1), m.start(1)
                for part in m.group(2).strip("() \t\n").split(","):
                    yield f"{m.group(1)}.{part.split(' as ')[0].strip()}", m.start(1)
        for m in _statements(_PY_IMPORT, text):
            for part in m.group(1).split(","):
                yield part.split(" as ")[0].strip(), m.start(1)
    elif language == "go":
        for m in _statements(_GO_BLOCK, text):
            yield from ((s.group(1), m.start(1) + s.start(1)) for s in _GO_SPEC.finditer(m.group(1)))
        yield from ((m.group(1), m.start(1)) for m in _statements(_GO_ONE, text))
    elif language == "php":
        yield from ((m.group(1), m.start(1)) for m in _statements(_PHP_USE, text))
        for m in _PHP_QUALIFIED.finditer(text):
            if m.start() == 0 or not (text[m.start() - 1].isalnum() or text[m.start() - 1] in "_\\$"):
                yield m.group(1), m.start(1)
    elif language == "ruby":
        if any(root in text for root in _roots("ruby")):  # most files name no vendor constant at all
            yield from ((m.group(1), m.start(1)) for m in _RUBY_CONSTANT.finditer(text))
    elif language in _STATEMENTS:
        yield from ((m.group(1), m.start(1)) for m in _statements(_STATEMENTS[language], text))


_STATEMENTS = {"jvm": _JVM_IMPORT, "dotnet": _CS_USING, "rust": _RUST_USE}


@cache
def _roots(language: str) -> tuple[str, ...]:
    """The first segments of a language's table (``Stripe``, ``Aws``...)."""
    return tuple(sorted({k.split(".")[0] for k in tables()["code_imports"].get(language, {})}))


def is_page_host(host: str) -> bool:
    """A vendor's web page, CDN or console (``www.``, ``docs.``, ``fonts.``...), not its API."""
    return host.split(".", 1)[0] in tables()["code_imports"]["literal_hosts"]["page_labels"]


def _callable(vendor: Vendor | None) -> str | None:
    """A vendor's name, unless it is a message broker (SQS, Service Bus): its use is messaging."""
    return vendor.name if vendor is not None and vendor.resource_type is not ResourceType.QUEUE else None


def vendor_of_scheme(text: str) -> str | None:
    """The storage vendor a URI's scheme names (``gs://bucket/key``, ``s3://bucket``)."""
    scheme, sep, rest = text.partition("://")
    schemes: Mapping[str, str] = tables()["code_imports"]["literal_hosts"]["schemes"]
    return schemes.get(scheme.lower()) if sep and rest.strip("/") else None


def vendor_of_literal(literal: str) -> str | None:
    """The vendor a string literal that is wholly a URL or host calls: an API host (a subdomain of
    a vendor's domain whose first label is not a page, CDN or console), never a bare domain; or a
    storage URI (``gs://bucket/key``)."""
    if by_scheme := vendor_of_scheme(literal):
        return by_scheme
    host = host_of(literal)
    labels = host.split(".")
    if len(labels) < 3 or ".".join(labels[-2:]) not in _domains() or is_page_host(host):
        return None
    return _callable(find_vendor(literal))


def scan(path: str, text: str) -> list[list[Any]]:
    """``[vendor, name, line]`` for the first import and the first literal naming each vendor in
    one file (a name is an import; a literal's name starts with ``HOST_CLIENT``); [] for files of
    other languages."""
    suffix = "." + path.rsplit(".", 1)[-1].lower() if "." in path.rsplit("/", 1)[-1] else ""
    language = LANGUAGES.get(suffix)
    if language is None:
        return []
    found: dict[tuple[str, bool], list[Any]] = {}
    for name, pos in _imports(language, text):
        vendor = _callable(find_vendor(v)) if (v := vendor_of_import(language, name)) else None
        if vendor is not None and (vendor, False) not in found:
            found[(vendor, False)] = [vendor, name, _line(text, pos)]
    if suffix in tables()["code_imports"]["literal_hosts"]["suffixes"]:
        for m in (*_LITERAL.finditer(text), *_storage_uri().finditer(text)):
            vendor = vendor_of_literal(m.group(1))
            if vendor is None or (vendor, True) in found:
                continue
            before = text[text.rfind("\n", 0, m.start()) + 1 : m.start()]
            if not (
                _SETTING_DEFAULT.search(before)
                or _KEY_BEFORE.search(before)
                or _KEY_AFTER.match(text, m.end())
            ):
                found[(vendor, True)] = [vendor, HOST_CLIENT + host_of(m.group(1)), _line(text, m.start(1))]
    return sorted(found.values(), key=lambda r: (r[2], r[0], r[1]))


def calls(
    parsed: Mapping[str, Mapping[str, Any]], paths: Sequence[str], existing: Iterable[RawCall],
    messages: Iterable[RawMessage],
) -> list[RawCall]:  # fmt: skip
    """One call per vendor the files ``paths`` name (first file by path, then line), to the vendor's
    name; none for a vendor the linker already reached by name (a Node SDK import), a vendor the
    service reaches through its message channels, or an umbrella SDK (generic AWS) when a more
    specific vendor of its family is named."""
    hinted = {c.target_hint for c in existing if c.target_hint}
    providers = {m.provider for m in messages}
    found: dict[str, RawCall] = {}
    for path in sorted(paths):
        refs = (parsed.get(path) or {}).get(KEY) or []
        for vendor, name, line in sorted(refs, key=lambda r: (r[2], r[0])):
            if vendor in found or vendor in hinted or covered_by_messages(vendor, providers):
                continue
            client = name if name.startswith(HOST_CLIENT) else IMPORT_CLIENT + name
            found[vendor] = RawCall("http", path, line, line, client, target_hint=vendor)
    umbrellas: Mapping[str, str] = tables()["code_imports"]["umbrellas"]
    named = set(found) | hinted
    return [
        found[v]
        for v in sorted(found)
        if not (v in umbrellas and any(o != v and o.startswith(umbrellas[v]) for o in named))
    ]


def never_imported(ecosystem: str | None, package: str, code: Iterable[str]) -> bool:
    """A declared SDK the service never uses: its ecosystem's packages work only once imported
    (``must_import``: PyPI, npm, Go modules), the package is no launcher (``ddtrace-run``), and the
    service has code of that language — whose imports, read, named no such vendor."""
    suffixes = tables()["code_imports"]["must_import"].get(ecosystem or "")
    if not suffixes or package in tables()["code_imports"]["launchers"]:
        return False
    return any(path.lower().endswith(tuple(suffixes)) for path in code)


def without_echoes(calls: Sequence[ServiceCall]) -> list[ServiceCall]:
    """``calls`` without the ones made to a vendor by name (an SDK import, a host literal) when
    another call of the service reaches that vendor's host: the call site says more."""
    by_host = {v.name for v in (find_vendor(c.target) for c in calls if "." in c.target) if v is not None}
    return [c for c in calls if "." in c.target or c.target not in by_host]
