"""Cross-cutting build and deployment work ("add Kubernetes manifests", "upgrade Gradle", "fix the
CI pipeline") changes every service it builds or ships, not the one whose words rank first: when the
task names no service, the services of the build or deployment kind it names (by their technology
facts: a Dockerfile's base image, a Maven or Gradle build) join the answer. Data, not code: the words
of such work and the technology each one selects."""

from __future__ import annotations

import re
from collections.abc import Iterable, Sequence

from attrs import frozen

from orbitkb.domain.change.classify import RULE_RATES, Classified
from orbitkb.domain.model import Service, Technology
from orbitkb.domain.text import words


@frozen
class Selects:
    """Which services a word of build or deployment work selects: those with a technology of this
    kind (and, when given, whose name starts with ``name``); every service when none has one."""

    kind: str
    name: str = ""


_IMAGES = Selects("base_image")
_EVERY = Selects("")
#: Words of build and deployment work, by what they select. Words with an everyday sense too
#: ("build", "deploy", "release", "upgrade", "compose", "swarm", "helm", "manifest", "pipeline") are
#: left out: "build the order summary" is one service's work, "Compose a haiku" nobody's.
CROSS_CUTTING_WORDS: dict[str, Selects] = {
    **dict.fromkeys(("docker", "dockerfile", "dockerfiles", "dockerize", "dockerized", "kubernetes", "k8s",
                     "containerize", "containerized"), _IMAGES),
    **dict.fromkeys(("gradle", "gradlew"), Selects("build_tool", "gradle")),
    **dict.fromkeys(("maven", "mvn", "pom", "mvnw"), Selects("build_tool", "maven")),
    **dict.fromkeys(("ci", "travis", "circleci", "jenkins", "jenkinsfile"), _EVERY),
}
_TOKEN = re.compile(r"[a-z0-9]+")


def cross_cutting_words(task: str) -> list[str]:
    """The words of build or deployment work the task holds (CROSS_CUTTING_WORDS), in order."""
    lower = task.lower()
    seen = dict.fromkeys([*words(lower), *_TOKEN.findall(lower)])
    return [w for w in seen if w in CROSS_CUTTING_WORDS]


def selected(found: Sequence[str], services: Sequence[Service], technologies: Iterable[Technology]) -> list[Service]:
    """The services the words select: the union, per word, of the services with its technology
    (every service when none has it, or when the word selects every service)."""
    techs = list(technologies)
    ids: set[str] = set()
    for w in found:
        sel = CROSS_CUTTING_WORDS[w]
        having = {t.service_id for t in techs if sel.kind and t.kind == sel.kind
                  and t.name.lower().startswith(sel.name)}
        ids |= having or {s.id for s in services}
    return [s for s in services if s.id in ids]


def add_cross_cutting(task: str, findings: list[Classified], services: Sequence[Service],
                      technologies: Iterable[Technology], names_a_service: bool) -> list[Classified]:
    """The services of the build or deployment work the task names join the answer as secondaries
    (never demote anything), unless the task names a service (then that service's build is meant)."""
    found = cross_cutting_words(task)
    if not found or names_a_service:
        return findings
    chosen = {f.service for f in findings if f.tier in ("primary", "secondary")}
    picked = [s for s in selected(found, services, technologies) if s.name not in chosen]
    if not picked:
        return findings
    names = {s.name for s in picked}
    out = [f for f in findings if f.service not in names]
    what = ", ".join(found)
    for s in picked:
        out.append(Classified(s.name, "secondary", f"the task is build or deployment work ({what}) and names no "
                              "service: every service it builds or ships may change", RULE_RATES["cross-cutting"],
                              (), "cross-cutting"))
    return out
