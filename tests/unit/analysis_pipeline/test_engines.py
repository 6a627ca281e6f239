"""Entity engines from deployment: embedded databases next to server drivers, test-only drivers,
and URLs that only an inactive configuration profile sets."""

from __future__ import annotations

ENTITY = "// @entry\n// @entity parcels sql_table class=Parcel\n"


def pom(*deps: tuple[str, str, str | None]) -> str:
    body = "".join(
        f"<dependency><groupId>{g}</groupId><artifactId>{a}</artifactId>"
        + (f"<scope>{scope}</scope>" if scope else "")
        + "</dependency>"
        for g, a, scope in deps
    )
    return f"<project><artifactId>depot</artifactId><dependencies>{body}</dependencies></project>"


def engines(analyze, files: dict[str, str]) -> list[str]:
    """The engines the entity is reported under, the deployed one first."""
    run = analyze({"depot/src/main/java/depot/Depot.java": ENTITY, **files})
    return [e.engine for e in run.service("depot").entities if e.name == "parcels"]


def engine(analyze, files: dict[str, str]) -> str:
    return engines(analyze, files)[0]


SERVER_AND_EMBEDDED = pom(("com.mysql", "mysql-connector-j", "runtime"), ("org.hsqldb", "hsqldb", "runtime"))


def test_an_embedded_database_next_to_a_server_driver_is_the_default_maven(analyze):
    assert engine(analyze, {"depot/pom.xml": SERVER_AND_EMBEDDED}) == "hsqldb"


def test_an_embedded_database_next_to_a_server_driver_is_the_default_gradle(analyze):
    gradle = """dependencies {
    runtimeOnly 'org.postgresql:postgresql:42.7.0'
    runtimeOnly("com.h2database:h2:2.2.224")
}"""
    assert engine(analyze, {"depot/build.gradle": gradle}) == "h2"


def test_a_configured_url_beats_the_embedded_database(analyze):
    yml = "spring:\n  datasource:\n    url: jdbc:mysql://db:3306/depot\n"
    files = {"depot/pom.xml": SERVER_AND_EMBEDDED, "depot/src/main/resources/application.yml": yml}
    assert engine(analyze, files) == "mysql"


def test_test_scoped_drivers_are_not_the_service_database(analyze):
    maven = pom(("org.postgresql", "postgresql", None), ("com.h2database", "h2", "test"))
    assert engine(analyze, {"depot/pom.xml": maven}) == "postgres"
    gradle = "dependencies {\n  implementation 'org.postgresql:postgresql:42'\n  testImplementation 'com.h2database:h2:2'\n}"
    assert engine(analyze, {"depot/build.gradle": gradle}) == "postgres"


def test_a_url_only_an_inactive_profile_sets_does_not_decide(analyze):
    yml = """spring:
  datasource:
    url: jdbc:h2:mem:depot
---
spring:
  config:
    activate:
      on-profile: cloud
  datasource:
    url: jdbc:postgresql://pg:5432/depot
"""
    files = {"depot/pom.xml": pom(), "depot/src/main/resources/application.yml": yml}
    assert engine(analyze, files) == "h2"
    props = {
        "depot/pom.xml": pom(),
        "depot/src/main/resources/application.properties": "server.port=8080\n",
        "depot/src/main/resources/application-cloud.properties": "spring.datasource.url=jdbc:postgresql://pg/depot\n",
    }
    assert engine(analyze, props) == "postgres"  # nothing else says anything: the profile's URL
    active = dict(files)
    active["depot/src/main/resources/application.yml"] = yml.replace("spring:\n", "spring:\n  profiles: {active: cloud}\n", 1)
    assert engine(analyze, active) == "postgres"


def test_two_server_drivers_and_no_url_stay_unknown(analyze):
    maven = pom(("com.mysql", "mysql-connector-j", None), ("org.postgresql", "postgresql", None))
    assert engine(analyze, {"depot/pom.xml": maven}) == "unknown"


def test_profiles_that_disagree_report_every_engine_the_deployed_one_first(analyze):
    default = "spring.datasource.url=jdbc:mysql://localhost:3306/depot\n"
    docker = "spring.datasource.url=jdbc:postgresql://postgres:5432/depot\n"
    files = {
        "depot/pom.xml": pom(("com.mysql", "mysql-connector-j", None), ("org.postgresql", "postgresql", None)),
        "depot/src/main/resources/application.properties": default,
        "depot/src/main/resources/application-docker.properties": docker,
    }
    assert engines(analyze, files) == ["mysql", "postgres"]  # no profile active: the default's first
    compose = "services:\n  depot:\n    build: ./depot\n    environment:\n      SPRING_PROFILES_ACTIVE: docker\n"
    assert engines(analyze, {**files, "docker-compose.yml": compose}) == ["postgres", "mysql"]


def test_yaml_profile_documents_and_an_embedded_test_profile(analyze):
    yml = """spring:
  datasource:
    url: jdbc:mariadb://db/depot
---
spring:
  config:
    activate:
      on-profile: local
  datasource:
    url: jdbc:h2:mem:depot
"""
    files = {"depot/pom.xml": pom(), "depot/src/main/resources/application.yml": yml}
    assert engines(analyze, files) == ["mariadb", "h2"]


def test_one_engine_or_another_store_kind_adds_nothing(analyze):
    single = {
        "depot/pom.xml": pom(),
        "depot/src/main/resources/application.properties": "spring.datasource.url=jdbc:mysql://db/depot\n",
        "depot/src/main/resources/application-docker.properties": "spring.datasource.url=jdbc:mysql://mysql/depot\n",
    }
    assert engines(analyze, single) == ["mysql"]
    cache = {
        "depot/pom.xml": pom(),
        "depot/src/main/resources/application.properties": "spring.datasource.url=jdbc:mysql://db/depot\n",
        "depot/src/main/resources/application-cache.properties": "spring.datasource.url=redis://cache:6379\n",
    }
    assert engines(analyze, cache) == ["mysql"]  # a key-value store cannot hold a table

