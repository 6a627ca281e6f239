"""Technology facts per service, as the analysis port returns them: which manifests count for
which service (own, Maven parents, shared build files), ids, order, bounds and broken input."""

from __future__ import annotations

import json

from orbitkb.analysis.technologies import MAX_TECHNOLOGIES
from orbitkb.domain.ids import make_id, service_id


def techs(run, name: str, kind: str | None = None) -> list[tuple]:
    return [
        (t.kind, t.name, t.version, [(e.file, e.start_line, e.note) for e in t.evidence])
        for t in run.service(name).technologies
        if kind is None or t.kind == kind
    ]


def names(run, name: str, kind: str) -> list[str]:
    return [t.name for t in run.service(name).technologies if t.kind == kind]


WORKSPACE_ROOT = json.dumps(
    {"name": "depot", "private": True, "workspaces": ["apps/*"], "devDependencies": {"eslint": "^9.0.0"}},
    indent=2,
)
WEB = """{
  "name": "web",
  "scripts": {"start": "node dist/main.js"},
  "dependencies": {
    "fastify": "^4.27.0"
  },
  "devDependencies": {
    "typescript": "~5.4.5"
  }
}
"""


def test_workspace_member_gets_its_own_dependencies_and_the_shared_build_tool(analyze):
    run = analyze(
        {
            "package.json": WORKSPACE_ROOT,
            "yarn.lock": "# yarn lockfile v1\n",
            "apps/web/package.json": WEB,
            "apps/web/src/main.ts": "// @entry\n",
            "apps/web/jest.config.js": "module.exports = {};\n",
            "apps/sync/package.json": '{"name": "sync", "scripts": {"start": "node main.js"}, "dependencies": {"bullmq": "5.8.0"}}',
            "apps/sync/main.js": "// @entry\n",
        }
    )
    assert techs(run, "web") == [
        ("language", "javascript", None, [("apps/web/jest.config.js", 1, None)]),
        (
            "language",
            "typescript",
            "~5.4.5",
            [("apps/web/src/main.ts", 1, None), ("apps/web/package.json", 8, None)],
        ),
        ("framework", "fastify", "^4.27.0", [("apps/web/package.json", 5, None)]),
        ("library", "fastify", "^4.27.0", [("apps/web/package.json", 5, None)]),
        ("library", "typescript", "~5.4.5", [("apps/web/package.json", 8, "devDependencies")]),
        ("build_tool", "yarn", None, [("yarn.lock", 1, None)]),
    ]  # the root's eslint belongs to no single service
    assert names(run, "sync", "library") == ["bullmq"]
    sid = service_id("shop", "web")
    assert run.service("web").technologies[0].id == make_id("tech", sid, "language", "javascript")
    assert {t.service_id for t in run.service("web").technologies} == {sid}


ROOT_POM = """<project>
  <groupId>org.acme</groupId>
  <artifactId>hub</artifactId>
  <version>1.0.0</version>
  <packaging>pom</packaging>
  <modules><module>tickets</module><module>seats</module></modules>
  <dependencies>
    <dependency><groupId>org.projectlombok</groupId><artifactId>lombok</artifactId><version>1.18.32</version></dependency>
  </dependencies>
</project>
"""


def module_pom(name: str, dependency: str) -> str:
    return f"""<project>
  <parent><groupId>org.acme</groupId><artifactId>hub</artifactId><version>1.0.0</version></parent>
  <artifactId>{name}</artifactId>
  <dependencies>
    <dependency><groupId>{dependency.split(":")[0]}</groupId><artifactId>{dependency.split(":")[1]}</artifactId></dependency>
  </dependencies>
</project>
"""


def test_maven_modules_inherit_the_parent_pom_dependencies(analyze):
    run = analyze(
        {
            "pom.xml": ROOT_POM,
            "tickets/pom.xml": module_pom("tickets", "io.javalin:javalin"),
            "tickets/src/main/java/org/acme/Tickets.java": "// @entry\n",
            "seats/pom.xml": module_pom("seats", "com.zaxxer:HikariCP"),
            "seats/src/main/kotlin/org/acme/Seats.kt": "// @entry\n",
        }
    )
    assert techs(run, "tickets", "library") == [
        ("library", "io.javalin:javalin", None, [("tickets/pom.xml", 5, None)]),
        ("library", "org.acme:hub", "1.0.0", [("tickets/pom.xml", 2, "parent")]),
        ("library", "org.projectlombok:lombok", "1.18.32", [("pom.xml", 8, "inherited from hub")]),
    ]
    assert names(run, "seats", "library") == [
        "com.zaxxer:HikariCP",
        "org.acme:hub",
        "org.projectlombok:lombok",
    ]
    assert names(run, "seats", "language") == ["kotlin"]
    assert names(run, "tickets", "build_tool") == ["maven"]


def test_python_service_framework_from_code_base_image_and_default_tool(analyze):
    run = analyze(
        {
            "quotes/Dockerfile": "FROM python:3.12-slim AS base\nFROM base\n",
            "quotes/Dockerfile.debug": "FROM python:3.12\n",
            "quotes/requirements.txt": "pyramid==2.0.2\n",
            "quotes/app.py": "# @entry\n# @framework pyramid\n",
        }
    )
    facts = run.service("quotes")
    assert names(run, "quotes", "base_image") == ["python"]
    assert techs(run, "quotes", "base_image")[0][2:] == (
        "3.12-slim",
        [("quotes/Dockerfile", 1, "python:3.12-slim"), ("quotes/Dockerfile.debug", 1, "python:3.12")],
    )  # one fact per image: the first declaration gives the version
    assert techs(run, "quotes", "build_tool") == [
        ("build_tool", "pip", None, [("quotes/requirements.txt", 1, None)])
    ]
    framework = [t for t in facts.technologies if t.kind == "framework"]
    assert [(t.name, t.version) for t in framework] == [("pyramid", None)]
    assert framework[0].evidence == facts.service.evidence[:1]  # no manifest names it: the service's own
    assert all(e.commit == "c0ffee" for t in facts.technologies for e in t.evidence)


def test_broken_manifest_still_gives_languages_and_never_raises(analyze):
    run = analyze(
        {"api/package.json": '{"name": "api", "scripts": {"start": ', "api/index.js": "// @entry\n"}
    )
    assert [(t.kind, t.name) for t in run.service("api").technologies] == [
        ("language", "javascript"),
        ("build_tool", "npm"),
    ]


def test_technologies_are_bounded_keeping_runtime_dependencies_first(analyze):
    runtime = {f"rt-{i:03}": "1.0.0" for i in range(250)}
    dev = {f"dev-{i:03}": "1.0.0" for i in range(150)}
    manifest = {
        "name": "big",
        "scripts": {"start": "node i.js"},
        "dependencies": runtime,
        "devDependencies": dev,
    }
    files = {"big/package.json": json.dumps(manifest, indent=1), "big/i.js": "// @entry\n"}
    first, second = analyze(files), analyze(files)
    found = first.service("big").technologies
    assert len(found) == MAX_TECHNOLOGIES
    libraries = [t.name for t in found if t.kind == "library"]
    assert set(runtime) <= set(libraries) and libraries == sorted(libraries)
    assert found == second.service("big").technologies  # deterministic
