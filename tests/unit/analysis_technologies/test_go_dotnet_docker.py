"""go.mod requirements, .csproj package references and Dockerfile base images."""

from __future__ import annotations

import pytest

from orbitkb.analysis.technologies import docker, gomod, nuget

from .helpers import rows

GO_MOD = """module example.org/tolls/gantry

go 1.22.3

toolchain go1.22.4

require github.com/labstack/echo/v4 v4.12.0

require (
	github.com/nats-io/nats.go v1.35.0
	golang.org/x/sys v0.21.0 // indirect
	// a comment line
)

replace github.com/nats-io/nats.go => ../nats
"""


def test_go_mod_direct_requirements_and_go_version():
    found = gomod.read("gantry/go.mod", GO_MOD, {})
    assert rows(found) == [
        ("github.com/labstack/echo/v4", "v4.12.0", 7, None),
        ("github.com/nats-io/nats.go", "v1.35.0", 10, None),
    ]
    assert rows(found, "language") == [("go", "1.22.3", 3, None)]
    assert rows(found, "build_tool") == [("go-modules", None, 1, None)]


def test_unreadable_go_mod_gives_only_the_build_tool():
    assert [f.kind for f in gomod.read("x/go.mod", "require (\n\x00\n", {})] == ["build_tool"]


CSPROJ = """<Project Sdk="Microsoft.NET.Sdk.Web">
  <PropertyGroup>
    <TargetFramework>net8.0</TargetFramework>
  </PropertyGroup>
  <ItemGroup>
    <PackageReference Include="Serilog.AspNetCore" Version="8.0.1" />
    <PackageReference Include="Npgsql">
      <Version>8.0.3</Version>
    </PackageReference>
    <!-- <PackageReference Include="Old.Thing" Version="1.0" /> -->
  </ItemGroup>
</Project>
"""


def test_csproj_package_references_sdk_and_target_framework():
    found = nuget.read("Kiosk/Kiosk.csproj", CSPROJ, {})
    assert rows(found) == [("Npgsql", "8.0.3", 7, None), ("Serilog.AspNetCore", "8.0.1", 6, None)]
    assert rows(found, "framework") == [("aspnetcore", None, 1, None)]
    assert rows(found, "build_tool") == [("dotnet", "net8.0", 3, None)]


@pytest.mark.parametrize("text", ["<Project><ItemGroup>", '<!DOCTYPE x [<!ENTITY e "e">]><Project/>'])
def test_broken_or_unsafe_csproj_gives_nothing(text):
    assert nuget.read("x/x.csproj", text, {}) == []


DOCKERFILE = """# syntax=docker/dockerfile:1
ARG RUNTIME=eclipse-temurin:21-jre-alpine
ARG REGISTRY
FROM --platform=$BUILDPLATFORM gradle:8.8-jdk21 AS build
WORKDIR /src
RUN gradle bootJar

FROM build AS test
RUN gradle test

FROM registry.acme.internal:5000/base/observability-agent:1.4@sha256:0123abcd \\
  AS agent

FROM ${RUNTIME}
COPY --from=build /src/app.jar /app.jar

FROM $REGISTRY/unknown:1
FROM scratch
"""


def test_dockerfile_base_images_skip_stages_scratch_and_unresolved_args():
    found = docker.read("yard/Dockerfile", DOCKERFILE, {})
    assert rows(found, "base_image") == [
        ("eclipse-temurin", "21-jre-alpine", 14, "eclipse-temurin:21-jre-alpine"),
        ("gradle", "8.8-jdk21", 4, "gradle:8.8-jdk21"),
        (
            "registry.acme.internal:5000/base/observability-agent",
            "1.4",
            11,
            "registry.acme.internal:5000/base/observability-agent:1.4@sha256:0123abcd",
        ),
    ]


@pytest.mark.parametrize(
    ("ref", "expected"),
    [
        ("python", ("python", None)),
        ("python:3.12-slim", ("python", "3.12-slim")),
        ("localhost:5000/api", ("localhost:5000/api", None)),
        ("ghcr.io/acme/api@sha256:feed", ("ghcr.io/acme/api", "sha256:feed")),
    ],
)
def test_image_references_split_into_name_and_tag(ref, expected):
    assert docker.split_image(ref) == expected


def test_empty_or_odd_dockerfile_gives_nothing():
    assert docker.read("x/Dockerfile", "\n# only a comment\nFROM\nFROM --platform=linux/amd64\n", {}) == []
