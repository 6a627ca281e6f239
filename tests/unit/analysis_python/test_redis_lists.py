"""A Redis list used as a work queue: pushes of a list the service never reads back publish on it,
pops (polled, blocking, one key or several, moved to another list) consume it; a list the service
reads back with ``lrange``/``llen`` is its own store, and its pushes are neither messages nor
hidden from the key spaces."""

from pyana_support import link_sources


def _messages(sources: dict[str, str]) -> list[tuple]:
    facts = link_sources(sources)
    return sorted((m.direction, m.channel.literal(), m.provider, m.line) for m in facts.messages)


def test_a_pushed_list_is_published_and_popped_lists_are_consumed():
    api = """
import redis

jobs = redis.Redis(host="cache", decode_responses=True)
LANE = "print-jobs"


def submit(doc_id):
    jobs.rpush(LANE, doc_id)


def drain():
    return jobs.lpop(LANE)
"""
    worker = """
from redis import Redis

conn = Redis.from_url("redis://cache:6379/0")


def loop():
    while True:
        _, item = conn.blpop(["print-jobs", "print-urgent"], timeout=5)
        conn.brpoplpush("scans", "scans:done")
"""
    assert _messages({"api/app.py": api}) == [
        ("consumes", "print-jobs", "redis", 13),
        ("publishes", "print-jobs", "redis", 9),
    ]
    assert _messages({"worker/run.py": worker}) == [
        ("consumes", "print-jobs", "redis", 9),
        ("consumes", "print-urgent", "redis", 9),
        ("consumes", "scans", "redis", 10),
    ]


def test_a_list_read_back_by_its_own_service_is_a_store_not_a_queue():
    recent = """
import redis

r = redis.Redis()


def seen(item_id):
    r.lpush("recent:views", item_id)
    r.ltrim("recent:views", 0, 99)


def latest():
    return r.lrange("recent:views", 0, 9)
"""
    facts = link_sources({"svc/recent.py": recent})
    assert facts.messages == ()
    assert [e.name for e in facts.entities] == ["recent"]


def test_a_queue_list_is_no_key_space_but_the_hashes_beside_it_are():
    api = """
import redis

r = redis.Redis(host="cache")


def enqueue(job_id, body):
    r.hset(f"task:{job_id}", mapping=body)
    r.lpush("tasks:ready", job_id)
"""
    facts = link_sources({"svc/api.py": api})
    assert [e.name for e in facts.entities] == ["task"]
    assert [(m.direction, m.channel.literal()) for m in facts.messages] == [("publishes", "tasks:ready")]


def test_list_commands_on_something_that_is_not_redis_are_no_messages():
    plain = """
class Deque:
    def rpush(self, key, value): ...
    def blpop(self, keys, timeout=0): ...


d = Deque()
d.rpush("jobs", 1)
d.blpop(["jobs"])
"""
    assert link_sources({"svc/d.py": plain}).messages == ()
