"""Quarkus Panache: a repository *class* implementing PanacheMongoRepository<E> names the entity it
stores (a collection named after the class as written), an active-record PanacheMongoEntity subclass
is a collection (`@MongoEntity(collection = ...)` renames it); other classes implementing a
repository-like interface are not repositories."""

from __future__ import annotations

import json

from orbitkb.analysis.facts import LinkedFacts, ServiceContext
from orbitkb.analysis.jvm import ANALYZER


def link(files: dict[str, str]) -> LinkedFacts:
    parsed = {p: json.loads(json.dumps(ANALYZER.parse(p, text))) for p, text in files.items()}
    return ANALYZER.link(ServiceContext("svc", ".", "jvm-spring", "repo"), parsed)


def entities(files: dict[str, str]) -> list[tuple[str, str | None, str | None]]:
    return sorted((e.name, e.class_name, e.engine_hint) for e in link(files).entities)


TICKET = """package org.fair.rides;
public class Ticket {
    public String ride;
    public int price;
}
"""
TICKETS_REPO = """package org.fair.rides;
import io.quarkus.mongodb.panache.PanacheMongoRepository;
import javax.enterprise.context.ApplicationScoped;

@ApplicationScoped
public class Tickets implements PanacheMongoRepository<Ticket> {
}
"""
WHEEL_KT = """package org.fair.rides

import io.quarkus.mongodb.panache.kotlin.PanacheMongoRepositoryBase
import org.bson.types.ObjectId

class Wheels : PanacheMongoRepositoryBase<FerrisWheel, ObjectId>
"""
PRIZE = """package org.fair.prizes;
import io.quarkus.mongodb.panache.PanacheMongoEntity;
import io.quarkus.mongodb.panache.common.MongoEntity;

@MongoEntity(collection = "won_prizes")
public class Prize extends PanacheMongoEntity {
    public String name;
}
"""
BALLOON = """package org.fair.prizes;
import io.quarkus.mongodb.panache.PanacheMongoEntity;

public class Balloon extends PanacheMongoEntity {
    public String colour;
}
"""
NOT_A_REPOSITORY = """package org.fair.cache;
import org.springframework.data.repository.Repository;

public class LocalCache implements Repository<Token, String> {
}
"""


def test_a_panache_repository_class_names_its_entity_java_and_kotlin() -> None:
    files = {"src/main/java/org/fair/rides/Ticket.java": TICKET, "src/main/java/org/fair/rides/Tickets.java": TICKETS_REPO}
    assert entities(files) == [("Ticket", "Ticket", "mongodb")]
    # the managed class is not in the service: the repository stands in for it
    assert entities({"src/main/kotlin/org/fair/rides/Wheels.kt": WHEEL_KT}) == [
        ("FerrisWheel", "FerrisWheel", "mongodb")
    ]


def test_active_record_entities_with_and_without_a_collection_name() -> None:
    files = {"src/main/java/org/fair/prizes/Prize.java": PRIZE, "src/main/java/org/fair/prizes/Balloon.java": BALLOON}
    assert entities(files) == [("Balloon", "Balloon", "mongodb"), ("won_prizes", "Prize", "mongodb")]


def test_a_class_implementing_a_spring_repository_interface_is_not_a_repository() -> None:
    assert entities({"src/main/java/org/fair/cache/LocalCache.java": NOT_A_REPOSITORY}) == []
