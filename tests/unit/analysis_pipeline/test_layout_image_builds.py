"""Images built by `docker build` in a Makefile or a script: a compose service or workload that runs
such an image by name is the folder it is built from, and one binary run as several services by
sub-command splits into a service per command (the folder the command names)."""

from __future__ import annotations

import pytest

from orbitkb.analysis.layout.dockerbuild import read_builds

FERRY = {
    "go.mod": "module example.com/ferry\n\ngo 1.22\n",
    "main.go": "// @entry\n",
    "cmd/root.go": "// sub-commands\n",
    "internal/docks/docks.go": "// @api GET /docks Docks.List\n",
    "internal/docks/berth.go": "// part of docks\n",
    "internal/tickets/tickets.go": "// @api POST /tickets Tickets.Sell\n",
    "internal/tickets/price.go": "// part of tickets\n",
    "internal/lights/lights.go": "// @api GET /lights Lights.Show\n",
    "internal/lights/lamp.go": "// part of lights\n",
    "shared/log.go": "// every command's logger\n",
    "build/Dockerfile.server": 'FROM golang:1.22\nENTRYPOINT ["/ferry"]\n',
}

COMPOSE = """services:
  docks:
    image: acme/ferry-server:dev
    command: ["docks"]
  tickets:
    image: acme/ferry-server:dev
    command: tickets --port 8080
  cache:
    image: redis:7
"""


@pytest.mark.parametrize(
    ("path", "text"),
    [
        ("Makefile", "image:\n\t@docker build -f ./build/Dockerfile.server -t acme/ferry-server:dev .\n"),
        ("scripts/build.sh", "#!/bin/sh\ncd ..\ndocker build \\\n  --tag=acme/ferry-server:dev \\\n  ..\n"),
        (
            "Makefile",
            "push:\n\tdocker buildx build --platform linux/amd64 -t acme/ferry-server:dev --push .\n",
        ),
    ],
    ids=["makefile", "script-continued-lines", "buildx"],
)
def test_image_only_services_of_an_image_built_by_a_script_split_by_command(analyze, path, text):
    run = analyze({**FERRY, path: text, "docker-compose.yml": COMPOSE})
    assert run.names() == ["docks", "tickets"]
    assert run.service("docks").service.root_dir == "internal/docks"
    assert [a.path for a in run.service("tickets").apis] == ["/tickets"]


def test_negative_an_image_named_by_a_variable_is_not_traced(analyze):
    makefile = "IMAGE ?= acme/ferry-server\nimage:\n\tdocker build -t $(IMAGE):dev .\n"
    run = analyze({**FERRY, "Makefile": makefile, "docker-compose.yml": COMPOSE})
    assert "docks" not in run.names() and "tickets" not in run.names()


def test_a_deployment_without_a_command_named_like_a_folder_splits_off_too(analyze):
    """``lights`` runs the image's default command beside deployments that name their folders:
    its own name is a folder of the build, so the build itself is no service left."""
    compose = COMPOSE + "  lights:\n    image: acme/ferry-server:dev\n"
    makefile = "image:\n\tdocker build -t acme/ferry-server:dev .\n"
    run = analyze({**FERRY, "Makefile": makefile, "docker-compose.yml": compose})
    assert run.names() == ["docks", "lights", "tickets"]
    assert run.service("lights").service.root_dir == "internal/lights"


def test_negative_without_any_command_a_deployment_name_splits_nothing(analyze):
    compose = "services:\n  lights:\n    build: .\n  lights-replica:\n    build: .\n"
    run = analyze({**FERRY, "docker-compose.yml": compose})
    assert len(run.names()) == 1
    assert run.service(run.names()[0]).service.root_dir == "."


def test_of_several_folders_a_command_names_the_one_with_the_most_code_wins(analyze):
    """``proto/docks`` and ``docs/docks`` are generated from the service in ``internal/docks``."""
    files = {
        **FERRY,
        "proto/docks/docks.go": "// generated messages\n",
        "docs/docks/docks_docs.go": "// generated documentation\n",
        "Makefile": "image:\n\tdocker build -f build/Dockerfile.server -t acme/ferry-server:dev .\n",
        "docker-compose.yml": COMPOSE,
    }
    run = analyze(files)
    assert run.service("docks").service.root_dir == "internal/docks"


def test_negative_folders_with_as_much_code_leave_the_command_unsplit(analyze):
    files = {
        **FERRY,
        "legacy/docks/a.go": "// @api GET /old-docks Old.List\n",
        "legacy/docks/b.go": "// as much code as internal/docks\n",
        "Makefile": "image:\n\tdocker build -t acme/ferry-server:dev .\n",
        "docker-compose.yml": COMPOSE,
    }
    run = analyze(files)
    roots = {run.service(n).service.root_dir for n in run.names()}
    assert "internal/docks" not in roots and "legacy/docks" not in roots


def test_read_builds_takes_tags_dockerfile_and_context_relative_to_the_file():
    text = (
        "# docker build -t ignored/comment .\n"
        "build:\n"
        "\tdocker build --build-arg V=1 -f deploy/Dockerfile -t acme/a:1 -t acme/a:latest ../svc && echo ok\n"
        "\tdocker image build --file=x/Dockerfile --tag acme/b .\n"
        "\tdocker build -t acme/c /abs/path\n"
    )
    found = read_builds("tools/Makefile", text)
    assert found == [
        ("acme/a:1", "svc", "tools/deploy/Dockerfile", "tools/Makefile", 3),
        ("acme/a:latest", "svc", "tools/deploy/Dockerfile", "tools/Makefile", 3),
        ("acme/b", "tools", "tools/x/Dockerfile", "tools/Makefile", 4),
    ]


TOLLS = {
    "tolls/requirements.txt": "fastapi\n",
    "tolls/Dockerfile": "FROM python:3.12\n",
    "tolls/main.py": "# @entry\n# @api GET /tolls tolls\n",
}


def _region(name: str, region: str, port: int, style: str) -> str:
    env = (
        f"      REGION: {region}\n      PORT: '{port}'\n"
        if style == "map"
        else f"      - REGION={region}\n      - PORT={port}\n"
    )
    return f"  {name}:\n    build:\n      context: ./tolls\n    environment:\n{env}"


@pytest.mark.parametrize("style", ["map", "list"])
def test_one_build_deployed_per_region_is_a_service_per_region(analyze, style):
    compose = "services:\n" + "".join(
        _region(n, r, p, style) for n, r, p in (("north-tolls", "north", 81), ("south-tolls", "south", 82))
    )
    run = analyze({**TOLLS, "docker-compose.yml": compose})
    assert run.names() == ["north-tolls", "south-tolls"]
    for name in run.names():
        assert run.service(name).service.root_dir == "tolls"
        assert [a.path for a in run.service(name).apis] == ["/tolls"]


def test_negative_replicas_differing_only_by_port_stay_one_service(analyze):
    compose = "services:\n" + "".join(
        _region(n, "north", p, "map") for n, p in (("tolls-a", 81), ("tolls-b", 82))
    )
    run = analyze({**TOLLS, "docker-compose.yml": compose})
    assert len(run.names()) == 1


def test_negative_different_dockerfiles_over_one_context_are_not_one_build(analyze):
    compose = "services:\n" + "".join(
        _region(n, r, p, "map").replace(
            "      context: ./tolls\n", f"      context: ./tolls\n      dockerfile: {d}\n"
        )
        for n, r, p, d in (
            ("north-tolls", "north", 81, "Dockerfile"),
            ("south-tolls", "south", 82, "Dockerfile.south"),
        )
    )
    run = analyze({**TOLLS, "tolls/Dockerfile.south": "FROM python:3.12\n", "docker-compose.yml": compose})
    assert len([n for n in run.names() if run.service(n).service.root_dir == "tolls"]) == 1
