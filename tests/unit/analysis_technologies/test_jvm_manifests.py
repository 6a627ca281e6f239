"""pom.xml and Gradle builds: coordinates, resolved versions, scopes, parents and shared blocks."""

from __future__ import annotations

import pytest

from orbitkb.analysis.technologies import gradle
from orbitkb.analysis.technologies.maven import PomReader

from .helpers import rows

PARENT = """<?xml version="1.0"?>
<project xmlns="http://maven.apache.org/POM/4.0.0">
  <groupId>org.acme.fleet</groupId>
  <artifactId>fleet-parent</artifactId>
  <version>2.4.0</version>
  <packaging>pom</packaging>
  <properties>
    <java.version>17</java.version>
    <mapstruct.version>1.5.5.Final</mapstruct.version>
  </properties>
  <dependencyManagement>
    <dependencies>
      <dependency>
        <groupId>io.micrometer</groupId>
        <artifactId>micrometer-core</artifactId>
        <version>1.12.4</version>
      </dependency>
    </dependencies>
  </dependencyManagement>
  <dependencies>
    <dependency>
      <groupId>org.mapstruct</groupId>
      <artifactId>mapstruct</artifactId>
      <version>${mapstruct.version}</version>
    </dependency>
  </dependencies>
</project>
"""

MODULE = """<project xmlns="http://maven.apache.org/POM/4.0.0">
  <parent>
    <groupId>org.acme.fleet</groupId>
    <artifactId>fleet-parent</artifactId>
    <version>2.4.0</version>
  </parent>
  <artifactId>trucks</artifactId>
  <dependencies>
    <!-- <dependency><artifactId>commented-out</artifactId></dependency> -->
    <dependency>
      <groupId>io.micrometer</groupId>
      <artifactId>micrometer-core</artifactId>
    </dependency>
    <dependency>
      <groupId>${project.groupId}</groupId>
      <artifactId>fleet-model</artifactId>
      <version>${project.version}</version>
    </dependency>
    <dependency>
      <groupId>org.assertj</groupId>
      <artifactId>assertj-core</artifactId>
      <version>3.25.3</version>
      <scope>test</scope>
    </dependency>
  </dependencies>
</project>
"""


def test_module_inherits_parent_dependencies_and_resolves_versions():
    texts = {"pom.xml": PARENT, "trucks/pom.xml": MODULE}
    found = PomReader(texts).read("trucks/pom.xml")
    assert sorted((f.name, f.version, f.file, f.line, f.note) for f in found if f.kind == "library") == [
        ("io.micrometer:micrometer-core", "1.12.4", "trucks/pom.xml", 10, None),
        ("org.acme.fleet:fleet-model", "2.4.0", "trucks/pom.xml", 14, None),
        ("org.acme.fleet:fleet-parent", "2.4.0", "trucks/pom.xml", 2, "parent"),
        ("org.assertj:assertj-core", "3.25.3", "trucks/pom.xml", 19, "test scope"),
        ("org.mapstruct:mapstruct", "1.5.5.Final", "pom.xml", 21, "inherited from fleet-parent"),
    ]
    assert [(f.name, f.version, f.file, f.line) for f in found if f.kind == "language"] == [
        ("java", "17", "pom.xml", 8)
    ]
    assert rows(found, "build_tool") == [("maven", None, 1, None)]


def test_a_parent_elsewhere_or_with_another_artifact_is_not_inherited():
    other = MODULE.replace("<artifactId>fleet-parent</artifactId>", "<artifactId>other-parent</artifactId>")
    found = PomReader({"pom.xml": PARENT, "trucks/pom.xml": other}).read("trucks/pom.xml")
    assert "org.mapstruct:mapstruct" not in {f.name for f in found}
    assert ("io.micrometer:micrometer-core", None) in {(f.name, f.version) for f in found}


def test_spring_boot_parent_versions_boot_artifacts_and_boms_are_kept():
    pom = """<project>
  <parent>
    <groupId>org.springframework.boot</groupId>
    <artifactId>spring-boot-starter-parent</artifactId>
    <version>3.3.1</version>
    <relativePath/>
  </parent>
  <artifactId>depot</artifactId>
  <properties><spring-cloud.version>2023.0.2</spring-cloud.version></properties>
  <dependencyManagement><dependencies>
    <dependency>
      <groupId>org.springframework.cloud</groupId><artifactId>spring-cloud-dependencies</artifactId>
      <version>${spring-cloud.version}</version><type>pom</type><scope>import</scope>
    </dependency>
  </dependencies></dependencyManagement>
  <dependencies>
    <dependency><groupId>org.springframework.boot</groupId><artifactId>spring-boot-starter-web</artifactId></dependency>
  </dependencies>
</project>
"""
    found = PomReader({"depot/pom.xml": pom}).read("depot/pom.xml")
    assert rows(found) == [
        ("org.springframework.boot:spring-boot-starter-parent", "3.3.1", 2, "parent"),
        ("org.springframework.boot:spring-boot-starter-web", "3.3.1", 17, None),
        ("org.springframework.cloud:spring-cloud-dependencies", "2023.0.2", 11, "bom"),
    ]


@pytest.mark.parametrize(
    "text",
    [
        "<project><dependencies><dependency>",  # truncated
        "not xml at all",
        '<?xml version="1.0"?><!DOCTYPE p [<!ENTITY a "aaaa">]><project><artifactId>&a;</artifactId></project>',
        "<settings><dependencies/></settings>",  # not a POM
    ],
)
def test_broken_or_unsafe_pom_gives_nothing(text):
    assert PomReader({"x/pom.xml": text}).read("x/pom.xml") == []


BUILD_GRADLE = """plugins {
    id 'org.springframework.boot' version "${bootVersion}"
    id 'java'
}

java {
    toolchain { languageVersion = JavaLanguageVersion.of(21) }
}

dependencies {
    implementation 'org.springframework.boot:spring-boot-starter-webflux'
    implementation "io.projectreactor.kafka:reactor-kafka:$reactorKafkaVersion"
    implementation platform('software.amazon.awssdk:bom:2.25.60')
    runtimeOnly group: 'org.postgresql', name: 'r2dbc-postgresql', version: '1.0.5.RELEASE'
    testImplementation 'io.projectreactor:reactor-test'
    classpath 'not.a:dependency:1'
}
"""


def test_gradle_coordinates_plugins_variables_and_wrapper():
    texts = {
        "gradle.properties": "reactorKafkaVersion=1.3.23\n",
        "dispatch/gradle.properties": "bootVersion=3.2.6\n",
        "dispatch/gradle/wrapper/gradle-wrapper.properties": "distributionUrl=https\\://services.gradle.org/distributions/gradle-8.8-bin.zip\n",
    }
    found = gradle.read("dispatch/build.gradle", BUILD_GRADLE, texts)
    assert rows(found) == [
        ("io.projectreactor.kafka:reactor-kafka", "1.3.23", 12, None),
        ("io.projectreactor:reactor-test", None, 15, "testImplementation"),
        ("org.postgresql:r2dbc-postgresql", "1.0.5.RELEASE", 14, None),
        ("org.springframework.boot:spring-boot-starter-webflux", "3.2.6", 11, None),
        ("software.amazon.awssdk:bom", "2.25.60", 13, None),
    ]
    assert rows(found, "framework") == [("spring-boot", "3.2.6", 2, None)]
    assert rows(found, "language") == [("java", "21", 7, None)]
    assert rows(found, "build_tool") == [("gradle", "8.8", 1, None)]


def test_gradle_kotlin_dsl_and_shared_blocks():
    kts = """plugins {
    kotlin("jvm") version "2.0.0"
}
val ktorVersion = "2.3.11"
subprojects {
    dependencies {
        implementation("io.github.oshai:kotlin-logging-jvm:6.0.9")
    }
}
dependencies {
    implementation("io.ktor:ktor-server-netty:$ktorVersion")
}
"""
    found = gradle.read("build.gradle.kts", kts, {})
    assert sorted((f.name, f.version, f.shared) for f in found if f.kind == "library") == [
        ("io.github.oshai:kotlin-logging-jvm", "6.0.9", True),
        ("io.ktor:ktor-server-netty", "2.3.11", False),
    ]
    assert rows(found, "language") == [("kotlin", "2.0.0", 2, None)]


def test_unreadable_gradle_gives_only_the_build_tool():
    found = gradle.read("x/build.gradle", "dependencies {\n  implementation(\n}}}{{ '\n", {})
    assert [(f.kind, f.name) for f in found] == [("build_tool", "gradle")]
