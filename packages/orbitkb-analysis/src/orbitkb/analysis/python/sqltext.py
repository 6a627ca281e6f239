"""Tables named in the SQL text a service hands to a raw driver (psycopg, pymysql, sqlite3,
asyncpg, the ``databases`` package, SQLAlchemy's ``text()``...): ``cur.execute("SELECT ... FROM
orders JOIN items ...")`` persists ``orders`` and ``items``. The engine comes from the driver the
connection was opened with, else (an untyped receiver in a service importing a driver) from the
service's configuration and manifests."""

from __future__ import annotations

from orbitkb.analysis.facts import Lit, RawEntity
from orbitkb.analysis.python.ir import describe
from orbitkb.analysis.python.linkctx import LinkState, to_expr
from orbitkb.analysis.python.signatures import SQL_DRIVER_LIBS, SQL_EXEC_METHODS, SQL_TEXT_WRAPPERS
from orbitkb.analysis.resolution.storenames import HOLE, tables_in


def collect(st: LinkState) -> list[RawEntity]:
    duck = bool(st.libs & SQL_DRIVER_LIBS)
    seen: dict[str, RawEntity] = {}
    for inv in st.invs:
        c = inv.callee
        if c["t"] != "bm" or c["n"] not in SQL_EXEC_METHODS:
            continue
        o = st.r.as_object(c["o"])
        fam = st.r.family(o) or ""
        if fam.startswith("sql:"):
            engine: str | None = fam[4:] or None
        elif not fam and duck and o["t"] in ("param", "bm", "unk", "ret"):
            engine = None
        else:
            continue
        statement = inv.arg(0, "query", "sql", "operation", "statement")
        if statement is not None and statement["t"] == "inst" and statement.get("a"):
            if describe(statement["c"]) in SQL_TEXT_WRAPPERS:
                statement = statement["a"][0]
        expr = to_expr(st.r, statement)
        if expr is None:
            continue
        sql = "".join(p.text if isinstance(p, Lit) else HOLE for p in expr.parts)
        for name in tables_in(sql):
            key = name.lower()
            if key not in seen:
                seen[key] = RawEntity(name, "sql_table", inv.path, inv.line, inv.end, None, (), engine, "sql")
    return list(seen.values())
