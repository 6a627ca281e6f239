"""Persistence through raw drivers: MongoDB/Firestore collections, Redis keys, SQL tables in queries."""

from __future__ import annotations

from orbitkb.analysis.node.stores import tables_in

from .support import analyze


def _entities(files: dict[str, str]) -> list[tuple[str, str, str | None, str, int]]:
    return sorted((e.name, e.kind, e.engine_hint, e.file, e.start_line) for e in analyze(files).entities)


# ----------------------------------------------------------------------------- MongoDB / Firestore

MONGO_CJS = {
    # The driver is imported where the connection is made; the repository receives `db` by injection.
    "src/db/connect.js": """\
        const MongoClient = require('mongodb')
        module.exports = (opts, done) => MongoClient.connect(opts.url, done)
        """,
    "src/repository.js": """\
        module.exports = ({ database: db }) => {
          const addInvoice = (inv) => db.collection('invoices').insertOne(inv)
          const findInvoice = (id) => db.collection('invoices').findOne({ _id: id })
          const addLine = (line) => db.collection('invoice_lines').insertOne(line)
          return { addInvoice, findInvoice, addLine }
        }
        """,
}

MONGO_TS = {
    "src/names.ts": """\
        export const SHIPMENTS = 'shipments';
        """,
    "src/store.ts": """\
        import { MongoClient } from 'mongodb';
        import { SHIPMENTS } from './names';

        const client = new MongoClient(process.env.MONGO_URL ?? 'mongodb://localhost/depot');
        export async function boot() {
          await client.connect();
          const db = client.db('depot');
          const shipments = db.collection<Shipment>(SHIPMENTS);
          const audit = db.collection(process.env.AUDIT_COLLECTION || 'audit_trail');
          return { shipments, audit };
        }
        """,
}


def test_mongodb_collections_used_by_name_commonjs() -> None:
    assert _entities(MONGO_CJS) == [
        ("invoice_lines", "document_collection", "mongodb", "src/repository.js", 4),
        ("invoices", "document_collection", "mongodb", "src/repository.js", 2),
    ]


def test_mongodb_collections_from_constants_and_config_defaults_typescript() -> None:
    assert _entities(MONGO_TS) == [
        ("audit_trail", "document_collection", "mongodb", "src/store.ts", 9),
        ("shipments", "document_collection", "mongodb", "src/store.ts", 8),
    ]


def test_firestore_collections() -> None:
    files = {
        "index.js": """\
            const admin = require('firebase-admin')
            const store = admin.firestore()
            exports.save = (p) => store.collection('profiles').doc(p.id).set(p)
            """
    }
    assert _entities(files) == [("profiles", "document_collection", "firestore", "index.js", 3)]


def test_collection_without_a_document_driver_or_a_known_name_is_nothing() -> None:
    no_driver = {
        "src/app.js": """\
            const items = require('./items')
            module.exports = (kind) => items.collection('widgets')
            """
    }
    assert _entities(no_driver) == []
    unknown_name = {
        "src/db.js": """\
            const { MongoClient } = require('mongodb')
            module.exports = (db, name) => db.collection(name).find({})
            """
    }
    assert _entities(unknown_name) == []


def test_orm_entity_wins_over_the_same_collection_used_raw() -> None:
    files = {
        "models.js": """\
            const mongoose = require('mongoose')
            const Parcel = mongoose.model('Parcel', new mongoose.Schema({ weight: Number }))
            const raw = () => mongoose.connection.collection('parcels').countDocuments()
            module.exports = { Parcel, raw }
            """
    }
    facts = analyze(files)
    assert sorted((e.name, e.class_name, e.framework) for e in facts.entities) == [
        ("parcels", "Parcel", "mongoose")
    ]


def test_a_sql_table_named_like_an_orm_collection_is_another_entity() -> None:
    files = {
        "models.js": """\
            const mongoose = require('mongoose')
            const Parcel = mongoose.model('Parcel', new mongoose.Schema({ weight: Number }))
            module.exports = { Parcel }
            """,
        "legacy.js": """\
            const { Pool } = require('pg')
            const pool = new Pool()
            exports.old = (id) => pool.query('SELECT * FROM parcels WHERE id = $1', [id])
            """,
    }
    facts = analyze(files)
    assert sorted((e.name, e.kind, e.engine_hint) for e in facts.entities) == [
        ("parcels", "document_collection", "mongodb"),
        ("parcels", "sql_table", "postgres"),
    ]


# ----------------------------------------------------------------------------- Redis


REDIS_CJS = {
    "server.js": """\
        const redis = require('redis')
        const express = require('express')
        const app = express()
        app.get('/basket/:id', (req, res) => {
          cache.get(req.params.id, (err, data) => res.send(data))
        })
        app.post('/basket/:id', (req, res) => {
          cache.setex('basket:' + req.params.id, 600, JSON.stringify(req.body))
          cache.incr('baskets-written')
        })
        var cache = redis.createClient({ host: process.env.REDIS_HOST || 'redis' })
        app.listen(8080)
        """
}

REDIS_TS = {
    "src/cache.ts": """\
        import Redis from 'ioredis';
        export default new Redis(process.env.REDIS_URL);
        """,
    "src/sessions.ts": """\
        import { Redis } from 'ioredis';
        import counters from './cache';

        export class SessionStore {
          private store = new Redis();
          save(id: string, body: string) {
            counters.incr(`logins`);
            return this.store.set(`session:${id}`, body, 'EX', 3600);
          }
          load(id: string) {
            return this.store.hgetall(`session:${id}:meta`);
          }
        }
        """,
}


def test_redis_keys_by_prefix_commonjs() -> None:
    assert _entities(REDIS_CJS) == [
        ("*", "key_value", "redis", "server.js", 5),
        ("basket", "key_value", "redis", "server.js", 8),
        ("baskets-written", "key_value", "redis", "server.js", 9),
    ]


def test_redis_keys_of_field_and_imported_clients_typescript() -> None:
    assert _entities(REDIS_TS) == [
        ("logins", "key_value", "redis", "src/sessions.ts", 7),
        ("session", "key_value", "redis", "src/sessions.ts", 8),
    ]


def test_get_and_set_on_other_objects_are_not_redis() -> None:
    files = {
        "src/cache.js": """\
            const seen = new Map()
            module.exports = seen
            """,
        "src/app.js": """\
            const redis = require('redis')
            const seen = require('./cache')
            const config = require('./config')
            const bus = redis.createClient()
            const local = new Map()
            exports.run = (id) => {
              seen.set(id, true)
              local.get(id)
              bus.publish('audit', id)
              return config.get('port')
            }
            """,
        "src/config.js": "module.exports = { get: (k) => process.env[k] }\n",
    }
    assert _entities(files) == []


# ----------------------------------------------------------------------------- SQL drivers


PG_CJS = {
    "db.js": """\
        const { Pool } = require('pg')
        const pool = new Pool({ connectionString: process.env.DATABASE_URL })
        exports.find = (id) => pool.query('SELECT id, total FROM invoices WHERE id = $1', [id])
        exports.lines = (id) => pool.query(
          `SELECT l.* FROM invoice_lines l JOIN invoices i ON i.id = l.invoice_id WHERE i.id = ${id}`)
        exports.add = (a, b) => pool.query('INSERT INTO invoice_lines (a, b) VALUES ($1, $2)', [a, b])
        """
}

MYSQL_TS = {
    "src/db.ts": """\
        import mysql from 'mysql2/promise';
        export const db = mysql.createPool({ host: process.env.DB_HOST });
        """,
    "src/accounts.ts": """\
        import { db } from './db';
        const RENAME = 'UPDATE accounts SET name = ? WHERE id = ?';
        export async function rename(id: number, name: string) {
          await db.execute(RENAME, [name, id]);
          await db.query('DELETE FROM account_tokens WHERE account_id = ?', [id]);
        }
        """,
}


def test_sql_tables_of_pg_queries_commonjs() -> None:
    assert _entities(PG_CJS) == [
        ("invoice_lines", "sql_table", "postgres", "db.js", 4),
        ("invoices", "sql_table", "postgres", "db.js", 3),
    ]


def test_sql_tables_of_mysql_queries_through_an_imported_pool_typescript() -> None:
    assert _entities(MYSQL_TS) == [
        ("account_tokens", "sql_table", "mysql", "src/accounts.ts", 5),
        ("accounts", "sql_table", "mysql", "src/accounts.ts", 4),
    ]


def test_queries_without_a_sql_driver_or_sql_text_are_nothing() -> None:
    no_driver = {"search.js": "exports.q = (idx) => idx.query('SELECT title FROM books')\n"}
    assert _entities(no_driver) == []
    not_sql = {
        "db.js": """\
            const { Client } = require('pg')
            const c = new Client()
            exports.q = (text) => c.query(text)
            exports.r = () => c.query({ name: 'x', text: 'SELECT 1' })
            """
    }
    assert _entities(not_sql) == []


def test_tables_in_statements() -> None:
    assert tables_in("SELECT * FROM a JOIN public.b ON a.id = b.id") == ["a", "b"]
    assert tables_in("INSERT INTO `orders` (id, total) VALUES (?, ?)") == ["orders"]
    assert tables_in('UPDATE "Users" SET x = 1') == ["Users"]
    assert tables_in("SELECT * FROM unnest($1) AS t(x)") == []
    assert tables_in("SELECT 1") == []


# ----------------------------------------------------------------------------- own query helpers

HELPER_TS = {
    # the driver is imported where the helper runs the statement it receives
    "src/config/sql.ts": """\
        import pg from 'pg';
        export async function runSql(statement: string, params?: unknown[]) {
          const client = new pg.Client({ host: process.env.PGHOST });
          await client.connect();
          try { return await client.query(statement, params); } finally { await client.end(); }
        }
        """,
    "src/functions/berths.ts": """\
        import { runSql } from '../config/sql';
        export const byId = (id: string) => runSql(`SELECT * FROM berths WHERE id = $1 LIMIT 1`, [id]);
        export const free = () => runSql('select slot from berth_slots where taken = false');
        """,
}

HELPER_CJS = {
    "lib/db.js": """\
        const mysql = require('mysql2')
        const pool = mysql.createPool({ host: process.env.DB_HOST })
        module.exports = function exec(text, args) { return pool.promise().query(text, args) }
        """,
    "lib/cranes.js": """\
        const exec = require('./db')
        exports.move = (id, to) => exec('UPDATE cranes SET dock = ? WHERE id = ?', [to, id])
        """,
}


def test_statements_passed_to_a_projects_own_query_helper_name_tables() -> None:
    assert _entities(HELPER_TS) == [
        ("berth_slots", "sql_table", "postgres", "src/functions/berths.ts", 3),
        ("berths", "sql_table", "postgres", "src/functions/berths.ts", 2),
    ]
    assert _entities(HELPER_CJS) == [("cranes", "sql_table", "mysql", "lib/cranes.js", 2)]


def test_sentences_and_helpers_in_services_without_a_sql_driver_are_not_tables() -> None:
    prose = {
        "src/config/sql.ts": HELPER_TS["src/config/sql.ts"],
        "src/ui.ts": """\
            export const hint = () => say('Select a berth from the list');
            export const tip = () => say('select one from below, then update the form');
            """,
    }
    assert _entities(prose) == []
    no_driver = {"src/functions/berths.ts": HELPER_TS["src/functions/berths.ts"]}
    assert _entities(no_driver) == []
