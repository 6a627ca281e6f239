"""Technology facts of a small three-service folder indexed through the composition root (real
parsers, real SQLite), read where the analysis port hands them to indexing."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from dependency_injector import providers

from orbitkb.bootstrap import Settings, build_application
from orbitkb.domain.usecases.indexing import IndexRequest

FILES = {
    "docker-compose.yml": """services:
  tariffs:
    build: ./tariffs
  kiosk:
    build: ./kiosk
  rostering:
    build: ./rostering
""",
    "tariffs/pyproject.toml": """[project]
name = "tariffs"
requires-python = ">=3.12"
dependencies = ["fastapi>=0.111", "uvicorn[standard]>=0.30"]

[tool.poetry]
name = "tariffs"
""",
    "tariffs/poetry.lock": "# generated\n",
    "tariffs/Dockerfile": 'FROM python:3.12-slim\nCMD ["uvicorn", "tariffs.main:app"]\n',
    "tariffs/tariffs/__init__.py": "",
    "tariffs/tariffs/main.py": """from fastapi import FastAPI

app = FastAPI()


@app.get("/tariffs/{zone}")
def tariff(zone: str) -> dict:
    return {"zone": zone}
""",
    "kiosk/package.json": """{
  "name": "kiosk",
  "scripts": {"start": "node src/server.js"},
  "dependencies": {"express": "^4.19.2"},
  "devDependencies": {"vitest": "^1.6.0"}
}
""",
    "kiosk/package-lock.json": "{}\n",
    "kiosk/src/server.js": """const express = require("express");
const app = express();
app.get("/screens", (req, res) => res.json([]));
app.listen(3000);
""",
    "rostering/pom.xml": """<project>
  <modelVersion>4.0.0</modelVersion>
  <parent>
    <groupId>org.springframework.boot</groupId>
    <artifactId>spring-boot-starter-parent</artifactId>
    <version>3.3.0</version>
    <relativePath/>
  </parent>
  <groupId>org.example</groupId>
  <artifactId>rostering</artifactId>
  <properties><java.version>21</java.version></properties>
  <dependencies>
    <dependency>
      <groupId>org.springframework.boot</groupId>
      <artifactId>spring-boot-starter-web</artifactId>
    </dependency>
  </dependencies>
</project>
""",
    "rostering/Dockerfile": "FROM eclipse-temurin:21-jdk AS build\nFROM eclipse-temurin:21-jre\nCOPY --from=build /app.jar /app.jar\n",
    "rostering/src/main/java/org/example/rostering/RosteringApplication.java": """package org.example.rostering;

import org.springframework.boot.SpringApplication;
import org.springframework.boot.autoconfigure.SpringBootApplication;

@SpringBootApplication
public class RosteringApplication {
    public static void main(String[] args) {
        SpringApplication.run(RosteringApplication.class, args);
    }
}
""",
}


class RecordingAnalyzer:
    """The real analyzer, keeping what it returned (the store may not persist technologies)."""

    def __init__(self, inner: Any) -> None:
        self.inner = inner
        self.results: list[Any] = []

    def analyze(self, *args: Any, **kwargs: Any) -> Any:
        result = self.inner.analyze(*args, **kwargs)
        self.results.append(result)
        return result


@pytest.fixture(scope="module")
def technologies(tmp_path_factory: pytest.TempPathFactory) -> dict[str, set[tuple]]:
    root = tmp_path_factory.mktemp("fleet")
    for rel, text in FILES.items():
        (root / rel).parent.mkdir(parents=True, exist_ok=True)
        (root / rel).write_text(text)
    app = build_application(Settings(db_path=str(Path(root) / "kb.db"), backend="offline", embedder="off"))
    recorder = RecordingAnalyzer(app.adapters.analyzer())
    app.adapters.analyzer.override(providers.Object(recorder))
    app.use_cases.index_repository()(IndexRequest(str(root), repository_name="fleet"))
    (result,) = recorder.results
    return {
        f.service.name: {
            (t.kind, t.name, t.version, t.evidence[0].file, t.evidence[0].start_line) for t in f.technologies
        }
        for f in result.services
    }


def test_every_service_has_its_technologies(technologies):
    assert set(technologies) == {"kiosk", "rostering", "tariffs"}
    assert technologies["tariffs"] == {
        ("language", "python", ">=3.12", "tariffs/tariffs/__init__.py", 1),
        ("framework", "fastapi", ">=0.111", "tariffs/pyproject.toml", 4),
        ("library", "fastapi", ">=0.111", "tariffs/pyproject.toml", 4),
        ("library", "uvicorn", ">=0.30", "tariffs/pyproject.toml", 4),
        ("build_tool", "poetry", None, "tariffs/pyproject.toml", 6),
        ("base_image", "python", "3.12-slim", "tariffs/Dockerfile", 1),
    }
    assert technologies["kiosk"] == {
        ("language", "javascript", None, "kiosk/src/server.js", 1),
        ("framework", "express", "^4.19.2", "kiosk/package.json", 4),
        ("library", "express", "^4.19.2", "kiosk/package.json", 4),
        ("library", "vitest", "^1.6.0", "kiosk/package.json", 5),
        ("build_tool", "npm", None, "kiosk/package-lock.json", 1),
    }
    assert technologies["rostering"] == {
        (
            "language",
            "java",
            "21",
            "rostering/src/main/java/org/example/rostering/RosteringApplication.java",
            1,
        ),
        ("framework", "spring-boot", "3.3.0", "rostering/pom.xml", 3),
        ("library", "org.springframework.boot:spring-boot-starter-parent", "3.3.0", "rostering/pom.xml", 3),
        ("library", "org.springframework.boot:spring-boot-starter-web", "3.3.0", "rostering/pom.xml", 13),
        ("build_tool", "maven", None, "rostering/pom.xml", 1),
        ("base_image", "eclipse-temurin", "21-jdk", "rostering/Dockerfile", 1),
    }
