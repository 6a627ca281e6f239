"""Which folder each compose service / Kubernetes workload / skaffold artifact runs.

A compose service that builds a folder points at it directly (the Dockerfile's folder first);
workloads and image-only compose services point through their image: the image a compose build
or skaffold artifact produces, else an image named like the folder or the package.
"""

from __future__ import annotations

from collections.abc import Callable, Collection, Mapping, Sequence

from attrs import define, field

from orbitkb.analysis import paths
from orbitkb.analysis.filetypes import is_test_path
from orbitkb.analysis.layout.compose import ComposeService
from orbitkb.analysis.layout.deploy import Deployment
from orbitkb.analysis.layout.infra import image_name, image_repo, infra_of
from orbitkb.analysis.layout.k8s import Container, Workload


@define
class Refs:
    compose: list[ComposeService] = field(factory=list)
    workloads: list[tuple[Workload, Container]] = field(factory=list)


def assign(
    dep: Deployment,
    roots: Sequence[str],
    locate: Callable[[str, str | None], int | None],
    names: Callable[[int], set[str]],
    copies: Mapping[str, Sequence[str]] | None = None,
    infra_builds: Collection[str] = (),
    runnable: Callable[[int], bool] | None = None,
) -> tuple[dict[int, Refs], list[ComposeService], list[tuple[Workload, Container]]]:
    """(refs by unit index, unmatched compose services, unmatched workload containers).

    ``locate(folder, name)`` finds the unit running from a folder (``name`` breaks ties inside a
    split folder); ``names(i)`` are the names unit ``i`` is known by (folder, packages);
    ``copies``: Dockerfile path -> the context paths it copies, so that a Dockerfile beside no code
    (``docker build -f Dockerfile.orders .`` at the root) runs the one unit it copies in;
    ``infra_builds``: Dockerfiles whose final image is a database or a broker - a compose service
    naming one (``dockerfile: db.dockerfile`` beside the application's) runs no unit: a resource;
    ``runnable(i)``: unit ``i`` has an entry point (a Dockerfile copying a program's project and the
    libraries it references runs the program).
    """
    refs: dict[int, Refs] = {}
    by_image: dict[str, int] = {}
    unmatched_compose: list[ComposeService] = []
    image_only: list[ComposeService] = []
    for svc in dep.compose:
        if svc.build_context is None:
            image_only.append(svc)
            continue
        if is_test_path(paths.join(svc.build_context, "x") or "x"):
            continue  # built from an e2e/ or tests/ folder: a test runner, not a service
        if svc.dockerfile in infra_builds:
            unmatched_compose.append(svc)
            continue
        hint = paths.parent(svc.dockerfile) if svc.dockerfile else svc.build_context
        dockerfile = svc.dockerfile or paths.join(svc.build_context, "Dockerfile") or ""  # build: ./dir
        unit = _copied_unit(svc, (copies or {}).get(dockerfile, ()), locate, runnable)
        if unit is None:
            unit = locate(hint, svc.name)
        if unit is None and svc.dockerfile:
            unit = locate(svc.build_context, svc.name)
        if unit is None:
            unmatched_compose.append(svc)
            continue
        refs.setdefault(unit, Refs()).compose.append(svc)
        if svc.image:
            by_image.setdefault(image_repo(svc.image), unit)
    for art in dep.skaffold:
        unit = locate(paths.parent(art.dockerfile) if art.dockerfile else art.context, None)
        if unit is not None:
            by_image.setdefault(image_repo(art.image), unit)
    name_index: dict[str, set[int]] = {}
    squashed: dict[str, set[int]] = {}  # the same names without separators: OrdersAPI ~ orders-api
    for i in range(len(roots)):
        for name in names(i) | {s.name for s in refs.get(i, Refs()).compose}:
            name_index.setdefault(name.lower(), set()).add(i)
            squashed.setdefault(_squash(name), set()).add(i)

    def by_name(image: str | None, fallback: str | None) -> int | None:
        keys = [k for k in (image_repo(image) if image else None, image_name(image) if image else None, fallback) if k]
        for key in keys:
            if key in by_image:
                return by_image[key]
            found = name_index.get(key.lower(), set())
            if len(found) == 1:
                return next(iter(found))
        for key in keys:  # spelt another way: a kebab-case image of a PascalCase project folder
            found = squashed.get(_squash(key), set())
            if len(found) == 1 and _squash(key):
                return next(iter(found))
        return None

    for svc in image_only:
        # an image named like no folder (``acme/shop-orders-service``): the compose service's own
        # name, when it is a folder's name and the image is not a database or a broker
        unit = by_name(svc.image, None if infra_of(svc.image) else svc.name)
        if unit is None:
            unmatched_compose.append(svc)
        else:
            refs.setdefault(unit, Refs()).compose.append(svc)
            if svc.image:
                by_image.setdefault(image_repo(svc.image), unit)
    unmatched_workloads: list[tuple[Workload, Container]] = []
    for workload in dep.k8s.workloads:
        for container in workload.containers:
            fallback = workload.name if workload.kind == "HelmValues" or not container.image else None
            unit = by_name(container.image, fallback)
            if unit is None:
                unmatched_workloads.append((workload, container))
            else:
                refs.setdefault(unit, Refs()).workloads.append((workload, container))
    return refs, unmatched_compose, unmatched_workloads


def _squash(name: str) -> str:
    """A name in lower case without its separators (``Orders.API``, ``orders-api`` -> ``ordersapi``)."""
    return "".join(c for c in name.lower() if c.isalnum())


def _copied_unit(
    svc: ComposeService,
    sources: Sequence[str],
    locate: Callable[[str, str | None], int | None],
    runnable: Callable[[int], bool] | None = None,
) -> int | None:
    """The one unit whose folder the service's Dockerfile copies from its build context (a project
    file's folder, or a folder), when the copied paths all lie in the same unit; of several, the one
    with an entry point when the others have none (``COPY Api/Api.csproj``, ``COPY Core/Core.csproj``:
    the program and the library it references)."""
    found = set()
    for src in sources:
        path = paths.join(svc.build_context or ".", src.rstrip("/"))
        if not path or path == "." or "*" in src or "$" in src:
            continue
        name = paths.basename(path)
        folder = paths.parent(path) if "." in name.lstrip(".") else path
        if folder and folder != ".":
            found.add(locate(folder, svc.name))
    found.discard(None)
    if len(found) > 1 and runnable is not None:
        found = {i for i in found if i is not None and runnable(i)}
    return found.pop() if len(found) == 1 else None
