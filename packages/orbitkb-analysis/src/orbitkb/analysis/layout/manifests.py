"""Build manifests read cheaply: package name, dependencies, entry-point hints, workspace/modules.

One reader per manifest kind, chosen from a table by file name. Readers never raise: a manifest
that does not parse yields what could be read (a name-less, dependency-less Manifest).
"""

from __future__ import annotations

import json
import re
import shlex
import tomllib
import xml.etree.ElementTree as ET
from collections.abc import Callable, Mapping
from typing import Any

from attrs import define, field

from orbitkb.analysis.layout import buildargs
from orbitkb.domain.stacks import manifest_stacks

#: Manifest file name (or ``.suffix`` kind) -> stack it declares (None: says nothing about the
#: language): the analysed stacks' manifests from the domain's table, then languages nobody analyses.
MANIFEST_STACKS: dict[str, str | None] = {
    **manifest_stacks(), "Dockerfile": None,
    "mix.exs": "elixir", "pubspec.yaml": "dart", "CMakeLists.txt": "c-cpp", "build.sbt": "scala",
}  # fmt: skip

#: package.json scripts that start a long-running program.
START_SCRIPTS = ("start", "start:prod", "serve", "start:dev")


@define
class Manifest:
    path: str
    stack: str | None
    name: str | None = None
    deps: set[str] = field(factory=set)
    entry: str | None = None  # why this manifest says "deployable", e.g. "package.json start script"
    weak_entry: bool = False  # only a package.json "main": libraries have one too
    main: str | None = None  # package.json "main", relative to the manifest's folder
    aggregator: bool = False  # workspaces / <modules> / pom packaging: a monorepo root
    images: list[str] = field(factory=list)  # Dockerfile FROM images
    ports: list[int] = field(factory=list)  # Dockerfile EXPOSE
    env: list[tuple[str, str, int]] = field(factory=list)  # Dockerfile ENV of the final stage: (key, value, line)
    #: folders (relative to the manifest's) whose build output this build packages into its own
    #: artifact: a frontend built by frontend-maven-plugin / the Gradle node plugin and served as
    #: static resources is part of this unit, not a service of its own
    embeds: list[str] = field(factory=list)
    bundled: bool = False  # a package.json whose build writes into a JVM module's resources
    copies: list[str] = field(factory=list)  # Dockerfile COPY/ADD sources from the build context
    #: sibling module folders (``../app``) whose build output this build copies into its own
    #: folder: a packaging module (an application server's configuration beside a Dockerfile)
    packs: list[str] = field(factory=list)
    #: folders (relative to the manifest's) whose sub-folders a Dockerfile compiles one per build
    #: argument (``go build ./services/$SERVICE``): each sub-folder with an entry point is a deployable
    program_dirs: list[str] = field(factory=list)


def manifest_kind(name: str) -> str | None:
    """The manifest kind of a file name, or None when the file is not a build manifest."""
    if name in MANIFEST_STACKS:
        return name
    if name.endswith(".csproj"):
        return ".csproj"
    # ``Dockerfile``, ``Dockerfile.dev``, ``Dockerfile-alpine``; not ``DockerfileSolutionRestore.txt``
    if re.fullmatch(r"Dockerfile(?:[.\-_].*)?", name) or name.endswith(".dockerfile"):
        return "Dockerfile"
    if re.fullmatch(r"requirements[-_.]?\w*\.txt", name):
        return "requirements.txt"
    return None


def _package_json(m: Manifest, text: str) -> None:
    data = json.loads(text)
    if not isinstance(data, dict):
        return
    m.name = data.get("name") if isinstance(data.get("name"), str) else None
    for key in ("dependencies", "devDependencies", "peerDependencies"):
        if isinstance(data.get(key), dict):
            m.deps.update(data[key])
    m.aggregator = bool(data.get("workspaces"))
    scripts: dict[str, Any] = data["scripts"] if isinstance(data.get("scripts"), dict) else {}
    if m.aggregator:  # a workspace root's scripts orchestrate its members
        return
    m.bundled = any(isinstance(v, str) and _INTO_RESOURCES.search(v) for v in scripts.values())
    for script in START_SCRIPTS:
        if isinstance(scripts.get(script), str):
            m.entry = f"package.json script {script!r}"
            return
    if isinstance(data.get("main"), str):
        m.entry, m.weak_entry, m.main = "package.json main", True, data["main"]


#: a build output path inside a JVM module's served resources
_INTO_RESOURCES = re.compile(r"src/main/(?:resources/(?:static|public|META-INF/resources)|webapp)\b")
#: Maven plugins that build a folder of the module (``<workingDirectory>``) into its artifact
_POM_FRONTEND_PLUGINS = {"frontend-maven-plugin"}
#: build-relative prefixes that name the module folder itself
_BASEDIR = re.compile(r"^\$\{(?:project\.basedir|basedir|project\.projectDir|projectDir)\}/|^\$projectDir/")


def _embedded(path: str) -> str | None:
    """``frontend/build`` -> ``frontend``: the first folder of a module-relative path (not its own
    sources, build output or an unresolved placeholder)."""
    first = _BASEDIR.sub("", path.strip()).strip("/").split("/", 1)[0]
    if not first or first in (".", "..", "src", "target", "build") or "$" in first:
        return None
    return first


#: a path into a sibling module's build output: ``../app/build/libs/app.war``, ``../app/target/app.war``
_SIBLING_OUTPUT = re.compile(r"""(?<![\w./])\.\./([\w.\-]+)/(?:build|target)\b""")


def _packs(text: str) -> list[str]:
    """``../app`` for every sibling module whose build output the build file copies."""
    return sorted({f"../{name}" for name in _SIBLING_OUTPUT.findall(text) if name not in (".", "..")})


def _strip_ns(tag: str) -> str:
    return tag.rsplit("}", 1)[-1]


def _pom(m: Manifest, text: str) -> None:
    root = ET.fromstring(text)
    m.packs = _packs(text)
    for child in root:
        tag = _strip_ns(child.tag)
        if tag == "artifactId":
            m.name = (child.text or "").strip() or None
        elif tag == "modules":
            m.aggregator = any(_strip_ns(c.tag) == "module" for c in child)
        elif tag == "packaging" and (child.text or "").strip() == "pom":
            m.aggregator = True
    for dep in root.iter():
        if _strip_ns(dep.tag) not in ("dependency", "plugin"):
            continue
        ids = {_strip_ns(c.tag): (c.text or "").strip() for c in dep}
        if ids.get("scope") == "test":
            continue  # never on the running service's classpath
        group, artifact = ids.get("groupId", ""), ids.get("artifactId", "")
        if artifact:
            m.deps.update({artifact, f"{group}:{artifact}"} | ({group} if group else set()))
        if artifact in _POM_FRONTEND_PLUGINS:
            dirs = [c.text or "" for c in dep.iter() if _strip_ns(c.tag) == "workingDirectory"]
            m.embeds.extend(e for d in dirs if (e := _embedded(d)) and e not in m.embeds)
    if "spring-boot-maven-plugin" in m.deps:  # weak: shared modules sometimes inherit it
        m.entry, m.weak_entry = "spring-boot-maven-plugin", True


_GRADLE_DEP = re.compile(r"""["']([\w.\-]+):([\w.\-]+)(?::[^"']*)?["']""")
_GRADLE_PLUGIN = re.compile(r"""(?:\bid\s*\(?\s*|apply\s+plugin\s*:\s*)["']([\w.\-]+)["']""")


#: Gradle plugins that build a runnable application (``spring-boot`` is the id Spring Boot's plugin
#: had before 1.4, still in older builds).
GRADLE_APP_PLUGINS = frozenset({"org.springframework.boot", "spring-boot", "application", "io.micronaut.application"})

_GRADLE_TEST_CONF = re.compile(r"^\s*(?:test|androidTest|integrationTest)\w*\s*[(\s]")


#: the Gradle node plugins' project folder, an npm task's working folder
_GRADLE_NODE_DIR = re.compile(
    r"""\b(?:nodeProjectDir|nodeModulesDir|workingDir)\b\s*(?:=|\.set\s*\(|\()\s*(?:file\s*\(\s*)?["']([^"']+)["']"""
)


def _gradle(m: Manifest, text: str) -> None:
    m.embeds = sorted({e for d in _GRADLE_NODE_DIR.findall(text) if (e := _embedded(d))})
    m.packs = _packs(text)
    runtime = "\n".join(line for line in text.splitlines() if not _GRADLE_TEST_CONF.match(line))
    for group, artifact in _GRADLE_DEP.findall(runtime):  # testImplementation never ships
        m.deps.update({artifact, f"{group}:{artifact}", group})
    for project in re.findall(r"""project\s*\(\s*(?:path\s*[:=]\s*)?["']([\w.\-:]+)["']""", text):
        m.deps.add(project.rsplit(":", 1)[-1])  # a sibling module this one depends on
    plugins = set(_GRADLE_PLUGIN.findall(text))
    if plugins & GRADLE_APP_PLUGINS or re.search(r"^\s*application\s*$", text, re.M):
        # weak: a root build often applies plugins to every subproject, libraries included
        m.entry, m.weak_entry = "gradle application/spring-boot plugin", True


def _go_mod(m: Manifest, text: str) -> None:
    for line in text.splitlines():
        line = line.strip()
        if line.startswith("module "):
            module = line.split()[1].strip('"')
            parts = [p for p in module.split("/") if not re.fullmatch(r"v\d+", p)]
            m.name = parts[-1] if parts else module
            m.deps.add(module)
        elif line and not line.startswith(("//", ")", "go ", "toolchain")) and "// indirect" not in line:
            words = line.removeprefix("require").strip().strip("(").split()
            if words:
                m.deps.add(words[0])


def _norm_py(req: str) -> str | None:
    match = re.match(r"\s*([A-Za-z0-9][A-Za-z0-9._\-]*)", req)
    return match.group(1).lower().replace("_", "-") if match else None


def _requirements(m: Manifest, text: str) -> None:
    """Requirements; in a pip-compile lock (``# via`` notes) only those the input file names
    (``# via -r requirements.in``): the others are transitive pins nobody imports."""
    via: dict[str, list[str]] = {}
    current: str | None = None
    for line in text.splitlines():
        stripped = line.strip()
        if stripped.startswith("#"):
            note = stripped.lstrip("#").strip()
            if current is not None and (note.startswith("via") or current in via):
                via.setdefault(current, []).append(note.removeprefix("via").strip())
            continue
        current = None
        if stripped and not stripped.startswith("-"):
            current = _norm_py(line)
            if current:
                m.deps.add(current)
            if "# via" in line and current:  # a note on the same line
                via.setdefault(current, []).append(line.split("# via", 1)[1].strip())
    for name, notes in via.items():
        if not any(n.startswith(("-r ", "-c ")) for n in notes):
            m.deps.discard(name)


def _pyproject(m: Manifest, text: str) -> None:
    data = tomllib.loads(text)
    project = data.get("project", {})
    poetry = data.get("tool", {}).get("poetry", {})
    m.name = project.get("name") or poetry.get("name")
    reqs = list(project.get("dependencies", []))
    for extra in project.get("optional-dependencies", {}).values():
        reqs.extend(extra)
    for name in (n for n in (_norm_py(r) for r in reqs if isinstance(r, str)) if n):
        m.deps.add(name)
    for section in (poetry.get("dependencies", {}), *poetry.get("group", {}).values()):
        deps = section.get("dependencies", section) if isinstance(section, dict) else {}
        m.deps.update(str(k).lower().replace("_", "-") for k in deps if k != "python")
    m.aggregator = bool(data.get("tool", {}).get("uv", {}).get("workspace"))


def _setup_py(m: Manifest, text: str) -> None:
    name = re.search(r"""\bname\s*=\s*["']([^"']+)["']""", text)
    m.name = name.group(1) if name else None
    block = re.search(r"install_requires\s*=\s*\[([^\]]*)\]", text, re.S)
    if block:
        for req in re.findall(r"""["']([^"']+)["']""", block.group(1)):
            if dep := _norm_py(req):
                m.deps.add(dep)


def _pipfile(m: Manifest, text: str) -> None:
    data = tomllib.loads(text)
    for section in ("packages", "dev-packages"):
        m.deps.update(str(k).lower().replace("_", "-") for k in data.get(section, {}))


#: What marks a .NET project as an app for a device (Xamarin.iOS / Xamarin.Android project type
#: GUIDs, their build targets, a MAUI app, a platform target framework such as ``net8.0-ios``).
DEVICE_APP_MARKERS = (
    r"FEACFBD2-3405-455C-9665-78FE426C6842",  # Xamarin.iOS
    r"EFBA0AD7-5A72-4C68-AF49-83D382785DCF",  # Xamarin.Android
    r"Xamarin\.(?:iOS|Android|Mac)\.CSharp\.targets",
    r"<UseMaui>\s*true\s*</UseMaui>",
    r"<TargetFrameworks?>[^<]*-(?:ios|android|maccatalyst|tizen)\b",
)
_DEVICE_APP = re.compile("|".join(DEVICE_APP_MARKERS), re.I)


def _csproj(m: Manifest, text: str) -> None:
    sdk = re.search(r"""<Project\s+Sdk\s*=\s*["']([^"']+)["']""", text)
    if sdk and sdk.group(1) in ("Microsoft.NET.Sdk.Web", "Microsoft.NET.Sdk.Worker"):
        m.entry = f"csproj {sdk.group(1)}"
    if re.search(r"<OutputType>\s*Exe\s*</OutputType>", text, re.I):
        m.entry = "csproj OutputType Exe"
    if _DEVICE_APP.search(text):
        m.entry = None  # an app installed on a phone or a desktop: a client, never a deployed service
    m.deps.update(re.findall(r"""<PackageReference\s+Include\s*=\s*["']([^"']+)["']""", text))
    # a project it builds with (``..\Orders.Infrastructure\Orders.Infrastructure.csproj``): a library it runs
    m.deps.update(re.findall(r"""<ProjectReference\s+Include\s*=\s*["'](?:[^"']*[\\/])?([^"'\\/]+)\.csproj["']""", text))
    m.name = m.path.rsplit("/", 1)[-1].removesuffix(".csproj")
    # the ASP.NET SPA templates' <SpaRoot>ClientApp\</SpaRoot>: a frontend this project builds and serves
    for spa in re.findall(r"<SpaRoot>\s*([^<]+?)\s*</SpaRoot>", text):
        if (folder := _embedded(spa.replace("\\", "/"))) and folder not in m.embeds:
            m.embeds.append(folder)


def _env_pairs(rest: str) -> list[tuple[str, str]]:
    """``ENV A=1 B="two words"`` or the legacy ``ENV A one value``."""
    try:
        words = shlex.split(rest)
    except ValueError:
        words = rest.split()
    if words and "=" not in words[0]:
        return [(words[0], rest.strip()[len(words[0]) :].strip().strip("\"'"))]
    return [(k, v) for k, sep, v in (w.partition("=") for w in words) if sep and k]


def _dockerfile(m: Manifest, text: str) -> None:
    m.entry = "Dockerfile"
    lines = text.splitlines()
    stages: dict[str, list[tuple[str, str, int]]] = {}  # FROM x AS name: a later FROM name inherits
    number = 0
    while number < len(lines):
        start, line = number + 1, lines[number]
        while line.rstrip().endswith("\\") and number + 1 < len(lines):  # continued instruction
            number += 1
            line = line.rstrip()[:-1] + " " + lines[number]
        number += 1
        words = line.split()
        if len(words) >= 2 and words[0].upper() == "FROM":
            image = next((w for w in words[1:] if not w.startswith("--")), "")
            m.images.append(image)
            m.env = list(stages.get(image.lower(), []))  # the final stage's environment is the container's
            if len(words) >= 4 and words[-2].upper() == "AS":
                stages[words[-1].lower()] = m.env
        elif len(words) >= 2 and words[0].upper() == "EXPOSE":
            m.ports.extend(int(p.split("/")[0]) for p in words[1:] if p.split("/")[0].isdigit())
        elif len(words) >= 2 and words[0].upper() == "ENV":
            m.env.extend((k, v, start) for k, v in _env_pairs(line.split(None, 1)[1]))
        elif len(words) >= 3 and words[0].upper() in ("COPY", "ADD"):
            m.copies.extend(_copy_sources(line.split(None, 1)[1]))
        elif len(words) >= 2 and words[0].upper() == "RUN":
            m.program_dirs = sorted(set(m.program_dirs) | set(buildargs.program_folders(line.split(None, 1)[1])))


def _copy_sources(rest: str) -> list[str]:
    """The build-context paths a ``COPY``/``ADD`` line reads (``COPY ["a/b.csproj", "./"]``,
    ``COPY src/app .``); none when it copies from another stage or image (``--from=``)."""
    words = [w for w in rest.split() if not w.startswith("--")]
    if "--from" in rest:
        return []
    if rest.lstrip().startswith("["):
        try:
            words = [str(w) for w in json.loads(rest[rest.index("[") :])]
        except ValueError:
            return []
    return [w.strip("\"'") for w in words[:-1]]


def nest_monorepo(text: str | None) -> tuple[str, ...] | None:
    """The library project roots of a ``nest-cli.json`` declaring a monorepo, else None. The
    ``package.json`` beside it starts one of its projects (``nest start`` runs the default one), so
    its scripts are no entry of its own; code in a library project (a ``listen()`` in a bootstrap
    helper) is no entry point either."""
    try:
        data = json.loads(text) if text else None
    except ValueError:
        return None
    if not isinstance(data, dict) or data.get("monorepo") is not True:
        return None
    projects = _table(data, "projects")
    return tuple(
        sorted(
            p["root"].strip("/")
            for p in projects.values()
            if isinstance(p, dict) and p.get("type") == "library" and isinstance(p.get("root"), str)
        )
    )


#: Gems / Composer packages that make a Ruby / PHP folder a deployable server or worker.
SERVER_GEMS = frozenset({"rails", "sinatra", "grape", "puma", "unicorn", "thin", "falcon", "roda", "hanami",
                         "sidekiq", "karafka", "sneakers", "racecar", "shoryuken"})  # fmt: skip
SERVER_COMPOSER = ("laravel/framework", "laravel/lumen-framework", "symfony/framework-bundle", "symfony/http-kernel",
                   "slim/slim", "laminas/laminas-mvc", "yiisoft/yii2", "cakephp/cakephp", "php-amqplib/php-amqplib")  # fmt: skip


def _gemfile(m: Manifest, text: str) -> None:
    for gem in re.findall(r"""^\s*gem\s*\(?\s*["']([\w.\-]+)["']""", text, re.M):
        m.deps.add(gem)
    if found := sorted(m.deps & SERVER_GEMS):
        m.entry = f"Gemfile gem {found[0]!r}"


#: Crates that make a Rust package a long-running server or worker.
SERVER_CRATES = ("axum", "actix-web", "warp", "rocket", "tonic", "poem", "tide", "hyper", "salvo", "lapin", "rdkafka")
#: Crates whose features name the database engine they are built for (``sqlx = { features = ["postgres"] }``).
ENGINE_FEATURE_CRATES = ("sqlx", "diesel", "sea-orm")


def _table(data: Mapping[str, Any], key: str) -> dict[str, Any]:
    """``data[key]`` when it is a table (a JSON object, a TOML table), else an empty one."""
    value = data.get(key)
    return value if isinstance(value, dict) else {}


def _cargo(m: Manifest, text: str) -> None:
    data = tomllib.loads(text)
    package = _table(data, "package")
    m.name = package.get("name") if isinstance(package.get("name"), str) else None
    if isinstance(data.get("workspace"), dict) and not package:
        m.aggregator = True  # a virtual manifest: its members are the packages
    for key in ("dependencies", "build-dependencies"):
        section = _table(data, key)
        for name, spec in section.items():
            crate = spec.get("package", name) if isinstance(spec, dict) else name
            m.deps.add(str(crate))
            features = spec.get("features") if isinstance(spec, dict) else None
            if str(crate) in ENGINE_FEATURE_CRATES and isinstance(features, list):
                m.deps.update(f"{crate}-{f}" for f in features if isinstance(f, str))
    dev = _table(data, "dev-dependencies")
    # a workspace crate used only by tests is still a library of this one, never a service
    m.deps.update(name for name, spec in dev.items() if isinstance(spec, dict) and "path" in spec)
    if found := [c for c in SERVER_CRATES if c in m.deps]:
        m.entry, m.weak_entry = f"Cargo.toml depends on {found[0]!r}", True  # a library may depend on them too


def _composer(m: Manifest, text: str) -> None:
    data = json.loads(text)
    if not isinstance(data, dict):
        return
    m.name = data["name"].rsplit("/", 1)[-1] if isinstance(data.get("name"), str) else None
    for key in ("require", "require-dev"):
        if isinstance(data.get(key), dict):
            m.deps.update(k for k in data[key] if "/" in k)  # php and ext-* are platform requirements
    if found := [d for d in SERVER_COMPOSER if d in m.deps]:
        m.entry = f"composer.json requires {found[0]!r}"


_READERS: dict[str, Callable[[Manifest, str], None]] = {
    "package.json": _package_json, "pom.xml": _pom, "build.gradle": _gradle, "build.gradle.kts": _gradle,
    "go.mod": _go_mod, "requirements.txt": _requirements, "pyproject.toml": _pyproject,
    "setup.py": _setup_py, "Pipfile": _pipfile, ".csproj": _csproj, "Dockerfile": _dockerfile,
    "Gemfile": _gemfile, "composer.json": _composer, "Cargo.toml": _cargo,
}  # fmt: skip


#: Python packages only a program depends on: a server that runs the application (``gunicorn
#: app:api``) or a framework that runs its classes with no main of their own (``nameko run orders``).
PYTHON_SERVER_PACKAGES = ("nameko", "gunicorn", "uvicorn", "hypercorn", "daphne", "waitress")


def _server_packages(m: Manifest) -> None:
    """A weak entry for a Python manifest that depends on a server package (a shared library may
    list one too: weak entries of imported packages do not count)."""
    if m.stack == "python" and m.entry is None and (found := [p for p in PYTHON_SERVER_PACKAGES if p in m.deps]):
        m.entry, m.weak_entry = f"depends on {found[0]!r}", True


def read_manifest(path: str, text: str) -> tuple[Manifest, str | None]:
    """(manifest, error): a reader failure keeps the manifest (its folder still counts) with no facts."""
    name = path.rsplit("/", 1)[-1]
    kind = manifest_kind(name) or name
    stack = MANIFEST_STACKS.get(kind)
    manifest = Manifest(path=path, stack=stack)
    reader = _READERS.get(kind)
    if reader is None:
        return manifest, None
    try:
        reader(manifest, text)
        _server_packages(manifest)
    except (
        ValueError,
        SyntaxError,
        TypeError,
        AttributeError,
        ET.ParseError,
        tomllib.TOMLDecodeError,
    ) as exc:
        return (
            manifest,
            f"{kind} could not be read: {str(exc).splitlines()[0][:160] if str(exc) else type(exc).__name__}",
        )
    return manifest, None
