"""Quarkus profile keys in application.properties / application.yaml: `%dev.key` belongs to the dev
profile, `%dev,test.key` to both, and `%prod.key` — what a packaged application runs with — replaces
the unprofiled value."""

from __future__ import annotations

from orbitkb.analysis.config.spring import SpringProps, read_spring

PROPERTIES = """\
greenhouse.url=http://glass:8080
%dev.greenhouse.url=http://localhost:8080
%prod.greenhouse.url=${GREENHOUSE_URL}
%dev,test.soil.kind=sandy
watering%daily=yes
"""

YAML = """\
greenhouse:
  url: http://glass:8080
"%prod":
  greenhouse:
    url: http://glass-prod:8080
"%test":
  greenhouse:
    url: http://glass-test:8080
"""


def values(props: SpringProps, key: str) -> list[str]:
    return [v.value for v in props.candidates(key)]


def test_prod_keys_replace_unprofiled_ones_and_other_profiles_come_after() -> None:
    docs, error = read_spring("src/main/resources/application.properties", PROPERTIES)
    assert error is None
    props = SpringProps(docs)
    assert values(props, "greenhouse.url") == ["${GREENHOUSE_URL}", "http://localhost:8080"]
    assert props.get("greenhouse.url").line == 3  # type: ignore[union-attr]


def test_a_key_of_several_profiles_and_a_percent_inside_a_key() -> None:
    props = SpringProps(read_spring("application.properties", PROPERTIES)[0])
    assert values(props, "soil.kind") == ["sandy", "sandy"]
    assert props.inactive("soil.kind")
    assert values(props, "watering%daily") == ["yes"]


def test_yaml_profile_maps() -> None:
    props = SpringProps(read_spring("src/main/resources/application.yaml", YAML)[0])
    assert values(props, "greenhouse.url") == ["http://glass-prod:8080", "http://glass-test:8080"]


def test_an_active_dev_profile_wins_over_prod() -> None:
    props = SpringProps(read_spring("application.properties", PROPERTIES)[0], active=["dev"])
    assert values(props, "greenhouse.url")[0] == "http://localhost:8080"
