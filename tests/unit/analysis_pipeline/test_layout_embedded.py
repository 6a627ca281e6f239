"""A frontend whose build output another unit packages (served from a jar's static resources) is part
of that unit, not a service: named by the JVM build (Maven frontend plugin, Gradle node plugin) or by
the frontend's own build script writing into a module's resources."""

from __future__ import annotations

from orbitkb.analysis.layout.manifests import read_manifest

BOOT_POM = """<project><artifactId>atlas-maps</artifactId>
<build><plugins>
  <plugin><groupId>org.springframework.boot</groupId><artifactId>spring-boot-maven-plugin</artifactId></plugin>
  <plugin><groupId>com.github.eirslett</groupId><artifactId>frontend-maven-plugin</artifactId>
    <configuration><workingDirectory>{folder}</workingDirectory></configuration></plugin>
</plugins></build></project>"""

GRADLE_KTS = """plugins {
    id("org.springframework.boot")
    id("com.github.node-gradle.node")
}
node {
    nodeProjectDir.set(file("${project.projectDir}/console"))
}
"""

SPA = '{"name": "atlas-ui", "scripts": {"start": "vite", "build": "vite build"}}'
APP = "// @entry\n// @api GET /tiles TileController.list\n"


def test_maven_frontend_plugin_working_directory_is_embedded(analyze):
    run = analyze(
        {
            "maps/pom.xml": BOOT_POM.format(folder="webapp"),
            "maps/src/main/java/atlas/MapsApp.java": APP,
            "maps/webapp/package.json": SPA,
            "maps/webapp/src/main.ts": "// ui\n",
        }
    )
    assert run.names() == ["maps"]


def test_gradle_node_plugin_project_folder_is_embedded(analyze):
    run = analyze(
        {
            "routing/build.gradle.kts": GRADLE_KTS,
            "routing/src/main/kotlin/atlas/RoutingApp.kt": APP,
            "routing/console/package.json": SPA,
            "routing/console/src/index.js": "// ui\n",
        }
    )
    assert run.names() == ["routing"]


def test_a_build_script_writing_into_a_module_resources_is_embedded(analyze):
    ui = '{"name": "atlas-ui", "scripts": {"start": "ng serve", "build": "ng build --output-path ../geo/src/main/resources/static"}}'
    run = analyze(
        {
            "geo/pom.xml": BOOT_POM.replace("frontend-maven-plugin", "maven-jar-plugin").format(folder="x"),
            "geo/src/main/java/atlas/GeoApp.java": APP,
            "geo-ui/package.json": ui,
            "geo-ui/src/main.ts": "// ui\n",
        }
    )
    assert run.names() == ["geo"]


def test_a_deployed_or_unreferenced_frontend_stays_a_service(analyze):
    compose = "services:\n  webapp:\n    build: maps/webapp\n"
    files = {
        "maps/pom.xml": BOOT_POM.format(folder="webapp"),
        "maps/src/main/java/atlas/MapsApp.java": APP,
        "maps/webapp/package.json": SPA,
        "maps/webapp/src/main.ts": "// ui\n",
    }
    assert analyze({**files, "docker-compose.yml": compose}).names() == ["maps", "webapp"]
    unreferenced = {**files, "maps/pom.xml": BOOT_POM.format(folder="${project.basedir}")}
    assert analyze(unreferenced).names() == ["maps", "webapp"]


def test_manifests_name_embedded_folders_in_several_spellings():
    pom, _ = read_manifest("a/pom.xml", BOOT_POM.format(folder="${basedir}/client/"))
    assert pom.embeds == ["client"]
    groovy = "node {\n  nodeModulesDir = file(\"$projectDir/web\")\n}\ntask buildUi(type: NpmTask) { workingDir = file('web') }\n"
    gradle, _ = read_manifest("b/build.gradle", groovy)
    assert gradle.embeds == ["web"]
    plain, _ = read_manifest("c/build.gradle", "task run(type: Exec) { workingDir = file('build/tmp') }\n")
    assert plain.embeds == []
    spa, _ = read_manifest("d/package.json", SPA)
    assert (spa.bundled, spa.embeds) == (False, [])
