"""Dapr app ids and the services they name: the names other apps invoke through the sidecar.

An app id is declared where the sidecar is started: a ``dapr.io/app-id`` annotation on a
Kubernetes workload, ``-app-id``/``--app-id`` arguments of a ``daprd`` compose service (attached
to its app by ``network_mode: service:<app>``) or of ``dapr run`` in scripts and docs, and the
``appID`` entries of a multi-app run file (``dapr.yaml``). Each declaration says which service it
belongs to by name, by folder (``appDirPath``) or by the port the sidecar forwards to
(``--app-port``); a declaration that names no single service is ignored.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Iterator, Mapping, Sequence
from typing import Any

import yaml
from attrs import frozen

from orbitkb.analysis import paths, yamlines

_ID = r"[\"']?\s*[=:\s,]\s*[\"']?([A-Za-z0-9][\w.\-]*)"
_ARG_ID = re.compile(r"(?<![\w\-])--?app-id" + _ID)
_ARG_PORT = re.compile(r"(?<![\w\-])--?app-port[\"']?\s*[=:\s,]\s*[\"']?(\d{2,5})\b")
_ANNOTATION_ID = re.compile(r"dapr\.io/app-id[\"']?\s*:\s*[\"']?([A-Za-z0-9][\w.\-]*)")
_ANNOTATION_PORT = re.compile(r"dapr\.io/app-port[\"']?\s*:\s*[\"']?(\d{2,5})")
_WINDOW = 400  # characters after an --app-id where its --app-port may stand (one command)


@frozen
class AppId:
    app_id: str
    file: str
    line: int
    owner: str | None = None  # a deployment / service name the declaration belongs to
    port: int | None = None  # the port the sidecar forwards to
    folder: str | None = None  # the app's folder (multi-app run files)


@frozen
class Unit:
    name: str
    aliases: tuple[str, ...]
    root: str
    ports: tuple[int, ...]


def _line(text: str, pos: int) -> int:
    return text.count("\n", 0, pos) + 1


def _commands(path: str, text: str) -> Iterator[AppId]:
    """``dapr run --app-id x --app-port 3000`` / ``daprd -app-id x``: an id and its port."""
    found = list(_ARG_ID.finditer(text))
    for i, match in enumerate(found):
        end = min(found[i + 1].start() if i + 1 < len(found) else len(text), match.end() + _WINDOW)
        window = text[match.start() : end]
        port = _ARG_PORT.search(window)
        yield AppId(
            match.group(1), path, _line(text, match.start()), port=int(port.group(1)) if port else None
        )


def _yaml_docs(text: str) -> list[Any]:
    try:
        return yamlines.load_all(text)
    except (yaml.YAMLError, ValueError):
        return []


def _walk_annotated(node: Any, owner: str | None, path: str, depth: int = 0) -> Iterator[AppId]:
    """Annotations below a Kubernetes object (a pod template's metadata): owned by the object."""
    if depth > 12:
        return
    if isinstance(node, Mapping):
        meta = node.get("metadata")
        if isinstance(meta, Mapping) and owner is None and isinstance(meta.get("name"), str):
            owner = meta["name"]
        notes = meta.get("annotations") if isinstance(meta, Mapping) else None
        if isinstance(notes, Mapping) and isinstance(notes.get("dapr.io/app-id"), str):
            port = str(notes.get("dapr.io/app-port", "")).strip()
            line = yamlines.line_of(notes, "dapr.io/app-id")
            yield AppId(notes["dapr.io/app-id"], path, line, owner, int(port) if port.isdigit() else None)
        for value in node.values():
            yield from _walk_annotated(value, owner, path, depth + 1)
    elif isinstance(node, list):
        for value in node:
            yield from _walk_annotated(value, owner, path, depth + 1)


def _compose(path: str, doc: Mapping[str, Any]) -> Iterator[AppId]:
    """A ``daprd`` service next to its app: ``network_mode: service:<app>`` names the owner."""
    services = doc.get("services")
    if not isinstance(services, Mapping):
        return
    for name, svc in services.items():
        if not isinstance(svc, Mapping):
            continue
        words = [svc.get(k) for k in ("command", "entrypoint")]
        command = " ".join(" ".join(map(str, w)) if isinstance(w, list) else str(w) for w in words if w)
        ids = list(_commands(path, command))
        if not ids:
            continue
        mode = str(svc.get("network_mode") or "")
        owner = mode.partition(":")[2] if mode.startswith("service:") else str(name)
        line = yamlines.line_of(services, name)
        for found in ids:
            yield AppId(found.app_id, path, line, owner, found.port)


def _multi_app(path: str, doc: Mapping[str, Any]) -> Iterator[AppId]:
    """``dapr.yaml``: ``apps: [{appID, appDirPath, appPort}]``, folders relative to the file."""
    apps = doc.get("apps")
    if not isinstance(apps, list):
        return
    here = paths.parent(path)
    for i, app in enumerate(apps):
        if not isinstance(app, Mapping) or not isinstance(app.get("appID"), str):
            continue
        folder = app.get("appDirPath")
        port = str(app.get("appPort", "")).strip()
        yield AppId(
            app["appID"], path, yamlines.line_of(apps, i),
            port=int(port) if port.isdigit() else None,
            folder=paths.join(here, folder) if isinstance(folder, str) else None,
        )  # fmt: skip


def declarations(texts: Mapping[str, str]) -> list[AppId]:
    out: list[AppId] = []
    for path in sorted(texts):
        text = texts[path]
        if "app-id" not in text and "appID" not in text:
            continue
        if path.endswith((".yaml", ".yml")):
            docs = [d for d in _yaml_docs(text) if isinstance(d, Mapping)]
            structured = False
            for doc in docs:
                if "apps" in doc:
                    found = list(_multi_app(path, doc))
                elif "services" in doc:
                    found = list(_compose(path, doc))
                else:
                    found = list(_walk_annotated(doc, None, path))
                structured = structured or bool(found)
                out.extend(found)
            if structured:
                continue
        out.extend(_commands(path, text))
    return out


def _norm(name: str) -> str:
    return name.strip().lower().replace("_", "-")


def _owner_of(decl: AppId, units: Sequence[Unit]) -> str | None:
    if decl.owner:
        named = [u.name for u in units if _norm(decl.owner) in {_norm(n) for n in (u.name, *u.aliases)}]
        if len(named) == 1:
            return named[0]
    if decl.folder:
        rooted = [u.name for u in units if u.root == decl.folder]
        if len(rooted) == 1:
            return rooted[0]
    if decl.port is not None:
        ported = [u.name for u in units if decl.port in u.ports]
        if len(ported) == 1:
            return ported[0]
    return None


def app_ids(texts: Mapping[str, str], units: Iterable[Unit]) -> dict[str, list[AppId]]:
    """Service name -> the app ids declared for it (each id once, first declaration kept)."""
    units = list(units)
    out: dict[str, list[AppId]] = {}
    for decl in declarations(texts):
        owner = _owner_of(decl, units)
        if owner is not None and all(d.app_id != decl.app_id for d in out.get(owner, ())):
            out.setdefault(owner, []).append(decl)
    return out
