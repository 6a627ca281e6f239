"""Raw SQL on a table an ORM model of unstated engine also maps is the same store for every
relational engine of the domain's registry (ClickHouse as much as PostgreSQL), a second store only
for a non-relational one (CQL through a Cassandra session)."""

from pyana_support import link_sources

from orbitkb.domain.engines import ENGINES, RELATIONAL_ENGINES

MODEL = '''
import sqlalchemy as sa
from sqlalchemy.orm import declarative_base

Base = declarative_base()


class Click(Base):
    __tablename__ = "clicks"
    id = sa.Column(sa.Integer, primary_key=True)
'''

CLICKHOUSE_ONLY = '''
from clickhouse_driver import Client

warehouse = Client(host="warehouse")


def totals():
    return warehouse.execute("SELECT page, count() FROM clicks GROUP BY page")
'''

CLICKHOUSE_BESIDE_MODEL = MODEL + '''
from clickhouse_driver import Client


def mirror(rows):
    Client("warehouse").execute("INSERT INTO clicks (id) VALUES", rows)
'''

CQL_BESIDE_MODEL = MODEL + '''
from cassandra.cluster import Cluster

archive = Cluster(["archive"]).connect()


def keep(c):
    archive.execute("INSERT INTO clicks (id) VALUES (%s)", (c.id,))
'''


def stores(sources):
    return sorted((e.name, e.engine_hint or "") for e in link_sources(sources).entities)


def test_the_relational_group_is_part_of_the_registry_and_holds_every_sql_engine():
    assert set(RELATIONAL_ENGINES) <= set(ENGINES)
    assert {"clickhouse", "spanner", "hsqldb", "derby", "firebird", "postgres"} <= set(RELATIONAL_ENGINES)
    assert "cassandra" not in RELATIONAL_ENGINES and "mongodb" not in RELATIONAL_ENGINES


def test_sql_through_a_clickhouse_client_names_its_table():
    assert stores({"svc/stats.py": CLICKHOUSE_ONLY}) == [("clicks", "clickhouse")]


def test_clickhouse_sql_on_a_modelled_table_stays_one_entity():
    assert stores({"svc/models.py": CLICKHOUSE_BESIDE_MODEL}) == [("clicks", "")]


def test_negative_cql_on_a_modelled_table_is_still_a_second_store():
    assert stores({"svc/models.py": CQL_BESIDE_MODEL}) == [("clicks", ""), ("clicks", "cassandra")]
