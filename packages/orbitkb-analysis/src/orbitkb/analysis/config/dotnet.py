""".NET ``appsettings.json`` / ``appsettings.<Environment>.json``: keys flattened with ``:`` as
``IConfiguration`` reads them (``ApiSettings:CatalogUrl``, ``ConnectionStrings:Db``), with lines,
the environment of the file name as the profile. An environment variable overrides a key spelled
with ``:`` or ``__`` (``ApiSettings__CatalogUrl``), as the .NET configuration binder does."""

from __future__ import annotations

import json
import re

from orbitkb.analysis import paths
from orbitkb.analysis.config.model import ConfigValue
from orbitkb.analysis.config.spring import SOURCE, SpringDoc

_FILE = re.compile(r"^appsettings(?:\.([\w\-]+))?\.json$", re.I)
#: The file a .NET project's local run profiles live in (``Properties/launchSettings.json``).
LAUNCH_SETTINGS = "launchSettings.json"
_URL_PORT = re.compile(r"^\s*[a-z][\w+.-]*://(?:\[[^\]]*\]|[^/:;\s]+):(\d+)", re.I)
#: The variables naming the running environment (the profile whose appsettings file applies).
ENVIRONMENT_VARIABLES = ("ASPNETCORE_ENVIRONMENT", "DOTNET_ENVIRONMENT")


def is_appsettings(path: str) -> bool:
    return bool(_FILE.match(paths.basename(path)))


def env_names(key: str) -> tuple[str, ...]:
    """The environment variable spellings that override configuration ``key``, lower-cased (the
    .NET binder ignores case): ``urls:orders`` and ``urls__orders``."""
    if not key or any(c in key for c in " ${}"):
        return ()
    lowered = key.lower()
    return (lowered, lowered.replace(":", "__")) if ":" in key else (lowered,)


def _strip_comments(text: str) -> str:
    """appsettings files may carry ``//`` comments and trailing commas (JSON with comments)."""
    out = re.sub(r'("(?:\\.|[^"\\])*")|//[^\n]*|/\*.*?\*/', lambda m: m.group(1) or "", text, flags=re.S)
    return re.sub(r",(\s*[}\]])", r"\1", out)


def _line_of(text: str, key: str, start: int) -> tuple[int, int]:
    pos = text.find(f'"{key}"', start)
    if pos < 0:
        return text.count("\n", 0, start) + 1, start
    return text.count("\n", 0, pos) + 1, pos


def read_appsettings(path: str, text: str) -> tuple[list[SpringDoc], str | None]:
    try:
        data = json.loads(_strip_comments(text.lstrip("\ufeff")))
    except ValueError as exc:
        return [], f"invalid JSON: {exc}"[:200]
    m = _FILE.match(paths.basename(path))
    doc = SpringDoc(path, m.group(1) if m else None)
    cursor = [0]

    def walk(node: object, prefix: str) -> None:
        if isinstance(node, dict):
            for key, value in node.items():
                line, cursor[0] = _line_of(text, str(key), cursor[0])
                full = f"{prefix}:{key}" if prefix else str(key)
                if isinstance(value, (dict, list)):
                    walk(value, full)
                else:
                    shown = (
                        ""
                        if value is None
                        else ("true" if value is True else "false" if value is False else str(value))
                    )
                    doc.props[full] = ConfigValue(full, shown, path, line, SOURCE)
        elif isinstance(node, list):
            for i, value in enumerate(node):
                if isinstance(value, (dict, list)):
                    walk(value, f"{prefix}:{i}")
                else:
                    line = text.count("\n", 0, cursor[0]) + 1
                    doc.props[f"{prefix}:{i}"] = ConfigValue(f"{prefix}:{i}", str(value), path, line, SOURCE)

    walk(data, "")
    return [doc], None


def url_ports(urls: str) -> list[int]:
    """The ports of a ``;``-separated URL list as ASP.NET Core binds them (``https://localhost:7200;
    http://+:5000``); a URL without a port names none."""
    return [int(m.group(1)) for url in urls.split(";") if (m := _URL_PORT.match(url))]


def launch_ports(path: str, text: str) -> list[int]:
    """The ports a project listens on when run locally: every profile's ``applicationUrl`` in its
    ``launchSettings.json`` and IIS Express's ``applicationUrl``/``sslPort``."""
    if paths.basename(path) != LAUNCH_SETTINGS:
        return []
    try:
        data = json.loads(_strip_comments(text.lstrip("\ufeff")))
    except ValueError:
        return []
    if not isinstance(data, dict):
        return []
    found: list[int] = []
    iis = (data.get("iisSettings") or {}).get("iisExpress") if isinstance(data.get("iisSettings"), dict) else None
    profiles = data.get("profiles")
    for node in [iis, *(profiles.values() if isinstance(profiles, dict) else ())]:
        if not isinstance(node, dict):
            continue
        if isinstance(node.get("applicationUrl"), str):
            found += url_ports(node["applicationUrl"])
        if isinstance(node.get("sslPort"), int) and node["sslPort"] > 0:
            found.append(node["sslPort"])
    return found


def configured_ports(values: list[tuple[str, str]]) -> list[int]:
    """Ports named by the settings ASP.NET Core listens on: ``ASPNETCORE_URLS``/``URLS`` and
    ``Kestrel:Endpoints:<name>:Url`` (any spelling: ``:`` or ``__``, any case)."""
    out: list[int] = []
    for key, value in values:
        k = key.lower().replace("__", ":")
        if k in ("aspnetcore_urls", "urls") or (k.startswith("kestrel:endpoints:") and k.endswith(":url")):
            out += url_ports(value)
    return out
