"""Python manifests: requirements*.txt, pyproject.toml ([project], dependency groups, Poetry, uv),
setup.py install_requires and Pipfile. Names are normalized as PyPI compares them."""

from __future__ import annotations

import re
import tomllib
from collections.abc import Mapping
from typing import Any

from orbitkb.analysis import paths
from orbitkb.analysis.technologies.found import DEV_NOTE, Found, clean_version, find_line, tables

_REQ = re.compile(r"\s*([A-Za-z0-9][A-Za-z0-9._\-]*)\s*(?:\[[^\]]*\])?\s*(.*)$")
_DEV_FILE = re.compile(r"(?:^|[-_.])(?:dev|test|tests|lint|docs|ci)(?:[-_.]|$)", re.I)


def normalize(name: str) -> str:
    return re.sub(r"[-_.]+", "-", name).lower()


def _requirement(req: str) -> tuple[str, str | None] | None:
    """(name, version) of a PEP 508 requirement; an exact pin keeps only the version."""
    match = _REQ.match(req.split(";", 1)[0].split(" #", 1)[0])
    if not match:
        return None
    spec = match.group(2).strip()
    if spec.startswith("@"):  # a direct URL reference
        return normalize(match.group(1)), None
    spec = spec.strip("()").replace(" ", "")
    if re.fullmatch(r"===?[^,<>=!~]+", spec):
        spec = spec.lstrip("=")
    return normalize(match.group(1)), clean_version(spec)


def _literal_line(text: str, raw: str, start: int = 0) -> int:
    return find_line(text, r"""["']""" + re.escape(raw) + r"""["']""", start) or 1


def _requirements_txt(path: str, text: str) -> list[Found]:
    note = DEV_NOTE if _DEV_FILE.search(paths.basename(path)[12:-4] or "-") else None
    out = []
    for number, line in enumerate(text.splitlines(), 1):
        stripped = line.strip()
        if not stripped or stripped.startswith(("#", "-")) or "://" in stripped.split("@", 1)[0]:
            continue
        req = _requirement(stripped)
        if req:
            out.append(Found("library", req[0], req[1], path, number, note))
    return out


def _table_key_line(text: str, header: str | None, key: str) -> int:
    start = 0
    if header:
        match = re.search(r"^[ \t]*\[" + re.escape(header) + r"\][ \t]*$", text, re.M)
        start = match.end() if match else 0
    pattern = r"""^[ \t]*["']?""" + re.escape(key) + r"""["']?[ \t]*="""
    return find_line(text, pattern, start, re.M | re.I) or 1


def _pep508_list(path: str, text: str, reqs: Any, note: str | None) -> list[Found]:
    out = []
    for raw in reqs if isinstance(reqs, list) else ():
        req = _requirement(raw) if isinstance(raw, str) else None
        if req:
            out.append(Found("library", req[0], req[1], path, _literal_line(text, raw), note))
    return out


def _poetry_table(path: str, text: str, header: str, deps: Any, note: str | None) -> list[Found]:
    out = []
    for name, spec in deps.items() if isinstance(deps, dict) else ():
        if str(name).lower() == "python":
            continue
        version = spec.get("version") if isinstance(spec, dict) else spec
        line = _table_key_line(text, header, str(name))
        out.append(Found("library", normalize(str(name)), clean_version(version), path, line, note))
    return out


def _table(data: Any, key: str) -> dict[str, Any]:
    value = data.get(key) if isinstance(data, dict) else None
    return value if isinstance(value, dict) else {}


def _group_note(group: str) -> str | None:
    return None if group == "main" else DEV_NOTE if group in ("dev", "test", "lint") else f"group {group}"


def _pyproject(path: str, text: str) -> list[Found]:
    data = tomllib.loads(text)
    project, tool = _table(data, "project"), _table(data, "tool")
    poetry = _table(tool, "poetry")
    out = _pep508_list(path, text, project.get("dependencies"), None)
    for extra, reqs in sorted(_table(project, "optional-dependencies").items()):
        out += _pep508_list(path, text, reqs, f"optional-dependencies.{extra}")
    for group, reqs in sorted(_table(data, "dependency-groups").items()):
        out += _pep508_list(path, text, reqs, _group_note(group))
    out += _pep508_list(path, text, _table(tool, "uv").get("dev-dependencies"), DEV_NOTE)
    out += _poetry_table(path, text, "tool.poetry.dependencies", poetry.get("dependencies"), None)
    out += _poetry_table(path, text, "tool.poetry.dev-dependencies", poetry.get("dev-dependencies"), DEV_NOTE)
    for group, body in sorted(_table(poetry, "group").items()):
        deps = _table(body, "dependencies")
        out += _poetry_table(path, text, f"tool.poetry.group.{group}.dependencies", deps, _group_note(group))
    python = project.get("requires-python")
    poetry_python = _table(poetry, "dependencies").get("python")
    if isinstance(python, str):
        out.append(Found("language", "python", clean_version(python), path, _literal_line(text, python)))
    elif isinstance(poetry_python, str):
        line = _table_key_line(text, "tool.poetry.dependencies", "python")
        out.append(Found("language", "python", clean_version(poetry_python), path, line))
    known = tables()["pyproject_tools"]
    for key in [k for k in sorted(tool) if k in known][:1]:
        line = find_line(text, r"^[ \t]*\[tool\." + re.escape(key) + r"[.\]]") or 1
        out.append(Found("build_tool", known[key], None, path, line))
    return out


def _setup_py(path: str, text: str) -> list[Found]:
    block = re.search(r"install_requires\s*=\s*\[([^\]]*)\]", text, re.S)
    if not block:
        return []
    out = []
    for match in re.finditer(r"""["']([^"']+)["']""", block.group(1)):
        req = _requirement(match.group(1))
        if req:
            line = text.count("\n", 0, block.start(1) + match.start()) + 1
            out.append(Found("library", req[0], req[1], path, line))
    return out


def _pipfile(path: str, text: str) -> list[Found]:
    data = tomllib.loads(text)
    out = []
    for section, note in (("packages", None), ("dev-packages", DEV_NOTE)):
        out += _poetry_table(path, text, section, data.get(section), note)
    requires = data.get("requires")
    if isinstance(requires, dict) and isinstance(requires.get("python_version"), str):
        line = _table_key_line(text, "requires", "python_version")
        out.append(Found("language", "python", clean_version(requires["python_version"]), path, line))
    return out


def read(path: str, text: str, texts: Mapping[str, str], kind: str) -> list[Found]:
    reader = {"requirements.txt": _requirements_txt, "pyproject.toml": _pyproject, "setup.py": _setup_py,
              "Pipfile": _pipfile}.get(kind)  # fmt: skip
    if reader is None:
        return []
    try:
        return reader(path, text)
    except (tomllib.TOMLDecodeError, ValueError, TypeError, AttributeError):
        return []
