"""Stores named where a Go service uses a raw driver. SQL text handed to a driver:
``db.QueryRow(ctx, "SELECT ... FROM orders")`` through database/sql, pgx, sqlx or sqlc's generated
``DBTX`` persists ``orders``. A go-redis key: ``rdb.HSet(ctx, "cart:"+id, ...)`` stores the key
space ``cart`` (a key named by configuration is read from it; one computed at runtime is ``*``).
An AWS DynamoDB request literal (``&dynamodb.PutItemInput{TableName: aws.String("orders")}``)
names its table.

The receiver's type does not matter (sqlc hides it behind an interface, pgx behind a pool): a
statement is recognised by its text, so only a string that reads as SQL names tables. The engine
comes from the SQL driver the service imports (pgx, lib/pq, go-sql-driver/mysql...), else from
its configuration and manifests.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from orbitkb.analysis.facts import Env, Prop
from orbitkb.analysis.golang.emit import literal, pass_through
from orbitkb.analysis.golang.program import Program
from orbitkb.analysis.golang.sink import EntityRec
from orbitkb.analysis.golang.tables import SQL_DRIVERS
from orbitkb.analysis.golang.values import Obj, S, Unk, V, lit
from orbitkb.analysis.resolution.storenames import KEYSPACE, key_name, tables_in

if TYPE_CHECKING:
    from orbitkb.analysis.golang.frame import Frame, Interp

Args = list[V]
Spec = dict[str, Any]


def sql_engine_of(prog: Program) -> str | None:
    """The one engine of the SQL drivers the service imports, else None."""
    found = {SQL_DRIVERS[p] for p in prog.imported if p in SQL_DRIVERS}
    return found.pop() if len(found) == 1 else None


def sql_engine(it: Interp) -> str | None:
    return sql_engine_of(it.prog)


def sql_text(it: Interp, fr: Frame, recv: V | None, args: Args, e: list[Any], spec: Spec) -> V:
    """``Exec``/``Query``/``QueryRow`` (and their ``Context`` forms, sqlx ``Get``/``Select``): the
    statement is the first argument that reads as SQL (after the context, when there is one)."""
    for a in args[:3]:
        text = literal(a)
        if not text:
            continue
        for table in tables_in(text):
            it.sink.entities.append(
                EntityRec(
                    lit(table), "sql_table", fr.file, e[3], e[4], engine_hint=sql_engine(it), framework="sql"
                )
            )
        break
    return pass_through(args, e)


def redis_key(it: Interp, fr: Frame, recv: V | None, args: Args, e: list[Any], spec: Spec) -> V:
    # go-redis v8+ takes a context first; older versions start with the key
    key = args[0] if args and isinstance(args[0], S) else args[1] if len(args) > 1 else None
    if isinstance(key, S):
        only = key.parts[0] if len(key.parts) == 1 else None
        if isinstance(only, (Prop, Env)) and only.default is None:
            name: S | None = key  # the whole key from configuration: resolved by the fact builder
        else:
            text = key_name(key.to_expr())
            name = lit(text) if text else None
        if name is not None:
            it.sink.entities.append(
                EntityRec(name, "key_value", fr.file, e[3], e[4], engine_hint="redis", framework="go-redis")
            )
    elif isinstance(key, Unk) and key.param is None and not it.sink.runtime_keys and fr.file not in it.library:
        # a key computed at run time (a request value), not a parameter still unbound: a wrapper run
        # on its own (``Get(ctx, key)`` nobody calls yet) says nothing until its callers bind it
        it.sink.runtime_keys.append(
            EntityRec(lit(KEYSPACE), "key_value", fr.file, e[3], e[4], engine_hint="redis", framework="go-redis")
        )
    return pass_through(args, e)


def comp_store(it: Interp, fr: Frame, recv: V | None, args: Args, e: list[Any], spec: Spec) -> V:
    """An AWS request naming its table: ``&dynamodb.PutItemInput{TableName: aws.String("orders")}``."""
    table = recv.a.get(spec["field"]) if isinstance(recv, Obj) else None
    if isinstance(table, S) and literal(table):
        it.sink.entities.append(
            EntityRec(table, "document_collection", fr.file, e[3], e[4], engine_hint=spec["engine"],
                      framework=spec["framework"])
        )  # fmt: skip
    return recv if recv is not None else pass_through(args, e)


def builder_table(it: Interp, fr: Frame, recv: V | None, args: Args, e: list[Any], spec: Spec) -> V:
    """A SQL query builder naming its table (squirrel ``sq.Insert("orders")``, ``Select(...).From("t")``,
    goqu ``goqu.From("t")``): the table a statement built so runs against; the builder goes on."""
    table = literal(args[0]) if args else None
    if table and tables_in(f"SELECT * FROM {table}") == [table]:
        it.sink.entities.append(
            EntityRec(lit(table), "sql_table", fr.file, e[3], e[4], engine_hint=sql_engine(it), framework="sql")
        )
    return recv if isinstance(recv, Obj) else Obj("sql_builder")


ACTIONS = {"sql_text": sql_text, "redis_key": redis_key, "comp_store": comp_store, "builder_table": builder_table}
