"""A channel named only by a setting no configuration fills (a key absent from every config file, or
set to an empty string as in a ``.env.example``) is one gap with the expression at its site, never a
message on a channel called ``unknown`` or ``${KEY}``; a setting with a value, a default, or a
channel only partly from configuration stays a message."""

from __future__ import annotations

COMPOSE = """services:
  ledger: {build: ./ledger, ports: ["8001:8000"]}
  kafka: {image: apache/kafka:3.7.0}
"""


def _run(analyze, directives: str, env: str):
    files = {
        "docker-compose.yml": COMPOSE,
        "ledger/requirements.txt": "aiokafka\n",
        "ledger/app.py": "# @entry\n" + directives,
        "ledger/.env": env,
    }
    return analyze(files)


def test_a_setting_set_nowhere_or_set_empty_is_a_gap_not_a_channel(analyze):
    run = _run(
        analyze,
        "# @msg publishes kafka env:ENTRY_TOPIC\n# @msg consumes kafka prop:ledger.replay-topic\n",
        'ENTRY_TOPIC=""\n',
    )
    assert run.service("ledger").messages == ()
    reasons = sorted(g.reason for g in run.result.gaps if g.path == "ledger/app.py")
    assert reasons == [
        "kafka consumes at line 3: channel not resolved (${ledger.replay-topic} is unset)",
        "kafka publishes at line 2: channel not resolved (${ENTRY_TOPIC} is unset)",
    ]


def test_negative_a_set_value_a_default_or_a_partly_configured_name_stays_a_channel(analyze):
    run = _run(
        analyze,
        "# @msg publishes kafka env:ENTRY_TOPIC\n"
        "# @msg publishes kafka env:AUDIT_TOPIC|audit\n"
        "# @msg consumes kafka lit:replay-+env:REGION\n",
        "ENTRY_TOPIC=ledger.entries\n",
    )
    channels = sorted(m.channel for m in run.service("ledger").messages)
    assert channels[:2] == ["audit", "ledger.entries"]
    assert len(channels) == 3 and channels[2].startswith("replay-")
    assert not [g for g in run.result.gaps if "is unset" in g.reason]
