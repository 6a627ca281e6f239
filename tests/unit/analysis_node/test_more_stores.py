"""More ways Node code names what it stores: Drizzle tables, TypeORM EntitySchema, MikroORM
``tableName``, Dynamoose models, DynamoDB request objects (SDK v3 commands, v2 DocumentClient) and
Elasticsearch/OpenSearch indexes."""

from __future__ import annotations

from .support import analyze


def _entities(files: dict[str, str]) -> list[tuple[str, str | None, str, str | None]]:
    return sorted((e.name, e.class_name, e.kind, e.engine_hint) for e in analyze(files).entities)


def test_drizzle_tables_by_builder_with_their_columns() -> None:
    files = {
        "src/db/schema.ts": """\
            import { pgTable, serial, varchar, integer } from 'drizzle-orm/pg-core';
            export const harbors = pgTable('harbors', {
              id: serial('id').primaryKey(),
              name: varchar('name', { length: 80 }).notNull(),
            });
            export const berths = pgTable('harbor_berths', { id: serial('id'), harborId: integer('harbor_id') });
            """,
        "src/db/cache.ts": """\
            import * as sqlite from 'drizzle-orm/sqlite-core';
            export const tides = sqlite.sqliteTable('tides', { at: sqlite.integer('at') });
            """,
    }
    assert _entities(files) == [
        ("harbor_berths", "berths", "sql_table", "postgres"),
        ("harbors", "harbors", "sql_table", "postgres"),
        ("tides", "tides", "sql_table", "sqlite"),
    ]
    harbors = next(e for e in analyze(files).entities if e.name == "harbors")
    assert harbors.fields == (("id", "serial", None, True), ("name", "varchar", None, False))


def test_a_table_builder_not_from_drizzle_is_nothing() -> None:
    files = {"src/grid.ts": "import { pgTable } from './ui/grid';\nexport const t = pgTable('rows', {});\n"}
    assert _entities(files) == []


def test_typeorm_entity_schema_and_mikro_orm_table_names() -> None:
    files = {
        "src/crane.schema.js": """\
            const { EntitySchema } = require('typeorm');
            module.exports = new EntitySchema({
              name: 'Crane',
              tableName: 'harbor_cranes',
              columns: { id: { type: Number, primary: true, generated: true }, model: { type: String } },
            });
            """,
        "src/buoy.schema.ts": """\
            import { EntitySchema } from 'typeorm';
            export const BuoySchema = new EntitySchema({ name: 'buoy', columns: { id: { type: Number, primary: true } } });
            """,
        "src/pier.entity.ts": """\
            import { Entity, PrimaryKey, Property } from '@mikro-orm/core';
            @Entity({ tableName: 'harbor_piers' })
            export class Pier { @PrimaryKey() id!: number; @Property() length!: number; }
            """,
    }
    assert _entities(files) == [
        ("buoy", "buoy", "sql_table", None),
        ("harbor_cranes", "Crane", "sql_table", None),
        ("harbor_piers", "Pier", "sql_table", None),
    ]


def test_dynamoose_models_are_dynamodb_tables_and_mongoose_ones_stay_mongodb() -> None:
    files = {
        "src/models.js": """\
            const dynamoose = require('dynamoose');
            const mongoose = require('mongoose');
            const Lock = dynamoose.model('HarborLock', new dynamoose.Schema({ id: String }));
            const Ship = mongoose.model('Ship', new mongoose.Schema({ name: String }));
            module.exports = { Lock, Ship };
            """
    }
    assert _entities(files) == [
        ("HarborLock", "HarborLock", "document_collection", "dynamodb"),
        ("ships", "Ship", "document_collection", "mongodb"),
    ]


def test_dynamodb_tables_named_by_request_objects() -> None:
    files = {
        "src/v3.ts": """\
            import { DynamoDBClient } from '@aws-sdk/client-dynamodb';
            import { DynamoDBDocumentClient, PutCommand, QueryCommand } from '@aws-sdk/lib-dynamodb';
            const TABLE = process.env.MOORINGS_TABLE || 'moorings';
            const doc = DynamoDBDocumentClient.from(new DynamoDBClient({}));
            export const save = (m: object) => doc.send(new PutCommand({ TableName: TABLE, Item: m }));
            export const list = () => doc.send(new QueryCommand({ TableName: 'mooring_events', KeyConditionExpression: 'x' }));
            """,
        "src/v2.js": """\
            const AWS = require('aws-sdk');
            const docs = new AWS.DynamoDB.DocumentClient();
            exports.get = (id) => docs.get({ TableName: 'pilots', Key: { id } }).promise();
            """,
    }
    assert _entities(files) == [
        ("mooring_events", None, "document_collection", "dynamodb"),
        ("moorings", None, "document_collection", "dynamodb"),
        ("pilots", None, "document_collection", "dynamodb"),
    ]


def test_lower_case_table_options_and_unknown_table_names_are_not_dynamodb() -> None:
    files = {
        "src/report.js": """\
            exports.render = (grid) => grid.draw({ tableName: 'summary', rows: [] });
            exports.put = (doc, t) => doc.put({ TableName: t.name, Item: {} });
            """
    }
    assert _entities(files) == []


def test_search_indexes_on_elasticsearch_and_opensearch_clients() -> None:
    files = {
        "src/search.ts": """\
            import { Client } from '@elastic/elasticsearch';
            const es = new Client({ node: process.env.ES_URL });
            export const find = (q: string) => es.search({ index: 'vessels', query: { match: { name: q } } });
            export const put = (v: object) => es.index({ index: 'vessels', document: v });
            """,
        "src/logs.js": """\
            const { Client } = require('@opensearch-project/opensearch');
            const os = new Client({ node: 'http://opensearch:9200' });
            exports.write = (line) => os.index({ index: 'harbor-logs', body: line });
            """,
    }
    assert _entities(files) == [
        ("harbor-logs", None, "search_index", "opensearch"),
        ("vessels", None, "search_index", "elasticsearch"),
    ]


def test_an_index_option_on_anything_else_is_not_a_search_index() -> None:
    files = {"src/list.ts": "export const page = (list: any) => list.search({ index: 3, query: 'x' });\n"}
    assert _entities(files) == []


def test_objection_models_by_their_static_table_name() -> None:
    files = {
        "src/models/Captain.js": """\
            const { Model } = require('objection');
            class Captain extends Model {
              static get tableName() { return 'captains'; }
              static get idColumn() { return 'id'; }
            }
            module.exports = Captain;
            """,
        "src/models/Voyage.ts": """\
            import { Model } from 'objection';
            export class Voyage extends Model {
              static tableName = 'voyages';
              id!: number;
            }
            """,
    }
    assert _entities(files) == [
        ("captains", "Captain", "sql_table", None),
        ("voyages", "Voyage", "sql_table", None),
    ]


def test_a_static_table_name_on_another_model_base_is_not_objection() -> None:
    files = {
        "src/view.ts": """\
            import { Model } from './mvc';
            export class Grid extends Model { static tableName = 'grid'; }
            """
    }
    assert _entities(files) == []


def test_knex_query_builder_tables_with_the_engine_of_its_client() -> None:
    files = {
        "src/db.js": """\
            const knex = require('knex')({ client: 'pg', connection: process.env.DATABASE_URL });
            module.exports = knex;
            """,
        "src/fees.js": """\
            const db = require('knex')({ client: 'mysql2' });
            exports.open = () => db('harbor_fees').where({ paid: false });
            exports.pay = (row) => db.insert(row).into('fee_payments');
            exports.report = () => db.select('gate').from('fee_gates');
            exports.migrate = () => db.schema.createTable('fee_audit', (t) => t.increments());
            """,
        "src/ts.ts": """\
            import { knex } from 'knex';
            const pg = knex({ client: 'postgresql' });
            export const list = () => pg('pilots').select('*');
            """,
    }
    assert _entities(files) == [
        ("fee_audit", None, "sql_table", "mysql"),
        ("fee_gates", None, "sql_table", "mysql"),
        ("fee_payments", None, "sql_table", "mysql"),
        ("harbor_fees", None, "sql_table", "mysql"),
        ("pilots", None, "sql_table", "postgres"),
    ]


def test_from_and_into_on_other_objects_and_dynamic_tables_are_not_knex_tables() -> None:
    files = {
        "src/misc.js": """\
            const db = require('knex')({ client: 'pg' });
            exports.copy = (list) => Array.from(list);
            exports.move = (q) => q.into('somewhere');
            exports.any = (name) => db(name).select();
            """
    }
    assert _entities(files) == []
