"""Tiny builders for purpose-built systems."""

from __future__ import annotations

from orbitkb.domain.ids import make_id, service_id
from orbitkb.domain.model import (
    CallKind,
    Direction,
    Evidence,
    Message,
    PersistenceEntity,
    Service,
    ServiceCall,
    TargetKind,
)


def svc(name: str, repo: str = "r") -> Service:
    return Service(service_id(repo, name), name, repo, name, "python")


def call(a: str, b: str | None, target: str | None = None, kind: TargetKind = TargetKind.INTERNAL,
         repo: str = "r") -> ServiceCall:
    return ServiceCall(make_id("call", a, b, target), service_id(repo, a), CallKind.HTTP, target or b or "?",
                       target_kind=kind, to_service_id=service_id(repo, b) if b else None,
                       evidence=(Evidence(f"{a}/client.py", 3, 3),))


def msg(service: str, direction: Direction, channel: str, repo: str = "r") -> Message:
    return Message(make_id("msg", service, direction, channel), service_id(repo, service), direction, channel,
                   "kafka", evidence=(Evidence(f"{service}/events.py", 1, 1),))


def entity(service: str, name: str, engine: str, repo: str = "r") -> PersistenceEntity:
    return PersistenceEntity(make_id("ent", service, name), service_id(repo, service), name, "sql_table", engine)
