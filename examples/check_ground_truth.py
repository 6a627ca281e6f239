"""Check examples/shopfront/ground_truth.json against the example code it describes.

Run: ``uv run python examples/check_ground_truth.py`` (exit 0 when everything holds).

It checks that every file:line exists and carries the record's token, that cross references
hold (services, callee APIs, consumers, smells), that docker-compose builds each service folder,
and — as a completeness net — that every line of the code that looks like a route, call, channel
or entity declaration is claimed by some record or explicitly ignored below with a reason.
"""

from __future__ import annotations

import json
import re
import sys
from collections import Counter
from pathlib import Path

import yaml

ROOT = Path(__file__).resolve().parent / "shopfront"
STACKS = {"python", "node-ts", "jvm-spring", "go"}
VIA = {"literal", "constant", "env:compose", "env:compose-env_file", "env:k8s", "config:application.yml",
       "config:gateway-route", "feign", "grpc:proto"}  # fmt: skip

# (file glob, regex, marker): lines that look like facts, in files containing marker (if any).
# Every hit must be claimed by a record or ignored below.
SCAN = [
    (
        "**/*.py",
        r"@\w+\.(get|post|put|patch|delete|route)\(|add_url_rule\(|^\s*path\(|(requests|httpx)\.(get|post|put|patch|delete)\(|"
        r"\b(stripe|orders_api)\.(get|post)\(|Stub\(|basic_publish|AIOKafkaConsumer\(",
        None,
    ),
    ("**/*.py", r"^class \w+\(", "__tablename__|models.Model"),
    (
        "**/*.js",
        r"\b(app|router)\.(get|post|put|patch|delete|use|route)\(|Api\.(get|post|put|delete)\(",
        None,
    ),
    (
        "**/*.ts",
        r"@(Get|Post|Put|Patch|Delete|EventPattern|MessagePattern)\(|this\.http\.\w+[<(]|\.emit\(",
        None,
    ),
    ("**/*.ts", r"^export class \w+ \{", "@Entity"),
    (
        "**/*.java",
        r"@(Get|Post|Put|Patch|Delete|Request)Mapping|@(Kafka|Rabbit)Listener|kafka\.send\(|convertAndSend\(|"
        r"getForObject\(|newBlockingStub\(",
        None,
    ),
    ("**/*.java", r"^public class \w+ \{", "@Entity|@Document"),
    (
        "**/*.kt",
        r"@(Get|Post|Put|Patch|Delete|Request)Mapping|@(Kafka|Rabbit)Listener|convertAndSend\(|\.uri\(",
        None,
    ),
    ("**/*.kt", r"^data class \w+\($", "@Document|@Entity"),
    (
        "**/*.go",
        r"\.(GET|POST|PUT|PATCH|DELETE)\(|\br\.(Get|Post|Put|Patch|Delete|Route)\(|http(Client)?\.(Get|Post)\(|"
        r"NewRequest|NewReader\(|WriteMessages\(|\.Consume\(",
        None,
    ),
    ("**/*.go", r"^type \w+ struct", "gorm"),
    ("**/*.proto", r"^\s*rpc ", None),
    ("gateway/**/application.yml", r"^\s+uri: ", None),
]
# (file, substring) -> why the line is not a fact of its own.
IGNORED = {
    ("catalog-service/app/db/models.py", "class Base(DeclarativeBase)"): "declarative base, no table",
    ("cart-service/src/app.js", "app.use(express.json())"): "middleware",
    ("cart-service/src/app.js", "app.use('/api', apiRoutes)"): "mount prefix, composed into the cart APIs",
    ("cart-service/src/app.js", "app.use((err"): "error middleware",
    ("cart-service/src/routes/index.js", "router.use('/cart'"): "mount prefix, composed into the cart APIs",
    ("backoffice/backoffice/urls.py", "include("): "include prefix",
    ("backoffice/backoffice/api_urls.py", "include("): "include prefix",
    (
        "orders-service/src/main/java/com/shopfront/orders/api/OrderController.java",
        "@RequestMapping(ApiPaths",
    ): "class prefix",
    (
        "orders-service/src/main/java/com/shopfront/orders/api/AdminOrderController.java",
        "@RequestMapping(path",
    ): "class prefix",
    (
        "shipping-service/src/main/kotlin/com/shopfront/shipping/web/ShipmentController.kt",
        '@RequestMapping("',
    ): "class prefix",
    (
        "shipping-service/src/main/kotlin/com/shopfront/shipping/domain/Shipment.kt",
        "data class TrackingEvent(",
    ): "embedded",
    ("inventory/internal/store/store.go", "type Store struct"): "data access type, no table",
    ("notifier/routes.go", 'r.Route("/api/notifications"'): "route prefix",
}


def fail(errors: list[str], msg: str) -> None:
    errors.append(msg)


def line_of(rel: str, line: int, errors: list[str], what: str) -> str | None:
    """The text of rel:line, or None (and an error) when it does not exist."""
    path = ROOT / rel
    if not path.is_file():
        fail(errors, f"{what}: missing file {rel}")
        return None
    lines = path.read_text(encoding="utf-8").splitlines()
    if not 1 <= line <= len(lines):
        fail(errors, f"{what}: {rel}:{line} out of range")
        return None
    return lines[line - 1]


def is_definition(text: str, name: str) -> bool:
    """Whether text defines function/method ``name`` (def, function, fun, func, or a method signature)."""
    n = re.escape(name)
    return bool(
        re.search(rf"^\s*(?:async\s+)?(?:def|function|fun)\s+{n}\b", text)
        or re.search(rf"^func\s+(?:\([^)]*\)\s*)?{n}\(", text)
        or re.search(rf"^\s*[\w<>\[\], ]*\b{n}\(", text)
        and not re.match(r"\s*(return|await|const|let|var)\b", text)
    )


def check_sites(gt: dict, errors: list[str]) -> set[tuple[str, int]]:
    claimed: set[tuple[str, int]] = set()
    for section in ("apis", "calls", "channels", "entities"):
        for rec in gt[section]:
            what = f"{section}[{rec.get('path') or rec.get('channel') or rec.get('name')}]"
            text = line_of(rec["file"], rec["line"], errors, what)
            if text is not None and rec["token"] not in text:
                fail(errors, f"{what}: {rec['file']}:{rec['line']} lacks {rec['token']!r}: {text.strip()!r}")
            claimed.add((rec["file"], rec["line"]))
            for alt in rec.get("alt_sites", []):
                alt_text = line_of(alt["file"], alt["line"], errors, what + " alt site")
                if alt_text is not None and alt["token"] not in alt_text:
                    fail(errors, f"{what}: alt site {alt['file']}:{alt['line']} lacks {alt['token']!r}")
                claimed.add((alt["file"], alt["line"]))
            if section == "apis":
                short = rec["handler"].rsplit(".", 1)[-1]
                htext = line_of(rec["handler_file"], rec["handler_line"], errors, what + " handler")
                if htext is not None and not is_definition(htext, short):
                    fail(
                        errors, f"{what}: handler {short} not at {rec['handler_file']}:{rec['handler_line']}"
                    )
            if section == "entities" and text is not None and rec["class_name"] not in text:
                fail(errors, f"{what}: class {rec['class_name']} not on its line")
    return claimed


def check_refs(gt: dict, errors: list[str]) -> None:
    names = {s["name"] for s in gt["services"]}
    for s in gt["services"]:
        if s["stack"] not in STACKS:
            fail(errors, f"service {s['name']}: bad stack {s['stack']}")
        readme = ROOT / s["root_dir"] / "README.md"
        if not readme.is_file() or not readme.read_text().split("\n\n")[1:]:
            fail(errors, f"service {s['name']}: README.md missing or without a first paragraph")
    for rec in gt["apis"]:
        if rec["service"] not in names:
            fail(errors, f"api {rec['path']}: unknown service {rec['service']}")
        if rec["kind"] == "http" and (
            not rec["path"].startswith("/") or (rec["path"] != "/" and rec["path"].endswith("/"))
        ):
            fail(errors, f"api {rec['path']}: path not normalized")
    keys = Counter((a["service"], a["method"], a["path"], a["handler"]) for a in gt["apis"])
    for key, n in keys.items():
        if n > 1:
            fail(errors, f"duplicate api {key}")
    apis = {(a["service"], a["method"], a["path"]) for a in gt["apis"]}
    for c in gt["calls"]:
        if c["from"] not in names or not (c["to"] in names or "." in c["to"]):
            fail(errors, f"call {c['file']}:{c['line']}: bad from/to {c['from']}->{c['to']}")
        for step in c["resolved_via"].split(">"):
            if step not in VIA:
                fail(errors, f"call {c['file']}:{c['line']}: unknown resolved_via step {step}")
        linkable = c["to"] in names and c["kind"] == "http" and c["path"] and "**" not in c["path"]
        if linkable and (c["to"], c["method"], c["path"]) not in apis:
            fail(errors, f"call {c['file']}:{c['line']}: no API {c['method']} {c['path']} in {c['to']}")
        if c["kind"] == "grpc":
            for rpc in c["grpc_methods"]:
                if (c["to"], "RPC", f"{c['grpc_service']}/{rpc}") not in apis:
                    fail(errors, f"call {c['file']}:{c['line']}: {c['to']} does not implement {rpc}")
    chans = {(m["service"], m["direction"], m["channel"], m["file"], m["line"]) for m in gt["channels"]}
    for a in gt["apis"]:
        if (
            a["kind"] == "message"
            and (a["service"], "consumes", a["channel"], a["file"], a["line"]) not in chans
        ):
            fail(errors, f"message api {a['path']}: no matching consumes channel record")
    for m in gt["channels"]:
        if m["service"] not in names or m["direction"] not in ("publishes", "consumes"):
            fail(errors, f"channel {m['channel']}: bad service/direction")
    check_smells(gt, names, errors)


def check_smells(gt: dict, names: set[str], errors: list[str]) -> None:
    edges = {(c["from"], c["to"]) for c in gt["calls"]}
    for smell in gt["expected_smells"]:
        svcs = smell["services"]
        if not set(svcs) <= names:
            fail(errors, f"smell {smell['kind']}: unknown services {svcs}")
        if smell["kind"] == "cycle" and not all((a, b) in edges for a, b in zip(svcs, svcs[1:] + svcs[:1])):
            fail(errors, f"cycle {svcs} is not in the calls")
        if smell["kind"] == "shared_database":
            owners = {
                e["service"]
                for e in gt["entities"]
                if (e["name"], e["engine"]) == (smell["table"], smell["engine"])
            }
            if owners != set(svcs):
                fail(errors, f"shared table {smell['table']} is persisted by {sorted(owners)}")
        if smell["kind"] == "duplicate_external_integration":
            callers = {c["from"] for c in gt["calls"] if c["to"] == smell["host"]}
            if callers != set(svcs):
                fail(errors, f"vendor {smell['host']} is called by {sorted(callers)}")


def check_compose(gt: dict, errors: list[str]) -> None:
    compose = yaml.safe_load((ROOT / "docker-compose.yml").read_text())["services"]
    for s in gt["services"]:
        build = (compose.get(s["name"]) or {}).get("build")
        if isinstance(build, dict):
            ctx = build.get("context", ".")
            folder = str(Path(build["dockerfile"]).parent) if ctx == "." and "dockerfile" in build else ctx
        else:
            folder = build
        if folder is None or Path(folder).as_posix().removeprefix("./") != s["root_dir"]:
            fail(errors, f"service {s['name']}: compose does not build {s['root_dir']} (got {folder})")
    for r in gt["resources"]:
        if "image" not in compose.get(r["name"], {}):
            fail(errors, f"resource {r['name']}: not an image in docker-compose.yml")
    for lib in gt["libraries"]:
        if not (ROOT / lib).is_dir() or any(lib == s["root_dir"] for s in gt["services"]):
            fail(errors, f"library {lib}: missing or listed as a service")
    for manifest in sorted((ROOT / "deploy" / "k8s").glob("*.yaml")):
        list(yaml.safe_load_all(manifest.read_text()))


def check_coverage(claimed: set[tuple[str, int]], errors: list[str]) -> None:
    used: set[tuple[str, str]] = set()
    for glob, pattern, marker in SCAN:
        regex = re.compile(pattern)
        for path in sorted(ROOT.glob(glob)):
            rel = path.relative_to(ROOT).as_posix()
            source = path.read_text(encoding="utf-8")
            if marker and not re.search(marker, source):
                continue
            for no, text in enumerate(source.splitlines(), 1):
                if not regex.search(text) or (rel, no) in claimed:
                    continue
                hits = {(f, sub) for f, sub in IGNORED if rel == f and sub in text}
                used |= hits
                if not hits:
                    fail(errors, f"unclaimed fact-like line {rel}:{no}: {text.strip()}")
    for stale in sorted(set(IGNORED) - used):
        fail(errors, f"stale IGNORED entry {stale}")


def main() -> int:
    gt = json.loads((ROOT / "ground_truth.json").read_text())
    errors: list[str] = []
    claimed = check_sites(gt, errors)
    check_refs(gt, errors)
    check_compose(gt, errors)
    check_coverage(claimed, errors)
    for e in errors:
        print("FAIL", e)
    counts = {k: len(gt[k]) for k in ("services", "apis", "calls", "channels", "entities")}
    print("ok" if not errors else f"{len(errors)} problem(s)", counts)
    return 1 if errors else 0


if __name__ == "__main__":
    sys.exit(main())
