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


def test_keys_without_a_literal_namespace_are_not_entities():
    code = """
import redis

client = redis.Redis()


def save(key, value):
    client.set(key, value)
    client.hset(key + ":meta", "v", value)
    client.get("plain-cache-key")
"""
    assert entities({"svc/kv.py": code}) == []
