"""Databases a library keeps data in for the service: session, cache and rate-limit stores."""

from __future__ import annotations

from .support import analyze


def _entities(files: dict[str, str]) -> list[tuple[str, str, str | None, str]]:
    return sorted((e.name, e.kind, e.engine_hint, e.file) for e in analyze(files).entities)


SESSIONS_CJS = {
    # connect-redis before v7: the module is a factory called with express-session
    "src/app.js": """\
        const express = require('express')
        const session = require('express-session')
        const RedisStore = require('connect-redis')(session)
        const { createClient } = require('redis')

        const app = express()
        const sessionClient = createClient({ url: process.env.SESSION_DB })
        app.use(session({ store: new RedisStore({ client: sessionClient }), secret: 'pssst' }))
        """,
}

SESSIONS_TS = {
    # connect-redis v7+: a class imported as the default export; the client is only handed over
    "src/sessions.ts": """\
        import session from 'express-session';
        import RedisStore from 'connect-redis';
        import Redis from 'ioredis';

        const client = new Redis(process.env.REDIS_URL ?? 'redis://cache:6379');
        export const sessions = session({
          store: new RedisStore({ client, prefix: 'visits' }),
          secret: process.env.SECRET ?? 'dev',
          resave: false,
        });
        """,
}

NEST_CACHE = {
    # a Nest cache module handed the store function itself as an option value
    "src/app.module.ts": """\
        import { Module } from '@nestjs/common';
        import { CacheModule } from '@nestjs/cache-manager';
        import * as redisStore from 'cache-manager-redis-store';

        @Module({
          imports: [CacheModule.register({ store: redisStore, host: 'memo', port: 6379, ttl: 60 })],
        })
        export class AppModule {}
        """,
}

NEST_CACHE_ASYNC = {
    # the store made by a factory inside an async registration
    "src/app.module.ts": """\
        import { Module } from '@nestjs/common';
        import { CacheModule } from '@nestjs/cache-manager';
        import { redisStore } from 'cache-manager-redis-yet';

        @Module({
          imports: [
            CacheModule.registerAsync({
              useFactory: async () => ({ store: await redisStore({ url: process.env.CACHE_URL }) }),
            }),
          ],
        })
        export class AppModule {}
        """,
}

KEYV = {
    "src/cache.ts": """\
        import { Keyv } from 'keyv';
        import KeyvRedis from '@keyv/redis';

        export const quotes = new Keyv({ store: new KeyvRedis(process.env.QUOTES_CACHE) });
        """,
}

CACHING_CALL = {
    # cache-manager's caching() given the store as an argument
    "src/memo.js": """\
        const { caching } = require('cache-manager')
        const { redisStore } = require('cache-manager-ioredis-yet')

        module.exports = async () => caching(redisStore, { host: 'memo', ttl: 30 })
        """,
}

MONGO_SESSIONS = {
    "src/server.js": """\
        const session = require('express-session')
        const MongoStore = require('connect-mongo')
        module.exports = (app) =>
          app.use(session({ secret: 's', store: MongoStore.create({ mongoUrl: process.env.MONGO }) }))
        """,
}


def test_session_store_of_connect_redis_factory_commonjs() -> None:
    assert _entities(SESSIONS_CJS) == [("*", "key_value", "redis", "src/app.js")]


def test_session_store_of_connect_redis_class_typescript() -> None:
    assert _entities(SESSIONS_TS) == [("*", "key_value", "redis", "src/sessions.ts")]


def test_nest_cache_module_with_a_redis_store_value() -> None:
    assert _entities(NEST_CACHE) == [("*", "key_value", "redis", "src/app.module.ts")]


def test_nest_cache_module_with_a_store_made_in_an_async_factory() -> None:
    assert _entities(NEST_CACHE_ASYNC) == [("*", "key_value", "redis", "src/app.module.ts")]


def test_keyv_redis_adapter() -> None:
    assert _entities(KEYV) == [("*", "key_value", "redis", "src/cache.ts")]


def test_store_handed_to_a_caching_call() -> None:
    assert _entities(CACHING_CALL) == [("*", "key_value", "redis", "src/memo.js")]


def test_mongodb_session_store() -> None:
    assert _entities(MONGO_SESSIONS) == [("*", "key_value", "mongodb", "src/server.js")]


def test_an_imported_but_unused_store_library_keeps_nothing() -> None:
    files = {
        "src/app.module.ts": """\
            import { Module } from '@nestjs/common';
            import * as redisStore from 'cache-manager-redis-store';

            @Module({ imports: [] })
            export class AppModule {}
            """,
    }
    assert _entities(files) == []


def test_a_required_but_unused_store_library_keeps_nothing_commonjs() -> None:
    files = {"src/app.js": "const RedisStore = require('connect-redis')\nmodule.exports = {}\n"}
    assert _entities(files) == []


def test_a_store_option_of_another_library_is_not_a_database() -> None:
    files = {
        "src/app.js": """\
            const session = require('express-session')
            const { MemoryStore } = require('express-session')
            const localStore = require('./store')
            module.exports = (app) => app.use(session({ store: localStore, secret: 'x' }))
            """,
        "src/store.js": "module.exports = new Map()\n",
    }
    assert _entities(files) == []


def test_named_keys_of_the_service_leave_no_keyspace_for_the_same_engine() -> None:
    files = {
        **SESSIONS_TS,
        "src/visits.ts": """\
            import Redis from 'ioredis';
            const counter = new Redis();
            export const count = (page: string) => counter.incr('visits:' + page);
            """,
    }
    assert _entities(files) == [("visits", "key_value", "redis", "src/visits.ts")]
