"""Service names: deployment names first, then Spring's application name (what discovery uses),
then the folder; a Node package.json name stays below the folder."""

from __future__ import annotations

POM = "<project><artifactId>{name}</artifactId><build><plugins><plugin><artifactId>spring-boot-maven-plugin</artifactId></plugin></plugins></build></project>"


def test_spring_application_name_outranks_the_module_folder(analyze):
    run = analyze(
        {
            "acme-library-search-service/pom.xml": POM.format(name="acme-library-search-service"),
            "acme-library-search-service/src/main/java/Search.java": "// @entry\n// @api POST /lookup lookup\n",
            "acme-library-search-service/src/main/resources/application.yml": (
                "spring:\n  application:\n    name: search-service\n  config:\n    import: optional:configserver:${SETTINGS_URI:http://settings:8071/}\n"
                "---\nspring:\n  config:\n    activate:\n      on-profile: compose\n  application:\n    name: search-compose\n"
            ),
            "acme-library-edge/pom.xml": POM.format(name="acme-library-edge"),
            "acme-library-edge/src/main/java/Gw.java": (
                "// @entry\n// @call http RestClient lit:http://search-service/lookup method=POST\n"
            ),
            "acme-library-edge/src/main/resources/application.yml": (
                "spring:\n  application:\n    name: edge-gateway\n  cloud:\n    gateway:\n      routes:\n"
                "        - id: lookup\n          uri: lb://search-service\n          predicates:\n            - Path=/edge/search/**\n"
                "          filters:\n            - StripPrefix=2\n"
            ),
        }
    )
    assert run.names() == ["edge-gateway", "search-service"]
    search = run.service("search-service")
    assert search.service.aliases == ("acme-library-search-service",)
    lookup = search.apis[0].id
    got = [(c.target, c.path, c.confidence, c.to_api_id) for c in run.service("edge-gateway").calls]
    assert got == [
        ("search-service", "/lookup", 1.0, lookup),
        ("search-service", "/**", 1.0, lookup),
    ]


def test_compose_name_still_wins_and_placeholders_or_profile_names_are_skipped(analyze):
    run = analyze(
        {
            "docker-compose.yml": "services:\n  billing:\n    build: ./billing-svc\n",
            "billing-svc/build.gradle.kts": 'plugins { id("org.springframework.boot") }\n',
            "billing-svc/src/main/kotlin/App.kt": "// @entry\n",
            "billing-svc/src/main/resources/bootstrap.yml": "spring:\n  application:\n    name: billing-service\n",
            "ledger/build.gradle": "plugins { id 'org.springframework.boot' }\n",
            "ledger/src/main/java/App.java": "// @entry\n",
            "ledger/src/main/resources/application.yml": "spring:\n  application:\n    name: ${APP_NAME:ledger-app}\n",
            "ledger/src/main/resources/application-k8s.yml": "spring:\n  application:\n    name: ledger-k8s\n",
        }
    )
    assert run.names() == ["billing", "ledger"]
    assert run.service("billing").service.aliases == ("billing-service", "billing-svc")
    assert run.service("ledger").service.aliases == ()


def test_the_shallowest_application_yml_names_a_service_not_a_nested_copy(analyze):
    run = analyze(
        {
            "pom.xml": POM.format(name="store"),
            "src/main/java/Store.java": "// @entry\n",
            "src/main/resources/application.yml": "spring:\n  application:\n    name: store-service\n",
            "src/test/resources/application.yml": "spring:\n  application:\n    name: store-test\n",
            "docs/samples/a/application.yml": "spring:\n  application:\n    name: aaa-sample\n",
        },
        repository="store-repo",
    )
    assert run.names() == ["store-service"]
    assert run.service("store-service").service.aliases == ("store", "store-repo")  # artifactId, repo


def test_node_package_names_stay_below_the_folder(analyze):
    run = analyze(
        {
            "orders/package.json": '{"name": "@acme/orders-api", "scripts": {"start": "node main.js"}}',
            "orders/main.js": "// @entry\n",
            "billing/package.json": '{"name": "billing-worker", "scripts": {"start": "node main.js"}}',
            "billing/main.js": "// @entry\n",
        }
    )
    assert run.names() == ["billing", "orders"]
    assert run.service("orders").service.aliases == ("orders-api",)
    assert run.service("billing").service.aliases == ("billing-worker",)
