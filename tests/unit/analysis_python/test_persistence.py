"""SQLAlchemy (declarative, Mapped, Table), SQLModel and pymongo/motor collections."""

from pyana_support import link_sources, link_tree

MODELS = "workers_svc/worker/models.py"


def test_sqlalchemy_sqlmodel_and_mongo_entities():
    ents = [
        (e.name, e.kind, e.file, e.start_line, e.class_name, e.fields, e.engine_hint, e.framework)
        for e in link_tree("workers_svc").entities
    ]
    assert ents == [
        (
            "line_items",
            "sql_table",
            MODELS,
            10,
            None,
            (
                ("id", "Integer", False, True),
                ("sku", "String", False, False),
                ("qty", "Integer", True, False),
            ),
            None,
            "sqlalchemy",
        ),
        (
            "orders",
            "sql_table",
            MODELS,
            23,
            "Order",
            (
                ("id", "int", False, True),
                ("customer", "String", False, False),
                ("note", "str", True, False),
                ("status", "String", False, False),
                ("total", "Numeric", True, False),
                ("parent_id", "Integer", True, False),
            ),
            None,
            "sqlalchemy",
        ),
        (
            "shipment",
            "sql_table",
            MODELS,
            34,
            "Shipment",
            (("id", "int", False, True), ("carrier", "str", False, False), ("tracking", "str", True, False)),
            None,
            "sqlmodel",
        ),
        (
            "receipts",
            "document_collection",
            "workers_svc/worker/store.py",
            12,
            None,
            (),
            "mongodb",
            "pymongo",
        ),
        (
            "audit_log",
            "document_collection",
            "workers_svc/worker/store.py",
            13,
            None,
            (),
            "mongodb",
            "pymongo",
        ),
        (
            "old_orders",
            "document_collection",
            "workers_svc/worker/store.py",
            18,
            None,
            (),
            "mongodb",
            "pymongo",
        ),
    ]


def test_flask_sqlalchemy_default_name_abstract_base_and_inherited_tablename():
    src = {
        "svc/models.py": (
            "from flask_sqlalchemy import SQLAlchemy\n"
            "db = SQLAlchemy()\n"
            "class Base(db.Model):\n"
            "    __abstract__ = True\n"
            "    id = db.Column(db.Integer, primary_key=True)\n"
            "class OrderLine(db.Model):\n"
            "    id = db.Column(db.Integer, primary_key=True)\n"
            "class Named(db.Model):\n"
            "    __tablename__ = 'people'\n"
            "    name = db.Column(db.String(80), nullable=False)\n"
        )
    }
    ents = [(e.name, e.class_name, e.start_line, e.fields) for e in link_sources(src).entities]
    assert ents == [
        ("order_line", "OrderLine", 6, (("id", "Integer", False, True),)),
        ("people", "Named", 8, (("name", "String", False, False),)),
    ]


def test_mongo_collections_reached_through_a_sessions_client():
    """``session.client.<db>.<collection>``: motor and pymongo sessions, annotated or started."""
    src = {
        "repo.py": (
            "from motor.motor_asyncio import AsyncIOMotorClient, AsyncIOMotorClientSession\n"
            "from pymongo.client_session import ClientSession\n"
            "class Boxes:\n"
            "    def __init__(self, session: AsyncIOMotorClientSession):\n"
            "        self.session = session\n"
            "    async def add(self, box):\n"
            "        await self.session.client.depot.boxes.insert_one(box)\n"
            "def count_pallets(session: ClientSession):\n"
            "    return session.client.depot.pallets.count_documents({})\n"
            "def negative(session):\n"
            "    return session.client.depot.crates.find_one({})\n"
        )
    }
    ents = sorted((e.name, e.engine_hint) for e in link_sources(src).entities)
    assert ents == [("boxes", "mongodb"), ("pallets", "mongodb")]
