"""The database an ORM's connection options name: `{ type: "postgres", host, entities }` (TypeORM,
MikroORM) or `{ dialect: "mysql", host }` (Sequelize), wherever the object is written —
`TypeOrmModule.forRoot(...)`, a `forRootAsync` factory, `new DataSource(...)`, a config module.

The engine is what the service's ORM entities are stored in when their own code does not say (the
literal is what the ORM connects to, so it is the entity's engine hint); options naming two
different engines (a test connection beside the real one) name none, and then configuration and
the deployment decide as before.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from tree_sitter import Node

from .syntax import object_pairs, string_value, unwrap

if TYPE_CHECKING:
    from .extractor import Extractor

KEY = "orm_engines"
#: the option naming the database, and its values
_ENGINE_KEYS = ("type", "dialect")
ENGINES = {
    "postgres": "postgres",
    "postgresql": "postgres",
    "cockroachdb": "cockroachdb",
    "mysql": "mysql",
    "mariadb": "mariadb",
    "sqlite": "sqlite",
    "better-sqlite3": "sqlite",
    "sqljs": "sqlite",
    "mssql": "sqlserver",
    "oracle": "oracle",
    "mongodb": "mongodb",
}
#: options only a database connection has: `type: "postgres"` beside one of them is no other object
_CONNECTION_KEYS = frozenset(
    {"host", "port", "database", "url", "username", "password", "entities", "synchronize",
     "autoLoadEntities", "migrations", "storage", "dbName"}
)  # fmt: skip
#: ORMs whose entities take the engine of the connection options
ORMS = frozenset({"typeorm", "sequelize", "mikro-orm"})


def on_object(ex: Extractor, node: Node) -> None:
    """Note the engine of an object literal that is a set of connection options."""
    pairs = object_pairs(node)
    if not _CONNECTION_KEYS & set(pairs):
        return
    for key in _ENGINE_KEYS:
        value = unwrap(pairs.get(key))
        engine = ENGINES.get((string_value(value) or "").lower()) if value is not None else None
        if engine is not None:
            found = ex.out.setdefault(KEY, [])
            if engine not in found:
                found.append(engine)


def connection_engine(engines: list[str]) -> str | None:
    """The one engine the service's connection options name, else None."""
    distinct = set(engines)
    return next(iter(distinct)) if len(distinct) == 1 else None
