"""Tortoise ORM and peewee models: the table from ``class Meta`` (else the class name in lower
case), the engine from a peewee ``Meta.database``; abstract and base models are no entities."""

from pyana_support import link_sources

TORTOISE = '''
from tortoise import fields
from tortoise.models import Model


class Stamped(Model):
    created = fields.DatetimeField(auto_now_add=True)

    class Meta:
        abstract = True


class Voucher(Stamped):
    code = fields.CharField(max_length=20)

    class Meta:
        table = "vouchers"


class Redemption(Model):
    voucher = fields.ForeignKeyField("models.Voucher")
'''

PEEWEE = '''
import peewee
from playhouse.pool import PooledPostgresqlDatabase

db = PooledPostgresqlDatabase("loyalty", host="pg")


class BaseModel(peewee.Model):
    class Meta:
        database = db


class Member(BaseModel):
    email = peewee.CharField(unique=True)

    class Meta:
        table_name = "members"


class Points(BaseModel):
    member = peewee.ForeignKeyField(Member)


class Scratch(peewee.Model):
    note = peewee.TextField()
'''


def _entities(facts):
    return sorted((e.name, e.class_name, e.kind, e.engine_hint) for e in facts.entities)


def test_tortoise_models_with_and_without_a_table_name():
    assert _entities(link_sources({"svc/models.py": TORTOISE})) == [
        ("redemption", "Redemption", "sql_table", None),
        ("vouchers", "Voucher", "sql_table", None),
    ]


def test_peewee_models_take_the_engine_of_the_database_their_base_model_names():
    assert _entities(link_sources({"svc/db.py": PEEWEE})) == [
        ("members", "Member", "sql_table", "postgres"),
        ("points", "Points", "sql_table", "postgres"),
        ("scratch", "Scratch", "sql_table", None),  # no database named: the deployment decides
    ]
