"""Service layout: monorepos split into services, naming, libraries, infrastructure, unknown code."""

from __future__ import annotations

POM_PARENT = """<project xmlns="http://maven.apache.org/POM/4.0.0">
  <artifactId>shop-parent</artifactId><packaging>pom</packaging>
  <modules><module>orders-service</module><module>common</module><module>notifier</module></modules>
</project>"""


def pom(artifact: str, deps: str = "", plugin: bool = True) -> str:
    plugins = (
        "<build><plugins><plugin><groupId>org.springframework.boot</groupId>"
        "<artifactId>spring-boot-maven-plugin</artifactId></plugin></plugins></build>"
        if plugin
        else ""
    )
    return f"""<project><parent><artifactId>shop-parent</artifactId></parent><artifactId>{artifact}</artifactId>
<dependencies>{deps}</dependencies>{plugins}</project>"""


def test_parent_pom_is_split_into_modules_and_libraries_are_not_services(analyze):
    run = analyze(
        {
            "pom.xml": POM_PARENT,
            "orders-service/pom.xml": pom(
                "orders-service",
                "<dependency><groupId>com.shop</groupId><artifactId>common</artifactId></dependency>",
            ),
            "orders-service/src/main/java/shop/OrdersApp.java": "// @entry\n",
            "orders-service/src/main/java/shop/OrderController.java": "// @api GET /orders OrderController.list\n",
            "common/pom.xml": pom("common"),  # inherits the plugin, but is imported: a library
            "common/src/main/java/shop/Money.java": "// @api GET /never Money.x\n",
            "notifier/pom.xml": pom("notifier"),  # plugin only, nobody imports it: deployable
            "notifier/src/main/java/shop/Notifier.java": "// nothing\n",
        }
    )
    assert run.names() == ["notifier", "orders-service"]
    orders = run.service("orders-service").service
    assert (orders.root_dir, orders.stack) == ("orders-service", "jvm-spring")
    assert [a.path for a in run.service("orders-service").apis] == ["/orders"]


def test_npm_workspaces_are_split_and_the_shared_package_is_a_library(analyze):
    run = analyze(
        {
            "package.json": '{"name": "acme", "private": true, "workspaces": ["packages/*"], "scripts": {"start": "turbo run start"}}',
            "packages/api/package.json": '{"name": "@acme/api", "scripts": {"start": "node src/server.js"}, "dependencies": {"@acme/shared": "*"}}',
            "packages/api/src/server.js": "// @api GET /items list\n",
            "packages/web/package.json": '{"name": "@acme/web", "scripts": {"start": "next start"}}',
            "packages/web/pages/index.tsx": "// page\n",
            "packages/shared/package.json": '{"name": "@acme/shared", "main": "dist/index.js"}',
            "packages/shared/src/index.ts": "// @api GET /never x\n",
            "tools/release.js": "// a script at the root\n",
        }
    )
    assert run.names() == ["api", "web"]
    assert run.service("api").service.root_dir == "packages/api"
    assert run.service("api").service.aliases == ()


def test_root_go_module_with_several_commands_is_split_per_command(analyze, stubs):
    run = analyze(
        {
            "go.mod": "module github.com/acme/shop\n\ngo 1.22\n",
            "cmd/orders/main.go": "// @entry\n",
            "cmd/payments/main.go": "// @entry\n// @api POST /pay Pay\n",
            "internal/orders/handler.go": "// @api GET /orders Handler.List\n",
            "internal/platform/log.go": "// shared by both\n",
            "tools/gen/main.go": "// @entry\n",
        },
        stubs=stubs,
    )
    assert run.names() == ["orders", "payments"]
    assert run.service("orders").service.root_dir == "cmd/orders"
    assert [a.path for a in run.service("orders").apis] == ["/orders"]  # internal/orders by name
    assert run.service("orders").files == ("cmd/orders/main.go", "internal/orders/handler.go")
    assert [a.path for a in run.service("payments").apis] == ["/pay"]


def test_python_repository_with_several_apps_and_a_shared_library(analyze):
    run = analyze(
        {
            "requirements.txt": "fastapi\nshop-common\n",
            "orders/app.py": "# @entry\n# @api GET /orders list_orders\n",
            "orders/models.py": "",
            "payments/main.py": "# @entry\n",
            "scripts/seed.py": "# @entry\n",  # a tool, not a deployable
            "libs/common/pyproject.toml": '[project]\nname = "shop-common"\n',
            "libs/common/shop_common/util.py": "# @api GET /never x\n",
        }
    )
    assert run.names() == ["orders", "payments"]
    assert run.service("payments").service.root_dir == "payments"


def test_single_service_repository_is_the_root_named_after_the_repository(analyze):
    run = analyze(
        {"pyproject.toml": '[project]\nname = "inventory-api"\n', "src/inventory/main.py": "# @entry\n"},
        repository="inventory",
    )
    service = run.service("inventory").service
    assert (service.root_dir, service.stack, service.aliases) == (".", "python", ("inventory-api",))


def test_compose_names_win_and_other_names_become_aliases(analyze):
    compose = """
services:
  web:
    build: .
    container_name: shop-web
    hostname: web.internal
    networks:
      backend:
        aliases: [storefront]
"""
    run = analyze(
        {
            "docker-compose.yml": compose,
            "package.json": '{"name": "@shop/frontend", "main": "server.js"}',
            "server.js": "// code\n",
        },
        repository="shopfront",
    )
    service = run.service("web").service
    assert service.aliases == ("frontend", "shop-web", "shopfront", "storefront", "web.internal")


def test_compose_build_contexts_and_dockerfiles_in_several_styles(analyze):
    compose = """
services:
  orders:
    build:
      context: .
      dockerfile: orders/Dockerfile
  billing:
    build: ./billing/docker
  catalog:
    build:
      context: ./catalog
      dockerfile: docker/Dockerfile.prod
"""
    run = analyze(
        {
            "docker-compose.yml": compose,
            "orders/Dockerfile": "FROM python:3.12\n",
            "orders/app.py": "# code\n",
            "billing/go.mod": "module billing\n",
            "billing/main.go": "// @entry\n",
            "billing/docker/Dockerfile": "FROM golang\n",
            "catalog/package.json": '{"name": "catalog-svc"}',
            "catalog/index.js": "// @entry\n",
            "catalog/docker/Dockerfile.prod": "FROM node\n",
        }
    )
    assert run.names() == ["billing", "catalog", "orders"]
    assert run.service("billing").service.root_dir == "billing"
    assert run.service("catalog").service.aliases == ("catalog-svc",)
    assert run.service("orders").service.stack == "python"


K8S = """
apiVersion: apps/v1
kind: Deployment
metadata:
  name: orders-deployment
  namespace: shop
spec:
  template:
    metadata:
      labels: {app: orders}
    spec:
      containers:
        - name: orders
          image: registry.example.com/acme/orders-svc:1.2.0
---
apiVersion: v1
kind: Service
metadata:
  name: orders-api
spec:
  selector: {app: orders}
  ports: [{port: 80}]
---
apiVersion: apps/v1
kind: StatefulSet
metadata: {name: pg}
spec:
  template:
    spec:
      containers:
        - name: postgres
          image: postgres:16
"""


def test_kubernetes_names_a_folder_whose_image_it_runs(analyze):
    run = analyze(
        {
            "deploy/k8s/orders.yaml": K8S,
            "services/orders-svc/package.json": '{"name": "orders-svc", "scripts": {"start": "node ."}}',
            "services/orders-svc/index.js": "// code\n",
        }
    )
    service = run.service("orders").service
    assert service.root_dir == "services/orders-svc"
    assert service.aliases == ("orders-api", "orders-svc")  # "orders-deployment" names no host
    assert [(r.name, r.kind, r.engine) for r in run.result.resources] == [("pg", "database", "postgres")]


def test_skaffold_maps_an_image_to_its_folder(analyze):
    skaffold = "apiVersion: skaffold/v4beta6\nkind: Config\nbuild:\n  artifacts:\n    - image: acme/cart\n      context: src/cartservice\n"
    k8s = "apiVersion: apps/v1\nkind: Deployment\nmetadata: {name: cartservice}\nspec:\n  template:\n    spec:\n      containers:\n        - name: server\n          image: acme/cart\n"
    run = analyze(
        {
            "skaffold.yaml": skaffold,
            "kubernetes-manifests/cart.yaml": k8s,
            "src/cartservice/go.mod": "module cart\n",
            "src/cartservice/main.go": "// code, no entry marker\n",
        }
    )
    assert run.names() == ["cartservice"]
    assert run.service("cartservice").service.aliases == ("cart",)  # go module; the container is called "server": a generic name, not an alias


def test_forced_service_takes_the_whole_tree(analyze, stubs):
    run = analyze(
        {
            "a/app.py": "# @api GET /a a\n",
            "b/lib.py": "# @api GET /b b\n",
            "web/package.json": '{"scripts": {"start": "x"}}',
            "web/x.js": "// @api GET /js x\n",
        },
        forced=("monolith", "python"),
        stubs=stubs,
    )
    assert run.names() == ["monolith"]
    assert run.service("monolith").service.root_dir == "."
    assert sorted(a.path for a in run.service("monolith").apis) == ["/a", "/b"]


def test_unknown_stacks_are_gaps_with_reasons_and_deployed_ones_still_services(analyze):
    compose = "services:\n  pricing:\n    build: ./pricing\n"
    run = analyze(
        {
            "docker-compose.yml": compose,
            "pricing/pubspec.yaml": "name: pricing\n",
            "pricing/Dockerfile": "FROM dart:3\n",
            "pricing/bin/server.dart": "void main() {}\n",
            "engine/mix.exs": "defmodule Engine.MixProject do\nend\n",
            "engine/lib/engine.ex": "defmodule Engine do\nend\n",
            "scripts/deploy.pl": "print 1;\n",
        }
    )
    assert run.names() == ["pricing"]
    assert run.service("pricing").service.stack == "other"
    gaps = {g.path: g.reason for g in run.result.gaps if g.kind == "unknown_stack"}
    assert gaps == {
        "engine": "elixir code (mix.exs): no analyzer for this stack",
        "pricing": "dart code (pubspec.yaml): no analyzer for this stack",
        "scripts": "1 Perl file(s) and no analyzer for Perl",
    }


def test_infrastructure_containers_are_resources_not_services(analyze):
    compose = """
services:
  app:
    build: .
  db: {image: "postgres:15-alpine"}
  cache: {image: "redis:7"}
  broker: {image: "confluentinc/cp-kafka:7.5.0"}
  mq: {image: "rabbitmq:3-management"}
  docs: {image: "docker.io/bitnami/mongodb:7.0"}
  search: {image: "docker.elastic.co/elasticsearch/elasticsearch:8.11.0"}
  tracing: {image: "jaegertracing/all-in-one:latest"}
  custom-db:
    build: ./db
  unknown-thing: {image: "acme/sidecar:1"}
"""
    run = analyze(
        {
            "docker-compose.yml": compose,
            "requirements.txt": "flask\n",
            "app.py": "# @entry\n",
            "db/Dockerfile": "FROM mysql:8\nCOPY init.sql /docker-entrypoint-initdb.d/\n",
            "charts/app/Chart.yaml": "name: app\ndependencies:\n  - name: redis\n    version: 17.x\n  - name: common\n",
        },
        repository="shop",
    )
    assert run.names() == ["app"]
    assert [(r.name, r.kind, r.engine) for r in run.result.resources] == [
        ("broker", "broker", "kafka"),
        ("cache", "cache", "redis"),
        ("custom-db", "database", "mysql"),
        ("db", "database", "postgres"),
        ("docs", "database", "mongodb"),
        ("mq", "broker", "rabbitmq"),
        ("redis", "cache", "redis"),
        ("search", "search", "elasticsearch"),
        ("tracing", "other", "jaeger"),
    ]
    db = next(r for r in run.result.resources if r.name == "db")
    assert db.image == "postgres:15-alpine" and db.evidence[0].file == "docker-compose.yml"


def test_folders_named_alike_get_their_parent_as_prefix(analyze):
    run = analyze(
        {
            "orders/core/package.json": '{"scripts": {"start": "node ."}}',
            "orders/core/index.js": "// x\n",
            "payments/core/package.json": '{"scripts": {"start": "node ."}}',
            "payments/core/index.js": "// x\n",
        }
    )
    assert run.names() == ["orders-core", "payments-core"]
    assert run.service("orders-core").service.aliases == ("core",)


def test_a_library_shaped_repository_is_still_indexed(analyze):
    run = analyze(
        {
            "pyproject.toml": '[project]\nname = "toolkit"\n',
            "toolkit/client.py": "# @call http httpx lit:https://api.example.com/v1\n",
        },
        repository="toolkit-repo",
    )
    assert run.names() == ["toolkit-repo"]
    assert run.service("toolkit-repo").calls[0].target == "api.example.com"


def test_manifest_that_does_not_parse_is_a_gap_but_keeps_its_folder(analyze):
    run = analyze({"svc/package.json": "{not json", "svc/server.js": "// @entry\n"})
    assert run.names() == ["svc"]
    assert ("svc/package.json", "manifest_error") in run.gaps()


def test_readme_first_paragraph_is_kept_verbatim(analyze):
    readme = "# Orders\n\n[![build](https://ci/badge.svg)](https://ci)\n\nOwns the order lifecycle:\ncheckout to delivery.\n\nMore text.\n"
    run = analyze({"orders/requirements.txt": "", "orders/app.py": "# @entry\n", "orders/README.md": readme})
    assert run.service("orders").service.readme == "Owns the order lifecycle:\ncheckout to delivery."


def test_spring_application_name_names_the_service_and_the_folder_is_an_alias(analyze):
    run = analyze(
        {
            "billing/build.gradle.kts": 'plugins { id("org.springframework.boot") version "3.2.0" }\n',
            "billing/src/main/kotlin/App.kt": "// @entry\n",
            "billing/src/main/resources/application.yml": "spring:\n  application:\n    name: billing-service\n",
        }
    )
    # discovery (lb://billing-service, Feign, Eureka) knows the application name, not the folder
    assert run.service("billing-service").service.aliases == ("billing",)


def test_generic_folder_and_shared_aliases_name_nothing() -> None:
    from orbitkb.analysis.layout.model import ServiceUnit
    from orbitkb.analysis.layout.naming import dedupe_names, name_unit

    a = ServiceUnit("", "src/cartservice/src", "dotnet")
    b = ServiceUnit("", "src/emailservice", "python")
    name_unit(a, "shop", [], None)
    name_unit(b, "shop", [], None)
    a.aliases, b.aliases = sorted({*a.aliases, "shared", "server"}), sorted({*b.aliases, "shared"})
    dedupe_names([a, b])
    assert a.name == "cartservice" and b.name == "emailservice"
    assert "shared" not in a.aliases + b.aliases and "server" not in a.aliases


def test_a_go_service_folder_owns_every_command_below_its_cmd_folder(analyze, stubs):
    compose = """
services:
  orders-service:
    image: acme/shop-orders-service:1.0
  postgres:
    image: postgres:16
"""
    run = analyze(
        {
            "go.mod": "module github.com/acme/shop\n\ngo 1.22\n",
            "docker-compose.yml": compose,
            "apps/orders/service/cmd/server/main.go": "// @entry\n",
            "apps/orders/service/cmd/migrate/main.go": "// @entry\n",  # a tool of the same service
            "apps/orders/service/internal/api.go": "// @api GET /orders Handler.List\n",
            "apps/billing/worker/main.go": "// @entry\n",
            "apps/billing/worker/migration/main.go": "// @entry\n",
            "apps/shop/admin/cmd/main.go": "// @entry\n",
            "apps/shipping/service/cmd/server/main.go": "// @entry\n",
        },
        stubs=stubs,
    )
    assert sorted((s.service.name, s.service.root_dir) for s in run.result.services) == [
        ("billing-worker", "apps/billing/worker"),  # a role folder is named with its parent
        ("orders-service", "apps/orders/service"),  # the image-only compose service by its name
        ("shipping", "apps/shipping/service"),
        ("shop-admin", "apps/shop/admin"),
    ]
    assert [a.path for a in run.service("orders-service").apis] == ["/orders"]
    assert run.service("orders-service").service.aliases == ("orders",)
    assert run.service("shipping").service.aliases == ("shipping-service",)
    assert run.service("shop-admin").service.aliases == ("admin",)
    assert "postgres" not in run.names()


def test_an_infrastructure_image_never_takes_a_folder_by_its_compose_name(analyze, stubs):
    compose = "services:\n  cache:\n    image: redis:7\n  web:\n    image: acme/web\n"
    run = analyze(
        {
            "go.mod": "module github.com/acme/site\n",
            "docker-compose.yml": compose,
            "cache/cmd/main.go": "// @entry\n",
            "web/cmd/main.go": "// @entry\n",
        },
        stubs=stubs,
    )
    assert run.names() == ["cache", "web"]
    files = lambda name: {e.file for e in run.service(name).service.evidence}  # noqa: E731
    assert "docker-compose.yml" not in files("cache")  # redis:7 is a resource, not this folder
    assert "docker-compose.yml" in files("web")


def test_a_compose_service_built_from_a_test_folder_is_a_test_runner_not_a_service(analyze):
    compose = """
services:
  api:
    build: ./api
  e2e:
    build:
      dockerfile: ./Dockerfile
    depends_on: [api]
"""
    for folder in ("e2e", "integration-tests", "tests/smoke"):
        run = analyze(
            {
                "docker-compose.yml": "services:\n  api:\n    build: ./api\n",
                "api/package.json": '{"scripts": {"start": "node server.js"}}',
                "api/server.js": "// @entry\n",
                "package.json": '{"name": "monorepo"}',
                "index.js": "// @entry\n",
                f"{folder}/docker-compose.yml": compose.replace("./api", "../api"),
                f"{folder}/Dockerfile": "FROM node:20\nCMD [\"npm\", \"test\"]\n",
                f"{folder}/package.json": '{"scripts": {"test": "jest"}}',
            }
        )
        names = run.names()
        assert "e2e" not in names, (folder, names)
        assert "api" in names


def test_integration_test_folders_are_test_code():
    from orbitkb.analysis.filetypes import is_test_path

    for path in ("src/integration_tests/consumer.py", "svc/integration-tests/a.js", "e2e_tests/x.go"):
        assert is_test_path(path), path
    assert not is_test_path("src/integrations/stripe.py")


def test_build_test_source_sets_in_camel_or_kebab_case_are_test_code():
    from orbitkb.analysis.filetypes import is_test_path

    for path in (
        "orders/src/contractTest/resources/application.properties",
        "orders/src/integrationTest/java/org/x/OrdersIT.java",
        "web/src/componentTests/kotlin/A.kt",
        "web/src/end-to-end-test/A.java",
        "lib/src/intIT/resources/application.yml",
    ):
        assert is_test_path(path), path
    for path in ("src/latest/index.ts", "src/contest/views.py", "orders/src/main/resources/a.yml", "src/manifest/a.go"):
        assert not is_test_path(path), path
