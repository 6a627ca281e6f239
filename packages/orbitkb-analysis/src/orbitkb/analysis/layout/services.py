"""Service detection: deployable units, shared libraries, infrastructure and unknown code.

A deployable unit is a folder with its own build manifest and an entry point (a parsed entry
file, a Dockerfile, a start script, or a compose/Kubernetes/skaffold/helm reference), or a folder
a Procfile process or a serverless.yml runs, or a Go ``package main`` with no module file above it.
Libraries (manifest, no entry point), test harnesses nobody deploys (``nats-test``) and nginx in
front of replicas of one service are not services. Infrastructure images become resources.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence

from attrs import frozen

from orbitkb.analysis import paths
from orbitkb.analysis.layout import infra, naming
from orbitkb.analysis.layout.candidates import KNOWN_STACKS, Candidate, Unit, collect, is_harness, split_units
from orbitkb.analysis.layout.commands import folder_index, split_by_command
from orbitkb.analysis.layout.compose import ComposeService
from orbitkb.analysis.layout.deploy import Deployment
from orbitkb.analysis.layout.manifests import Manifest
from orbitkb.analysis.layout.model import Layout, ServiceUnit
from orbitkb.analysis.layout.procfile import Process, read_processes
from orbitkb.analysis.layout.refs import Refs, assign
from orbitkb.analysis.layout.resources import collect_resources
from orbitkb.domain.model import Gap


@frozen
class LayoutInput:
    repository: str
    manifests: Sequence[Manifest]
    code_paths: Sequence[str]  # non-test code files (any language)
    entry_files: Mapping[str, str]  # path -> stack, for files parsed with "entrypoint": true
    deployment: Deployment
    nginx_confs: Sequence[str] = ()  # configs with proxy_pass / grpc_pass
    app_name: Callable[[str], str | None] = lambda root: None  # spring.application.name under a root
    forced: tuple[str, str] | None = None
    proxy_servers: Mapping[str, str] = {}  # proxy config -> the server it is written for (nginx, apache-httpd)
    balancers: frozenset[str] = frozenset()  # proxy configs that only balance replicas (layout.balancer)


def _ancestor_manifests(cands: Mapping[str, Candidate], folder: str) -> list[Manifest]:
    out = list(cands[folder].manifests) if folder in cands else []
    for above in paths.ancestors(folder + "/x")[1:]:
        if above in cands:
            out.extend(cands[above].manifests)
    return out


def _processes(inp: LayoutInput) -> list[Process]:
    """Every Procfile process that runs a folder of code of the repository, every serverless function."""
    code = set(inp.code_paths)
    folders = {d for p in code for d in paths.ancestors(p)}
    return [
        process
        for path, text in sorted(inp.deployment.procfiles.items())
        for process in read_processes(path, text, code, folders)
    ] + list(inp.deployment.functions)


def detect(inp: LayoutInput) -> Layout:
    cands, unowned = collect(inp.manifests, inp.code_paths, inp.entry_files, _processes(inp))
    units: list[Unit] = []
    for folder in sorted(cands):
        units.extend(split_units(cands[folder]))
    roots = [u.root for u in units]
    index = {root: i for i, root in enumerate(roots)}

    def self_contained(unit: Unit) -> bool:
        images = [img for m in unit.candidate.manifests for img in m.images]
        has_conf = any(paths.is_under(c, unit.root) for c in inp.nginx_confs)
        return has_conf or bool(images and infra.infra_of(images[-1]))

    def locate(folder: str, name: str | None) -> int | None:
        codeless: int | None = None  # a Dockerfile-only folder: used only when no code folder is above
        for above in [folder, *paths.ancestors(folder + "/x")[1:]]:
            if above in index:
                if units[index[above]].candidate.code_files or units[index[above]].split:
                    return index[above]
                if self_contained(units[index[above]]):
                    return index[above]  # an infrastructure image or an nginx gateway of its own
                codeless = index[above] if codeless is None else codeless
                continue
            split = [i for i, u in enumerate(units) if u.split and u.candidate.dir == above]
            if split:
                named = [i for i in split if name and paths.basename(units[i].root) == name]
                return named[0] if len(named) == 1 else codeless
        return codeless if codeless is None else _code_below(units, codeless)

    def names(i: int) -> set[str]:
        unit = units[i]
        own = set() if unit.split else set(unit.candidate.names())
        return own | {paths.basename(unit.root), naming.qualified(unit.root)}

    copies = {m.path: m.copies for m in inp.manifests if m.copies}
    built = {m.path for m in inp.manifests if m.images and infra.infra_of(m.images[-1])}
    def runnable(i: int) -> bool:  # code of its own with an entry point (not a Dockerfile-only folder)
        cand = units[i].candidate
        return bool(units[i].entries or (cand.code_files and cand.strong_entry()))

    refs, loose_compose, loose_workloads = assign(inp.deployment, roots, locate, names, copies, built, runnable)
    units, refs = split_by_command(units, refs, folder_index(inp.code_paths))
    layout = Layout()
    imported: set[str] = set()
    for cand in cands.values():
        for m in cand.manifests:
            imported |= {d for d in m.deps if d != m.name}
    embedded = _embedded(cands)
    runs, packers = _packaged(units)
    for packer, runner in packers.items():
        moved = refs.pop(packer, Refs())
        into = refs.setdefault(runner, Refs())
        into.compose.extend(moved.compose)
        into.workloads.extend(moved.workloads)
    for i, unit in enumerate(units):
        ref = refs.get(i, Refs())
        if i in runs:
            layout.services.append(_unit(inp, cands, unit, ref, *runs[i]))
            continue
        if i in packers:
            continue  # its Dockerfile runs another unit's code
        if unit.root in embedded and not unit.split and not (ref.compose or ref.workloads):
            layout.libraries.append(unit.root)  # built into another unit's artifact, never run alone
            continue
        _decide(inp, layout, cands, unit, ref, imported)
    if not layout.services and inp.forced is None:
        _fallback(inp, layout, cands, unowned)
    if inp.forced is not None:
        layout.services = [_forced(inp, cands, refs)]
    layout.services.extend(_gateways(inp, layout, loose_compose))
    claimed = {n: svc for svc in layout.services for n in (paths.basename(svc.root), *(c.name for c in svc.compose))}
    for svc in layout.services:
        app = inp.app_name(svc.root)
        owner = claimed.get(app or "")
        if owner is not None and owner is not svc:  # a spring.application.name copied from another service
            layout.gaps.append(
                Gap(inp.repository, svc.root, "name_collision",
                    f"spring.application.name {app!r} is another service's name: not used for this one")
            )  # fmt: skip
            app = None
        naming.name_unit(svc, inp.repository, inp.deployment.k8s.services, app)
    if inp.forced is not None:
        layout.services[0].aliases = sorted(
            set(layout.services[0].aliases + [layout.services[0].name]) - {inp.forced[0]}
        )
        layout.services[0].name = inp.forced[0]
    for named, alias in naming.dedupe_names(layout.services):
        layout.gaps.append(
            Gap(inp.repository, named.root, "name_collision", f"{named.name} is also configured as {alias!r}, "
                "another service's name: not used as an alias")
        )
    layout.services.sort(key=lambda u: u.name)
    layout.resources = collect_resources(
        inp.repository, inp.deployment, loose_compose, loose_workloads, cands, units, refs, layout
    )
    for language, files in sorted(unowned.items()):
        if language in KNOWN_STACKS:
            continue
        tops = sorted({f.split("/", 1)[0] if "/" in f else "." for f in files})
        for top in tops:
            count = sum(1 for f in files if (f.split("/", 1)[0] if "/" in f else ".") == top)
            layout.gaps.append(
                Gap(
                    inp.repository,
                    top,
                    "unknown_stack",
                    f"{count} {language} file(s) and no analyzer for {language}",
                )
            )
    return layout


def _embedded(cands: Mapping[str, Candidate]) -> set[str]:
    """Folders whose build output another unit packages (a frontend served from a jar's static
    resources): named by that unit's build, or by their own build script's output path."""
    out: set[str] = set()
    for folder, cand in cands.items():
        for m in cand.manifests:
            out |= {j for e in m.embeds if (j := paths.join(folder, e)) is not None and j != folder}
            if m.bundled:
                out.add(folder)
    return out


def _packaged(units: Sequence[Unit]) -> tuple[dict[int, tuple[str, str]], dict[int, int]]:
    """Dockerfiles in a code-less build module that copies a sibling module's build output
    (``from '../app/build/libs/app.war'`` in an application server's configuration module).

    The image runs the sibling's code: the service is the build both modules belong to (the
    ``settings.gradle`` / parent ``pom.xml`` folder above them), else the one packaged sibling.
    Returns ({runner unit: (stack, entry)}, {packaging unit: runner unit}); a packaged sibling
    under the runner is code of that service, not a service of its own.
    """
    index = {u.root: i for i, u in enumerate(units) if not u.split}
    runs: dict[int, tuple[str, str]] = {}
    packers: dict[int, int] = {}
    for i, unit in enumerate(units):
        cand = unit.candidate
        docker = any(paths.basename(m.path).startswith("Dockerfile") for m in cand.manifests)
        if unit.split or cand.code_files or not docker:
            continue
        packed = {
            j for m in cand.manifests for rel in m.packs
            if (j := index.get(paths.join(unit.root, rel) or "")) is not None and units[j].candidate.code_files
        }  # fmt: skip
        stacks = {units[j].candidate.stack for j in packed} - {None}
        if len(stacks) != 1:
            continue  # no code packaged, or code of two stacks: not one program
        parent = paths.parent(unit.root) or "."
        above = index.get(parent)
        children = {j for j, u in enumerate(units) if j != above and (paths.parent(u.root) or ".") == parent}
        runner = above if above is not None and children <= packed | {i} else None  # the build of just these
        if runner is None and len(packed) == 1:
            runner = next(iter(packed))
        if runner is None:
            continue
        names = ", ".join(sorted(paths.basename(units[j].root) for j in packed))
        runs[runner] = (stacks.pop() or "other", f"Dockerfile in {paths.basename(unit.root)} packaging {names}")
        packers[i] = runner
        for j in packed - {runner}:
            packers[j] = runner  # built into the runner's image, never run alone
    return runs, packers


def _code_below(units: Sequence[Unit], i: int) -> int:
    """A Dockerfile-only folder that copies in the one code folder below it (``api/Dockerfile``
    building ``api/app/``) runs that folder; with none or several, the folder itself."""
    root = units[i].root
    below = [
        j for j, u in enumerate(units)
        if j != i and paths.is_under(u.root, root) and (u.candidate.code_files or u.split)
    ]  # fmt: skip
    return below[0] if len(below) == 1 else i


def _unit(
    inp: LayoutInput, cands: Mapping[str, Candidate], unit: Unit, refs: Refs, stack: str, entry: str | None
) -> ServiceUnit:
    svc = ServiceUnit(name="", root=unit.root, stack=stack, entry=entry)
    svc.manifests = _ancestor_manifests(cands, unit.candidate.dir)
    svc.compose, svc.workloads = list(refs.compose), list(refs.workloads)
    svc.split_of = unit.candidate.dir if unit.split else None
    svc.evidence = [(m.path, 1) for m in unit.candidate.manifests]
    svc.evidence += [(p.file, p.line) for p in unit.candidate.processes if not unit.split or paths.is_under(p.folder, unit.root)]
    svc.evidence += [(c.file, c.line) for c in refs.compose] + [(w.file, w.line) for w, _ in refs.workloads]
    return svc


def _decide(
    inp: LayoutInput,
    layout: Layout,
    cands: Mapping[str, Candidate],
    unit: Unit,
    refs: Refs,
    imported: set[str],
) -> None:
    cand = unit.candidate
    deployed = bool(refs.compose or refs.workloads)
    if not deployed and not cand.processes and is_harness(unit.root):
        layout.libraries.append(unit.root)  # a test harness run by hand against the services
        return
    has_code = bool(unit.entries or unit.command) if unit.split else cand.code_files > 0
    strong = (
        (f"entry point {unit.entries[0]}" if unit.entries else None)
        or ("deployment command" if unit.command and deployed else None)
        or (None if unit.split else cand.strong_entry())
        or ("deployment reference" if deployed else None)
    )
    weak = None if unit.split or _missing_main(inp, cand) else cand.weak_entry()
    if not unit.split and cand.infra_image():
        return  # init scripts of a database image: a resource (layout.resources), not a service
    if not has_code:
        confs = [c for c in inp.nginx_confs if paths.is_under(c, unit.root) and c not in inp.balancers]
        if confs and (strong or deployed):
            server = inp.proxy_servers.get(confs[0], "nginx")
            svc = _unit(inp, cands, unit, refs, "other", f"{server} configuration")
            svc.framework = server
            layout.services.append(svc)
        return
    stack = cand.stack or "other"
    if stack not in KNOWN_STACKS:
        manifest = next((m.path for m in cand.manifests if m.stack == stack), None)
        reason = (
            f"{stack} code"
            + (f" ({paths.basename(manifest)})" if manifest else "")
            + ": no analyzer for this stack"
        )
        layout.gaps.append(Gap(inp.repository, unit.root, "unknown_stack", reason))
        if strong:
            layout.services.append(_unit(inp, cands, unit, refs, "other", strong))
        return
    if strong:
        layout.services.append(_unit(inp, cands, unit, refs, stack, strong))
    elif weak and not (set(cand.names()) & imported):
        layout.services.append(_unit(inp, cands, unit, refs, stack, weak))
    else:
        layout.libraries.append(unit.root)


#: folders a package's build writes its `main` into: absent from the sources, yet the program
_BUILD_OUTPUT = ("dist/", "build/", "lib/", "out/", "bin/")


def _missing_main(inp: LayoutInput, cand: Candidate) -> bool:
    """A package.json whose `main` names a source file the repository lacks (`npm init`'s
    `index.js` left at a root that only runs tests): that `main` is no sign of a program."""
    for m in cand.manifests:
        if not m.weak_entry or m.main is None:
            continue
        rel = m.main.strip().removeprefix("./")
        base = paths.join(paths.parent(m.path), rel) if rel else None
        if base is None or rel.startswith(_BUILD_OUTPUT) or not rel.endswith((".js", ".cjs", ".mjs")):
            return False
        stem = base.rsplit(".", 1)[0]
        return not any(p == base or p.startswith(stem + ".") for p in inp.code_paths)
    return False


def _fallback(
    inp: LayoutInput, layout: Layout, cands: Mapping[str, Candidate], unowned: Mapping[str, list[str]]
) -> None:
    """Nothing deployable found: index the top-most code folders (a library-shaped repository)."""
    tops = [c for c in cands.values() if c.stack in KNOWN_STACKS and c.code_files]
    tops = [c for c in tops if not any(o.dir != c.dir and paths.is_under(c.dir, o.dir) for o in tops)]
    for cand in sorted(tops, key=lambda c: c.dir):
        layout.services.append(
            _unit(inp, cands, Unit(cand.dir, cand), Refs(), cand.stack or "other", "code only")
        )
        if cand.dir in layout.libraries:
            layout.libraries.remove(cand.dir)
    if not layout.services and not cands:
        known = {k: len(v) for k, v in unowned.items() if k in KNOWN_STACKS}
        if known:
            stack = max(sorted(known), key=lambda k: known[k])
            layout.services.append(ServiceUnit(name="", root=".", stack=stack, entry="code only"))


def _forced(inp: LayoutInput, cands: Mapping[str, Candidate], refs: Mapping[int, Refs]) -> ServiceUnit:
    name, stack = inp.forced  # type: ignore[misc]
    svc = ServiceUnit(name=name, root=".", stack=stack, entry="forced")
    svc.manifests = list(cands["."].manifests) if "." in cands else []
    for ref in refs.values():
        svc.compose.extend(ref.compose)
        svc.workloads.extend(ref.workloads)
    return svc


def _gateways(inp: LayoutInput, layout: Layout, loose_compose: list[ComposeService]) -> list[ServiceUnit]:
    """Compose services running a stock proxy image (nginx, httpd, Envoy, Kong, Traefik) with a
    proxy configuration of the repository mounted. The same image pulled with nothing of the
    repository in it (a Traefik that only reads its neighbours' labels) is infrastructure: it stays
    loose and becomes a resource, and the routing labels are no calls of any service."""
    out = []
    for compose in list(loose_compose):
        if not infra.is_proxy(compose.image):
            continue
        # the image in the base file, the mounted config in docker-compose.override.yml
        mounts = [
            m
            for c in inp.deployment.compose
            if c.name == compose.name and paths.parent(c.file) == paths.parent(compose.file)
            for m in c.mounts
        ]
        confs = [
            c for c in inp.nginx_confs for m in mounts if (c == m or paths.is_under(c, m)) and c not in inp.balancers
        ]  # fmt: skip
        if not confs:
            continue
        root = paths.parent(confs[0])
        owner = next((s for s in layout.services if s.root == root), None)
        if owner is not None:
            owner.compose.append(compose)
        else:
            server = inp.proxy_servers.get(confs[0], "nginx")
            svc = ServiceUnit(
                name="", root=root, stack="other", framework=server, entry=f"{server} configuration"
            )
            svc.compose.append(compose)
            svc.evidence.append((compose.file, compose.line))
            out.append(svc)
        loose_compose.remove(compose)
    return out
