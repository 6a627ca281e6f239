"""An image-only compose service whose image a JVM build makes (Spring Boot build-image, jib, a Docker
Maven plugin) is that build's folder: its compose environment reaches the folder's unit as a
`build:` service's does. Compose files named otherwise (`apps.yml`) are read by their text."""

from __future__ import annotations

import pytest

from orbitkb.analysis.layout.buildimages import read_images
from orbitkb.analysis.layout.compose import looks_like_compose

CODE = {
    "ordering/src/main/java/shop/Orders.java": "// @entry\n"
    "// @call http RestClient env:STOCK_URL+lit:/reserve method=POST\n",
    "stock/package.json": '{"scripts": {"start": "node server.js"}}',
    "stock/server.js": "// @api POST /reserve reserve\n",
}

#: the compose service is called neither like the folder nor like the artifact
COMPOSE = """services:
  orders:
    image: registry.example.com/acme/shop-orders:1.4
    environment:
      - STOCK_URL=http://stock:7001
  stock:
    build: ./stock
"""


def _pom(plugin: str, properties: str = "") -> str:
    return (
        "<project xmlns='http://maven.apache.org/POM/4.0.0'><artifactId>ordering-app</artifactId>"
        f"<version>1.4</version><properties>{properties}</properties>"
        f"<build><plugins><plugin>{plugin}</plugin></plugins></build></project>"
    )


BUILDS = {
    "boot-build-image": (
        "ordering/pom.xml",
        _pom(
            "<artifactId>spring-boot-maven-plugin</artifactId>"
            "<configuration><image><name>${imageName}</name></image></configuration>",
            "<owner>acme</owner><imageName>${owner}/shop-orders:${project.version}</imageName>",
        ),
    ),
    "jib-maven": (
        "ordering/pom.xml",
        _pom("<artifactId>jib-maven-plugin</artifactId><configuration><to><image>acme/shop-orders</image></to></configuration>"),
    ),
    "boot-gradle": (
        "ordering/build.gradle",
        "plugins { id 'org.springframework.boot' version '3.2.0' }\n"
        "tasks.named('bootBuildImage') {\n    imageName = \"acme/shop-orders:${version}\"\n}\n",
    ),
    "jib-gradle-kts": (
        "ordering/build.gradle.kts",
        'plugins { id("org.springframework.boot") }\njib {\n    from { image = "eclipse-temurin:21" }\n'
        '    to { image = "acme/shop-orders" }\n}\n',
    ),
}


def _ordering(run):
    return next(f for f in run.result.services if f.service.root_dir == "ordering")


def _env_from(run) -> list[str]:
    """The files the ordering unit's call read its host from (the env note's file)."""
    return [e.file for c in _ordering(run).calls for e in c.evidence if (e.note or "").startswith("env STOCK_URL")]


@pytest.mark.parametrize("build", sorted(BUILDS))
def test_an_image_made_by_the_jvm_build_carries_the_compose_environment(analyze, build):
    path, text = BUILDS[build]
    run = analyze({**CODE, path: text, "docker-compose.yml": COMPOSE})
    assert "docker-compose.yml" in [e.file for e in _ordering(run).service.evidence]
    assert [c.target for c in _ordering(run).calls] == ["stock"]
    assert _env_from(run) == ["docker-compose.yml"]


def test_negative_an_image_no_folder_builds_passes_nothing(analyze):
    path, text = BUILDS["jib-maven"]
    compose = COMPOSE.replace("acme/shop-orders:1.4", "acme/legacy-orders:1.4")
    run = analyze({**CODE, path: text, "docker-compose.yml": compose})
    assert "docker-compose.yml" not in [e.file for e in _ordering(run).service.evidence]
    assert _env_from(run) == []


def test_read_images_resolves_properties_and_skips_unresolved_names():
    _, pom = BUILDS["boot-build-image"]
    assert read_images("ordering/pom.xml", pom) == [("acme/shop-orders:1.4", "ordering", None, "ordering/pom.xml", 1)]
    gradle = 'jib.to.image = "acme/${project.name}"\nbootBuildImage { imageName.set("${registry}/x") }\n'
    assert read_images("billing/build.gradle", gradle) == [("acme/billing", "billing", None, "billing/build.gradle", 1)]
    unresolved = _pom(
        "<artifactId>jib-maven-plugin</artifactId><configuration><to><image>${docker.repo}/a</image></to></configuration>"
    )
    assert read_images("a/pom.xml", unresolved) == []
    assert read_images("a/pom.xml", "<project><broken>") == []  # a manifest gap elsewhere, never fatal
    assert read_images("a/settings.gradle", 'jib { to { image = "acme/a" } }') == []


APPS = """name: shop
services:
  orders:
    build: ../../ordering
    environment:
      STOCK_URL: http://stock:7001
  stock:
    build: ../../stock
"""


def test_a_compose_file_named_otherwise_is_read_by_its_text(analyze):
    files = {**CODE, "ordering/pom.xml": _pom(""), "deploy/compose/apps.yml": APPS}
    run = analyze(files)
    assert _env_from(run) == ["deploy/compose/apps.yml"]


@pytest.mark.parametrize("path", ["deploy/chart/values-prod.yaml", "deploy/chart/extra/apps.yml"])
def test_negative_a_helm_chart_file_shaped_like_compose_is_not_compose(analyze, path):
    chart = {"deploy/chart/Chart.yaml": "apiVersion: v2\nname: shop\n", path: APPS}
    run = analyze({**CODE, "ordering/pom.xml": _pom(""), **chart})
    assert _env_from(run) == []


@pytest.mark.parametrize(
    "text",
    [
        "image: python:3.12\nservices:\n  - postgres:16\ntest:\n  image: node\n  script: [npm test]\n",  # CI list
        "apiVersion: v1\nkind: List\nservices:\n  a:\n    image: x\n",  # Kubernetes
        "services:\n  orders:\n    port: 80\n",  # no image nor build
        "tools:\n  services:\n    a:\n      image: x\n",  # not at the top
    ],
    ids=["ci-services-list", "kubernetes", "no-image", "nested"],
)
def test_negative_yaml_that_is_not_compose(text):
    assert not looks_like_compose(text)


def test_looks_like_compose_on_both_spellings():
    assert looks_like_compose(APPS)
    assert looks_like_compose("services: # the apps\n  web:\n    image: acme/web\n")
