"""Files a task names ("Update beer.go", "fix di.js models registration", "src/ui/cart.tsx: ..."):
the services that own a file of that name. A commit made in a web editor, or a message written by
someone thinking in files, names the file it changes; a file name few services share is as telling
as the service's own name."""

from __future__ import annotations

import re
from collections.abc import Iterable, Sequence

from orbitkb.domain.runs import IndexedFile

#: Extensions of the files a task may name: code, templates, styles, config and build files.
EXTENSIONS = frozenset("""go java kt kts scala groovy py rb php rs cs fs vb js jsx mjs cjs ts tsx vue svelte
    html htm css scss sass less ejs hbs jinja j2 erb cshtml razor properties yml yaml json xml toml ini
    cfg conf env gradle sql proto graphql sh ps1 tf""".split())
#: Names that are files though they have no extension.
BARE = frozenset({"Dockerfile", "Makefile", "Procfile", "Jenkinsfile", "Gemfile", "Rakefile", "Vagrantfile"})
_TOKEN = re.compile(r"[\w@.\-/]+")
#: A file name more services own than this (appsettings.json, build.gradle, main.go) says nothing.
MAX_OWNERS = 3


def mentioned(task: str) -> list[str]:
    """The file names or paths a task names, in order, each once (``a/b/c.py`` as written)."""
    out: dict[str, None] = {}
    for token in _TOKEN.findall(task):
        token = token.strip("./-")
        name = token.rsplit("/", 1)[-1]
        stem, dot, ext = name.rpartition(".")
        if (dot and stem and ext.lower() in EXTENSIONS and not stem.replace(".", "").isdigit()) or name in BARE:
            out.setdefault(token, None)
    return list(out)


def owners(named: Sequence[str], files: Iterable[IndexedFile]) -> dict[str, list[str]]:
    """Per service id, the paths of its files the task names: a path as written matches that path
    (or a path ending in it); a bare name matches every file of that name. A name more than
    ``MAX_OWNERS`` services own is dropped."""
    found: dict[str, dict[str, list[str]]] = {n: {} for n in named}
    for f in files:
        if f.service_id is None:
            continue
        for n in named:
            if f.path == n or f.path.endswith("/" + n):
                found[n].setdefault(f.service_id, []).append(f.path)
    out: dict[str, list[str]] = {}
    for by_service in found.values():
        if 0 < len(by_service) <= MAX_OWNERS:
            for sid, paths in by_service.items():
                out.setdefault(sid, []).extend(sorted(paths)[:3])
    return out

