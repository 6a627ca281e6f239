"""Spring Data REST repositories as HTTP endpoints; test source sets and entry points."""

from __future__ import annotations

import json

import pytest

from orbitkb.analysis.facts import LinkedFacts, ServiceContext
from orbitkb.analysis.jvm import ANALYZER
from orbitkb.analysis.jvm.datarest import plural
from orbitkb.analysis.jvm.resolve import is_test_path

BASE = "/${spring.data.rest.base-path:}"


def link(files: dict[str, str]) -> LinkedFacts:
    parsed = {p: json.loads(json.dumps(ANALYZER.parse(p, text))) for p, text in files.items()}
    return ANALYZER.link(ServiceContext("svc", ".", "jvm-spring", "repo"), parsed)


def endpoints(facts: LinkedFacts) -> list[tuple[str, str]]:
    return sorted((a.method, a.path.replace(BASE, "")) for a in facts.apis)


BOOK = "package lib;\nimport javax.persistence.Entity;\n@Entity public class Book { @javax.persistence.Id Long id; }\n"


def test_annotated_repository_with_a_path_java_and_kotlin():
    java = """package lib;
import org.springframework.data.repository.PagingAndSortingRepository;
import org.springframework.data.rest.core.annotation.RepositoryRestResource;

@RepositoryRestResource(path = "shelf")
public interface BookRepository extends PagingAndSortingRepository<Book, Long> {
  java.util.List<Book> findByTitle(String title);
}
"""
    kotlin = """package lib
import org.springframework.data.repository.CrudRepository
import org.springframework.data.rest.core.annotation.RepositoryRestResource

@RepositoryRestResource(path = "members")
interface MemberRepo : CrudRepository<Member, Long>
"""
    facts = link({"Book.java": BOOK, "BookRepository.java": java, "MemberRepo.kt": kotlin})
    assert endpoints(facts) == [
        ("DELETE", "/members/{id}"), ("DELETE", "/shelf/{id}"),
        ("GET", "/members"), ("GET", "/members/{id}"),
        ("GET", "/shelf"), ("GET", "/shelf/search/findByTitle"), ("GET", "/shelf/{id}"),
        ("PATCH", "/members/{id}"), ("PATCH", "/shelf/{id}"),
        ("POST", "/members"), ("POST", "/shelf"),
        ("PUT", "/members/{id}"), ("PUT", "/shelf/{id}"),
    ]  # fmt: skip
    assert all(a.path.startswith(BASE) for a in facts.apis)


def test_default_export_needs_spring_data_rest_and_a_public_repository():
    public = "package lib;\nimport org.springframework.data.jpa.repository.JpaRepository;\n" \
        "public interface CategoryRepository extends JpaRepository<Category, Long> {}\n"
    hidden = "package lib;\nimport org.springframework.data.rest.core.annotation.RepositoryRestResource;\n" \
        "import org.springframework.data.repository.CrudRepository;\n" \
        "@RepositoryRestResource(exported = false)\npublic interface PersonRepository extends CrudRepository<Person, Long> {}\n"
    facts = link({"CategoryRepository.java": public, "PersonRepository.java": hidden})
    assert ("GET", "/categories") in endpoints(facts)
    assert not any("people" in p for _m, p in endpoints(facts))
    assert endpoints(link({"CategoryRepository.java": public})) == []  # no Spring Data REST at all


@pytest.mark.parametrize(
    ("word", "expected"),
    [("order", "orders"), ("category", "categories"), ("address", "addresses"), ("person", "people"),
     ("orderItem", "orderItems"), ("day", "days"), ("salesPerson", "salesPeople")],
)  # fmt: skip
def test_plural(word, expected):
    assert plural(word) == expected


@pytest.mark.parametrize(
    ("path", "test"),
    [
        ("svc/src/integration-test/java/a/B.java", True),
        ("svc/src/componentTest/kotlin/a/B.kt", True),
        ("svc/src/e2e/java/a/B.java", True),
        ("svc/src/main/java/a/B.java", False),
        ("svc/src/main/java/it/kit/B.java", False),
        ("svc/src/kit/java/a/B.java", False),
    ],
)
def test_test_source_sets(path, test):
    assert is_test_path(path) is test


def test_enable_auto_configuration_alone_is_not_an_entry_point():
    config = "package a;\n@org.springframework.boot.autoconfigure.EnableAutoConfiguration\n" \
        "@Configuration public class WiringConfig {}\n"
    app = "package a;\n@EnableAutoConfiguration public class App {\n" \
        "  public static void main(String[] args) { SpringApplication.run(App.class, args); }\n}\n"
    assert not ANALYZER.parse("src/main/java/a/WiringConfig.java", config).get("entrypoint")
    assert ANALYZER.parse("src/main/java/a/App.java", app).get("entrypoint")
    boot = "package a;\n@SpringBootApplication public class Boot {}\n"
    assert not ANALYZER.parse("src/integration-test/java/a/Boot.java", boot).get("entrypoint")
