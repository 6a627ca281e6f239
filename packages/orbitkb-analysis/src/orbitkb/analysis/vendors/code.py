"""Vendors a service's own code names, in every stack: the SDKs it imports and vendor hosts it spells.

A manifest says which SDKs a build pulls in; the code says which ones a service uses
(``import stripe``, ``import com.stripe.Stripe;``, ``import "github.com/stripe/stripe-go/v76"``,
``using Stripe;``, ``use Stripe\\StripeClient;``, ``Stripe::Charge.create``, ``use stripe::Client``).
Each parsed file is scanned once, with its parse and cached with it (``KEY``): import statements
are matched against ``code_imports`` in ``sdks.json`` (longest dotted prefix wins; a null row is a
prefix that is not a vendor call), and a string literal that is wholly a URL or host of a vendor
(``"https://api.stripe.com/v1"``, ``"smtp.sendgrid.net"``) in server-side code names that vendor
too — never a vendor's bare domain (a link to ``stripe.com``) nor a web page, CDN or console host
(``fonts.googleapis.com``, ``dashboard.stripe.com``). A C# fully qualified name needs no ``using``
(``new Stripe.CouponService()``) and counts as one. The linker then makes one call per vendor, at
the first file and line naming it (``calls``), from the service's own files, a library only it
reads, and the files of a library several services reference that its own code uses
(``used_shared``: C# types named, Java/Kotlin classes and Python modules imported). A managed broker's SDK (Service
Bus, SQS, Pub/Sub) names its vendor like any SDK, except where the service reaches it through such
a shared library and none of its channels runs on that broker (a setting picks the bus's
transport). Node/TS imports are read by its own parser (``node/sdk_imports.py``: ``require``
through variables), with the npm table.
"""

from __future__ import annotations

import hashlib
import json
import re
from collections.abc import Collection, Iterable, Iterator, Mapping, Sequence
from functools import cache
from typing import Any

from orbitkb.analysis.facts import RawCall, RawMessage
from orbitkb.analysis.python import libraries as pylibs
from orbitkb.analysis.vendors.manifests import covered_by_messages, tables
from orbitkb.domain.integrations import Vendor, find_vendor, host_of, vendors
from orbitkb.domain.model import ResourceType, ServiceCall
from orbitkb.domain.stacks import code_stacks

KEY = "vendor_refs"
#: the rules of ``scan`` and ``calls`` (the tables are digested apart): bump when what they keep changes
SCAN_VERSION = 7
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
    data = [SCAN_VERSION, tables()["code_imports"], tables()["go"], tables()["npm"], tables()["broker_providers"],
            [(v.name, v.hosts) for v in vendors()]]  # fmt: skip
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
        if language == "dotnet":  # a fully qualified name needs no using: ``new Stripe.CouponService()``
            for m in _qualified(language).finditer(text):
                line_start = text.rfind("\n", 0, m.start()) + 1
                if not _NOT_CODE.match(text, line_start, m.start()):
                    yield m.group(1), m.start(1)


_STATEMENTS = {"jvm": _JVM_IMPORT, "dotnet": _CS_USING, "rust": _RUST_USE}
#: the start of a line before a qualified name that is no use of it: a comment, a namespace or
#: using declaration (read as statements above)
_NOT_CODE = re.compile(r"[ \t]*(?://|/?\*|(?:(?:global|file)[ \t]+)?(?:namespace|using)\b)")


@cache
def _qualified(language: str) -> re.Pattern[str]:
    """A dotted name in code that starts with a root of the language's table and is followed by
    a member access, a call, a generic argument list or a block (``Stripe.StripeConfiguration.ApiKey``)."""
    roots = "|".join(re.escape(r) for r in _roots(language))
    return re.compile(r"(?<![\w.])((?:" + roots + r")(?:\.[A-Z]\w*)+)(?=[ \t]*[.(<{])")


@cache
def _roots(language: str) -> tuple[str, ...]:
    """The first segments of a language's table (``Stripe``, ``Aws``...)."""
    return tuple(sorted({k.split(".")[0] for k in tables()["code_imports"].get(language, {})}))


def is_page_host(host: str) -> bool:
    """A vendor's web page, CDN or console (``www.``, ``docs.``, ``fonts.``...), not its API."""
    return host.split(".", 1)[0] in tables()["code_imports"]["literal_hosts"]["page_labels"]


def _callable(vendor: Vendor | None) -> str | None:
    """A vendor's name, unless it is a message broker (SQS, Service Bus): a literal naming its host
    is a queue's address, the channel messaging reads."""
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
        # a managed broker's SDK names its vendor like any SDK; ``calls`` drops it where a shared
        # library reaches it and no channel of the service runs on that broker (``broker_providers``)
        known = find_vendor(v) if (v := vendor_of_import(language, name)) else None
        vendor = known.name if known is not None else None
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
    messages: Iterable[RawMessage], shared: Collection[str] = (),
) -> list[RawCall]:  # fmt: skip
    """One call per vendor the files ``paths`` name (first file by path, then line), to the vendor's
    name; none for a vendor the linker already reached by name (a Node SDK import), a vendor the
    service reaches through its message channels, a managed broker the service reaches through a
    library several services reference (``shared``: a file of it the service uses imports the
    broker's SDK) while no channel of the service runs on it (``broker_providers``: a setting picks
    the transport of a shared event bus, and the service's own ``using`` of the SDK only wires that
    bus), or an umbrella SDK (generic AWS) when a more specific vendor of its family is named. A
    broker's SDK the service's own code imports, with no shared library reaching it, names its
    vendor like any SDK, channels read or not."""
    hinted = {c.target_hint for c in existing if c.target_hint}
    providers = {m.provider for m in messages}
    brokers: Mapping[str, list[str]] = tables()["broker_providers"]
    switched = {  # brokers a shared bus reaches that no channel of the service runs on: switched off
        vendor
        for path in shared
        for vendor, _, _ in (parsed.get(path) or {}).get(KEY) or []
        if vendor in brokers and not providers & set(brokers[vendor])
    }
    found: dict[str, RawCall] = {}
    for path in sorted(paths):
        refs = (parsed.get(path) or {}).get(KEY) or []
        for vendor, name, line in sorted(refs, key=lambda r: (r[2], r[0])):
            if (
                vendor in found
                or vendor in hinted
                or vendor in switched
                or covered_by_messages(vendor, providers)
            ):
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


#: a type declaration and the rest of its header line (``class MailSender : IMailSender, IDisposable``)
_DECLARATION = re.compile(r"\b(?:class|interface|struct|record|enum|trait)[ \t]+([A-Za-z_]\w*)([^{;\n]*)")
_NAME = re.compile(r"[A-Za-z_]\w*")


def _declared(text: str) -> dict[str, set[str]]:
    """type name -> the names its header line mentions (bases, interfaces, generic constraints)."""
    out: dict[str, set[str]] = {}
    for m in _DECLARATION.finditer(text):
        out.setdefault(m.group(1), set()).update(_NAME.findall(m.group(2)))
    return out


def used_shared(
    candidates: Sequence[str], library: Sequence[str], own: Sequence[str], texts: Mapping[str, str],
    parsed: Mapping[str, Mapping[str, Any]] | None = None, root: str = ".",
) -> list[str]:  # fmt: skip
    """The files of ``candidates`` (library files several services read) that this service's own
    code uses: one of its own files names a type the library file declares, or a type of the library
    that the file's types implement (``class MailSender : IMailSender`` in the library, an injected
    ``IMailSender`` in the service). A library several services reference calls out for those that
    use the part that calls out. Read for C# (``<ProjectReference>`` libraries, whose texts the
    reader keeps), for Java/Kotlin from their parses (``parsed``: a shared Gradle or Maven module's
    class the service imports, ``_used_jvm``) and for Python (a shared module the service's own
    code imports from the import root above its folder ``root``: ``from common.mail import send``);
    other languages' shared files stay nobody's here (the Node linker keeps the library files a
    service imports by name itself)."""
    used = set(_used_csharp(candidates, library, own, texts))
    if parsed is not None:
        used |= set(_used_jvm(candidates, library, own, parsed))
        used |= set(_used_python(candidates, own, parsed, root))
    return [p for p in candidates if p in used]


def _used_python(
    candidates: Sequence[str], own: Sequence[str], parsed: Mapping[str, Mapping[str, Any]], root: str
) -> list[str]:
    """The Python files of ``candidates`` an own Python file imports directly (not through another
    shared module: a helper importing a mailer is no use of the mailer)."""
    modules = {p for p in candidates if p.endswith(".py")}
    mine = [p for p in own if p.endswith(".py")]
    if not modules or not mine:
        return []
    direct = set(mine)
    return pylibs.imported_files(
        mine, modules, lambda p: pylibs.refs_in(parsed.get(p) or {}) if p in direct else [], root
    )


#: the suffixes of JVM sources (the stacks registry's JVM row) whose parse may name their package,
#: imports and classes' supertypes
JVM_SUFFIXES = tuple(sorted(s for s, stack in code_stacks().items() if stack == "jvm-spring"))


def _used_jvm(
    candidates: Sequence[str],
    library: Sequence[str],
    own: Sequence[str],
    parsed: Mapping[str, Mapping[str, Any]],
) -> list[str]:
    """The JVM files of ``candidates`` one of whose classes (or a library type they extend or
    implement) an own file imports by name or by its package's wildcard (``import com.acme.mail.*``)."""

    def jvm(path: str) -> Mapping[str, Any] | None:
        data = parsed.get(path) if path.endswith(JVM_SUFFIXES) else None
        return data if data and isinstance(data.get("classes"), list) else None

    def declared(data: Mapping[str, Any]) -> set[str]:
        package = data.get("package") or ""
        return {
            f"{package}.{c['name']}" if package else c["name"]
            for c in data["classes"]
            if "." not in c.get("qname", "")
        }

    library_types = {t for p in library if (d := jvm(p)) is not None for t in declared(d)}
    imported: set[str] = set()
    for path in own:
        if (data := jvm(path)) is not None:
            imported.update(str(i) for i in data.get("imports") or ())
    if not imported:
        return []
    out = []
    for path in candidates:
        if (data := jvm(path)) is None:
            continue
        package, imports = data.get("package") or "", [str(i) for i in data.get("imports") or ()]
        names = declared(data)
        for cls in data["classes"]:
            for base in cls.get("supers") or ():
                simple = str(base[0]).split("<")[0].rsplit(".", 1)[-1]
                full = next((i for i in imports if i.endswith("." + simple)), f"{package}.{simple}")
                if full in library_types:
                    names.add(full)
        if any(n in imported or n.rsplit(".", 1)[0] + ".*" in imported for n in names):
            out.append(path)
    return out


def _used_csharp(
    candidates: Sequence[str], library: Sequence[str], own: Sequence[str], texts: Mapping[str, str]
) -> list[str]:
    """The C# files of ``candidates`` whose declared types (or the library types they implement)
    an own C# file names; a file of ``global using`` lines and no type (``GlobalUsings.cs``) imports
    for every file of its folder, so it is used where one of their types is."""
    declared = {p: _declared(texts[p]) for p in library if _kept(p, texts)}
    library_types = {name for types in declared.values() for name in types}
    own_texts = [texts[p] for p in own if _kept(p, texts)]
    out = []
    for path in candidates:
        if not _kept(path, texts):
            continue
        names = {
            n for name, header in _declared(texts[path]).items() for n in (name, *(header & library_types))
        }
        if not names and _GLOBAL_USING.search(texts[path]):
            folder = path.rsplit("/", 1)[0] + "/" if "/" in path else ""
            names = {n for p, types in declared.items() if p.startswith(folder) for n in types}
        if not names or not own_texts:
            continue
        pattern = re.compile(r"(?<![\w.])(?:" + "|".join(map(re.escape, sorted(names))) + r")\b")
        if any(pattern.search(text) for text in own_texts):
            out.append(path)
    return out


_GLOBAL_USING = re.compile(r"^[ \t]*global[ \t]+using\b", re.M)


def _kept(path: str, texts: Mapping[str, str]) -> bool:
    return path.endswith(".cs") and path in texts


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
