"""A Redis list as a work queue in .NET (StackExchange.Redis): a pushed list the service never reads
back is published on, a popped list is consumed (polled or moved on); a list read back is the
service's own store, whose pushes are no messages; without StackExchange.Redis nothing."""

from __future__ import annotations

from .helpers import link, show

WORKER = """
using StackExchange.Redis;

public static class Worker
{
    const string Inbox = "tickets";

    public static void Main()
    {
        var db = ConnectionMultiplexer.Connect("cache").GetDatabase();
        while (true)
        {
            var raw = db.ListLeftPop(Inbox);
            if (raw.IsNullOrEmpty) { Thread.Sleep(100); continue; }
            db.ListRightPopLeftPush("scans", "scans:seen");
        }
    }
}
"""

COUNTER = """
using StackExchange.Redis;

public class Desk
{
    private readonly IDatabase _db;

    public Task Take(string ticket) => _db.ListRightPushAsync("tickets", ticket);
}
"""

HISTORY = """
using StackExchange.Redis;

public class History
{
    private readonly IDatabase _db;

    public void Seen(string id) { _db.ListLeftPush("recent", id); _db.ListTrim("recent", 0, 49); }
    public RedisValue[] Latest() => _db.ListRange("recent", 0, 9);
}
"""


def _messages(files: dict[str, str]) -> list[tuple[str, str | None, str, int]]:
    return sorted((m.direction, show(m.channel), m.provider, m.line) for m in link(files).messages)


def test_a_popped_list_is_consumed_and_a_pushed_one_published() -> None:
    assert _messages({"svc/Worker.cs": WORKER}) == [
        ("consumes", "scans", "redis", 14),
        ("consumes", "tickets", "redis", 12),
    ]
    assert _messages({"svc/Desk.cs": COUNTER}) == [("publishes", "tickets", "redis", 7)]


def test_a_list_read_back_is_a_store_and_no_queue() -> None:
    facts = link({"svc/History.cs": HISTORY})
    assert facts.messages == ()
    assert [e.name for e in facts.entities] == ["recent"]


def test_a_queue_list_is_no_key_space() -> None:
    assert [e.name for e in link({"svc/Desk.cs": COUNTER}).entities] == []


def test_list_calls_without_stackexchange_redis_are_no_messages() -> None:
    plain = COUNTER.replace("using StackExchange.Redis;", "using Desks.Local;")
    assert _messages({"svc/Desk.cs": plain}) == []
