"""The LanguageAnalyzer for Python: parse() one file with ``ast``, link() one service."""

from __future__ import annotations

import ast
import warnings
from collections.abc import Mapping
from typing import Any

from orbitkb.analysis.facts import LinkedFacts, ParseGap, ServiceContext
from orbitkb.analysis.python.link import link as _link
from orbitkb.analysis.python.scan import Scanner


class PythonAnalyzer:
    stack = "python"
    version = "py-14"
    suffixes = (".py", ".pyi")

    def parse(self, path: str, text: str) -> dict[str, Any]:
        try:
            with warnings.catch_warnings():
                warnings.simplefilter("ignore")  # SyntaxWarning on odd escapes is not our business
                tree = ast.parse(text, filename=path)
        except SyntaxError as e:
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
