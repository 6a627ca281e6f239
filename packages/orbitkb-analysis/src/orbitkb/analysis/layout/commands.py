"""One build deployed as several services that differ by command: a service per deployment.

A single module (one ``go.mod``, one ``package.json``) is often built once and run as several
compose services or Kubernetes workloads, each started with its own sub-command
(``app orders``, ``--role=payments``). The deployment, not the folder, draws the boundary: each
such deployment becomes a unit rooted at the folder its command names (the only folder below the
build called ``orders``), or at the folder of the entry file it names by path
(``node dist/services/orders/src/main.js``, or a compose build argument ``ENTRY:
services/orders/src/main.js`` the Dockerfile's ``CMD`` runs): the one folder of the build whose path
ends with that file's folders, lifted out of a ``src`` folder. Words every deployment of the build shares (the binary's own name) say
nothing; a deployment whose command names no folder (or that has none, running the image's
default beside deployments that do) splits off when its own name is a folder below the build,
else it stays on the build's unit. Deployments with the same command whose environments differ
(a region or a tenant each) are a service each, all rooted at the build. A variable each deployment
sets to a different plain word (``APP: chat``, ``APP: upload``) picks a role as a sub-command does,
and names a folder the same way. A unit already split off a build (one program) holding a second
``main`` (a bot or load generator beside a web server) splits again only when a deployment runs
that program's folder on its own; a ``main`` nobody deploys apart (a migration, a tool) stays.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterable, Sequence
from functools import partial

from orbitkb.analysis import paths
from orbitkb.analysis.layout.candidates import Unit
from orbitkb.analysis.layout.compose import ComposeService
from orbitkb.analysis.layout.refs import Refs


def _words(command: Sequence[str]) -> set[str]:
    out = set()
    for token in command:
        if token.startswith("-"):
            token = token.partition("=")[2]  # --role=orders: the value names the role
        token = paths.basename(token.strip().rstrip("/")).lower()
        if token and not token.startswith(("$", "-")):
            out.add(token)
            out.update(p for p in re.split(r"[.:]", token) if p)  # python -m orders.main, app:app
    return out


def _deployments(refs: Refs) -> dict[str, tuple[set[str], Refs]]:
    """Deployment name -> (command words, the refs that deploy it)."""
    out: dict[str, tuple[set[str], Refs]] = {}
    for svc in refs.compose:
        words, own = out.setdefault(svc.name, (set(), Refs()))
        words |= _words(svc.command)
        own.compose.append(svc)
    for workload, container in refs.workloads:
        words, own = out.setdefault(workload.name, (set(), Refs()))
        words |= _words(container.command)
        own.workloads.append((workload, container))
    return out


#: A role picked by an environment variable: one plain word (``APP: chat``), not a URL, path or number.
_ROLE_WORD = re.compile(r"[a-z][a-z0-9_-]*")


def _role_words(
    deployments: dict[str, tuple[set[str], Refs]], names_folder: Callable[[str], bool]
) -> dict[str, set[str]]:
    """Deployment name -> the values of the environment variables that pick its role: set in two
    deployments of the build or more, to a different plain word in each (``APP: chat``,
    ``APP: upload``), two of which at least name a folder of the build, as a
    ``switch os.Getenv("APP")`` in ``main`` reads it; a deployment without the variable runs the
    image's default. Empty when no variable does (``LOG_LEVEL: debug`` beside ``info`` names no
    role; whether a region or a tenant each is one service per environment is ``_by_environment``'s)."""
    envs = {
        name: {k: v.value for s in own.compose for k, v in s.env.items() if v.value}
        | {k: v.value for _w, c in own.workloads for k, v in c.env.items() if v.value}
        for name, (_words, own) in deployments.items()
    }
    out: dict[str, set[str]] = {name: set() for name in envs}
    for key in sorted({k for env in envs.values() for k in env}):
        values = {name: env[key].strip().lower() for name, env in envs.items() if key in env}
        words = list(values.values())
        if len(words) < 2 or len(set(words)) != len(words) or not all(_ROLE_WORD.fullmatch(w) for w in words):
            continue
        if sum(names_folder(w) for w in words) >= 2:
            for name, word in values.items():
                out[name].add(word)
    return out if any(out.values()) else {}


def _path_words(refs: Refs) -> set[str]:
    """Words of a deployment's command and compose build arguments that are file paths."""
    raw = [w for svc in refs.compose for w in [*svc.command, *svc.build_args.values()]]
    raw += [w for _workload, container in refs.workloads for w in container.command]
    words = [w.partition("=")[2] if w.startswith("-") else w for w in raw]
    return {w.strip().removeprefix("./") for w in words if "/" in w and "$" not in w and "://" not in w}


def _path_folder(
    words: Iterable[str], root: str, folders: dict[str, dict[str, int]], taken: set[str]
) -> str | None:
    """The one folder below ``root`` whose path ends with the folders of a path the deployment
    names, by two folders at least (longest ending first; the build output ``dist/`` names no
    source folder), out of a ``src`` folder; None when no path or several folders match."""
    below = {f for named in folders.values() for f in named if f != root and paths.is_under(f, root)}
    found: set[str] = set()
    for word in words:
        parts = [p for p in word.strip("/").split("/") if p and p != "."]
        if parts and "." in parts[-1]:
            parts = parts[:-1]  # a file: its folders
        for start in range(len(parts) - 1):  # two folders at least: one name is _named_folder's
            tail = "/".join(parts[start:])
            match = {f for f in below if f == tail or f.endswith("/" + tail)}
            if len(match) == 1:
                found |= match
                break
            if match:
                break  # ambiguous from here on: shorter endings only match more
    if len(found) != 1:
        return None
    folder = found.pop()
    if paths.basename(folder) == "src" and paths.parent(folder) not in (root, "."):
        folder = paths.parent(folder)
    return None if folder in taken or any(paths.is_under(t, folder) for t in taken) else folder


def folder_index(code_paths: Iterable[str]) -> dict[str, dict[str, int]]:
    """Folder basename (lower-case) -> every folder of that name holding code (at any depth), with
    the number of code files below it."""
    out: dict[str, dict[str, int]] = {}
    for path in code_paths:
        folder = paths.parent(path)
        while folder != ".":
            counts = out.setdefault(paths.basename(folder).lower(), {})
            counts[folder] = counts.get(folder, 0) + 1
            folder = paths.parent(folder)
    return out


def _named_folder(
    names: Iterable[str], root: str, folders: dict[str, dict[str, int]], taken: set[str]
) -> str | None:
    """The outermost folder below ``root`` called by one of ``names``, not another unit's root.

    Several such folders (``pkg/orders`` beside the ``proto/orders`` and ``docs/orders`` generated
    from it): the one holding the most code, when it holds more than each of the others."""
    found = {
        f: n
        for name in names
        for f, n in folders.get(name, {}).items()
        if f != root and paths.is_under(f, root)
    }
    outer = sorted(
        (f for f in found if not any(o != f and paths.is_under(f, o) for o in found)),
        key=lambda f: (-found[f], f),
    )
    if not outer or (len(outer) > 1 and found[outer[0]] == found[outer[1]]):
        return None
    folder = outer[0]
    return None if folder in taken or any(paths.is_under(t, folder) for t in taken) else folder


def _env_signature(svc: ComposeService) -> tuple[tuple[str, str], ...]:
    """What a compose service's environment says about its role: ports and host names aside (two
    replicas on different ports are one service)."""
    return tuple(
        sorted(
            (k, v.value) for k, v in svc.env.items() if "PORT" not in k.upper() and "HOST" not in k.upper()
        )
    )


def _by_environment(deployments: dict[str, tuple[set[str], Refs]]) -> list[Refs]:
    """Compose services running one build with the same command but different environments (a
    region or a tenant each: ``REGION=emea``, ``REGION=apac``): one unit each, by environment;
    replicas with the same environment stay together. Empty when they do not differ."""
    if len(deployments) < 2 or any(own.workloads for _w, own in deployments.values()):
        return []
    commands = {frozenset(words) for words, _own in deployments.values()}
    builds = {(svc.build_context, svc.dockerfile) for _w, own in deployments.values() for svc in own.compose}
    if len(builds) != 1:
        return []  # several Dockerfiles over one context are several programs, not one build
    groups: dict[tuple[tuple[str, str], ...], Refs] = {}
    for _name, (_words, own) in sorted(deployments.items()):
        for svc in own.compose:
            groups.setdefault(_env_signature(svc), Refs()).compose.append(svc)
    return list(groups.values()) if len(commands) == 1 and len(groups) > 1 else []


def _names_folder(root: str, folders: dict[str, dict[str, int]], word: str) -> bool:
    return _named_folder([word], root, folders, set()) is not None


def _program_folders(unit: Unit) -> set[str]:
    """The folders of a split-off unit's entry files when it holds several programs, none else."""
    folders = {paths.parent(e) for e in unit.entries}
    return folders if len(folders) > 1 else set()


def split_by_command(
    units: Sequence[Unit], refs: dict[int, Refs], folders: dict[str, dict[str, int]]
) -> tuple[list[Unit], dict[int, Refs]]:
    """Units (and their refs, re-indexed) with each multi-command build split per deployment."""
    roots = {u.root for u in units}
    out_units: list[Unit] = []
    out_refs: dict[int, Refs] = {}
    for i, unit in enumerate(units):
        deployments = _deployments(refs.get(i, Refs()))
        roles = _role_words(deployments, partial(_names_folder, unit.root, folders))
        mapped: dict[str, Refs] = {}
        elsewhere = False  # a deployment naming a folder that is already another unit
        # a unit split off a build already is one program, unless it holds several (a bot's own
        # ``main`` beside the web server's): a deployment may then run one of them on its own
        programs = _program_folders(unit) if unit.split else None
        if len(deployments) > 1 and (programs is None or programs):
            common = set.intersection(*(words for words, _ in deployments.values()))
            commanded = any(words - common for words, _ in deployments.values())
            named = {name: _path_words(own) for name, (_words, own) in deployments.items()}
            shared = set.intersection(*named.values())
            entry = {name: _path_folder(p - shared, unit.root, folders, roots) for name, p in named.items()}
            commanded = commanded or any(entry.values())
            for name, (words, own) in sorted(deployments.items()):
                distinct = (words - common) | roles.get(name, set())
                folder = entry[name]
                if folder is None and distinct:
                    folder = _named_folder(distinct, unit.root, folders, roots)
                if folder is None and commanded:
                    # its own command names no folder, or it runs the image's default command
                    # beside deployments that do: its name may still be a folder of the build
                    folder = _named_folder([name.lower()], unit.root, folders, roots)
                if folder is None and distinct and _named_folder(distinct, unit.root, folders, set()):
                    elsewhere = True
                if folder is not None and programs is not None:
                    held = [f for f in programs if paths.is_under(f, folder)]
                    if not held or len(held) == len(programs):
                        folder = None  # code of the programs the unit is, not one program of them
                if folder is not None:
                    target = mapped.setdefault(folder, Refs())
                    target.compose.extend(own.compose)
                    target.workloads.extend(own.workloads)
        rest = Refs(
            [c for c in refs[i].compose if not any(c in r.compose for r in mapped.values())],
            [w for w in refs[i].workloads if not any(w in r.workloads for r in mapped.values())],
        ) if mapped else Refs()  # fmt: skip
        # one deployment naming its own folder splits off too when another stays on the build
        # (a web app and its worker: ``celery -A app.worker worker`` next to the server)
        if not mapped or (len(mapped) < 2 and (elsewhere or not (rest.compose or rest.workloads))):
            by_env = _by_environment(deployments) if not mapped and not unit.split else []
            for own in by_env or [refs[i] if i in refs else Refs()]:
                out_refs[len(out_units)] = own
                out_units.append(unit)
            continue
        if rest.compose or rest.workloads:
            out_refs[len(out_units)] = rest
            out_units.append(unit)
        for folder, own in sorted(mapped.items()):
            entries = [e for e in unit.entries if paths.is_under(e, folder)]
            out_refs[len(out_units)] = own
            out_units.append(Unit(folder, unit.candidate, entries, split=True, command=True))
    return out_units, {k: v for k, v in out_refs.items() if v.compose or v.workloads}
