"""An import-linter contract type the built-in ones cannot express: modules whose name starts with
an underscore (``orbitkb.domain.usecases._common``) are private to their package, so the given
source packages may not import them directly (a public module that uses them is fine).

Registered in pyproject.toml (``contract_types``); ``lint-imports`` runs from the workspace root,
which it puts on ``sys.path``, so this file is imported as ``scripts.import_contracts``.
"""

from __future__ import annotations

from collections.abc import Iterable

from grimp import ImportGraph
from importlinter.application import output
from importlinter.domain import fields
from importlinter.domain.contract import Contract, ContractCheck


def is_private(module: str, container: str) -> bool:
    """A module below ``container`` with a segment (after the container) like ``_name``, not ``__x__``."""
    if not module.startswith(container + "."):
        return False
    return any(part.startswith("_") and not part.endswith("__") for part in module[len(container) + 1:].split("."))


def private_imports(graph: ImportGraph, sources: Iterable[str], container: str) -> list[tuple[str, str, int]]:
    """(importer, private module, line) for every direct import from a source package into a private module."""
    found: list[tuple[str, str, int]] = []
    for source in sources:
        if source not in graph.modules:
            continue
        for importer in sorted({source} | graph.find_descendants(source)):
            for imported in sorted(graph.find_modules_directly_imported_by(importer)):
                if is_private(imported, container):
                    for detail in graph.get_import_details(importer=importer, imported=imported):
                        found.append((importer, imported, int(detail["line_number"])))
    return found


class PrivateModulesContract(Contract):
    """``source_modules`` may not import any private module of ``container``."""

    source_modules = fields.ListField(subfield=fields.StringField())
    container = fields.StringField()

    def check(self, graph: ImportGraph, verbose: bool) -> ContractCheck:
        container = str(self.container)
        if container not in graph.modules:
            raise ValueError(f"Module '{container}' does not exist.")
        found = private_imports(graph, self.source_modules, container)
        return ContractCheck(kept=not found, metadata={"imports": found})

    def render_broken_contract(self, check: ContractCheck) -> None:
        for importer, imported, line in check.metadata["imports"]:
            output.print_error(f"{importer} (l.{line}) imports the private module {imported}", bold=False)
            output.new_line()
