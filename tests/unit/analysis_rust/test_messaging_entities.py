"""Messages (rdkafka producers and consumers, lapin publishers and consumers) and entities (diesel
``table!``, sea-orm ``DeriveEntityModel`` with its ``table_name``, tables read from sqlx SQL, MongoDB
collections) of Rust services."""

from __future__ import annotations

from tests.unit.analysis_rust.helpers import link, show

KAFKA = """
use rdkafka::producer::{FutureProducer, FutureRecord};
use rdkafka::consumer::{Consumer, StreamConsumer};

const SETTLED: &str = "ledger.settled";

pub async fn announce(producer: &FutureProducer, topic: &str, body: &str) {
    let record = FutureRecord::to(topic).payload(body).key("k");
    producer.send(record, Duration::from_secs(1)).await;
}

pub async fn on_entry(producer: &FutureProducer) {
    announce(producer, "ledger.entry-added", "{}").await;
    let record = FutureRecord::to(SETTLED).payload("x");
}

pub fn listen(consumer: &StreamConsumer) {
    consumer.subscribe(&["quotes.updated", "quotes.removed"]).expect("subscribe");
}
"""

RABBIT = """
use lapin::{options::*, BasicProperties};

pub async fn publish(channel: &lapin::Channel) {
    channel.basic_publish("", "invoices", BasicPublishOptions::default(), b"x", BasicProperties::default()).await;
    channel.basic_publish("billing", "invoice.created", BasicPublishOptions::default(), b"x", BasicProperties::default()).await;
    let consumer = channel.basic_consume("payments", "billing-worker", BasicConsumeOptions::default(), FieldTable::default()).await;
}
"""


def messages(files):
    return sorted((m.direction, show(m.channel), m.provider) for m in link(files).messages)


def test_kafka_topics_folded_through_callers_and_constants():
    assert messages({"svc/src/kafka.rs": KAFKA}) == [
        ("consumes", "quotes.removed", "kafka"),
        ("consumes", "quotes.updated", "kafka"),
        ("publishes", "ledger.entry-added", "kafka"),
        ("publishes", "ledger.settled", "kafka"),
    ]


def test_rabbitmq_exchanges_queues_and_the_default_exchange():
    assert messages({"svc/src/amqp.rs": RABBIT}) == [
        ("consumes", "payments", "rabbitmq"),
        ("publishes", "billing", "rabbitmq"),
        ("publishes", "invoices", "rabbitmq"),
    ]


def test_no_broker_crate_no_messages():
    plain = 'pub fn f(c: &Chat) { c.subscribe(&["room"]); c.basic_publish("", "q"); }\n'
    assert messages({"svc/src/chat.rs": plain}) == []


DIESEL = """
diesel::table! {
    entries (id) {
        id -> Int4,
        amount -> Numeric,
        memo -> Nullable<Text>,
    }
}

table! {
    accounts {
        id -> Int4,
    }
}
"""

SEA_ORM = """
use sea_orm::entity::prelude::*;

#[derive(Clone, Debug, PartialEq, DeriveEntityModel)]
#[sea_orm(table_name = "invoices")]
pub struct Model {
    #[sea_orm(primary_key)]
    pub id: i32,
    pub total: Option<i64>,
}
"""

SQLX = """
pub async fn totals(pool: &PgPool) {
    sqlx::query!("SELECT account_id, SUM(amount) FROM entries GROUP BY account_id").fetch_all(pool).await;
    sqlx::query_as::<_, Audit>("INSERT INTO audit_log (what) VALUES ($1)").bind(x).execute(pool).await;
    let row = sqlx::query_as!(Total, "SELECT * FROM totals t JOIN accounts a ON a.id = t.account_id");
}

pub async fn docs(db: &mongodb::Database) {
    let receipts = db.collection::<Receipt>("receipts");
}
"""


def test_entities_declared_and_read_from_queries():
    facts = link({"svc/src/schema.rs": DIESEL, "svc/src/entity/invoice.rs": SEA_ORM, "svc/src/repo.rs": SQLX})
    found = sorted((e.name, e.kind, e.class_name, e.engine_hint, e.file, e.start_line) for e in facts.entities)
    assert found == [
        ("accounts", "sql_table", None, None, "svc/src/schema.rs", 10),
        ("audit_log", "sql_table", None, None, "svc/src/repo.rs", 3),
        ("entries", "sql_table", None, None, "svc/src/schema.rs", 2),
        ("invoices", "sql_table", "invoice", None, "svc/src/entity/invoice.rs", 5),
        ("receipts", "document_collection", None, "mongodb", "svc/src/repo.rs", 8),
        ("totals", "sql_table", None, None, "svc/src/repo.rs", 4),
    ]
    entries = next(e for e in facts.entities if e.name == "entries")
    assert [f[:2] for f in entries.fields] == [("id", "Int4"), ("amount", "Numeric"), ("memo", "Nullable<Text>")]
