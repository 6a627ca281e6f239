"""The stacks orbitkb analyses, one row each: its name, the suffixes of its code, the manifests that declare it.

Every list of stacks is derived from this table — the analysis adapter's code and manifest tables,
its known stacks, the CLI's ``index --stack`` choices and so the man page — so adding a stack is
adding a row here (and an analyzer package in ``orbitkb-analysis`` that parses it).
"""

from __future__ import annotations

from attrs import frozen


@frozen
class StackRow:
    name: str  # the value of ``Service.stack``
    code_suffixes: tuple[str, ...]  # files counted as code of this stack (lower case, with the dot)
    manifests: tuple[str, ...] = ()  # build manifests declaring it (a file name, or ``.suffix`` for a kind)


#: The analysed stacks, in the order they are listed to users.
STACKS: tuple[StackRow, ...] = (
    StackRow("python", (".py", ".pyw"), ("pyproject.toml", "setup.py", "requirements.txt", "Pipfile")),
    StackRow("node-ts", (".js", ".jsx", ".mjs", ".cjs", ".ts", ".tsx", ".mts", ".cts"), ("package.json",)),
    StackRow("jvm-spring", (".java", ".kt", ".scala", ".groovy"), ("pom.xml", "build.gradle", "build.gradle.kts")),
    StackRow("go", (".go",), ("go.mod",)),
    StackRow("dotnet", (".cs",), (".csproj",)),
    StackRow("ruby", (".rb",), ("Gemfile",)),
    StackRow("php", (".php",), ("composer.json",)),
    StackRow("rust", (".rs",), ("Cargo.toml",)),
)

#: Stack names, in table order (CLI choices, validation).
STACK_NAMES: tuple[str, ...] = tuple(row.name for row in STACKS)


def code_stacks(rows: tuple[StackRow, ...] = STACKS) -> dict[str, str]:
    """Code suffix -> stack; the first row claiming a suffix keeps it."""
    table: dict[str, str] = {}
    for row in rows:
        for suffix in row.code_suffixes:
            table.setdefault(suffix, row.name)
    return table


def manifest_stacks(rows: tuple[StackRow, ...] = STACKS) -> dict[str, str]:
    """Manifest name (or ``.suffix`` kind) -> the stack it declares; the first row claiming it keeps it."""
    table: dict[str, str] = {}
    for row in rows:
        for manifest in row.manifests:
            table.setdefault(manifest, row.name)
    return table
