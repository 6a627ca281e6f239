"""The LanguageAnalyzer for Python: parse() one file with ``ast``, link() one service."""

from __future__ import annotations

import ast
import warnings
from collections.abc import Mapping
from typing import Any

from orbitkb.analysis.facts import LinkedFacts, ParseGap, ServiceContext
from orbitkb.analysis.python.legacy import as_python3
from orbitkb.analysis.python.link import link as _link
from orbitkb.analysis.python.scan import Scanner


def _parse(text: str, path: str) -> ast.Module:
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # SyntaxWarning on odd escapes is not our business
        return ast.parse(text, filename=path)


class PythonAnalyzer:
    stack = "python"
    version = "py-21"
    suffixes = (".py", ".pyi")
    reads_libraries = True  # in-repository modules imported from outside the service's folder (python/libraries)

    def parse(self, path: str, text: str) -> dict[str, Any]:
        tree: ast.Module | None = None
        try:
            tree = _parse(text, path)
        except SyntaxError as e:
            legacy = as_python3(text)  # a Python 2 file: its print/except statements rewritten
            try:
                if legacy is not None:
                    tree, text = _parse(legacy, path), legacy
            except (SyntaxError, ValueError, RecursionError, MemoryError):
                tree = None
            if tree is None:
                return {"error": f"syntax error at line {e.lineno}: {e.msg}"}
        except (ValueError, RecursionError, MemoryError) as e:
            return {"error": f"unparsable: {type(e).__name__}: {str(e)[:200]}"}
        try:
            return Scanner(path, text).run(tree)
        except RecursionError:
            return {"error": "too deeply nested to analyze"}
        except Exception as e:  # noqa: BLE001 - one odd file must never stop an index run
            return {"error": f"analyzer failure: {type(e).__name__}: {str(e)[:200]}"}

    def link(self, ctx: ServiceContext, parsed: Mapping[str, dict[str, Any]]) -> LinkedFacts:
        try:
            return _link(ctx, parsed)
        except RecursionError:
            reason = "link failed: too deeply nested"
        except Exception as e:  # noqa: BLE001 - report, do not crash the pipeline
            reason = f"link failed: {type(e).__name__}: {str(e)[:200]}"
        first = sorted(parsed)[0] if parsed else ctx.root_dir
        return LinkedFacts(gaps=(ParseGap(file=first, kind="unsupported", reason=reason),))


ANALYZER = PythonAnalyzer()
