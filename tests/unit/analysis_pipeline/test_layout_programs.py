"""Services the layout found without a manifest, and folders it no longer counts: Go programs in a
GOPATH layout (no go.mod), folders a Procfile runs, test harnesses nobody deploys, nginx in front
of replicas of one service, and two older spellings (skaffold's imageName/workspace, the Gradle
plugin id ``spring-boot``)."""

from __future__ import annotations

import pytest

from orbitkb.analysis.layout.balancer import only_balances_replicas
from orbitkb.analysis.layout.candidates import is_harness
from orbitkb.analysis.layout.procfile import read_processes

# ----------------------------------------------------------------------------- Go without go.mod

GOPATH = {
    "README.md": "A tiny travel agency.\n",
    "Makefile": "protos:\n\tprotoc --go_out=. proto/*.proto\n",
    "flights/main.go": "// @entry\n// @api GET /flights Flights.List\n",
    "flights/search.go": "// part of flights\n",
    "hotels.svc/main.go": "// @entry\n",
    "gateway/cmd/server/main.go": "// @entry\n",  # the gateway program, its command one level down
    "gateway/routes.go": "// @api GET /trips Trips.List\n",
    "common/log.go": "// shared by every program\n",
    "scripts/seed/main.go": "// @entry\n",  # a tool
    "tools/lint/main.go": "// @entry\n",  # a tool
    "loadtest/main.go": "// @entry\n",  # a harness
    # vendored by godep: third-party programs, never the repository's
    "Godeps/_workspace/src/github.com/acme/protogen/main.go": "// @entry\n",
    "Godeps/Godeps.json": '{"ImportPath": "travel"}',
}


def test_go_programs_without_a_module_file_are_a_service_each(analyze):
    run = analyze(GOPATH, repository="travel")
    assert run.names() == ["flights", "gateway", "hotels.svc"]
    flights = run.service("flights")
    assert flights.service.root_dir == "flights"
    assert flights.files == ("flights/main.go", "flights/search.go")
    assert [a.path for a in flights.apis] == ["/flights"]
    assert run.service("gateway").service.root_dir == "gateway"


def test_go_programs_beside_dockerfile_siblings_are_found_too(analyze):
    run = analyze(
        {
            "src/cart/Dockerfile": "FROM golang:1.10\n",
            "src/cart/main.go": "// @entry\n",
            "src/storefront/main.go": "// @entry\n// @api GET / Home\n",  # no Dockerfile yet
            "src/storefront/money/money.go": "// part of storefront\n",
            "src/probe-test/main.go": "// @entry\n",  # calls every service by hand: a harness
        }
    )
    assert run.names() == ["cart", "storefront"]
    assert run.service("storefront").files == ("src/storefront/main.go", "src/storefront/money/money.go")


def test_negative_go_code_with_no_main_package_is_no_program(analyze):
    run = analyze({"lib/strings.go": "// a library\n", "lib/numbers.go": "// no entry\n"})
    assert [(s.service.name, s.service.root_dir) for s in run.result.services] == [("shop", ".")]  # as before


def test_negative_a_main_inside_a_module_stays_with_its_module(analyze):
    run = analyze(
        {
            "go.mod": "module example.com/shop\n",
            "main.go": "// @entry\n",
            "tools/gen/main.go": "// @entry\n",
            "internal/cart.go": "// part of the module\n",
        }
    )
    assert run.names() == ["shop"]


# ----------------------------------------------------------------------------- Procfile


def test_procfile_processes_name_the_folders_they_run(analyze):
    run = analyze(
        {
            "Procfile": (
                "web: go run storefront/main.go\n"
                "billing: cd billing && python -m worker\n"
                "notify: gunicorn notify.app:server --workers 2\n"
                "docs: mkdocs serve\n"
            ),
            "storefront/main.go": "// @entry\n",
            "billing/worker.py": "# no main guard: run by the Procfile\n",
            "notify/app.py": "# @api POST /notify send\n",
            "notify/templates.py": "# part of notify\n",
        },
        repository="corner-shop",
    )
    assert run.names() == ["billing", "notify", "storefront"]
    assert run.service("notify").service.root_dir == "notify"
    assert ("Procfile", 3) in [(e.file, e.start_line) for e in run.service("notify").service.evidence]
    assert [a.path for a in run.service("notify").apis] == ["/notify"]


def test_a_procfile_in_a_program_folder_runs_that_folder(analyze):
    run = analyze(
        {
            "ledger/Procfile": "worker: go run main.go\n",
            "ledger/main.go": "// no entry marker: the Procfile says it runs\n",
            "ledger/book.go": "// part of ledger\n",
            "front/Procfile": "web: PORT=8080 go run .\n",
            "front/page.go": "// served\n",
        }
    )
    assert run.names() == ["front", "ledger"]


def test_a_procfile_makes_a_library_shaped_package_a_service(analyze):
    run = analyze(
        {
            "requirements.txt": "flask\n",
            "Procfile": "web: gunicorn kiosk.wsgi:app\n",
            "kiosk/wsgi.py": "# @api GET /menu menu\n",
            "kiosk/__init__.py": "",
        },
        repository="kiosk",
    )
    assert run.names() == ["kiosk"]
    assert ("Procfile", 1) in [(e.file, e.start_line) for e in run.service("kiosk").service.evidence]


def test_negative_a_procfile_in_a_library_that_runs_no_code_of_its_own(analyze):
    run = analyze(
        {
            "package.json": '{"name": "@acme/format", "main": "lib/index.js"}',
            "Procfile": "release: npm run build\ndocs: npx serve docs\n",
            "lib/index.js": "// a library\n",
            "app/package.json": '{"name": "app", "scripts": {"start": "node server.js"}, "dependencies": {"@acme/format": "1"}}',
            "app/server.js": "// @entry\n",
        }
    )
    assert run.names() == ["app"]


@pytest.mark.parametrize(
    ("line", "folder"),
    [
        ("web: node services/api/index.js", "services/api"),
        ("web: go run ./services/api", "services/api"),
        ("worker: celery -A services.api.tasks worker", "services/api"),
        ("web: bundle exec puma -C config/puma.rb", "config"),
        ("web: cd services/api && npm start", "services/api"),
    ],
    ids=["node-file", "go-folder", "celery-module", "config-file", "cd-then-start"],
)
def test_procfile_command_styles(line, folder):
    code = {"services/api/index.js", "services/api/tasks.py", "config/puma.rb"}
    folders = {"services/api", "services", "config", "."}
    [process] = read_processes("Procfile", line + "\n", code, folders)
    assert (process.folder, process.line) == (folder, 1)


@pytest.mark.parametrize(
    "line",
    ["web: npm start", "docs: mkdocs serve", "# web: node services/api/index.js", "release: ./bin/migrate $DB", "not a process"],
)
def test_negative_procfile_lines_that_name_no_code(line):
    assert read_processes("Procfile", line + "\n", {"services/api/index.js"}, {"services/api", "services"}) == []


# ----------------------------------------------------------------------------- test harnesses


def test_a_test_harness_nobody_deploys_is_not_a_service(analyze):
    deployment = """apiVersion: apps/v1
kind: Deployment
metadata:
  name: tickets
spec:
  template:
    spec:
      containers:
        - name: tickets
          image: acme/tickets
"""
    run = analyze(
        {
            "infra/tickets.yaml": deployment,
            "tickets/package.json": '{"name": "tickets", "scripts": {"start": "node index.js"}}',
            "tickets/index.js": "// @entry\n",
            "bus-test/package.json": '{"name": "bus-test", "main": "index.js", "scripts": {"listen": "node listen.js"}}',
            "bus-test/listen.js": "// @entry\n",
            "LoadTests/package.json": '{"name": "load", "scripts": {"start": "k6 run script.js"}}',
            "LoadTests/script.js": "// drives the tickets API\n",
        }
    )
    assert run.names() == ["tickets"]


def test_negative_a_deployed_folder_named_like_a_test_stays_a_service(analyze):
    compose = "services:\n  smoke-tester:\n    build: ./smoke-tester\n  api:\n    build: ./api\n"
    run = analyze(
        {
            "docker-compose.yml": compose,
            "smoke-tester/Dockerfile": "FROM node:20\n",
            "smoke-tester/package.json": '{"name": "smoke-tester", "main": "run.js"}',
            "smoke-tester/run.js": "// runs forever against the api\n",
            "api/Dockerfile": "FROM node:20\n",
            "api/package.json": '{"name": "api", "scripts": {"start": "node server.js"}}',
            "api/server.js": "// @entry\n",
        }
    )
    assert run.names() == ["api", "smoke-tester"]


@pytest.mark.parametrize(
    ("folder", "harness"),
    [
        ("nats-test", True),
        ("tools/load_test", True),
        ("e2eRunner", True),
        ("PerfTests", True),
        ("contest", False),
        ("latest-orders", False),
        ("attestation", False),
        ("testimonials", False),
    ],
)
def test_harness_names(folder, harness):
    assert is_harness(folder) is harness


# ----------------------------------------------------------------------------- nginx balancers

BALANCER = """worker_processes 2;
events { worker_connections 512; }
http {
    upstream backends {
        server parking_app_1:9000;
        server parking_app_2:9000;
        server parking_app_3:9000;
    }
    server {
        listen 80;
        location / {
            proxy_pass http://backends;   # round robin
        }
    }
}
"""


def test_nginx_in_front_of_replicas_of_one_service_is_no_service(analyze):
    compose = (
        "services:\n  app:\n    build: ..\n  lb:\n    build:\n      context: ./lb\n"
        "    ports: ['80:80']\n    links: [app]\n"
    )
    run = analyze(
        {
            "package.json": '{"name": "parking", "scripts": {"start": "node server.js"}}',
            "server.js": "// @entry\n",
            "scaling/docker-compose.yml": compose,
            "scaling/lb/Dockerfile": "FROM nginx\nCOPY nginx.conf /etc/nginx/nginx.conf\n",
            "scaling/lb/nginx.conf": BALANCER,
        },
        repository="parking",
    )
    assert [(s.service.name, s.service.root_dir) for s in run.result.services] == [("app", ".")]


@pytest.mark.parametrize(
    ("conf", "balancer"),
    [
        (BALANCER, True),
        ("http { upstream api { server shop-api-1:80; server shop-api-2:80; }\n"
         "server { location / { proxy_pass http://api/; } } }", True),
        # two different services behind one upstream: a gateway
        (BALANCER.replace("parking_app_2", "billing_1"), False),
        # a single server: a reverse proxy in front of one program, not a set of replicas
        ("http { upstream one { server api:80; } server { location / { proxy_pass http://one; } } }", False),
        # routes to two upstreams
        (
            BALANCER.replace("location / {", "location /pay { proxy_pass http://billing:80; }\n location / {"),
            False,
        ),
        # serves files of its own
        (BALANCER.replace("listen 80;", "listen 80;\n root /usr/share/nginx/html;"), False),
        ("server { location / { proxy_pass http://shop:80; } }", False),
    ],
    ids=["replicas", "dash-replicas", "two-services", "one-server", "two-routes", "static-files", "no-upstream"],
)
def test_balancer_configurations(conf, balancer):
    assert only_balances_replicas(conf) is balancer


# ----------------------------------------------------------------------------- older spellings


def test_skaffold_v1alpha2_image_name_and_workspace_trace_an_image_to_its_folder(analyze):
    skaffold = (
        "apiVersion: skaffold/v1alpha2\nkind: Config\nbuild:\n  artifacts:\n"
        "  - imageName: pricer\n    workspace: src/pricer-svc\n"
    )
    deployment = (
        "apiVersion: apps/v1\nkind: Deployment\nmetadata:\n  name: pricing\nspec:\n  template:\n"
        "    spec:\n      containers:\n        - name: server\n          image: pricer\n"
    )
    run = analyze(
        {
            "skaffold.yaml": skaffold,
            "k8s/pricing.yaml": deployment,
            "src/pricer-svc/Dockerfile": "FROM python:3.12\n",
            "src/pricer-svc/app.py": "# code\n",
        }
    )
    assert run.names() == ["pricing"]
    assert run.service("pricing").service.root_dir == "src/pricer-svc"


def test_gradle_spring_boot_plugin_by_its_old_id_is_an_application(analyze):
    run = analyze(
        {
            "settings.gradle": "include 'ledger-web', 'ledger-core'\n",
            "ledger-web/build.gradle": "apply plugin: 'scala'\napply plugin: 'spring-boot'\n"
            "dependencies { compile project(':ledger-core') }\n",
            "ledger-web/src/main/scala/Main.scala": "object Main\n",
            "ledger-core/build.gradle": "apply plugin: 'scala'\n",
            "ledger-core/src/main/scala/Book.scala": "class Book\n",
        }
    )
    assert run.names() == ["ledger-web"]


# ----------------------------------------------------------------------------- frontends and functions

WEB_CSPROJ = """<Project Sdk="Microsoft.NET.Sdk.Web">
  <PropertyGroup>
    <TargetFramework>net8.0</TargetFramework>
    <SpaRoot>{root}</SpaRoot>
  </PropertyGroup>
</Project>"""


@pytest.mark.parametrize("root", ["Frontend\\", "Frontend/", "  Frontend  "])
def test_a_spa_the_web_project_builds_is_part_of_it(analyze, root):
    run = analyze(
        {
            "Web/Storefront/Storefront.csproj": WEB_CSPROJ.format(root=root),
            "Web/Storefront/Program.cs": "// @entry\n",
            "Web/Storefront/Frontend/package.json": '{"name": "storefront-ui", "scripts": {"start": "ng serve"}}',
            "Web/Storefront/Frontend/src/main.ts": "// the angular app\n",
        },
        stubs=None,
    )
    assert run.names() == ["Storefront"]


def test_negative_without_spa_root_the_frontend_is_its_own_service(analyze):
    run = analyze(
        {
            "Web/Storefront/Storefront.csproj": WEB_CSPROJ.replace("<SpaRoot>{root}</SpaRoot>", ""),
            "Web/Storefront/Program.cs": "// @entry\n",
            "Web/Storefront/Frontend/package.json": '{"name": "storefront-ui", "scripts": {"start": "ng serve"}}',
            "Web/Storefront/Frontend/src/main.ts": "// the angular app\n",
        }
    )
    assert sorted(run.names()) == ["Frontend", "Storefront"]


SERVERLESS = """service: menus
provider:
  name: aws
  runtime: java17
functions:
  add-dish:
    handler: shop.menus.AddDishHandler
    events:
      - http: {path: dishes, method: post}
  list-dishes:
    handler: shop.menus.ListDishesHandler
"""


def test_a_serverless_framework_folder_is_a_service(analyze):
    run = analyze(
        {
            "menus-lambda/build.gradle": "apply plugin: 'java'\n",
            "menus-lambda/serverless.yml": SERVERLESS,
            "menus-lambda/src/main/java/shop/menus/AddDishHandler.java": "// a handler, no main\n",
            "menus-core/build.gradle": "apply plugin: 'java'\n",
            "menus-core/src/main/java/shop/menus/Menu.java": "// a library\n",
        }
    )
    assert run.names() == ["menus-lambda"]
    assert ("menus-lambda/serverless.yml", 6) in [(e.file, e.start_line) for e in run.service("menus-lambda").service.evidence]


def test_negative_a_serverless_file_without_functions_deploys_nothing(analyze):
    run = analyze(
        {
            "menus-lambda/build.gradle": "apply plugin: 'java'\n",
            "menus-lambda/serverless.yml": "service: menus\nprovider:\n  name: aws\n",
            "menus-lambda/src/main/java/shop/menus/AddDishHandler.java": "// a handler\n",
            "orders/build.gradle": "apply plugin: 'application'\n",
            "orders/src/main/java/shop/Orders.java": "// @entry\n",
        }
    )
    assert run.names() == ["orders"]


# ----------------------------------------------------------------------------- Python server packages


@pytest.mark.parametrize(
    ("manifest", "text"),
    [
        ("setup.py", "from setuptools import setup\nsetup(name='stock', install_requires=['nameko>=2.12'])\n"),
        ("requirements.txt", "gunicorn==21.2\nflask\n"),
        ("pyproject.toml", '[project]\nname = "stock"\ndependencies = ["uvicorn[standard]", "starlette"]\n'),
    ],
    ids=["nameko", "gunicorn", "uvicorn"],
)
def test_a_python_package_run_by_a_server_package_is_a_service(analyze, manifest, text):
    run = analyze(
        {
            f"stock/{manifest}": text,
            "stock/stock/service.py": "# classes a framework runs\n",
            "web/package.json": '{"name": "web", "scripts": {"start": "node server.js"}}',
            "web/server.js": "// @entry\n",
        }
    )
    assert run.names() == ["stock", "web"]
    assert run.service("stock").service.root_dir == "stock"


def test_negative_a_shared_package_that_lists_a_server_is_still_a_library(analyze):
    run = analyze(
        {
            "common/setup.py": "from setuptools import setup\nsetup(name='shop-common', install_requires=['gunicorn'])\n",
            "common/shop_common/log.py": "# shared\n",
            "orders/requirements.txt": "shop-common\nflask\n",
            "orders/app.py": "# @entry\n",
            "tools/requirements.txt": "requests\n",
            "tools/report.py": "# a script\n",
        }
    )
    assert run.names() == ["orders"]


# ----------------------------------------------------------------------------- device apps

PHONE_IOS = """<Project ToolsVersion="4.0" xmlns="http://schemas.microsoft.com/developer/msbuild/2003">
  <PropertyGroup>
    <ProjectTypeGuids>{FEACFBD2-3405-455C-9665-78FE426C6842};{FAE04EC0-301F-11D3-BF4B-00C04F79EFBC}</ProjectTypeGuids>
    <OutputType>Exe</OutputType>
  </PropertyGroup>
</Project>"""
MAUI = """<Project Sdk="Microsoft.NET.Sdk">
  <PropertyGroup>
    <TargetFrameworks>net8.0-android;net8.0-ios;net8.0-maccatalyst</TargetFrameworks>
    <OutputType>Exe</OutputType>
    <UseMaui>true</UseMaui>
  </PropertyGroup>
</Project>"""
CONSOLE = """<Project Sdk="Microsoft.NET.Sdk">
  <PropertyGroup><OutputType>Exe</OutputType><TargetFramework>net8.0</TargetFramework></PropertyGroup>
</Project>"""


@pytest.mark.parametrize("csproj", [PHONE_IOS, MAUI], ids=["xamarin-ios", "maui"])
def test_a_phone_app_project_is_no_service(analyze, csproj):
    run = analyze(
        {
            "Mobile/Shop.Phone/Shop.Phone.csproj": csproj,
            "Mobile/Shop.Phone/Main.cs": "// the app\n",
            "Services/Basket/Basket.csproj": '<Project Sdk="Microsoft.NET.Sdk.Web"></Project>',
            "Services/Basket/Program.cs": "// @entry\n",
        }
    )
    assert run.names() == ["Basket"]


def test_negative_a_console_program_is_still_a_service(analyze):
    run = analyze(
        {
            "Workers/Mailer/Mailer.csproj": CONSOLE,
            "Workers/Mailer/Main.cs": "// a queue worker\n",
            "Services/Basket/Basket.csproj": '<Project Sdk="Microsoft.NET.Sdk.Web"></Project>',
            "Services/Basket/Program.cs": "// @entry\n",
        }
    )
    assert run.names() == ["Basket", "Mailer"]
