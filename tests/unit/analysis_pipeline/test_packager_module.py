"""A Dockerfile in a build module that only packages a sibling module's output runs that sibling's code."""

from __future__ import annotations

DEPLOY = """apiVersion: apps/v1
kind: Deployment
metadata: {name: billing-v1}
spec:
  template:
    spec:
      containers:
      - name: billing
        image: acme/billing-v1:1.0
"""

CODE = {
    "billing/billing-app/src/main/java/acme/BillingResource.java": "// @api GET /bills BillingResource.list\n",
    "billing/billing-app/src/test/java/acme/BillingTest.java": "// test\n",
    "billing/billing-server/Dockerfile": 'FROM open-liberty:full\nCOPY ./servers/Main /config/\nCMD ["server", "run"]\n',
    "billing/billing-server/servers/Main/server.xml": "<server/>\n",
    "billing/billing-server/src/test/java/it/EndpointIT.java": "// test\n",
}

GRADLE = {
    **CODE,
    "billing/settings.gradle": "rootProject.name = 'billing'\ninclude 'billing-app'\ninclude 'billing-server'\n",
    "billing/build.gradle": "allprojects { group = 'acme' }\n",
    "billing/billing-app/build.gradle": "apply plugin: 'war'\ndependencies { providedCompile 'javax:javaee-api:8.0' }\n",
}

COPY_TASK = "task copyApp(type: Copy) {\n  from '../billing-app/build/libs/billing-app.war'\n  into 'servers/Main/apps/'\n}\n"


def test_a_gradle_server_module_copying_a_sibling_war_runs_that_code_as_the_build_named_service(analyze):
    run = analyze({**GRADLE, "billing/billing-server/build.gradle": COPY_TASK, "deploy/billing.yaml": DEPLOY})
    assert run.names() == ["billing"]
    billing = run.service("billing")
    assert (billing.service.root_dir, billing.service.stack) == ("billing", "jvm-spring")
    assert [a.path for a in billing.apis] == ["/bills"]


def test_a_kotlin_dsl_copy_of_the_sibling_libs_folder_reads_alike(analyze):
    kts = 'tasks.register<Copy>("stage") {\n    from("../billing-app/build/libs")\n    into("servers/Main/apps")\n}\n'
    run = analyze({**GRADLE, "billing/billing-server/build.gradle.kts": kts})
    assert run.names() == ["billing"]
    assert [a.path for a in run.service("billing").apis] == ["/bills"]


def test_a_maven_liberty_module_naming_the_sibling_target_is_packaging_too(analyze):
    parent = (
        "<project><artifactId>billing</artifactId><packaging>pom</packaging>"
        "<modules><module>billing-app</module><module>billing-server</module></modules></project>"
    )
    server = (
        "<project><artifactId>billing-server</artifactId><build><plugins><plugin>"
        "<artifactId>maven-resources-plugin</artifactId><configuration><resources><resource>"
        "<directory>../billing-app/target</directory><includes><include>*.war</include></includes>"
        "</resource></resources></configuration></plugin></plugins></build></project>"
    )
    run = analyze(
        {
            **CODE,
            "billing/pom.xml": parent,
            "billing/billing-app/pom.xml": "<project><artifactId>billing-app</artifactId><packaging>war</packaging></project>",
            "billing/billing-server/pom.xml": server,
        }
    )
    assert run.names() == ["billing"]
    assert run.service("billing").service.root_dir == "billing"


def test_without_a_build_of_just_those_modules_the_packaged_sibling_is_the_service(analyze):
    files = {k.removeprefix("billing/"): v for k, v in CODE.items()}
    run = analyze(
        {
            **files,
            "billing-app/build.gradle": "apply plugin: 'war'\n",
            "billing-server/build.gradle": COPY_TASK,
            "orders/build.gradle": "plugins { id 'org.springframework.boot' version '3.2.0' }\n",
            "orders/src/main/java/acme/OrdersApp.java": "// @entry\n// @api GET /orders OrdersApp.list\n",
            "settings.gradle": "include 'billing-app', 'billing-server', 'orders'\n",
        }
    )
    assert run.names() == ["billing-app", "orders"]  # the root build holds another service: not one program
    assert [a.path for a in run.service("billing-app").apis] == ["/bills"]


def test_a_server_module_copying_nothing_of_a_sibling_changes_nothing(analyze):
    own = "task copyConfig(type: Copy) {\n  from 'src/main/liberty/config'\n  into 'servers/Main/'\n}\n"
    run = analyze({**GRADLE, "billing/billing-server/build.gradle": own})
    assert "billing" not in run.names()


def test_a_module_with_code_of_its_own_is_not_a_packager(analyze):
    run = analyze(
        {
            **GRADLE,
            "billing/billing-server/build.gradle": COPY_TASK,
            "billing/billing-server/src/main/java/acme/Boot.java": "// @entry\n",
        }
    )
    assert [s.service.root_dir for s in run.result.services] == ["billing/billing-server"]


def test_a_path_two_levels_up_is_no_sibling_module(analyze):
    far = "task copyApp(type: Copy) {\n  from '../../billing-app/build/libs'\n  into 'servers/Main/apps/'\n}\n"
    run = analyze({**GRADLE, "billing/billing-server/build.gradle": far})
    assert "billing" not in run.names()
