"""One build deployed as several services by command: a service per deployment, rooted at the
folder its command names."""

from __future__ import annotations

from .conftest import deployments

GO_MODULE = {
    "go.mod": "module example.com/harbor\n\ngo 1.22\n",
    "cmd/harbor/main.go": "// @entry\n",
    "pkg/roles/ledger/ledger.go": "// @api RPC ledger.Ledger/Post Ledger.Post kind=grpc\n",
    "pkg/roles/ledger/store/store.go": "// part of ledger\n",
    "pkg/roles/quay/quay.go": "// @api GET /berths Quay.List\n",
    "pkg/roles/tally/tally.go": "// @api GET /tallies Tally.List\n",
    "pkg/shared/log.go": "// shared by every role\n",
}


def test_compose_services_running_one_build_with_sub_commands_are_split(analyze):
    compose = """services:
  quay:
    build: .
    entrypoint: harbor quay --port 8080
  ledger:
    build: .
    entrypoint: ["harbor", "ledger"]
  tally:
    build:
      context: .
    command: ["harbor", "--role=tally"]
  cache:
    image: redis:7
"""
    run = analyze({**GO_MODULE, "docker-compose.yml": compose})
    assert run.names() == ["ledger", "quay", "tally"]
    assert run.service("ledger").service.root_dir == "pkg/roles/ledger"
    assert run.service("ledger").files == ("pkg/roles/ledger/ledger.go", "pkg/roles/ledger/store/store.go")
    assert [a.path for a in run.service("quay").apis] == ["/berths"]
    assert [a.path for a in run.service("tally").apis] == ["/tallies"]


def test_kubernetes_workloads_of_one_image_with_different_args_are_split(analyze):
    manifests = deployments("registry.example.com/harbor:1.0", {name: f"""
          command: ["/usr/bin/harbor"]
          args: ["{name}"]""" for name in ("quay", "ledger")})
    compose = "services:\n  harbor:\n    build: .\n    image: registry.example.com/harbor:1.0\n"
    run = analyze({**GO_MODULE, "deploy/harbor.yaml": manifests, "docker-compose.yml": compose})
    assert "ledger" in run.names() and "quay" in run.names()
    assert run.service("quay").service.root_dir == "pkg/roles/quay"


def test_deployments_with_the_same_command_stay_one_service(analyze):
    compose = """services:
  quay:
    build: .
    command: harbor serve
  quay-replica:
    build: .
    command: harbor serve
"""
    run = analyze({**GO_MODULE, "docker-compose.yml": compose})
    assert len(run.names()) == 1
    assert run.service(run.names()[0]).service.root_dir == "."


def test_commands_that_name_no_folder_keep_the_build_as_one_service(analyze):
    compose = """services:
  api:
    build: .
    command: harbor http
  worker:
    build: .
    command: harbor background
"""
    run = analyze({**GO_MODULE, "docker-compose.yml": compose})
    assert run.names() == ["api"]
    assert run.service("api").service.root_dir == "."
    assert "worker" in run.service("api").service.aliases


def test_a_folder_that_is_another_service_is_not_taken_over(analyze):
    files = {
        **GO_MODULE,
        "pkg/roles/quay/go.mod": "module example.com/quay\n",
        "pkg/roles/quay/main.go": "// @entry\n",
    }
    compose = """services:
  quay:
    build: .
    command: harbor quay
  ledger:
    build: .
    command: harbor ledger
"""
    run = analyze({**files, "docker-compose.yml": compose})
    roots = [run.service(n).service.root_dir for n in run.names()]
    assert roots.count("pkg/roles/quay") == 1  # the nested module's own unit, never a second one
    assert "pkg/roles/ledger" not in roots  # one folder left: nothing to split


PY_APP = {
    "pyproject.toml": '[project]\nname = "bakery"\ndependencies = ["fastapi", "celery"]\n',
    "Dockerfile": "FROM python:3.12\nCOPY . /srv\n",
    "bakery/main.py": "# @entry\n# @api GET /loaves loaves\n",
    "bakery/ovens/tasks.py": "# the worker's tasks\n",
}


def test_a_worker_naming_its_folder_splits_off_the_web_build(analyze):
    """Only one deployment names a folder (the worker); the server stays on the build."""
    compose = """services:
  web:
    build: .
    command: uvicorn bakery.main:app --port 8000
  ovens:
    build: .
    command: celery -A srv.bakery.ovens.tasks worker -Q bake
"""
    run = analyze({**PY_APP, "docker-compose.yml": compose})
    assert run.names() == ["ovens", "web"]
    assert run.service("ovens").service.root_dir == "bakery/ovens"
    assert run.service("web").service.root_dir == "."


def test_negative_a_second_server_process_is_not_split(analyze):
    compose = """services:
  web:
    build: .
    command: uvicorn bakery.main:app --port 8000
  web-admin:
    build: .
    command: uvicorn bakery.main:app --port 9000
"""
    run = analyze({**PY_APP, "docker-compose.yml": compose})
    assert len(run.names()) == 1


# One package.json built once, each deployment naming its entry file by path (a build argument the
# Dockerfile's CMD runs, or the command itself).
NODE_PACKAGE = {
    "package.json": '{"name": "wharf", "scripts": {"start": "node dist/main.js"}}',
    "Dockerfile": "FROM node:20\nARG START\nCMD node dist/$START\n",
    "src/main.ts": "// @entry\n",
    "src/gate/gate.controller.ts": "// @api GET /berths Gate.list\n",
    "src/apps/crane/src/main.ts": "// @entry\n",
    "src/apps/crane/src/crane.handler.ts": "// @api GET /lifts Crane.list\n",
    "src/apps/tally/src/main.ts": "// @entry\n",
    "src/apps/tally/src/tally.handler.ts": "// @api GET /tallies Tally.list\n",
    "src/shared/log.ts": "// shared by every deployment\n",
}


def test_build_arguments_naming_entry_files_split_one_package_per_deployment(analyze):
    compose = """services:
  gate:
    build:
      context: .
      args:
        START: main.js
  crane:
    build:
      context: .
      args:
        START: apps/crane/src/main.js
  tally:
    build:
      context: .
      args: ["START=apps/tally/src/main.js"]
"""
    run = analyze({**NODE_PACKAGE, "docker-compose.yml": compose})
    assert run.names() == ["crane", "gate", "tally"]
    assert run.service("crane").service.root_dir == "src/apps/crane"  # out of its src/ folder
    assert run.service("tally").service.root_dir == "src/apps/tally"
    assert [a.path for a in run.service("crane").apis] == ["/lifts"]
    assert [a.path for a in run.service("tally").apis] == ["/tallies"]
    assert "/berths" in [a.path for a in run.service("gate").apis]


def test_commands_naming_entry_files_by_path_split_too(analyze):
    compose = """services:
  crane:
    build: .
    command: ["node", "./dist/apps/crane/src/main.js"]
  tally:
    build: .
    command: node --enable-source-maps dist/apps/tally/src/main.js
"""
    run = analyze({**NODE_PACKAGE, "docker-compose.yml": compose})
    assert run.service("crane").service.root_dir == "src/apps/crane"
    assert run.service("tally").service.root_dir == "src/apps/tally"


def test_a_path_every_deployment_shares_or_no_folder_matches_splits_nothing(analyze):
    compose = """services:
  gate:
    build:
      context: .
      args:
        CONFIG: config/app.yaml
  gate-replica:
    build:
      context: .
      args:
        CONFIG: config/app.yaml
  crane:
    build:
      context: .
      args:
        CONFIG: config/app.yaml
        START: nowhere/main.js
"""
    run = analyze({**NODE_PACKAGE, "docker-compose.yml": compose})
    assert len(run.names()) == 1
    assert run.service(run.names()[0]).service.root_dir == "."
