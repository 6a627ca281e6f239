"""build.gradle / build.gradle.kts: dependency coordinates, plugins, Java level and the wrapper's
Gradle version. Declarations inside ``subprojects {}`` / ``allprojects {}`` apply to the modules
below the build file, so they are marked shared."""

from __future__ import annotations

import re
from collections.abc import Callable, Mapping

from orbitkb.analysis import paths
from orbitkb.analysis.technologies.found import Found, clean_version, line_at, tables

_COORD = re.compile(
    r"""^[ \t]*(?P<conf>[A-Za-z_]\w*)[ \t]*\(?[ \t]*(?:(?:enforced)?[pP]latform[ \t]*\(?[ \t]*)?"""
    r"""["'](?P<group>[\w.\-]+):(?P<artifact>[\w.\-]+)(?::(?P<version>[^:"'@\s]+))?[^"']*["']""",
    re.M,
)
_MAP = re.compile(
    r"""^[ \t]*(?P<conf>[A-Za-z_]\w*)[ \t]*\(?[ \t]*group[ \t]*[:=][ \t]*["'](?P<group>[\w.\-]+)["'][ \t]*,"""
    r"""[ \t]*name[ \t]*[:=][ \t]*["'](?P<artifact>[\w.\-]+)["']"""
    r"""(?:[ \t]*,[ \t]*version[ \t]*[:=][ \t]*["'](?P<version>[^"']+)["'])?""",
    re.M,
)
_PLUGIN = re.compile(
    r"""^[ \t]*(?:id[ \t]*\(?[ \t]*["'](?P<id>[\w.\-]+)["'][ \t]*\)?|kotlin[ \t]*\([ \t]*["'](?P<kt>\w+)["'][ \t]*\))"""
    r"""(?:[ \t]*version[ \t]*\(?[ \t]*["'](?P<version>[^"']+)["'])?""",
    re.M,
)
_APPLY = re.compile(r"""^[ \t]*apply[ \t]+plugin[ \t]*:[ \t]*["'](?P<id>[\w.\-]+)["']""", re.M)
_JAVA = re.compile(
    r"""(?:sourceCompatibility\s*=\s*(?:JavaVersion\.VERSION_)?["']?([\d._]+)|JavaLanguageVersion\.of\(\s*(\d+)\s*\)"""
    r"""|jvmToolchain\(\s*(\d+)\s*\))"""
)
_NOT_DEPENDENCIES = {"id", "classpath", "apply", "include", "mavenBom", "url", "version", "group", "name"}
_TEST_CONF = re.compile(r"^(?:test|androidTest|integrationTest|testFixtures)\w*$")
_BOOT_GROUP = "org.springframework.boot"
_SHARED_BLOCK = re.compile(r"\b(?:subprojects|allprojects)\s*\{")
_VAR = re.compile(r"^\$\{?([\w.]+)\}?$")


def _shared_spans(text: str) -> list[tuple[int, int]]:
    spans = []
    for match in _SHARED_BLOCK.finditer(text):
        depth, end = 1, match.end()
        while end < len(text) and depth:
            depth += {"{": 1, "}": -1}.get(text[end], 0)
            end += 1
        spans.append((match.start(), end))
    return spans


def _variables(path: str, text: str, texts: Mapping[str, str]) -> dict[str, str]:
    """Simple version variables: ``x = "1.2"`` / ``val x = "1.2"`` here, ``x=1.2`` in gradle.properties."""
    out: dict[str, str] = {}
    for folder in reversed([paths.parent(path), *paths.ancestors(path)[1:]]):
        props = texts.get(paths.join(folder, "gradle.properties") or "", "")
        out.update(dict(re.findall(r"^[ \t]*([\w.]+)[ \t]*[=:][ \t]*(\S+)[ \t]*$", props, re.M)))
    out.update(
        dict(
            re.findall(
                r"""^[ \t]*(?:val|def|set\()?[ \t]*["']?([\w.]+)["']?[ \t]*[=,][ \t]*["']([\w.\-+]+)["']""",
                text,
                re.M,
            )
        )
    )
    return out


def _version(raw: str | None, variables: Mapping[str, str]) -> str | None:
    if raw is None:
        return None
    var = _VAR.match(raw)
    if var:
        return clean_version(variables.get(var.group(1)))
    return None if "$" in raw else clean_version(raw)


def read(path: str, text: str, texts: Mapping[str, str]) -> list[Found]:
    spans = _shared_spans(text)
    variables = _variables(path, text, texts)

    def shared(offset: int) -> bool:
        return any(a <= offset < b for a, b in spans)

    wrapper = texts.get(paths.join(paths.parent(path), "gradle/wrapper/gradle-wrapper.properties") or "", "")
    gradle_version = re.search(r"gradle-([\d.]+(?:-\w+)?)-(?:bin|all)\.zip", wrapper)
    out = [Found("build_tool", "gradle", gradle_version.group(1) if gradle_version else None, path, 1)]
    plugins = _plugins(path, text, variables, shared)
    boot = next((f.version for f in plugins if f.name == "spring-boot" and f.version), None)
    for pattern in (_COORD, _MAP):
        for match in pattern.finditer(text):
            conf = match.group("conf")
            if conf in _NOT_DEPENDENCIES:
                continue
            group = match.group("group")
            version = _version(match.group("version"), variables)
            if version is None and group == _BOOT_GROUP:
                version = boot  # the Spring Boot plugin manages the versions of Boot's own artifacts
            out.append(
                Found("library", f"{group}:{match.group('artifact')}", version, path, line_at(text, match.start()),
                      conf if _TEST_CONF.match(conf) else None, shared(match.start()))
            )  # fmt: skip
    out += plugins
    java = _JAVA.search(text)
    if java:
        level = next(g for g in java.groups() if g).replace("_", ".")
        out.append(
            Found("language", "java", level, path, line_at(text, java.start()), None, shared(java.start()))
        )
    return out


def _plugins(
    path: str, text: str, variables: Mapping[str, str], shared: Callable[[int], bool]
) -> list[Found]:
    """Plugins that name a framework or a language (``id("org.springframework.boot") version "3.2.5"``)."""
    table = tables()["gradle_plugins"]
    out = []
    for match in [*_PLUGIN.finditer(text), *_APPLY.finditer(text)]:
        groups = match.groupdict()
        plugin = groups.get("id") or f"kotlin({groups.get('kt')})"
        if plugin in table:
            kind, name = table[plugin]
            version = _version(groups.get("version"), variables)
            out.append(
                Found(kind, name, version, path, line_at(text, match.start()), None, shared(match.start()))
            )
    return out
