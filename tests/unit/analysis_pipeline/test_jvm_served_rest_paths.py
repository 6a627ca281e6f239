"""The real JVM linker on the pipeline: JAX-RS resources of a Quarkus service are served under
``quarkus.http.root-path`` and, without an ``@ApplicationPath``, ``quarkus.rest.path`` (or the
RESTEasy Classic / older Reactive key); a Quarkus datasource's ``db-kind`` and a tracing JDBC
URL name the engine of the service's entities; SQL text and collection names held in configuration
are read back after linking."""

from __future__ import annotations

from orbitkb.analysis.jvm import ANALYZER

POM = "<project><artifactId>kiln</artifactId><dependencies><dependency><artifactId>quarkus-rest</artifactId></dependency></dependencies></project>"

RESOURCE = """package org.kiln;

import io.quarkus.runtime.Quarkus;
import jakarta.ws.rs.GET;
import jakarta.ws.rs.Path;

@Path("/pots")
public class PotResource {
  @GET @Path("{id}") public String one(String id) { return id; }
}
"""

APPLICATION = """package org.kiln;

import jakarta.ws.rs.ApplicationPath;
import jakarta.ws.rs.core.Application;

@ApplicationPath("/v2")
public class KilnApp extends Application { }
"""

ENTITY = """package org.kiln;

import io.quarkus.hibernate.orm.panache.PanacheEntity;
import jakarta.persistence.Entity;

@Entity
public class Pot extends PanacheEntity { public String glaze; }
"""


def paths(run) -> list[str]:
    return sorted(a.path for a in run.service("kiln").apis)


def tree(props: str, *extra: tuple[str, str]) -> dict[str, str]:
    files = {
        "kiln/pom.xml": POM,
        "kiln/src/main/java/org/kiln/PotResource.java": RESOURCE,
        "kiln/src/main/resources/application.properties": props,
    }
    files.update(dict(extra))
    return files


def test_the_root_path_and_the_rest_path_prefix_every_resource(analyze):
    run = analyze(tree("quarkus.http.root-path=/kiln\nquarkus.rest.path=/api\n"), stubs=[ANALYZER])
    assert paths(run) == ["/kiln/api/pots/{id}"]


def test_the_classic_resteasy_key_and_a_yaml_style_root_alone(analyze):
    assert paths(analyze(tree("quarkus.resteasy.path=/rest\n"), stubs=[ANALYZER])) == ["/rest/pots/{id}"]
    assert paths(analyze(tree("quarkus.http.root-path=/svc\n"), stubs=[ANALYZER])) == ["/svc/pots/{id}"]


def test_an_application_path_wins_over_the_rest_path_under_the_root(analyze):
    files = tree(
        "quarkus.http.root-path=/kiln\nquarkus.rest.path=/ignored\n",
        ("kiln/src/main/java/org/kiln/KilnApp.java", APPLICATION),
    )
    assert paths(analyze(files, stubs=[ANALYZER])) == ["/kiln/v2/pots/{id}"]


def test_nothing_configured_leaves_the_resource_path_alone(analyze):
    assert paths(analyze(tree("greeting=hello\n"), stubs=[ANALYZER])) == ["/pots/{id}"]


def engines_of(run) -> list[tuple[str, str]]:
    return sorted((e.class_name or e.name, e.engine) for e in run.service("kiln").entities)


def test_a_named_datasource_db_kind_is_the_entities_engine(analyze):
    files = tree(
        "quarkus.datasource.pots.db-kind=mariadb\nquarkus.datasource.pots.username=k\n",
        ("kiln/src/main/java/org/kiln/Pot.java", ENTITY),
    )
    assert engines_of(analyze(files, stubs=[ANALYZER])) == [("Pot", "mariadb")]


def test_a_tracing_jdbc_url_names_the_wrapped_driver(analyze):
    files = tree(
        "quarkus.datasource.jdbc.url=jdbc:tracing:postgresql://db:5432/kiln\n",
        ("kiln/src/main/java/org/kiln/Pot.java", ENTITY),
    )
    assert engines_of(analyze(files, stubs=[ANALYZER])) == [("Pot", "postgres")]


def test_an_unknown_db_kind_names_no_engine(analyze):
    files = tree("quarkus.datasource.db-kind=abacus\n", ("kiln/src/main/java/org/kiln/Pot.java", ENTITY))
    assert engines_of(analyze(files, stubs=[ANALYZER])) == [("Pot", "unknown")]


def test_micronaut_serves_jax_rs_resources_under_its_context_path(analyze):
    files = {
        "kiln/build.gradle": "dependencies { implementation('io.micronaut.jaxrs:micronaut-jaxrs-server') }\n",
        "kiln/src/main/java/org/kiln/PotResource.java": RESOURCE.replace(
            "import io.quarkus.runtime.Quarkus;", "import io.micronaut.runtime.Micronaut;"
        ),
        "kiln/src/main/resources/application.yml": "micronaut:\n  server:\n    context-path: /mn\n",
    }
    assert paths(analyze(files, stubs=[ANALYZER])) == ["/mn/pots/{id}"]


def test_a_plain_jax_rs_service_ignores_quarkus_keys(analyze):
    files = tree("quarkus.rest.path=/api\n")
    files["kiln/src/main/java/org/kiln/PotResource.java"] = RESOURCE.replace(
        "import io.quarkus.runtime.Quarkus;\n", ""
    )
    assert paths(analyze(files, stubs=[ANALYZER])) == ["/pots/{id}"]


LEDGER = """package org.kiln;

import io.agroal.api.AgroalDataSource;
import java.sql.Connection;
import java.sql.Statement;
import org.eclipse.microprofile.config.inject.ConfigProperty;

public class Ledger {
  AgroalDataSource ds;
  @ConfigProperty(name = "ledger.select") String select;
  @ConfigProperty(name = "ledger.unset") String unset;

  public void read() throws Exception {
    try (Connection c = ds.getConnection(); Statement st = c.createStatement()) {
      st.executeQuery(select);
      st.executeQuery(unset);
    }
  }
}
"""


def test_sql_held_in_configuration_names_its_tables_with_the_datasource_engine(analyze):
    files = tree(
        "quarkus.datasource.ledger.db-kind=mysql\n"
        "quarkus.datasource.ledger.jdbc.url=jdbc:tracing:mysql://db:3306/kiln\n"
        "ledger.select=SELECT f.id, k.name FROM firings f JOIN kilns k ON k.id = f.kiln\n",
        ("kiln/src/main/java/org/kiln/Ledger.java", LEDGER),
    )
    assert engines_of(analyze(files, stubs=[ANALYZER])) == [("firings", "mysql"), ("kilns", "mysql")]


def test_a_configured_value_that_is_no_statement_keeps_its_text_as_the_name(analyze):
    files = tree("ledger.select=pots\n", ("kiln/src/main/java/org/kiln/Ledger.java", LEDGER))
    assert engines_of(analyze(files, stubs=[ANALYZER])) == [("pots", "unknown")]


SPRING_POM = (
    "<project><artifactId>kiln</artifactId><dependencies><dependency>"
    "<artifactId>spring-boot-starter-jersey</artifactId></dependency></dependencies></project>"
)
SPRING_RESOURCE = RESOURCE.replace(
    "import io.quarkus.runtime.Quarkus;", "import org.springframework.stereotype.Component;"
).replace('@Path("/pots")', '@Component\n@Path("/pots")')
JERSEY_CONFIG = """package org.kiln;

import jakarta.ws.rs.ApplicationPath;
import org.glassfish.jersey.server.ResourceConfig;

@ApplicationPath("/jersey")
public class JerseyConfig extends ResourceConfig { }
"""


def spring(props: str, *extra: tuple[str, str]) -> dict[str, str]:
    files = {
        "kiln/pom.xml": SPRING_POM,
        "kiln/src/main/java/org/kiln/PotResource.java": SPRING_RESOURCE,
        "kiln/src/main/resources/application.properties": props,
    }
    files.update(dict(extra))
    return files


def test_spring_jersey_resources_sit_under_the_context_path_and_the_application_path(analyze):
    files = spring(
        "server.servlet.context-path=/kiln\n",
        ("kiln/src/main/java/org/kiln/JerseyConfig.java", JERSEY_CONFIG),
    )
    assert paths(analyze(files, stubs=[ANALYZER])) == ["/kiln/jersey/pots/{id}"]


def test_the_jersey_setting_replaces_the_annotation(analyze):
    files = spring(
        "spring.jersey.application-path=/api\n",
        ("kiln/src/main/java/org/kiln/JerseyConfig.java", JERSEY_CONFIG),
    )
    assert paths(analyze(files, stubs=[ANALYZER])) == ["/api/pots/{id}"]


def test_the_mvc_servlet_path_does_not_apply_to_jersey_resources(analyze):
    assert paths(analyze(spring("spring.mvc.servlet.path=/mvc\n"), stubs=[ANALYZER])) == ["/pots/{id}"]
