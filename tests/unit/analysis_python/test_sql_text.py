"""Tables named in SQL handed to raw drivers."""

from pyana_support import link_sources

from orbitkb.analysis.resolution.storenames import tables_in

PSYCOPG = '''
import psycopg2

SELECT_TICKETS = """
    SELECT t.id, s.name FROM tickets t JOIN public.seats s ON s.id = t.seat_id
"""


def open_db():
    return psycopg2.connect(host="db", dbname="cinema")


def sold(show_id):
    conn = open_db()
    with conn.cursor() as cur:
        cur.execute(SELECT_TICKETS + " WHERE t.show_id = %s", (show_id,))
        return cur.fetchall()
'''

# the same with pymysql, a cursor kept on an object and an f-string statement
PYMYSQL = """
import pymysql


class Repo:
    def __init__(self, conn):
        self.conn = conn

    def add(self, table_suffix, row):
        cur = self.conn.cursor()
        cur.execute("INSERT INTO refunds (id, amount) VALUES (%s, %s)", row)
        cur.execute(f"UPDATE audit_{table_suffix} SET seen = 1")


def make():
    return Repo(pymysql.connect(host="mysql"))
"""


def entities(sources):
    return sorted(
        (e.name, e.kind, e.engine_hint, e.line if hasattr(e, "line") else e.start_line)
        for e in link_sources(sources).entities
    )


def test_tables_of_a_typed_connection_carry_the_driver_engine():
    assert entities({"svc/db.py": PSYCOPG}) == [
        ("seats", "sql_table", "postgres", 16),
        ("tickets", "sql_table", "postgres", 16),
    ]


def test_untyped_cursor_in_a_service_using_a_driver():
    # the cursor comes from a constructor parameter: the engine is left to configuration
    assert entities({"svc/repo.py": PYMYSQL}) == [("refunds", "sql_table", None, 11)]


def test_statement_parsing():
    assert tables_in("select * from generate_series(1, 3)") == []
    assert tables_in("CREATE TABLE IF NOT EXISTS votes (id text)") == ["votes"]
    assert tables_in("DELETE FROM carts WHERE id = ?") == ["carts"]
    assert tables_in("SELECT table_name FROM information_schema.tables") == []
    assert tables_in("Hello from Paris, into the night") == []
    assert tables_in("SELECT * FROM audit_\x00 JOIN users u ON 1=1") == ["users"]


def test_execute_on_non_driver_objects_is_ignored():
    code = """
class Command:
    def execute(self, text):
        return text


Command().execute("SELECT * FROM nowhere")
"""
    assert entities({"svc/cmd.py": code}) == []


def test_statements_through_the_databases_package_and_sqlalchemy_text():
    async_db = """
from databases import Database

database = Database("postgresql://harbor@db/harbor")


async def berths():
    return await database.fetch_all(query="SELECT * FROM berths WHERE free = :free", values={"free": True})


async def book(berth_id):
    await database.execute(query="UPDATE berth_bookings SET taken = true WHERE id = :id", values={"id": berth_id})
"""
    core = """
from sqlalchemy import create_engine, text

engine = create_engine("postgresql://harbor@db/harbor")


def tides():
    with engine.connect() as conn:
        return conn.execute(text("SELECT level FROM tide_readings WHERE at > :since"), {"since": 0}).all()
"""
    got = link_sources({"svc/berths.py": async_db, "svc/tides.py": core}).entities
    assert sorted((e.name, e.file) for e in got) == [
        ("berth_bookings", "svc/berths.py"),
        ("berths", "svc/berths.py"),
        ("tide_readings", "svc/tides.py"),
    ]


def test_orm_statements_and_a_text_helper_of_another_library_name_no_table():
    code = """
from sqlalchemy import select
from sqlalchemy.orm import Session
from reports.markup import text


def load(session: Session, model):
    session.execute(select(model))
    session.execute(text("SELECT the rows FROM the report"))
"""
    assert link_sources({"svc/load.py": code}).entities == ()


def test_an_upsert_names_its_table_not_the_column_it_updates():
    mysql = "INSERT INTO hours (hour, open) VALUES (:hour, :open) ON DUPLICATE KEY UPDATE open = :open"
    assert tables_in(mysql) == ["hours"]
    assert tables_in("insert into seats (id) values (1) on duplicate key\n  update taken = 1") == ["seats"]
    assert tables_in("INSERT INTO seats (id) VALUES (1) ON CONFLICT (id) DO UPDATE SET id = excluded.id") == ["seats"]
    assert tables_in("UPDATE keys SET used = 1") == ["keys"]  # a table named like the keyword stays
