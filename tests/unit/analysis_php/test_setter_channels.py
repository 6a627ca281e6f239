"""A php-amqplib wrapper whose channel is a property its setter was given: callers set it and then
send or receive on the same variable (``$bus->setQueue(Queues::ORDERS); $bus->publish($body)``).
The channel is what that variable's setter last received in the function, class constants of
another file resolved; a send before any setter, or on another variable, names nothing. A property
no setter writes keeps its default (``private $lane = 'x'``)."""

from __future__ import annotations

from tests.unit.analysis_php.helpers import link, show

QUEUES = """<?php
namespace App\\Support;

final class Lanes
{
    public const PICKING = 'warehouse.picking';
    const PACKED = 'warehouse.packed';
}
"""
BUS = """<?php
namespace App\\Support;

use PhpAmqpLib\\Connection\\AMQPStreamConnection;
use PhpAmqpLib\\Message\\AMQPMessage;

class LaneBus
{
    private $channel;
    private $lane;

    public function __construct()
    {
        $this->channel = (new AMQPStreamConnection('rabbit', 5672, 'guest', 'guest'))->channel();
    }

    public function useLane(string $lane): void
    {
        $this->lane = $lane;
        $this->channel->queue_declare($lane, false, true, false, false);
    }

    public function send(array $body): void
    {
        $this->channel->basic_publish(new AMQPMessage(json_encode($body)), '', $this->lane);
    }

    public function listen(callable $handler): void
    {
        $this->channel->basic_consume($this->lane, '', false, true, false, false, $handler);
    }
}
"""
CALLERS = """<?php
namespace App\\Jobs;

use App\\Support\\LaneBus;
use App\\Support\\Lanes;

class Picker
{
    public function pick(array $order): void
    {
        $bus = new LaneBus();
        $bus->useLane(Lanes::PICKING);
        $bus->send($order);
        $bus->useLane('warehouse.audit');
        $bus->send(['picked' => $order['id']]);
    }

    public function worker(): void
    {
        $inbox = new LaneBus();
        $inbox->send(['hello' => 'world']);
        $inbox->useLane(Lanes::PACKED);
        $inbox->listen(fn ($m) => $m);
    }
}
"""


def test_a_setter_names_the_channel_the_next_send_uses() -> None:
    facts = link({"app/Support/Lanes.php": QUEUES, "app/Support/LaneBus.php": BUS, "app/Jobs/Picker.php": CALLERS})
    assert sorted((m.direction, show(m.channel), m.file.rsplit("/", 1)[-1], m.line) for m in facts.messages) == [
        ("consumes", "warehouse.packed", "Picker.php", 23),
        ("publishes", "warehouse.audit", "Picker.php", 15),
        ("publishes", "warehouse.picking", "Picker.php", 13),
    ]


FIXED = """<?php
class AuditBus
{
    private $channel;
    private $queue = 'audit.trail';

    public function write(string $line): void
    {
        $this->channel->basic_publish(new \\PhpAmqpLib\\Message\\AMQPMessage($line), '', $this->queue);
    }
}
"""


def test_a_property_without_a_setter_keeps_its_default() -> None:
    facts = link({"src/AuditBus.php": FIXED})
    assert [(m.direction, show(m.channel)) for m in facts.messages] == [("publishes", "audit.trail")]
