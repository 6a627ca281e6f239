"""Names and aliases of deployable units, as the repository itself names them."""

from __future__ import annotations

import re
from collections.abc import Sequence

from orbitkb.analysis import paths
from orbitkb.analysis.layout.k8s import KService
from orbitkb.analysis.layout.model import ServiceUnit

_WORKLOAD_SUFFIX = re.compile(r"-(deployment|deploy|statefulset|sts|daemonset|ds|rollout|dc)$")
#: Names that say nothing about a service: a container called "server", a folder called "src".
GENERIC_NAMES = frozenset({"server", "main", "app", "application", "src", "source", "service", "default",
                           "container", "code", "impl", "cmd", "bin", "html", "www"})

#: Folder names that say which part of a product a folder is, not which product: ``shop/admin``,
#: ``courier/job`` are known as ``shop-admin``, ``courier-job``.
ROLE_NAMES = frozenset({"api", "job", "jobs", "worker", "interface", "admin", "web", "gateway", "consumer",
                        "bff", "cron", "scheduler", "task", "grpc", "http", "rest"})
#: Folders that only group services (``apps/orders``): never a prefix.
GROUP_NAMES = frozenset({"apps", "services", "packages", "modules", "components", "projects",
                         "microservices", "internal", "pkg", "backend", "frontend", "."})


def qualified(root: str) -> str:
    """``app/cart/service`` -> ``cart-service``: the folder with its parent's name before it, the
    way a deployment names such a folder; the bare folder when the parent only groups folders."""
    leaf, parent = paths.basename(root), paths.basename(paths.parent(root))
    if root == "." or not parent or parent.lower() in GENERIC_NAMES | GROUP_NAMES:
        return leaf
    return f"{parent}-{leaf}"


def _package_names(unit: ServiceUnit) -> list[str]:
    own = [m for m in unit.manifests if paths.parent(m.path) == (unit.split_of or unit.root)]
    out = []
    for m in own:
        if m.name and unit.split_of is None:
            # "@acme/orders" is known to people (and hosts) as "orders"
            out.append(m.name.split("/", 1)[1] if m.name.startswith("@") and "/" in m.name else m.name)
    return out


def name_unit(
    unit: ServiceUnit, repository: str, k8s_services: Sequence[KService], app_name: str | None
) -> None:
    """Set ``unit.name`` and ``unit.aliases`` in place."""
    names: list[str] = []
    for svc in unit.compose:
        names.append(svc.name)
    for svc in unit.compose:
        names.extend(x for x in (svc.container_name, svc.hostname, *svc.aliases) if x)
    for workload, container in sorted(
        unit.workloads, key=lambda wc: (wc[0].kind == "HelmValues", wc[0].file)
    ):
        workload_name = workload.name
        if _WORKLOAD_SUFFIX.search(workload_name) and container.name:
            workload_name = container.name
        names.append(workload_name)
        if container.name and container.name.lower() not in GENERIC_NAMES:
            names.append(container.name)
        for ksvc in k8s_services:
            if ksvc.selector and all(workload.labels.get(k) == v for k, v in ksvc.selector.items()):
                names.append(ksvc.name)
    if app_name:  # what discovery uses (lb://name, Eureka, Feign): right after deployment names
        names.append(app_name)
    folder = repository if unit.root == "." else paths.basename(unit.root)
    full = folder  # a second name: cart/service is also known as cart-service
    if folder.lower() in GENERIC_NAMES and unit.root != ".":  # src/cartservice/src -> cartservice
        parent = paths.basename(paths.parent(unit.root))
        folder, full = (parent if parent and parent != "." else folder), qualified(unit.root)
    elif folder.lower() in ROLE_NAMES and unit.root != ".":  # shop/admin -> shop-admin
        folder, full = qualified(unit.root), folder
    names.append(folder)
    if full != folder and full.lower() not in GENERIC_NAMES:
        names.append(full)
    names.extend(_package_names(unit))  # npm names are often scoped: kept below the folder
    clean = [n.strip() for n in names if n and n.strip() and "${" not in n and "{{" not in n]
    unit.name = clean[0] if clean else folder
    unit.aliases = sorted({n for n in clean if n != unit.name})


def dedupe_names(units: Sequence[ServiceUnit]) -> list[tuple[ServiceUnit, str]]:
    """Two units named alike (``orders/api`` and ``payments/api``) get their parent folder prefixed;
    an alias several units share names none of them (a host called that would be ambiguous), and
    an alias that is another unit's name (a copy-pasted ``spring.application.name``) is dropped
    and returned as (unit, alias): a gap to report, never a second name for the other unit."""
    alias_count: dict[str, int] = {}
    for unit in units:
        for a in set(unit.aliases):
            alias_count[a] = alias_count.get(a, 0) + 1
    names = {u.name for u in units}
    clashes = [(u, a) for u in units for a in u.aliases if a in names and a != u.name]
    for unit in units:
        unit.aliases = sorted(
            a
            for a in unit.aliases
            if alias_count[a] == 1 and a.lower() not in GENERIC_NAMES and (a not in names or a == unit.name)
        )
    seen: dict[str, int] = {}
    for unit in sorted(units, key=lambda u: u.root):
        seen[unit.name] = seen.get(unit.name, 0) + 1
    taken = set()
    for unit in sorted(units, key=lambda u: u.root):
        if seen[unit.name] > 1:
            parent = paths.basename(paths.parent(unit.root)) if unit.root != "." else ""
            candidate = f"{parent}-{unit.name}" if parent and parent != "." else unit.name
            number = 2
            base = candidate
            while candidate in taken:
                candidate, number = f"{base}-{number}", number + 1
            if candidate != unit.name:
                unit.aliases = sorted(set(unit.aliases) | {unit.name})
            unit.name = candidate
        taken.add(unit.name)
    return clashes
