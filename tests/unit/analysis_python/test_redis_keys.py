"""Redis key spaces as persistence entities: ``"basket:" + id`` is the ``basket`` key space."""

from pyana_support import link_sources


def entities(sources: dict[str, str]) -> list[tuple]:
    facts = link_sources(sources)
    return sorted((e.name, e.kind, e.engine_hint, e.file, e.start_line) for e in facts.entities)


def test_key_prefix_through_a_wrapper_holding_an_injected_client():
    store = """
import redis


class BasketStore:
    def __init__(self, conn):
        self.conn = conn

    def _key(self, basket_id):
        return "basket:{}".format(basket_id)

    def load(self, basket_id):
        return self.conn.hgetall(self._key(basket_id))

    def touch(self, basket_id):
        self.conn.hincrby(self._key(basket_id), "version", 1)


def make():
    return BasketStore(redis.Redis(host="cache"))
"""
    assert entities({"svc/store.py": store}) == [("basket", "key_value", "redis", "svc/store.py", 13)]


def test_known_client_fstring_keys_and_literal_collections():
    cache = """
from redis import StrictRedis

r = StrictRedis.from_url("redis://cache:6379/0")


def remember(user_id, token):
    r.setex(f"session:{user_id}", 3600, token)
    r.get(f"profile:{user_id}")
    r.sadd("online_users", user_id)
    r.get("feature_flags")
"""
    assert [e[0] for e in entities({"svc/cache.py": cache})] == ["online_users", "profile", "session"]


def test_no_redis_no_key_spaces():
    # the same method names on an object of a service that does not use redis
    code = """
class Registry:
    def __init__(self, backend):
        self.backend = backend

    def read(self, key):
        return self.backend.hgetall("thing:" + key)


def lookup(d, k):
    return d.get("cfg:" + k)
"""
    assert entities({"svc/reg.py": code}) == []


def test_keys_computed_at_runtime_are_one_key_space_of_the_store():
    code = """
import redis

client = redis.Redis()


def save(key, value):
    client.set(key, value)
    client.hset(key + ":meta", "v", value)
    client.get("plain-cache-key")
"""
    assert entities({"svc/kv.py": code}) == [("*", "key_value", "redis", "svc/kv.py", 8)]


def test_a_runtime_key_space_only_where_no_key_space_is_named_and_never_on_a_guessed_client():
    named = """
from redis.asyncio import from_url

cache = from_url("redis://cache:6379/0")


async def keep(order_id, body):
    await cache.set(str(order_id), body)
    await cache.hset("orders:index", order_id, body)
"""
    assert [e[0] for e in entities({"svc/cache.py": named})] == ["orders"]
    duck = """
import redis


class Holder:
    def __init__(self, backend):
        self.backend = backend

    def put(self, key, value):
        self.backend.hset(key, "v", value)
"""
    assert entities({"svc/holder.py": duck}) == []


def test_an_async_client_from_a_url_with_runtime_keys_is_a_redis_store():
    code = """
from redis.asyncio import from_url


class UrlCache:
    def __init__(self, url):
        self.client = from_url(url)

    async def get(self, key):
        return await self.client.get(key)
"""
    assert entities({"svc/urls.py": code}) == [("*", "key_value", "redis", "svc/urls.py", 10)]


def test_django_caches_on_redis_and_memcached_are_key_spaces_of_their_store():
    settings = """
import os

CACHES = {
    "default": {
        "BACKEND": "django_redis.cache.RedisCache",
        "LOCATION": os.environ.get("CACHE_URL", "redis://cache:6379") + "/1",
        "KEY_PREFIX": "shelf",
    },
    "sessions": {
        "BACKEND": "django.core.cache.backends.memcached.PyMemcacheCache",
        "LOCATION": "memcached:11211",
    },
}
"""
    assert entities({"svc/library/settings.py": settings}) == [
        ("*", "key_value", "memcached", "svc/library/settings.py", 4),
        ("shelf", "key_value", "redis", "svc/library/settings.py", 4),
    ]


def test_in_process_and_database_caches_are_not_stores():
    settings = """
CACHES = {
    "default": {"BACKEND": "django.core.cache.backends.locmem.LocMemCache"},
    "pages": {"BACKEND": "django.core.cache.backends.db.DatabaseCache", "LOCATION": "page_cache"},
}
"""
    assert entities({"svc/library/settings.py": settings}) == []
