"""A Nest CLI monorepo: the root package.json starts one of its projects, and library projects hold
bootstrap helpers (a `listen()` in a shared setup function) that are no entry point of their own."""

from __future__ import annotations

from orbitkb.analysis.layout.manifests import nest_monorepo

ROOT_PACKAGE = '{"name": "harbor", "scripts": {"start": "nest start", "build": "nest build"}}'
NEST_CLI = """{
  "monorepo": true,
  "root": "apps/docks",
  "projects": {
    "docks": {"type": "application", "root": "apps/docks"},
    "cranes": {"type": "application", "root": "apps/cranes"},
    "kernel": {"type": "library", "root": "libs/kernel"}
  }
}"""
HELPER = "// @entry\nexport function serve(app) {}\n"


def _tree(nest_cli: str | None) -> dict[str, str]:
    files = {
        "package.json": ROOT_PACKAGE,
        "apps/docks/Dockerfile": "FROM node:20\n",
        "apps/docks/src/main.ts": "// @entry\n",
        "apps/cranes/Dockerfile": "FROM node:20\n",
        "apps/cranes/src/main.ts": "// @entry\n",
        "libs/kernel/src/serve.ts": HELPER,
    }
    if nest_cli is not None:
        files["nest-cli.json"] = nest_cli
    return files


def test_library_project_roots_of_a_monorepo_nest_cli() -> None:
    assert nest_monorepo(NEST_CLI) == ("libs/kernel",)
    assert nest_monorepo('{"monorepo": true, "projects": {}}') == ()


def test_a_single_project_nest_cli_or_broken_json_is_no_monorepo() -> None:
    assert nest_monorepo('{"collection": "@nestjs/schematics", "sourceRoot": "src"}') is None
    assert nest_monorepo('{"monorepo": true,') is None
    assert nest_monorepo(None) is None


def test_the_workspace_root_of_a_nest_monorepo_is_not_a_service(analyze):
    assert analyze(_tree(NEST_CLI)).names() == ["cranes", "docks"]


def test_without_nest_cli_the_root_start_script_still_makes_a_service(analyze):
    assert "cranes" in analyze(_tree(None)).names()
    assert len(analyze(_tree(None)).names()) == 3
