"""Walking: pruning, .orbitkbignore, size cap, binary and encoding problems, symlinks, hashes."""

from __future__ import annotations

import hashlib

from orbitkb.analysis.reading.ignore import IgnoreRules
from orbitkb.domain.fakes import MemorySourceTree
from orbitkb.domain.ports import SourceEntry

APP = {
    "requirements.txt": "flask\n",
    "app.py": "# @entry\n# @api GET /health health\n",
}


def test_vendored_generated_and_cache_folders_are_never_read(analyze):
    files = dict(APP)
    files.update(
        {
            "node_modules/left-pad/index.js": "// @api GET /vendored x\n",
            "vendor/github.com/x/y.go": "// @api GET /vendored x\n",
            "target/classes/App.java": "// @api GET /vendored x\n",
            "build/lib/app.py": "# @api GET /vendored x\n",
            "dist/bundle.js": "// @api GET /vendored x\n",
            ".venv/lib/site.py": "# @api GET /vendored x\n",
            "venv/lib/site.py": "# @api GET /vendored x\n",
            "__pycache__/app.cpython-311.py": "# @api GET /vendored x\n",
            ".git/hooks/pre-commit.py": "# @api GET /vendored x\n",
            ".idea/workspace.py": "# @api GET /vendored x\n",
            "orders_pb2.py": "# @api GET /vendored x\n",
            "orders_pb2_grpc.py": "# @api GET /vendored x\n",
            "pkg/orders.pb.go": "// @api GET /vendored x\n",
            "pkg/orders_grpc.pb.go": "// @api GET /vendored x\n",
        }
    )
    run = analyze(files)
    assert [f.path for f in run.result.files] == ["app.py", "requirements.txt"]
    assert [a.path for a in run.service("shop").apis] == ["/health"]
    # each pruned folder is one gap at that folder (never .git), each generated file one gap;
    # a hidden folder no rule names is "hidden", not "vendored"
    assert run.gaps() == [
        (".idea", "skipped_hidden"),
        (".venv", "skipped_vendored"),
        ("__pycache__", "skipped_vendored"),
        ("build", "skipped_vendored"),
        ("dist", "skipped_vendored"),
        ("node_modules", "skipped_vendored"),
        ("orders_pb2.py", "skipped_generated"),
        ("orders_pb2_grpc.py", "skipped_generated"),
        ("pkg/orders.pb.go", "skipped_generated"),
        ("pkg/orders_grpc.pb.go", "skipped_generated"),
        ("target", "skipped_vendored"),
        ("vendor", "skipped_vendored"),
        ("venv", "skipped_vendored"),
    ]
    reasons = {g.path: g.reason for g in run.result.gaps}
    assert reasons["node_modules"] == "vendored dependencies (node_modules); not indexed"
    assert reasons[".venv"] == "virtual environment (.venv); not indexed"
    assert reasons[".idea"] == "hidden folder (.idea); not indexed"
    assert reasons["orders_pb2.py"] == "generated code (by its file name); not indexed"


def test_orbitkbignore_globs_anchors_folders_and_negation(analyze):
    files = dict(APP)
    files.update(
        {
            ".orbitkbignore": "# mine\n*.gen.py\n/legacy/\ndocs/**/*.py\nfixtures\n!keep.gen.py\n",
            "a.gen.py": "# @api GET /gen x\n",
            "keep.gen.py": "# @api GET /kept kept\n",
            "legacy/old.py": "# @api GET /legacy x\n",
            "sub/legacy/new.py": "# @api GET /sub-legacy y\n",
            "docs/a/b/snippet.py": "# @api GET /docs x\n",
            "src/fixtures/data.py": "# @api GET /fixtures x\n",
        }
    )
    run = analyze(files)
    paths = sorted(a.path for a in run.service("shop").apis)
    assert paths == ["/health", "/kept", "/sub-legacy"]
    assert ".orbitkbignore" not in [f.path for f in run.result.files]
    # one gap per match, at the highest matching folder or file, naming the rule
    assert run.gaps("ignored") == [
        ("a.gen.py", "ignored"),
        ("docs/a/b/snippet.py", "ignored"),
        ("legacy", "ignored"),
        ("src/fixtures", "ignored"),
    ]
    reasons = {g.path: g.reason for g in run.result.gaps}
    assert reasons["legacy"] == "excluded by .orbitkbignore rule `/legacy/`; not indexed"
    assert reasons["a.gen.py"] == "excluded by .orbitkbignore rule `*.gen.py`; not indexed"


def test_skipped_gaps_are_bounded(analyze):
    files = dict(APP)
    files.update({f"libs/m{i:03d}/node_modules/x/index.js": "x\n" for i in range(230)})
    files.update({".orbitkbignore": "*.tmp.py\n", "a.tmp.py": "x\n", "z.tmp.py": "x\n"})
    run = analyze(files)
    skipped = [g for g in run.result.gaps if g.kind in ("skipped_vendored", "ignored", "skipped")]
    assert len(skipped) == 201
    listed = [g.path for g in skipped if g.kind != "skipped"]
    assert listed[0] == "a.tmp.py" and listed[-1] == "libs/m198/node_modules"  # the first 200 by path
    more = [g for g in skipped if g.kind == "skipped"]
    assert [(g.path, g.reason) for g in more] == [
        (".", "32 more skipped folders and files not listed (1 ignored, 31 skipped_vendored)")
    ]


def test_ignore_rules_unit():
    rules = IgnoreRules("build*/\n/top.txt\n**/deep/*.py\n*.log\n!important.log\n")
    assert rules.ignored("builds", is_dir=True)
    assert not rules.ignored("builds")  # folder-only rule
    assert rules.ignored("top.txt") and not rules.ignored("a/top.txt")
    assert rules.ignored("x/y/deep/z.py") and rules.ignored("deep/z.py")
    assert rules.ignored("a/b.log") and not rules.ignored("a/important.log")


def test_too_large_binary_invalid_utf8_are_gaps_and_nothing_crashes(analyze):
    files = dict(APP)
    files.update(
        {
            "big.py": "# @api GET /big x\n" + "x = 1\n" * 300_000,
            "blob.py": b"\x00\x01\x02binary",
            "logo.png": b"\x89PNG\x00\x00",
            "huge.png": b"\x00" * 2_000_000,
            "latin.py": "# @api GET /caf\xe9 cafe\n".encode("latin-1"),
        }
    )
    run = analyze(files)
    assert sorted(run.gaps()) == [
        ("big.py", "too_large"),
        ("blob.py", "binary"),
        ("latin.py", "invalid_utf8"),
    ]
    paths = sorted(a.path for a in run.service("shop").apis)
    assert paths == ["/caf\ufffd", "/health"]  # decoded with replacement, still parsed
    indexed = [f.path for f in run.result.files]
    assert (
        "logo.png" in indexed
        and "blob.py" in indexed
        and "big.py" not in indexed
        and "huge.png" not in indexed
    )


def test_size_cap_is_configurable(analyze):
    files = dict(APP)
    files["mid.py"] = "# @api GET /mid m\n" + "#" * 5000
    run = analyze(files, size_cap=1000)
    assert ("mid.py", "too_large") in run.gaps()


class SymlinkTree(MemorySourceTree):
    def list_files(self, prune=None):
        yield from super().list_files(prune)
        yield SourceEntry("etc-passwd.py", 0, "symlink_outside")


def test_symlinks_leaving_the_repository_are_gaps_never_read(analyze_tree):
    run = analyze_tree(SymlinkTree(APP))
    assert run.gaps() == [("etc-passwd.py", "symlink_outside")]


def test_indexed_files_carry_sha256_size_owner_and_language(analyze):
    files = {
        "docker-compose.yml": "services:\n  api:\n    build: ./api\n",
        "api/app.py": "# @entry\n",
        "api/requirements.txt": "fastapi\n",
        "README.md": "hello\n",
    }
    run = analyze(files)
    by_path = {f.path: f for f in run.result.files}
    assert by_path["api/app.py"].sha256 == hashlib.sha256(b"# @entry\n").hexdigest()
    assert by_path["api/app.py"].size == len(b"# @entry\n")
    assert by_path["api/app.py"].service_id == run.service("api").service.id
    assert by_path["api/app.py"].language == "python"
    assert by_path["README.md"].service_id is None
    assert run.service("api").files == ("api/app.py", "api/requirements.txt")


def test_test_files_are_hashed_but_not_parsed(analyze, stubs):
    files = dict(APP)
    files.update(
        {"tests/test_app.py": "# @api GET /t t\n", "app_test.go": "// x\n", "web/a.spec.ts": "// x\n"}
    )
    run = analyze(files, stubs=stubs)
    assert stubs[0].parse_calls == ["app.py"]
    assert "tests/test_app.py" in [f.path for f in run.result.files]


class _TreeWithALockedFolder:
    root = "/repo"
    commit = None

    def list_files(self, prune=None):  # type: ignore[no-untyped-def]
        return iter([SourceEntry("app.py", 4), SourceEntry("locked", 0, "unreadable")])

    def read_bytes(self, path: str) -> bytes:
        return b"x=1\n"


def test_a_folder_the_listing_cannot_open_is_a_gap():
    from orbitkb.analysis.reading.walk import Walker

    walker = Walker(_TreeWithALockedFolder(), "shop", {".py": "python"})
    assert [e.path for e in walker.entries()] == ["app.py"]
    assert [(g.path, g.kind, g.reason) for g in walker.gaps] == [
        ("locked", "unreadable", "this folder cannot be listed (permissions?); not indexed")
    ]
