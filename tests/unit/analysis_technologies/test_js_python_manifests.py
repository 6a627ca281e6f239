"""package.json and the Python manifests: every declared dependency with its version and line."""

from __future__ import annotations

import pytest

from orbitkb.analysis.technologies import npm, pypi

from .helpers import rows

PACKAGE_JSON = """{
  "name": "ledger",
  "packageManager": "pnpm@9.1.0+sha256.abc",
  "scripts": {"start": "node dist/index.js"},
  "dependencies": {
    "koa": "^2.15.0",
    "zod": "3.23.8"
  },
  "devDependencies": {
    "vitest": "^1.6.0",
    "koa": "^2.15.0"
  },
  "peerDependencies": {"pino": "*"}
}
"""


def test_package_json_dependencies_dev_marked_and_package_manager():
    found = npm.read("ledger/package.json", PACKAGE_JSON, {})
    assert rows(found) == [
        ("koa", "^2.15.0", 6, None),
        ("koa", "^2.15.0", 11, "devDependencies"),
        ("pino", None, 13, "peerDependencies"),
        ("vitest", "^1.6.0", 10, "devDependencies"),
        ("zod", "3.23.8", 7, None),
    ]
    assert rows(found, "build_tool") == [("pnpm", "9.1.0", 3, None)]


@pytest.mark.parametrize("text", ["{ not json", "[1, 2]", '{"dependencies": ["koa"]}', ""])
def test_broken_package_json_gives_nothing(text):
    assert rows(npm.read("x/package.json", text, {})) == []


REQUIREMENTS = """# web
Flask==3.0.2
SQLAlchemy[asyncio]>=2.0,<3  # orm
typing_extensions ; python_version < "3.11"
-r base.txt
--index-url https://example.invalid/simple
mylib @ https://example.invalid/mylib.tar.gz
zope.interface
"""


def test_requirements_names_normalized_with_pins_and_ranges():
    found = pypi.read("svc/requirements.txt", REQUIREMENTS, {}, "requirements.txt")
    assert rows(found) == [
        ("flask", "3.0.2", 2, None),
        ("mylib", None, 7, None),
        ("sqlalchemy", ">=2.0,<3", 3, None),
        ("typing-extensions", None, 4, None),
        ("zope-interface", None, 8, None),
    ]


def test_dev_requirements_files_are_marked():
    found = pypi.read("svc/requirements-dev.txt", "pytest==8.2\n", {}, "requirements.txt")
    assert rows(found) == [("pytest", "8.2", 1, "dev")]


PYPROJECT = """[project]
name = "quotes"
requires-python = ">=3.12"
dependencies = [
  "litestar>=2.8",
  "httpx",
]

[project.optional-dependencies]
cache = ["redis>=5"]

[dependency-groups]
dev = ["ruff>=0.4"]

[tool.uv]
package = true
"""

POETRY = """[tool.poetry]
name = "rates"

[tool.poetry.dependencies]
python = "^3.11"
starlette = "^0.37"
Pydantic_Core = {version = "2.18.2", extras = ["x"]}

[tool.poetry.group.test.dependencies]
hypothesis = "*"
"""


def test_pyproject_project_groups_and_tool():
    found = pypi.read("quotes/pyproject.toml", PYPROJECT, {}, "pyproject.toml")
    assert rows(found) == [
        ("httpx", None, 6, None),
        ("litestar", ">=2.8", 5, None),
        ("redis", ">=5", 10, "optional-dependencies.cache"),
        ("ruff", ">=0.4", 13, "dev"),
    ]
    assert rows(found, "language") == [("python", ">=3.12", 3, None)]
    assert rows(found, "build_tool") == [("uv", None, 15, None)]


def test_poetry_tables_and_python_version():
    found = pypi.read("rates/pyproject.toml", POETRY, {}, "pyproject.toml")
    assert rows(found) == [
        ("hypothesis", None, 10, "dev"),
        ("pydantic-core", "2.18.2", 7, None),
        ("starlette", "^0.37", 6, None),
    ]
    assert rows(found, "language") == [("python", "^3.11", 5, None)]
    assert rows(found, "build_tool") == [("poetry", None, 1, None)]


def test_setup_py_install_requires_and_pipfile():
    setup = 'from setuptools import setup\nsetup(\n    name="feeds",\n    install_requires=[\n        "aiohttp>=3.9",\n        "orjson",\n    ],\n)\n'
    assert rows(pypi.read("feeds/setup.py", setup, {}, "setup.py")) == [
        ("aiohttp", ">=3.9", 5, None),
        ("orjson", None, 6, None),
    ]
    pipfile = '[packages]\nbottle = "==0.12.25"\n\n[dev-packages]\nblack = "*"\n\n[requires]\npython_version = "3.11"\n'
    found = pypi.read("feeds/Pipfile", pipfile, {}, "Pipfile")
    assert rows(found) == [("black", None, 5, "dev"), ("bottle", "==0.12.25", 2, None)]
    assert rows(found, "language") == [("python", "3.11", 8, None)]


@pytest.mark.parametrize("kind", ["pyproject.toml", "Pipfile"])
def test_broken_toml_gives_nothing(kind):
    assert pypi.read(f"x/{kind}", "[project\ndependencies = [", {}, kind) == []
