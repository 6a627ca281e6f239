"""Redis as a store in Ruby: key spaces of the commands a Redis client runs (``"basket:#{id}"`` is
the ``basket`` space, a key computed at runtime the ``*`` space)."""

from __future__ import annotations

from .helpers import link


def _entities(files: dict[str, str]) -> list[tuple[str, str, str | None, int]]:
    return sorted((e.name, e.kind, e.engine_hint, e.start_line) for e in link(files).entities)


def test_key_spaces_of_redis_commands_on_instance_global_and_constant_clients() -> None:
    files = {
        "lib/moorings.rb": """
        class Moorings
          def initialize
            @redis = Redis.new(url: ENV["REDIS_URL"])
          end

          def hold(id, boat)
            @redis.hset("mooring:#{id}", "boat", boat)
            $redis.setex("harbor_master", 60, boat)
          end
        end
        """,
        "lib/tides.rb": """
        TIDES_REDIS = Redis.new
        def remember(key, level)
          TIDES_REDIS.set(key, level)
        end
        """,
    }
    assert _entities(files) == [
        ("*", "key_value", "redis", 3),
        ("harbor_master", "key_value", "redis", 8),
        ("mooring", "key_value", "redis", 7),
    ]


def test_the_same_verbs_on_other_receivers_are_not_redis() -> None:
    files = {
        "lib/cache.rb": """
        class Shelf
          def put(id, v)
            @store.set("item:#{id}", v)
            Rails.cache.fetch("x") { v }
            params.get(id)
          end
        end
        """
    }
    assert _entities(files) == []
