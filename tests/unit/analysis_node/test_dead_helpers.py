"""A helper module copied between services: other files pick some of its functions by name; a
publish inside an exported function this service never uses is not this service's message."""

from __future__ import annotations

from .support import analyze, url

UTILS = """\
    const amqp = require('amqplib')
    const HUB = 'bakery_hub'
    module.exports.openChannel = async () => (await amqp.connect('amqp://mq')).createChannel()
    module.exports.announce = (ch, key, body) => {
      ch.publish(HUB, key, Buffer.from(body))
    }
    module.exports.listen = async (ch, key) => {
      await ch.consume('bread_' + key, () => {})
    }
    """

LISTENER_ONLY = """\
    const { openChannel, listen } = require('./utils')
    openChannel().then((ch) => listen(ch, 'rye'))
    """


def _messages(files: dict[str, str]) -> list[tuple[str, str | None, str, int]]:
    return sorted((m.direction, url(m.channel), m.file, m.line) for m in analyze(files).messages)


def test_unused_publish_helper_of_a_picked_module_is_left_out() -> None:
    assert _messages({"src/utils.js": UTILS, "src/main.js": LISTENER_ONLY}) == [
        ("consumes", "bread_rye", "src/main.js", 2)
    ]


def test_the_helper_is_kept_where_it_is_called() -> None:
    caller = (
        LISTENER_ONLY.replace("listen }", "listen, announce }")
        + "openChannel().then((ch) => announce(ch, 'rye', 'x'))\n"
    )
    got = _messages({"src/utils.js": UTILS, "src/main.js": caller})
    assert ("publishes", "bakery_hub", "src/utils.js", 5) in got


def test_a_module_imported_whole_or_by_nobody_keeps_every_helper() -> None:
    whole = "const utils = require('./utils')\nutils.openChannel().then((ch) => utils.listen(ch, 'rye'))\n"
    assert ("publishes", "bakery_hub", "src/utils.js", 5) in _messages(
        {"src/utils.js": UTILS, "src/main.js": whole}
    )
    assert ("publishes", "bakery_hub", "src/utils.js", 5) in _messages({"src/utils.js": UTILS})
