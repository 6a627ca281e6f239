"""The page and its modules as shipped: no inline script or handler in the HTML, no API in the
modules that parses text as HTML or code, every local import resolvable, and the vendored graph
library with its licence."""

from __future__ import annotations

import re
from html.parser import HTMLParser
from pathlib import Path

import pytest

import orbitkb.ui

STATIC = Path(orbitkb.ui.__file__).parent / "static"
MODULES = sorted(p for p in STATIC.glob("*.js"))
#: sinks that turn a string into markup or code
SINKS = ("innerHTML", "outerHTML", "insertAdjacentHTML", "document.write", "eval(", "new Function", "setAttribute(\"href",
         ".href =", "srcdoc", "createContextualFragment", "DOMParser")


class Page(HTMLParser):
    def __init__(self) -> None:
        super().__init__()
        self.scripts: list[dict[str, str | None]] = []
        self.handlers: list[str] = []
        self.styles = 0
        self.inline = False
        self.preloaded: list[str] = []

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        self.handlers += [k for k, _ in attrs if k.startswith("on") or k == "style"]
        if tag == "link" and dict(attrs).get("rel") == "modulepreload":
            self.preloaded.append(str(dict(attrs)["href"]).removeprefix("/static/"))
        if tag == "script":
            self.scripts.append(dict(attrs))
            self.inline = True
        if tag == "style":
            self.styles += 1

    def handle_endtag(self, tag: str) -> None:
        self.inline = False

    def handle_data(self, data: str) -> None:
        if self.inline and data.strip():
            raise AssertionError(f"inline script: {data[:60]!r}")


def test_the_page_has_no_inline_script_style_or_handler() -> None:
    page = Page()
    page.feed((STATIC / "index.html").read_text())
    assert page.scripts == [{"type": "module", "src": "/static/app.js"}]
    assert page.handlers == [] and page.styles == 0


@pytest.mark.parametrize("module", MODULES, ids=lambda p: p.name)
def test_no_module_parses_text_as_html_or_code(module: Path) -> None:
    source = module.read_text()
    assert [s for s in SINKS if s in source] == []


@pytest.mark.parametrize("module", MODULES, ids=lambda p: p.name)
def test_local_imports_resolve(module: Path) -> None:
    for target in re.findall(r'from "\./([^"]+)"', module.read_text()):
        assert (STATIC / target).is_file(), f"{module.name} imports missing {target}"


def test_the_graph_library_is_vendored_with_its_licence() -> None:
    lib = STATIC / "vendor" / "cytoscape.esm.min.js"
    licence = (STATIC / "vendor" / "cytoscape.LICENSE.txt").read_text()
    assert lib.stat().st_size > 100_000 and "export{" in lib.read_text()[-200:]
    assert "Permission is hereby granted" in licence and "Cytoscape Consortium" in licence
    assert "http://" not in (STATIC / "index.html").read_text() and "https://" not in (STATIC / "index.html").read_text()


def test_every_module_is_preloaded_so_none_waits_for_its_importer() -> None:
    page = Page()
    page.feed((STATIC / "index.html").read_text())
    modules = {p.name for p in MODULES} - {"app.js"} | {"vendor/cytoscape.esm.min.js"}
    assert sorted(page.preloaded) == sorted(modules)
