"""Kubernetes manifests (and rendered helm templates): workloads, Services, ConfigMaps, env."""

from __future__ import annotations

import base64
import binascii
from collections.abc import Callable

from attrs import define, field

from orbitkb.analysis.config.model import ConfigRef, ConfigValue
from orbitkb.analysis.layout.ingress import IngressRoute, ingress_routes
from orbitkb.analysis.yamlines import LDict, LList

WORKLOAD_KINDS = frozenset(
    {
        "Deployment",
        "StatefulSet",
        "DaemonSet",
        "ReplicaSet",
        "Job",
        "CronJob",
        "Pod",
        "DeploymentConfig",
        "Rollout",
        "Service",
    }
)


@define
class Container:
    name: str
    image: str | None
    env: dict[str, ConfigValue] = field(factory=dict)
    refs: list[ConfigRef] = field(factory=list)
    env_from: list[str] = field(factory=list)  # ConfigMap (and Secret) names
    ports: list[int] = field(factory=list)
    command: list[str] = field(factory=list)  # command then args


@define
class Workload:
    kind: str
    name: str
    file: str
    line: int
    source: str  # kubernetes | helm
    namespace: str | None = None
    labels: dict[str, str] = field(factory=dict)
    containers: list[Container] = field(factory=list)


@define
class KService:
    name: str
    file: str
    line: int
    namespace: str | None = None
    selector: dict[str, str] = field(factory=dict)
    ports: list[int] = field(factory=list)


@define
class K8sModel:
    workloads: list[Workload] = field(factory=list)
    services: list[KService] = field(factory=list)
    configmaps: dict[str, dict[str, ConfigValue]] = field(factory=dict)
    namespaces: set[str] = field(factory=lambda: {"default"})
    ingress: list[IngressRoute] = field(factory=list)  # path prefix -> Service, of every Ingress


def looks_like_k8s(text: str) -> bool:
    return "apiVersion" in text and "kind:" in text


def _pod_spec(kind: str, spec: object) -> object:
    if not isinstance(spec, LDict):
        return None
    if kind == "Pod":
        return spec
    if kind == "CronJob":
        spec = (
            spec.get("jobTemplate", {}).get("spec", {}) if isinstance(spec.get("jobTemplate"), LDict) else {}
        )
    template = spec.get("template") if isinstance(spec, dict) else None
    return template.get("spec") if isinstance(template, LDict) else None


def _container(raw: LDict, file: str, source: str, fix: Callable[[int], int]) -> Container:
    c = Container(name=str(raw.get("name", "")), image=str(raw["image"]) if raw.get("image") else None)
    env = raw.get("env")
    env_list = env if isinstance(env, LList) else LList()
    for i, item in enumerate(env_list):
        if not isinstance(item, LDict) or not item.get("name"):
            continue
        name, line = str(item["name"]), fix(env_list.line(i))
        if "value" in item and item["value"] is not None:
            c.env[name] = ConfigValue(name, str(item["value"]), file, line, source)
        ref = item.get("valueFrom")
        if isinstance(ref, LDict) and isinstance(ref.get("configMapKeyRef"), LDict):
            cm = ref["configMapKeyRef"]
            c.refs.append(
                ConfigRef(name, str(cm.get("name", "")), str(cm.get("key", "")), file, line, source)
            )
        elif isinstance(ref, LDict) and isinstance(ref.get("secretKeyRef"), LDict):
            sk = ref["secretKeyRef"]
            c.refs.append(
                ConfigRef(name, str(sk.get("name", "")), str(sk.get("key", "")), file, line, source)
            )
    for item in raw.get("envFrom") or []:
        for key in ("configMapRef", "secretRef"):
            if isinstance(item, LDict) and isinstance(item.get(key), LDict) and item[key].get("name"):
                c.env_from.append(str(item[key]["name"]))
    for port in raw.get("ports") or []:
        if isinstance(port, LDict) and isinstance(port.get("containerPort"), int):
            c.ports.append(port["containerPort"])
    for key in ("command", "args"):
        words = raw.get(key)
        if isinstance(words, list):
            c.command.extend(str(w) for w in words if w is not None)
    return c


def _data(kind: str, doc: LDict, file: str, source: str, fix: Callable[[int], int]) -> dict[str, ConfigValue]:
    out: dict[str, ConfigValue] = {}
    for section in ("data", "stringData"):
        data = doc.get(section)
        if not isinstance(data, LDict):
            continue
        for key, value in data.items():
            text = "" if value is None else str(value)
            if kind == "Secret" and section == "data":
                try:
                    text = base64.b64decode(text, validate=True).decode("utf-8")
                except (binascii.Error, UnicodeDecodeError, ValueError):
                    continue
            out[key] = ConfigValue(key, text, file, fix(data.line(key)), source)
    return out


def read_k8s(
    model: K8sModel, path: str, docs: list[object], source: str = "kubernetes",
    fix: Callable[[int], int] = lambda line: line,
) -> None:  # fmt: skip
    """Add the objects of one file's documents to ``model``. ``fix`` maps rendered to template lines."""
    stack = list(docs)
    while stack:
        doc = stack.pop(0)
        if not isinstance(doc, LDict):
            continue
        kind = str(doc.get("kind", ""))
        if kind == "List" and isinstance(doc.get("items"), list):
            stack.extend(doc["items"])
            continue
        meta: LDict = doc["metadata"] if isinstance(doc.get("metadata"), LDict) else LDict()
        name = str(meta.get("name") or "")
        namespace = str(meta["namespace"]) if meta.get("namespace") else None
        if namespace:
            model.namespaces.add(namespace)
        if kind == "Namespace" and name:
            model.namespaces.add(name)
        line = fix(doc.line("kind"))
        spec = doc.get("spec")
        if kind in ("ConfigMap", "Secret") and name:
            model.configmaps.setdefault(name, {}).update(_data(kind, doc, path, source, fix))
        elif kind == "Ingress":
            model.ingress.extend(ingress_routes(doc, path, fix))
        elif kind == "Service" and isinstance(spec, LDict) and "template" not in spec:
            selector: dict[str, object] = spec["selector"] if isinstance(spec.get("selector"), LDict) else {}
            ports = [p.get("port") for p in spec.get("ports") or [] if isinstance(p, LDict)]
            model.services.append(
                KService(name, path, line, namespace, {str(k): str(v) for k, v in selector.items()},
                         [p for p in ports if isinstance(p, int)])
            )  # fmt: skip
        elif kind in WORKLOAD_KINDS and name:
            pod = _pod_spec(kind, spec)
            if not isinstance(pod, LDict):
                continue
            template = spec.get("template") if isinstance(spec, LDict) else None
            tmeta = template.get("metadata") if isinstance(template, LDict) else None
            labels = tmeta.get("labels") if isinstance(tmeta, LDict) else meta.get("labels")
            workload = Workload(kind, name, path, line, source, namespace)
            workload.labels = {str(k): str(v) for k, v in labels.items()} if isinstance(labels, dict) else {}
            for raw in pod.get("containers") or []:
                if isinstance(raw, LDict):
                    workload.containers.append(_container(raw, path, source, fix))
            model.workloads.append(workload)
