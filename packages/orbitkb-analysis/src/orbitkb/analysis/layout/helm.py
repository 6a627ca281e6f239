"""Helm charts, cheaply: values.yaml images and env, and templates rendered for simple actions.

No helm binary and no Go templates: ``{{ .Values.a.b }}`` (with ``| default``/``| quote``),
names (``.Release.Name``, ``.Chart.Name``, ``include "x.fullname" .``) and
``toYaml .Values.x | nindent N`` are substituted; control lines (if/range/with/end/define) are
dropped. A template that still is not YAML is reported, never guessed at.
"""

from __future__ import annotations

import re
from collections.abc import Iterator

import yaml
from attrs import define, field

from orbitkb.analysis import paths
from orbitkb.analysis.config.model import ConfigValue
from orbitkb.analysis.layout.k8s import Container, Workload
from orbitkb.analysis.yamlines import LDict, LList

SOURCE = "helm"
_ACTION = re.compile(r"\{\{-?\s*(.*?)\s*-?\}\}")
_CONTROL = re.compile(
    r"^(?:if|else|end|range|with|define|block|/\*|\$[\w]+\s*:=|template\s+\"[^\"]*\"\s*\.?$)"
)
_ENV_KEYS = ("env", "extraEnv", "envVars", "environment", "extraEnvVars", "envs")


@define
class Chart:
    dir: str
    name: str
    values: LDict = field(factory=LDict)
    values_file: str | None = None
    dependencies: list[tuple[str, int]] = field(factory=list)  # (chart name, line) of Chart.yaml deps


def _lookup(values: object, dotted: str) -> object:
    node = values
    for part in dotted.split("."):
        if not isinstance(node, dict) or part not in node:
            return None
        node = node[part]
    return node


def _eval(action: str, chart: Chart) -> tuple[object, bool]:
    """(value, is_yaml_block) of one template action; None when not cheap to evaluate."""
    pipes = [p.strip() for p in action.split("|")]
    head = pipes[0]
    value: object = None
    if head.startswith("toYaml ") and head[7:].strip().startswith(".Values."):
        return _lookup(chart.values, head[7:].strip()[8:]), True
    if head.startswith(".Values."):
        value = _lookup(chart.values, head[8:])
    elif head.startswith("default "):
        m = re.match(r'default\s+"?([^"\s]*)"?\s+\.Values\.([\w.]+)', head)
        if m:
            value = _lookup(chart.values, m.group(2)) or m.group(1)
    elif (
        "fullname" in head
        or "Release.Name" in head
        or "Chart.Name" in head
        or head.startswith(("include", "template"))
    ):
        value = chart.name
    for pipe in pipes[1:]:
        m = re.match(r'default\s+"?([^"\s]*)"?', pipe)
        if m and value in (None, ""):
            value = m.group(1)
    return value, False


def render(text: str, chart: Chart) -> tuple[str, list[int]]:
    """(rendered text, origin line of each rendered line) for one template."""
    out: list[str] = []
    origin: list[int] = []
    for number, line in enumerate(text.splitlines(), 1):
        stripped = line.strip()
        actions = _ACTION.findall(stripped)
        if actions and _ACTION.sub("", stripped).strip() == "":
            if all(_CONTROL.match(a) for a in actions):
                continue
            value, block = _eval(actions[0], chart)
            if block and value:
                indent = re.search(r"n?indent\s+(\d+)", actions[0])
                pad = " " * (int(indent.group(1)) if indent else len(line) - len(line.lstrip()))
                dumped = yaml.safe_dump(_plain(value), default_flow_style=False, sort_keys=False)
                for dumped_line in dumped.splitlines():
                    out.append(pad + dumped_line)
                    origin.append(number)
            continue

        def sub(match: re.Match[str]) -> str:
            value, _ = _eval(match.group(1), chart)
            return "" if value is None or isinstance(value, (dict, list)) else str(value)

        out.append(_ACTION.sub(sub, line))
        origin.append(number)
    return "\n".join(out), origin


def _plain(value: object) -> object:
    if isinstance(value, dict):
        return {str(k): _plain(v) for k, v in value.items()}
    if isinstance(value, list):
        return [_plain(v) for v in value]
    return value


def _image(spec: LDict) -> str | None:
    image = spec.get("image")
    if isinstance(image, str):
        return image
    if isinstance(image, LDict):
        repo = image.get("repository") or image.get("name")
        return str(repo) if repo else None
    return None


def values_workloads(chart: Chart) -> Iterator[Workload]:
    """Pseudo-workloads straight from values.yaml: the chart itself and umbrella sub-sections."""
    if chart.values_file is None:
        return
    sections: list[tuple[str, LDict]] = [(chart.name, chart.values)]
    sections += [(k, v) for k, v in chart.values.items() if isinstance(v, LDict) and "image" in v]
    for name, spec in sections:
        image = _image(spec)
        if image is None and not any(k in spec for k in _ENV_KEYS):
            continue
        line = spec.line("image") if "image" in spec else 1
        container = Container(name=name, image=image)
        for key in _ENV_KEYS:
            raw = spec.get(key)
            if isinstance(raw, LDict):
                for k, v in raw.items():
                    if v is not None and not isinstance(v, (dict, list)):
                        container.env[k] = ConfigValue(k, str(v), chart.values_file, raw.line(k), SOURCE)
            elif isinstance(raw, LList):
                for i, item in enumerate(raw):
                    if isinstance(item, LDict) and item.get("name") and item.get("value") is not None:
                        env_name = str(item["name"])
                        container.env[env_name] = ConfigValue(
                            env_name, str(item["value"]), chart.values_file, raw.line(i), SOURCE
                        )
        yield Workload("HelmValues", name, chart.values_file, line, SOURCE, containers=[container])


def chart_of(path: str, charts: dict[str, Chart]) -> Chart | None:
    """The chart whose templates/ folder holds ``path``."""
    for folder in paths.ancestors(path):
        if folder in charts and paths.is_under(path, paths.join(folder, "templates") or ""):
            return charts[folder]
    return None
