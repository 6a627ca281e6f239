"""A Spring Cloud Config server with a git backend whose ``search-paths`` name folders of the
repository itself: ``{application}`` folders are served to that client only, a shared folder to
every client, ``{profile}`` folders as that profile (``default`` as none); a client whose own
served file is empty still gets the shared one."""

from __future__ import annotations

from orbitkb.analysis.config.config_server import ConfigServers
from orbitkb.analysis.config.spring import read_spring
from orbitkb.analysis.jvm import ANALYZER

SERVER_YML = (
    "spring:\n  application:\n    name: settings\n  cloud:\n    config:\n      server:\n        git:\n"
    "          uri: https://git.example.org/fleet\n          search-paths:\n"
    '            - "settings-repo/{application}/{profile}"\n            - "settings-repo/common/{profile}"\n'
)
SERVER_PROPERTIES = (
    "spring.application.name=settings\n"
    "spring.cloud.config.server.git.searchPaths=conf/{application},conf/all\n"
)


def docs(files: dict[str, str]):
    return [
        d
        for path, text in files.items()
        if path.endswith((".yml", ".properties"))
        for d in read_spring(path, text)[0]
    ]


def served(files: dict[str, str], client: str) -> list[tuple[str, str | None, dict[str, str]]]:
    servers = ConfigServers(docs({p: t for p, t in files.items() if "/src/main/resources/" in p}), files)
    own = docs({p: t for p, t in files.items() if p.startswith(client + "/")})
    return sorted(
        (d.file, d.profile, {k: v.value for k, v in d.props.items()}) for d in servers.served([client], own)
    )


def test_application_and_profile_placeholders_pick_the_clients_folders():
    files = {
        "settings/src/main/resources/bootstrap.yml": SERVER_YML,
        "settings-repo/ledger/default/ledger.yml": "ledger.limit: 5\n",
        "settings-repo/ledger/docker/ledger.yml": "ledger.limit: 9\n",
        "settings-repo/vault/default/vault.yml": "vault.limit: 1\n",
        "settings-repo/common/default/application.yml": "shared.bus: parcels\n",
        "ledger/src/main/resources/bootstrap.yml": "spring.application.name: ledger\n",
    }
    assert served(files, "ledger") == [
        ("settings-repo/common/default/application.yml", None, {"shared.bus": "parcels"}),
        ("settings-repo/ledger/default/ledger.yml", None, {"ledger.limit": "5"}),
        ("settings-repo/ledger/docker/ledger.yml", "docker", {"ledger.limit": "9"}),
    ]


def test_properties_style_search_paths_and_an_empty_own_file_still_get_the_shared_folder():
    files = {
        "settings/src/main/resources/application.properties": SERVER_PROPERTIES,
        "conf/vault/vault.properties": "",
        "conf/all/application.properties": "shared.bus=parcels\n",
        "vault/src/main/resources/application.properties": "spring.application.name=vault\n",
    }
    assert served(files, "vault") == [
        ("conf/all/application.properties", None, {"shared.bus": "parcels"}),
        ("conf/vault/vault.properties", None, {}),
    ]


def test_folders_no_search_path_names_are_not_served():
    files = {
        "settings/src/main/resources/bootstrap.yml": SERVER_YML,
        "elsewhere/ledger/default/ledger.yml": "ledger.limit: 5\n",
        "ledger/src/main/resources/bootstrap.yml": "spring.application.name: ledger\n",
    }
    assert served(files, "ledger") == []


def test_another_clients_folder_is_not_served():
    files = {
        "settings/src/main/resources/bootstrap.yml": SERVER_YML,
        "settings-repo/vault/default/application.yml": "vault.only: true\n",
        "ledger/src/main/resources/bootstrap.yml": "spring.application.name: ledger\n",
    }
    assert served(files, "ledger") == []


BINDING = """package org.pier.{pkg};

import org.springframework.cloud.stream.annotation.{ann};
import org.springframework.messaging.{chan};

public interface Lines {{
    @{ann}("crates")
    {chan} crates();
}}
"""


def test_a_stream_binding_takes_its_destination_from_the_shared_served_folder(analyze):
    files = {
        "docker-compose.yml": "services:\n  settings: {build: ./settings}\n  dock: {build: ./dock}\n",
        "settings/pom.xml": "<project><artifactId>settings</artifactId></project>",
        "settings/src/main/resources/bootstrap.yml": SERVER_YML,
        "settings-repo/common/default/application.yml": (
            "spring:\n  cloud:\n    stream:\n      bindings:\n        crates:\n          destination: crate-events\n"
        ),
        "settings-repo/dock/default/dock.yml": "",
        "dock/pom.xml": (
            "<project><artifactId>dock</artifactId><dependencies><dependency>"
            "<artifactId>spring-cloud-starter-stream-rabbit</artifactId></dependency></dependencies></project>"
        ),
        "dock/src/main/resources/bootstrap.yml": "spring.application.name: dock\n",
        "dock/src/main/java/org/pier/dock/Lines.java": BINDING.format(
            pkg="dock", ann="Output", chan="MessageChannel"
        ),
        "dock/src/main/java/org/pier/dock/Loader.java": (
            "package org.pier.dock;\n\nimport org.springframework.messaging.support.MessageBuilder;\n\n"
            "public class Loader {\n    private final Lines lines;\n    Loader(Lines lines) { this.lines = lines; }\n"
            '    void load() { lines.crates().send(MessageBuilder.withPayload("box").build()); }\n}\n'
        ),
    }
    run = analyze(files, stubs=[ANALYZER])
    assert sorted((m.direction, m.channel) for m in run.service("dock").messages) == [
        ("publishes", "crate-events")
    ]
