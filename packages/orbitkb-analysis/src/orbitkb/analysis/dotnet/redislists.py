"""A Redis list used as a work queue by a .NET service (StackExchange.Redis).

``db.ListRightPush("jobs", item)`` hands an item to whoever pops the list: a publish on ``jobs``,
unless the service reads that list back itself (``ListRange``, ``ListLength``…: then the list is its
own store). ``db.ListLeftPop("jobs")`` — polled in a loop, or moved on to another list — consumes
it. The other stacks read the same commands the same way, so a web app pushing in one language and a
worker popping in another meet on one channel.
"""

from __future__ import annotations

from orbitkb.analysis.dotnet.easynetq import Emit, Reader
from orbitkb.analysis.dotnet.index import ServiceIndex, Site
from orbitkb.analysis.facts import RawMessage

CLIENT = "stackexchange-redis"
PUSH = frozenset({"ListLeftPush", "ListRightPush", "ListLeftPushAsync", "ListRightPushAsync"})
POP = frozenset({"ListLeftPop", "ListRightPop", "ListLeftPopAsync", "ListRightPopAsync", "ListMove",
                 "ListMoveAsync", "ListRightPopLeftPush", "ListRightPopLeftPushAsync"})  # fmt: skip
#: commands that read a list back without taking from it
READ_BACK = frozenset({"ListRange", "ListRangeAsync", "ListLength", "ListLengthAsync", "ListGetByIndex",
                       "ListGetByIndexAsync", "ListTrim", "ListTrimAsync", "ListSetByIndex", "ListSetByIndexAsync",
                       "ListRemove", "ListRemoveAsync", "ListPosition", "ListPositionAsync"})  # fmt: skip


def _key(site: Site, channel: Reader) -> str | None:
    found = channel(site.arg(0, "key"), site.owner.name if site.owner else None)
    return found.literal() if found is not None else None


def read_back(index: ServiceIndex, channel: Reader) -> set[str | None]:
    """The lists the service reads back (their literal names; None for one it cannot name)."""
    return {_key(s, channel) for s in index.sites() if s.data.get("n") in READ_BACK}


def list_messages(index: ServiceIndex, channel: Reader, emit: Emit) -> list[RawMessage | None]:
    kept = read_back(index, channel)
    out: list[RawMessage | None] = []
    for site in index.sites():
        name = str(site.data.get("n", ""))
        if name in POP:
            out.append(emit(site, "consumes", channel(site.arg(0, "source") or site.arg(0, "key"),
                                                      site.owner.name if site.owner else None),
                            "redis", CLIENT))  # fmt: skip
        elif name in PUSH and None not in kept and _key(site, channel) not in kept:
            out.append(emit(site, "publishes", channel(site.arg(0, "key"), site.owner.name if site.owner else None),
                            "redis", CLIENT))  # fmt: skip
    return out
