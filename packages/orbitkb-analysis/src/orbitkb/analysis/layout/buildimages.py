"""Images a JVM build names for its own folder: Spring Boot's build-image, jib and Docker plugins.

A compose file or Kubernetes manifest often runs ``image: acme/shop-orders`` with no ``build:``
while ``mvn spring-boot:build-image`` or ``gradle jib`` makes that image from a module folder
whose name says nothing of it. The image name written in the module's pom.xml or build.gradle
(``<image><name>``, ``<to><image>``, ``imageName = ...``, ``jib { to { image = ... } }``) says
which folder the image is, as a ``docker build -t`` line does (layout.dockerbuild). Names still
holding an unresolved ``${...}`` say nothing and are skipped.
"""

from __future__ import annotations

import re
import xml.etree.ElementTree as ET

from orbitkb.analysis import paths
from orbitkb.analysis.layout.dockerbuild import Build

#: Build files that may name the image of their folder.
BUILD_FILES = frozenset({"pom.xml", "build.gradle", "build.gradle.kts"})

#: Maven plugin -> element paths under <plugin> holding the image it builds.
MAVEN_PLUGINS: dict[str, tuple[tuple[str, ...], ...]] = {
    "spring-boot-maven-plugin": (("configuration", "image", "name"), ("configuration", "imageName")),
    "jib-maven-plugin": (("configuration", "to", "image"),),
    "dockerfile-maven-plugin": (("configuration", "repository"),),
    "docker-maven-plugin": (("configuration", "images", "image", "name"), ("configuration", "imageName")),
}

#: Maven properties that set a plugin's image from <properties>.
MAVEN_IMAGE_PROPERTIES = ("spring-boot.build-image.imageName", "jib.to.image")

_PROP = re.compile(r"\$\{([\w.\-]+)\}")
_VALUE = r"""\s*(?:=|\.set\s*\()\s*["']([^"']+)["']"""
#: Gradle: ``bootBuildImage { imageName = "x" }`` / ``imageName.set("x")``; jib's ``to { image = "x" }``
#: or ``to.image = "x"``.
_GRADLE_IMAGES = (
    re.compile(r"\bimageName" + _VALUE),
    re.compile(r"\bto\s*\{[^{}]*?\bimage" + _VALUE, re.S),
    re.compile(r"\bto\.image" + _VALUE),
)
_GRADLE_VAR = re.compile(r"\$\{?((?:project\.|rootProject\.)?name)\}?")


def _tag(el: ET.Element) -> str:
    return el.tag.rsplit("}", 1)[-1]


def _child(el: ET.Element, name: str) -> ET.Element | None:
    return next((c for c in el if _tag(c) == name), None)


def _texts_at(el: ET.Element, path: tuple[str, ...]) -> list[str]:
    """Texts of every element at path below el (``images`` may hold several ``image``)."""
    found = [el]
    for name in path:
        found = [c for f in found for c in f if _tag(c) == name]
    return [(f.text or "").strip() for f in found if (f.text or "").strip()]


def _untagged(image: str) -> str:
    """The image without its tag (a ``${project.version}`` tag still names the image)."""
    at = image.rfind(":")
    return image[:at] if at > image.rfind("/") else image


def _line(text: str, value: str) -> int:
    at = text.find(value)
    return text.count("\n", 0, at) + 1 if at >= 0 else 1


def _maven(path: str, text: str) -> list[tuple[str, str]]:
    """(image, as written) for each image the pom names, properties resolved."""
    root = ET.fromstring(text)
    props: dict[str, str] = {}
    properties = _child(root, "properties")
    for prop in properties if properties is not None else []:
        props[_tag(prop)] = (prop.text or "").strip()
    parent = _child(root, "parent")
    for key in ("artifactId", "groupId", "version", "name"):
        own = _child(root, key)
        inherited = _child(parent, key) if parent is not None and key in ("groupId", "version") else None
        value = own if own is not None else inherited
        if value is not None and (value.text or "").strip():
            props[f"project.{key}"] = props.setdefault(key, (value.text or "").strip())

    def resolve(value: str) -> str:
        for _ in range(5):  # properties naming properties
            value = _PROP.sub(lambda m: props.get(m.group(1), m.group(0)), value)
        return value

    raw = [props[k] for k in MAVEN_IMAGE_PROPERTIES if props.get(k)]
    for plugin in root.iter():
        if _tag(plugin) != "plugin":
            continue
        artifact = _child(plugin, "artifactId")
        for where in MAVEN_PLUGINS.get((artifact.text or "").strip() if artifact is not None else "", ()):
            raw.extend(_texts_at(plugin, where))
    return [(resolve(v), v) for v in raw]


def _gradle(path: str, text: str) -> list[tuple[str, str]]:
    folder = paths.basename(paths.parent(path)) if paths.parent(path) != "." else ""
    out = []
    for pattern in _GRADLE_IMAGES:
        for value in pattern.findall(text):
            # a project's name is its folder's unless settings.gradle renames it
            out.append((_GRADLE_VAR.sub(folder, value) if folder else value, value))
    return out


def read_images(path: str, text: str) -> list[Build]:
    """(image, folder, None, file, line) for each image a pom.xml or build.gradle builds."""
    name = paths.basename(path)
    if name not in BUILD_FILES:
        return []
    try:
        images = _maven(path, text) if name == "pom.xml" else _gradle(path, text)
    except ET.ParseError:
        return []  # an unreadable pom is already a manifest gap
    folder = paths.parent(path)
    out: list[Build] = []
    for image, written in dict(images).items():
        if image and "$" not in _untagged(image):
            out.append((image, folder, None, path, _line(text, written)))
    return out
