"""Service boundaries as deployed: an image only a CI workflow builds, a role picked by an
environment variable, and a second ``main`` in a service's folder that a manifest runs on its own."""

from __future__ import annotations

import pytest

from orbitkb.analysis.layout.workflows import read_workflow

from .conftest import deployments

KITE = {
    "go.mod": "module example.com/kite\n\ngo 1.22\n",
    "kite.go": "// @entry\n",
    "cmd/root.go": "// the sub-commands: kite glide, kite tether\n",
    "internal/glide/glide.go": "// @api GET /glides Glide.List\n",
    "internal/glide/wind.go": "// part of glide\n",
    "internal/tether/tether.go": "// @api POST /tethers Tether.Tie\n",
    "internal/tether/knot.go": "// part of tether\n",
    "build/Dockerfile.server": 'FROM golang:1.22\nENTRYPOINT ["/kite"]\n',
}

IMAGE_ONLY = """services:
  glide:
    image: skyco/kite-server:edge
    command: ["glide"]
  tether:
    image: skyco/kite-server:edge
    command: tether --port 9000
  queue:
    image: nats:2
"""

META_WORKFLOW = """name: publish
on: push
jobs:
  image:
    runs-on: ubuntu-latest
    services:
      cache:
        image: redis:7
    steps:
      - uses: actions/checkout@v4
      - name: tags
        id: meta
        uses: docker/metadata-action@v5
        with:
          images: skyco/kite-server
      - uses: docker/build-push-action@v5
        with:
          context: .
          file: ./build/Dockerfile.server
          push: true
          tags: ${{ steps.meta.outputs.tags }}
"""

LITERAL_WORKFLOW = """on: [push]
jobs:
  build:
    runs-on: ubuntu-latest
    steps:
      - uses: docker/build-push-action@v6
        with:
          file: build/Dockerfile.server
          tags: |
            skyco/kite-server:edge
            skyco/kite-server:latest
"""

RUN_WORKFLOW = """on: push
jobs:
  build:
    runs-on: ubuntu-latest
    steps:
      - run: |
          docker build -f build/Dockerfile.server \\
            -t skyco/kite-server:edge .
"""


@pytest.mark.parametrize(
    "workflow",
    [META_WORKFLOW, LITERAL_WORKFLOW, RUN_WORKFLOW],
    ids=["metadata-action", "literal-tags", "run"],
)
def test_image_only_deployments_of_an_image_a_workflow_builds_split_by_command(analyze, workflow):
    run = analyze({**KITE, "deploy/compose.yaml": IMAGE_ONLY, ".github/workflows/publish.yml": workflow})
    assert run.names() == ["glide", "tether"]
    assert run.service("glide").service.root_dir == "internal/glide"
    assert run.service("tether").files == ("internal/tether/knot.go", "internal/tether/tether.go")


def test_negative_without_the_workflow_the_image_is_not_traced(analyze):
    run = analyze({**KITE, "deploy/compose.yaml": IMAGE_ONLY})
    assert len(run.names()) == 1
    assert run.service(run.names()[0]).service.root_dir == "."


def test_negative_a_workflow_tag_still_holding_an_expression_names_nothing(analyze):
    workflow = LITERAL_WORKFLOW.replace("skyco/kite-server:edge", "${{ env.REGISTRY }}/kite-server:edge")
    workflow = workflow.replace("skyco/kite-server:latest", "${{ env.REGISTRY }}/kite-server:latest")
    run = analyze({**KITE, "deploy/compose.yaml": IMAGE_ONLY, ".github/workflows/publish.yml": workflow})
    assert len(run.names()) == 1


def test_negative_a_workflow_outside_the_workflows_folder_is_not_read(analyze):
    run = analyze({**KITE, "deploy/compose.yaml": IMAGE_ONLY, ".github/old/publish.yml": META_WORKFLOW})
    assert len(run.names()) == 1


def test_read_workflow_resolves_metadata_images_and_root_relative_paths():
    builds = read_workflow(".github/workflows/publish.yml", META_WORKFLOW)
    assert [(b[0], b[1], b[2]) for b in builds] == [("skyco/kite-server", ".", "build/Dockerfile.server")]
    long_form = META_WORKFLOW.replace(
        "images: skyco/kite-server", "images: |\n            name=skyco/kite-server,enable=true"
    )
    assert [b[0] for b in read_workflow("w.yml", long_form)] == ["skyco/kite-server"]
    assert read_workflow("w.yml", "jobs: [unclosed") == []  # unreadable: nothing, no crash


# ----------------------------------------------------------------------------- roles by environment

ROLES = {
    "go.mod": "module example.com/tide\n\ngo 1.22\n",
    "cmd/main.go": '// @entry\n// switch os.Getenv("ROLE") { case "ebb": ... case "flood": ... }\n',
    "cmd/ebb/ebb.go": "// @api GET /ebbs Ebb.List\n",
    "cmd/flood/flood.go": "// @api GET /floods Flood.List\n",
    "Dockerfile": "FROM golang:1.22\n",
}


def _role_compose(style: str, roles: dict[str, str]) -> str:
    def env(role: str) -> str:
        if style == "map":
            return f"      ROLE: {role}\n      LOG_LEVEL: info\n"
        return f"      - ROLE={role}\n      - LOG_LEVEL=info\n"

    return "services:\n" + "".join(
        f"  {name}:\n    build: .\n    environment:\n{env(role)}" for name, role in roles.items()
    )


@pytest.mark.parametrize("style", ["map", "list"])
def test_a_role_picked_by_an_environment_variable_splits_per_folder(analyze, style):
    run = analyze(
        {**ROLES, "docker-compose.yml": _role_compose(style, {"ebb-svc": "ebb", "flood-svc": "flood"})}
    )
    assert run.names() == ["ebb-svc", "flood-svc"]
    assert run.service("ebb-svc").service.root_dir == "cmd/ebb"
    assert [a.path for a in run.service("flood-svc").apis] == ["/floods"]


def test_a_role_variable_of_kubernetes_workloads_splits_too(analyze):
    manifests = deployments("tideco/tide:1", {name: f"""
          env:
            - name: ROLE
              value: {name}""" for name in ("ebb", "flood")})
    compose = "services:\n  tide:\n    build: .\n    image: tideco/tide:1\n"
    run = analyze({**ROLES, "k8s/tide.yaml": manifests, "docker-compose.yml": compose})
    assert "ebb" in run.names() and "flood" in run.names()
    assert run.service("ebb").service.root_dir == "cmd/ebb"


def test_negative_a_variable_set_in_only_some_deployments_picks_no_role(analyze):
    compose = _role_compose("map", {"ebb-svc": "ebb", "flood-svc": "flood"}).replace(
        "      ROLE: flood\n", ""
    )
    run = analyze({**ROLES, "docker-compose.yml": compose})
    assert all(run.service(n).service.root_dir == "." for n in run.names())


def test_negative_a_variable_naming_one_folder_by_chance_picks_no_role(analyze):
    files = {**ROLES, "cmd/debug/dump.go": "// a debugging helper\n"}
    compose = "services:\n" + "".join(
        f"  {name}:\n    build: .\n    environment:\n      LOG_LEVEL: {level}\n"
        for name, level in (("tide-a", "debug"), ("tide-b", "info"))
    )
    run = analyze({**files, "docker-compose.yml": compose})
    assert all(run.service(n).service.root_dir == "." for n in run.names())


def test_negative_role_words_that_name_no_folder_keep_the_build(analyze):
    run = analyze({**ROLES, "docker-compose.yml": _role_compose("map", {"a": "spring", "b": "neap"})})
    assert all(run.service(n).service.root_dir == "." for n in run.names())


# ----------------------------------------------------------------------------- a second main deployed on its own

HIVE = {
    "go.mod": "module example.com/hive\n\ngo 1.22\n",
    "hive-web/cmd/server.go": "// @entry\n// @api GET /combs Combs.List\n",
    "hive-web/web/handlers.go": "// part of the web server\n",
    "hive-web/cmd/buzz-bot/main.go": "// @entry\n// a load generator voting through the web API\n",
    "hive-store/cmd/server.go": "// @entry\n// @api RPC store.Store/Put Store.Put kind=grpc\n",
}

HIVE_COMPOSE = """services:
  web:
    image: hiveco/hive-web:v3
  buzz-bot:
    image: hiveco/hive-web:v3
    entrypoint: hive-buzz-bot
  store:
    image: hiveco/hive-store:v3
"""


def test_a_bot_main_beside_a_web_server_deployed_on_its_own_is_a_service(analyze):
    run = analyze({**HIVE, "docker-compose.yml": HIVE_COMPOSE})
    assert run.names() == ["buzz-bot", "store", "web"]
    assert run.service("buzz-bot").service.root_dir == "hive-web/cmd/buzz-bot"
    assert run.service("buzz-bot").files == ("hive-web/cmd/buzz-bot/main.go",)
    assert run.service("web").service.root_dir == "hive-web"
    assert [a.path for a in run.service("web").apis] == ["/combs"]


def test_a_bot_run_by_a_kubernetes_workload_splits_too(analyze):
    manifests = deployments("hiveco/hive-web:v3", {"web": "", "buzz-bot": "\n          command: [hive-buzz-bot]"},
                            container=None)
    run = analyze({**HIVE, "k8s/hive.yml": manifests})
    assert run.service("buzz-bot").service.root_dir == "hive-web/cmd/buzz-bot"
    assert run.service("web").service.root_dir == "hive-web"


def test_negative_a_migration_main_in_the_service_folder_stays_with_it(analyze):
    files = {
        **{k: v for k, v in HIVE.items() if "buzz-bot" not in k},
        "hive-web/cmd/migrate/main.go": "// @entry\n// runs the schema migrations once\n",
    }
    compose = "services:\n  web:\n    image: hiveco/hive-web:v3\n  store:\n    image: hiveco/hive-store:v3\n"
    run = analyze({**files, "docker-compose.yml": compose})
    assert run.names() == ["store", "web"]
    assert "hive-web/cmd/migrate/main.go" in run.service("web").files


def test_negative_a_cli_with_sub_commands_deployed_once_is_one_service(analyze):
    compose = "services:\n  kite:\n    image: skyco/kite-server:edge\n    command: [glide]\n"
    run = analyze({**KITE, "deploy/compose.yaml": compose, ".github/workflows/publish.yml": META_WORKFLOW})
    assert len(run.names()) == 1
    assert run.service(run.names()[0]).service.root_dir == "."
