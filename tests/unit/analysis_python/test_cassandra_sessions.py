"""CQL handed to a Cassandra driver session (``Cluster(...).connect()``), wherever the session is
kept: a module variable, or a class attribute set in the class body — even inside a ``while True:
try:`` retry loop, from another class attribute (``_session = CLUSTER.connect()``)."""

from pyana_support import link_sources

MODULE_SESSION = '''
import os
from cassandra.cluster import Cluster

cluster = Cluster([os.getenv("CASSANDRA_HOST", "cassandra")])
session = cluster.connect("games")


def record(score_id, points):
    session.execute("INSERT INTO scores (id, points) VALUES (%s, %s)", (score_id, points))
'''

CLASS_SESSION = '''
import time
from cassandra.cluster import Cluster


class Ledger:
    while True:
        try:
            NODES = Cluster(["ledger-db"])
            _session = NODES.connect()
            break
        except Exception:
            time.sleep(2)

    @classmethod
    async def prepare(cls):
        pending = cls._session.execute_async("""
            CREATE TABLE IF NOT EXISTS postings (id uuid, amount int, PRIMARY KEY (id))
        """)
        await pending
'''

# an ORM model of unstated engine (decided by configuration) and the same table in a second store
ORM_AND_CQL = '''
import sqlalchemy as sa
from sqlalchemy.orm import declarative_base
from cassandra.cluster import Cluster

Base = declarative_base()


class Posting(Base):
    __tablename__ = "postings"
    id = sa.Column(sa.Integer, primary_key=True)


copy = Cluster(["archive"]).connect()


def archive(p):
    copy.execute("INSERT INTO postings (id) VALUES (%s)", (p.id,))
'''

# raw SQL through psycopg on a table an ORM model maps: one entity, as before
ORM_AND_SQL = '''
import psycopg2
import sqlalchemy as sa
from sqlalchemy.orm import declarative_base

Base = declarative_base()


class Posting(Base):
    __tablename__ = "postings"
    id = sa.Column(sa.Integer, primary_key=True)


def count():
    with psycopg2.connect(host="db").cursor() as cur:
        cur.execute("SELECT count(*) FROM postings")
'''


def stores(sources):
    return sorted((e.name, e.engine_hint or "") for e in link_sources(sources).entities)


def test_cql_through_a_module_level_session_names_its_tables():
    assert stores({"svc/scores.py": MODULE_SESSION}) == [("scores", "cassandra")]


def test_a_session_kept_in_a_class_body_retry_loop_is_the_class_attribute():
    assert stores({"svc/ledger.py": CLASS_SESSION}) == [("postings", "cassandra")]


def test_cql_on_a_table_an_orm_model_also_names_is_a_second_store():
    assert stores({"svc/models.py": ORM_AND_CQL}) == [("postings", ""), ("postings", "cassandra")]


def test_negative_raw_sql_on_a_modelled_table_stays_one_entity():
    assert stores({"svc/models.py": ORM_AND_SQL}) == [("postings", "")]
