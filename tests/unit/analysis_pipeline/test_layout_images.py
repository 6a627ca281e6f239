"""What a Dockerfile says about the folder it builds: the environment its image carries, a database
image with init scripts, and a Dockerfile-only folder that copies in the code folder below it."""

from __future__ import annotations

PROXY_CONF = """server {
    listen 8080;
    location /api/quotes/ { proxy_pass http://${QUOTES_HOST}:8000/; }
    location /api/ledger/ { proxy_pass http://${LEDGER_HOST}:9000/; }
}
"""
BACKENDS = {
    "quotes/package.json": '{"scripts": {"start": "node index.js"}}',
    "quotes/index.js": "// @api GET /latest latest\n",
    "ledger/requirements.txt": "flask\n",
    "ledger/app.py": "# @entry\n# @api GET /entries entries\n",
}
COMPOSE = """services:
  quotes: {build: quotes}
  ledger: {build: ledger}
  front:
    build: {context: front}
    ports: ["80:8080"]
"""


def _targets(run, name: str = "front") -> list[tuple[str | None, str]]:
    return sorted((c.target, c.evidence[1].file if len(c.evidence) > 1 else "") for c in run.service(name).calls)


def test_dockerfile_env_in_both_spellings_resolves_the_proxy_template(analyze):
    dockerfile = (
        "FROM alpine AS fetch\nENV QUOTES_HOST=never\n"
        "FROM nginx:1.25\n"
        "ENV QUOTES_HOST=quotes \\\n    OTHER=1\n"
        "ENV LEDGER_HOST ledger\n"
        "COPY proxy.conf.template /etc/nginx/templates/default.conf.template\n"
    )
    files = {**BACKENDS, "docker-compose.yml": COMPOSE, "front/Dockerfile": dockerfile,
             "front/proxy.conf.template": PROXY_CONF, "front/static/app.js": "// browser code\n"}  # fmt: skip
    run = analyze(files)
    assert _targets(run) == [("ledger", "front/Dockerfile"), ("quotes", "front/Dockerfile")]


def test_deployment_env_beats_the_dockerfile_env(analyze):
    compose = COMPOSE.replace("    ports:", "    environment: {QUOTES_HOST: ledger}\n    ports:")
    files = {**BACKENDS, "docker-compose.yml": compose, "front/proxy.conf.template": PROXY_CONF,
             "front/Dockerfile": "FROM nginx\nENV QUOTES_HOST=quotes LEDGER_HOST=ledger\n",
             "front/static/app.js": "// browser code\n"}  # fmt: skip
    run = analyze(files)
    assert _targets(run) == [("ledger", "docker-compose.yml"), ("ledger", "front/Dockerfile")]


def test_database_image_with_init_scripts_is_a_resource_not_a_service(analyze):
    compose = """services:
  api: {build: api}
  docstore: {build: docstore}
  rel:
    build: {context: rel, dockerfile: Dockerfile}
"""
    run = analyze(
        {
            "docker-compose.yml": compose,
            "api/package.json": '{"scripts": {"start": "node main.js"}}',
            "api/main.js": "// @entry\n",
            "docstore/Dockerfile": "FROM mongo:7\nCOPY *.js /docker-entrypoint-initdb.d/\n",
            "docstore/seed.js": "db.items.insertMany([]);\n",
            "rel/Dockerfile": "FROM postgres:16-alpine\nCOPY seed.py /opt/\n",
            "rel/seed.py": "print('seed')\n",
        }
    )
    assert run.names() == ["api"]
    assert [(r.name, r.engine) for r in run.result.resources] == [("docstore", "mongodb"), ("rel", "postgres")]


def test_a_language_manifest_next_to_a_database_base_image_keeps_the_service(analyze):
    run = analyze(
        {
            "docker-compose.yml": "services:\n  probe: {build: probe}\n",
            "probe/Dockerfile": "FROM redis:7\nCOPY . /app\n",
            "probe/package.json": '{"scripts": {"start": "node probe.js"}}',
            "probe/probe.js": "// @entry\n",
        }
    )
    assert run.names() == ["probe"]


def test_an_application_dockerfile_beside_a_database_dockerfile_keeps_the_service(analyze):
    # one folder, two images: the app (built from the root context) and its seeded database
    compose = """services:
  ledger:
    build: {context: ., dockerfile: ./ledger/app.dockerfile}
  ledger_store:
    build: {context: ./ledger, dockerfile: ./store.dockerfile}
  quotes:
    build: {context: quotes, dockerfile: Dockerfile.service}
  quotes_cache:
    build: {context: quotes, dockerfile: Dockerfile.cache}
"""
    run = analyze(
        {
            "docker-compose.yml": compose,
            "go.mod": "module example.com/books\n",  # one module at the root, no manifest in ledger/
            "ledger/app.dockerfile": "FROM golang:1.22 AS build\nCOPY ledger ledger\nFROM alpine:3\n",
            "ledger/store.dockerfile": "FROM postgres:16\nCOPY schema.sql /docker-entrypoint-initdb.d/\n",
            "ledger/cmd/ledger/main.go": "package main // @entry\n",
            "ledger/repository.go": "package ledger\n",
            "quotes/Dockerfile.service": "FROM python:3.12\nCOPY . /srv\n",
            "quotes/Dockerfile.cache": "FROM redis:7\n",
            "quotes/requirements.txt": "flask\n",
            "quotes/app.py": "# @entry\n",
        }
    )
    assert run.names() == ["ledger", "quotes"]
    assert [list(s.service.aliases) for s in run.result.services] == [[], []]
    assert sorted((r.name, r.engine) for r in run.result.resources) == [
        ("ledger_store", "postgres"), ("quotes_cache", "redis")]  # fmt: skip


def test_a_folder_of_database_dockerfiles_only_stays_a_resource(analyze):
    compose = """services:
  api: {build: api}
  store:
    build: {context: infra, dockerfile: store.dockerfile}
  cache:
    build: {context: infra, dockerfile: Dockerfile.cache}
"""
    run = analyze(
        {
            "docker-compose.yml": compose,
            "api/package.json": '{"scripts": {"start": "node main.js"}}',
            "api/main.js": "// @entry\n",
            "infra/store.dockerfile": "FROM mysql:8\nCOPY init.sql /docker-entrypoint-initdb.d/\n",
            "infra/Dockerfile.cache": "FROM redis:7\n",
            "infra/init.sql": "create table t (id int);\n",
        }
    )
    assert run.names() == ["api"]
    assert sorted((r.name, r.engine) for r in run.result.resources) == [("cache", "redis"), ("store", "mysql")]


def test_a_dockerfile_folder_runs_the_one_code_folder_below_it(analyze):
    compose = """services:
  quotes: {build: ./quotes}
  ledger:
    build: {context: ledger}
"""
    run = analyze(
        {
            "docker-compose.yml": compose,
            "quotes/Dockerfile": "FROM node:20\nCOPY app/ /srv\n",
            "quotes/app/package.json": '{"name": "quotes-app", "main": "index.js"}',
            "quotes/app/index.js": "// @api GET /latest latest\n",
            "ledger/Dockerfile": "FROM python:3.12\nCOPY src/ /srv\n",
            "ledger/src/requirements.txt": "flask\n",
            "ledger/src/app.py": "# @api GET /entries entries\n",
        }
    )
    assert run.names() == ["ledger", "quotes"]
    assert run.service("quotes").service.root_dir == "quotes/app"
    assert [a.path for a in run.service("quotes").apis] == ["/latest"]
    assert run.service("ledger").service.root_dir == "ledger/src"


def test_a_dockerfile_folder_over_several_code_folders_is_not_guessed(analyze):
    run = analyze(
        {
            "docker-compose.yml": "services:\n  bundle: {build: bundle}\n",
            "bundle/Dockerfile": "FROM node:20\nCOPY . /srv\n",
            "bundle/one/package.json": '{"name": "one", "main": "index.js"}',
            "bundle/one/index.js": "// one\n",
            "bundle/two/package.json": '{"name": "two", "main": "index.js"}',
            "bundle/two/index.js": "// two\n",
        }
    )
    assert "bundle" not in run.names()
