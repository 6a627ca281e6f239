"""The real `orbitkb` command on the bundled example system."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest
import yaml

from .conftest import EXAMPLE, Cli, git


def test_index_json_summary(cli: Cli) -> None:
    out = cli.json("index", str(EXAMPLE), "--repository-name", "shopfront")
    assert len(out["services"]) == 10 and out["run"]["status"] == "ok"
    assert out["files_parsed"] > 50
    again = cli.json("index", str(EXAMPLE), "--repository-name", "shopfront")
    assert again["files_parsed"] == 0 and again["files_changed"] == 0, "unchanged files are never re-parsed"


def test_list_describe_status(indexed: Cli) -> None:
    services = indexed.json("list")["services"]
    assert {s["name"] for s in services} >= {"orders", "payments", "catalog", "inventory", "cart"}
    d = indexed.json("describe", "payments")
    assert d["stack"] == "node-ts" and d["framework"] == "nestjs"
    assert "orders" in d["called_by"]
    status = indexed.run("status").stdout
    assert "repository: shopfront" in status and "run#1" in status
    assert "60 APIs, 24 calls (19 to indexed services, 5 external, 0 unresolved)" in status
    assert "13 message sites, 17 entities, 5 infrastructure resources" in status
    assert "service: payments" in indexed.run("status", "payments").stdout


def test_unknown_service_is_a_clear_error(indexed: Cli) -> None:
    proc = indexed.run("describe", "paymnts", check=False)
    assert proc.returncode == 3
    assert "payments" in proc.stderr and "Traceback" not in proc.stderr
    assert len(proc.stderr.strip().splitlines()) == 1


@pytest.mark.parametrize("path,code", [("/definitely/not/here", 2), ("README-none.md", 2)])
def test_bad_paths(cli: Cli, path: str, code: int) -> None:
    proc = cli.run("index", path, check=False)
    assert proc.returncode == code and "Traceback" not in proc.stderr
    assert "error:" in proc.stderr


def test_a_file_is_not_a_folder(cli: Cli, tmp_path: Path) -> None:
    f = tmp_path / "f.py"
    f.write_text("x = 1\n")
    proc = cli.run("index", str(f), check=False)
    assert proc.returncode == 2 and "not a folder" in proc.stderr


def test_empty_folder_says_how_to_force_a_service(cli: Cli, tmp_path: Path) -> None:
    (tmp_path / "empty").mkdir()
    out = cli.run("index", str(tmp_path / "empty")).stdout
    assert "0 services" in out and "--service NAME --stack STACK" in out


def test_forced_service_on_a_library(cli: Cli, tmp_path: Path) -> None:
    lib = tmp_path / "lib"
    lib.mkdir()
    (lib / "util.py").write_text("def helper():\n    return 1\n")
    out = cli.json("index", str(lib), "--service", "toolkit", "--stack", "python")
    assert out["services"] == ["toolkit"]
    proc = cli.run("index", str(lib), "--service", "toolkit", check=False)
    assert proc.returncode == 2 and "--stack" in proc.stderr


def test_same_name_other_folder_is_refused(cli: Cli, tmp_path: Path) -> None:
    a, b = tmp_path / "a", tmp_path / "b"
    a.mkdir()
    b.mkdir()
    cli.run("index", str(a), "--repository-name", "same")
    proc = cli.run("index", str(b), "--repository-name", "same", check=False)
    assert proc.returncode == 5 and "--replace" in proc.stderr
    cli.run("index", str(b), "--repository-name", "same", "--replace")


def test_reindex_yields_identical_ids_and_facts(cli: Cli, tmp_path: Path) -> None:
    cli.run("index", str(EXAMPLE), "--repository-name", "shopfront")
    cli.run("export", "json", "--out", str(tmp_path / "one"))
    cli.run("index", str(EXAMPLE), "--repository-name", "shopfront")
    cli.run("export", "json", "--out", str(tmp_path / "two"))

    def facts(p: Path) -> list:
        data = json.loads((p / "knowledge.json").read_text())
        return data["services"]

    assert facts(tmp_path / "one") == facts(tmp_path / "two")


def test_exports(indexed: Cli, tmp_path: Path) -> None:
    for fmt in ("json", "md", "mermaid", "backstage"):
        indexed.run("export", fmt, "--out", str(tmp_path / fmt))
    data = json.loads((tmp_path / "json" / "knowledge.json").read_text())
    assert data["schema_version"] == 1 and len(data["services"]) == 10
    assert data["repositories"][0]["repository"]["name"] == "shopfront"
    index = (tmp_path / "md" / "index.md").read_text()
    assert "[payments](services/payments.md)" in index
    page = (tmp_path / "md" / "services" / "payments.md").read_text()
    assert "## APIs" in page and "/api/payments" in page and "## Calls" in page
    topo = (tmp_path / "mermaid" / "topology.mmd").read_text()
    assert_valid_flowchart(topo)
    assert re.search(r"class .*n_orders.* cycle", topo) and re.search(r"class .*n_payments.* cycle", topo)
    er = (tmp_path / "mermaid" / "orders" / "er.mmd").read_text()
    assert_valid_er(er)
    assert "not tracked" in er
    docs = [d for d in yaml.safe_load_all((tmp_path / "backstage" / "catalog-info.yaml").read_text()) if d]
    assert_valid_backstage(docs)
    comp = {d["metadata"]["name"]: d for d in docs if d["kind"] == "Component"}
    assert "component:payments" in comp["orders"]["spec"]["dependsOn"]
    assert "payments-http" in comp["orders"]["spec"]["consumesApis"]


def test_analyze_and_verify_against_git(cli: Cli, example_repo: Path) -> None:
    base = git(example_repo, "rev-parse", "HEAD")
    cli.run("index", str(example_repo), "--repository-name", "shop")
    surface = cli.json("analyze", "Refund a captured card payment from the back office")
    primary = [p["service"] for p in surface["primary"]]
    assert "payments" in primary or "backoffice" in primary
    run_id = surface["run_id"]
    (example_repo / "payments" / "src" / "payments" / "payments.service.ts").write_text("// changed\n")
    git(example_repo, "commit", "-qam", "refund change")
    v = cli.json("verify", str(run_id), "--repository", "shop", "--since", base, "--until", "HEAD")
    assert v["actual"] == ["payments"] and v["recall"] in (0.0, 1.0)
    assert isinstance(v["verification_id"], int) and v["verification_id"] == v["id"]
    assert "payments" in v["true_positives"] + v["false_negatives"]
    text = cli.run("verify", str(run_id), "--repository", "shop", "--since", base, "--record-feedback").stdout
    assert "feedback recorded" in text
    bad = cli.run("verify", str(run_id), "--repository", "shop", "--since", "--output=/tmp/pwned", check=False)
    assert bad.returncode == 2 and not Path("/tmp/pwned").exists()


def test_index_past_commit_equals_its_checkout(cli: Cli, example_repo: Path, tmp_path: Path) -> None:
    first = git(example_repo, "rev-parse", "HEAD")
    target = example_repo / "catalog-service" / "app" / "main.py"
    target.write_text(target.read_text() + "\n\n@app.get('/extra')\ndef extra():\n    return {}\n")
    git(example_repo, "commit", "-qam", "extra route")
    cli.run("index", str(example_repo), "--repository-name", "past", "--commit", first)
    cli.run("export", "json", "--out", str(tmp_path / "past"), "--repository", "past")
    checkout = tmp_path / "checkout"
    git(example_repo, "worktree", "add", "-q", str(checkout), first)
    cli.run("index", str(checkout), "--repository-name", "past", "--replace")
    cli.run("export", "json", "--out", str(tmp_path / "now"), "--repository", "past")

    def facts(p: Path) -> list:
        return json.loads((p / "knowledge.json").read_text())["services"]

    def strip(services: list) -> list:
        for s in services:  # evidence carries the commit only when indexed from git objects
            for ev in s["service"].get("evidence", []):
                ev["commit"] = None
            for kind in ("apis", "calls", "entities", "messages"):
                for item in s[kind]:
                    for ev in item.get("evidence", []):
                        ev["commit"] = None
        return services

    assert strip(facts(tmp_path / "past")) == strip(facts(tmp_path / "now"))
    assert all(a["path"] != "/extra" for s in facts(tmp_path / "past") for a in s["apis"])


def test_relationships_trace_smells(indexed: Cli) -> None:
    rel = indexed.json("relationships", "payments", "--direction", "in")
    assert {r["source_service"] for r in rel["relationships"]} >= {"orders", "backoffice"}
    flow = indexed.json("trace", "cart", "payments")
    assert flow["reachable"] and flow["path"][0]["from"] == "cart" and "to" in flow["path"][0]
    smells = indexed.json("smells")
    kinds = {(f["kind"], tuple(f["services"])) for f in smells["findings"]}
    assert ("cycle", ("orders", "payments")) in kinds
    assert ("shared_database", ("backoffice", "orders")) in kinds
    assert ("duplicate_external_integration", ("accounts", "payments")) in kinds


# --------------------------------------------------------------------------- validators

_NODE = r"[A-Za-z_][A-Za-z0-9_]*"
_FLOW_LINES = [
    re.compile(r"^%%.*$"),
    re.compile(r"^graph (TD|LR)$"),
    re.compile(rf'^  {_NODE}\["[^"]*"\]$'),
    re.compile(rf'^  {_NODE}\("[^"]*"\)$'),
    re.compile(rf"^  {_NODE} -->\|[A-Z_]+\| {_NODE}$"),
    re.compile(rf'^  {_NODE} -\. "[^"]*" \.-> {_NODE}$'),
    re.compile(r"^  classDef [a-z]+ [a-z-]+:[^ ]+$"),
    re.compile(rf"^  class {_NODE}(,{_NODE})* [a-z]+$"),
]


def assert_valid_flowchart(text: str) -> None:
    """A structural validator of the Mermaid flowchart subset orbitkb writes (the mermaid CLI needs
    a browser download, which these machines cannot do)."""
    declared: set[str] = set()
    for line in text.splitlines():
        assert any(p.match(line) for p in _FLOW_LINES), f"not valid Mermaid flowchart syntax: {line!r}"
        m = re.match(rf"^  ({_NODE})[\[(]", line)
        if m:
            declared.add(m.group(1))
    for line in text.splitlines():
        for ref in re.findall(rf"(?:^  |\| |\.-> )({_NODE})", line):
            if not line.startswith("  class"):
                assert ref in declared, f"edge to an undeclared node {ref}"


def assert_valid_er(text: str) -> None:
    lines = text.splitlines()
    assert "erDiagram" in lines
    depth = 0
    for line in lines:
        if line.startswith("%%") or line == "erDiagram":
            continue
        if re.match(r"^  [A-Za-z][A-Za-z0-9_-]* \{$", line):
            depth += 1
        elif line == "  }":
            depth -= 1
        else:
            assert depth == 1 and re.match(r"^    [A-Za-z0-9_]+ [A-Za-z][A-Za-z0-9_-]*( PK)?$", line), line
    assert depth == 0


BACKSTAGE_SCHEMA = {
    "type": "object",
    "required": ["apiVersion", "kind", "metadata", "spec"],
    "properties": {
        "apiVersion": {"const": "backstage.io/v1alpha1"},
        "kind": {"enum": ["Component", "API", "Resource", "System", "Domain", "Group", "User", "Location"]},
        "metadata": {"type": "object", "required": ["name"], "properties": {
            "name": {"type": "string", "maxLength": 63, "pattern": "^([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9]$"},
            "description": {"type": "string"}, "tags": {"type": "array", "items": {
                "type": "string", "pattern": "^[a-z0-9:+#]+(-[a-z0-9:+#]+)*$"}},
            "annotations": {"type": "object", "additionalProperties": {"type": "string"}}}},
        "spec": {"type": "object"},
    },
    "allOf": [
        {"if": {"properties": {"kind": {"const": "Component"}}},
         "then": {"properties": {"spec": {"required": ["type", "lifecycle", "owner"], "properties": {
             "providesApis": {"type": "array", "items": {"type": "string"}},
             "consumesApis": {"type": "array", "items": {"type": "string"}},
             "dependsOn": {"type": "array", "items": {"type": "string", "pattern": "^(component|resource):"}}}}}}},
        {"if": {"properties": {"kind": {"const": "API"}}},
         "then": {"properties": {"spec": {"required": ["type", "lifecycle", "owner", "definition"]}}}},
        {"if": {"properties": {"kind": {"const": "Resource"}}},
         "then": {"properties": {"spec": {"required": ["type", "owner"]}}}},
    ],
}


def assert_valid_backstage(docs: list) -> None:
    import jsonschema

    names = {(d["kind"], d["metadata"]["name"]) for d in docs}
    assert len(names) == len(docs), "entity names must be unique per kind"
    for d in docs:
        jsonschema.validate(d, BACKSTAGE_SCHEMA)
        for ref in d["spec"].get("providesApis", []) + d["spec"].get("consumesApis", []):
            assert ("API", ref) in names, f"dangling API reference {ref}"
        for ref in d["spec"].get("dependsOn", []):
            kind, _, name = ref.partition(":")
            assert (kind.capitalize(), name) in names, f"dangling reference {ref}"


def test_status_gaps_lists_vendored_and_ignored_folders(cli: Cli, tmp_path: Path) -> None:
    repo = tmp_path / "shop"
    files = {
        "requirements.txt": "flask\n",
        "app.py": "from flask import Flask\napp = Flask(__name__)\n\n@app.get('/health')\ndef health():\n    return 'ok'\n",
        "web/node_modules/left-pad/index.js": "module.exports = 1\n",
        "vendor/lib/util.py": "x = 1\n",
        "legacy/old.py": "y = 2\n",
        "notes.draft.py": "z = 3\n",
        ".orbitkbignore": "/legacy/\n*.draft.py\n",
    }
    for rel, text in files.items():
        (repo / rel).parent.mkdir(parents=True, exist_ok=True)
        (repo / rel).write_text(text)
    git(repo, "init", "-q")
    git(repo, "add", "-A")
    git(repo, "commit", "-qm", "init")
    for _ in range(2):  # the second run replays unchanged files from the stat cache
        cli.run("index", str(repo), "--repository-name", "shop")
        out = cli.run("status", "--gaps").stdout
        assert "skipped_vendored web/node_modules: vendored dependencies (node_modules); not indexed" in out
        assert "skipped_vendored vendor: vendored dependencies (vendor); not indexed" in out
        assert "legacy: excluded by .orbitkbignore rule `/legacy/`; not indexed" in out
        assert "notes.draft.py: excluded by .orbitkbignore rule `*.draft.py`; not indexed" in out
        assert "gaps by kind: ignored=2, skipped_vendored=2" in out
        assert ".git" not in out.replace(".gitignore", "")
