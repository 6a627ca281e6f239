"""Channels named through a handle the code asks a broker client for: JMS destinations made by name
and handed to a producer or consumer (JMS 2 ``JMSContext`` and classic sessions), Hazelcast
topics and queues, the Quarkus Redis data source's pub/sub commands, and names read from
MicroProfile Config (``@ConfigProperty`` fields and parameters, ``ConfigProvider.getConfig()``)."""

from __future__ import annotations

import json

from orbitkb.analysis.facts import LinkedFacts, ServiceContext
from orbitkb.analysis.jvm import ANALYZER
from orbitkb.analysis.jvm.resolve import render


def link(files: dict[str, str]) -> LinkedFacts:
    parsed = {p: json.loads(json.dumps(ANALYZER.parse(p, text))) for p, text in files.items()}
    return ANALYZER.link(ServiceContext("svc", ".", "jvm-spring", "repo"), parsed)


def flows(facts: LinkedFacts) -> list[tuple[str, str, str]]:
    return sorted({(m.direction, m.provider, render(m.channel)) for m in facts.messages})


JMS2_JAVA = """package org.harbor.tides;

import jakarta.inject.Inject;
import jakarta.jms.ConnectionFactory;
import jakarta.jms.JMSConsumer;
import jakarta.jms.JMSContext;
import org.eclipse.microprofile.config.inject.ConfigProperty;

public class TideGauge {
    @Inject
    ConnectionFactory factory;

    @ConfigProperty(name = "gauge.queue", defaultValue = "tide-readings")
    String queueName;

    @ConfigProperty(name = "gauge.topic")
    String topicName;

    void report(String level) {
        try (JMSContext ctx = factory.createContext()) {
            ctx.createProducer().send(ctx.createQueue(queueName), level);
            ctx.createProducer().send(ctx.createTopic(topicName), level);
        }
    }

    String next(JMSContext ctx) {
        try (JMSConsumer consumer = ctx.createConsumer(ctx.createQueue(queueName))) {
            return consumer.receiveBody(String.class);
        }
    }

    void watch(JMSContext ctx) {
        JMSConsumer alarms = ctx.createSharedDurableConsumer(ctx.createTopic("storm-alarms"), "gauge");
    }
}
"""

CLASSIC_JMS_KOTLIN = """package org.harbor.locks

import javax.jms.Session

class LockKeeper(private val session: Session) {
    fun open(lock: String) {
        val gates = session.createQueue("lock-gates")
        val producer = session.createProducer(gates)
        producer.send(session.createTextMessage(lock))
    }

    fun listen() {
        val bells = session.createTopic("harbor-bells")
        session.createConsumer(bells).setMessageListener { }
    }
}
"""


def test_jms_destinations_made_by_name_and_handed_to_producers_and_consumers():
    facts = link({"TideGauge.java": JMS2_JAVA, "LockKeeper.kt": CLASSIC_JMS_KOTLIN})
    assert flows(facts) == [
        ("consumes", "jms", "${gauge.queue:tide-readings}"),
        ("consumes", "jms", "harbor-bells"),
        ("consumes", "jms", "storm-alarms"),
        ("publishes", "jms", "${gauge.queue:tide-readings}"),
        ("publishes", "jms", "${gauge.topic}"),
        ("publishes", "jms", "lock-gates"),
    ]


def test_without_a_jms_import_create_queue_is_someone_elses_api():
    text = JMS2_JAVA.replace("import jakarta.jms.", "import org.quay.bus.")
    assert flows(link({"TideGauge.java": text})) == []


def test_a_producer_handed_something_else_is_not_a_channel():
    text = """package org.harbor.x;

import jakarta.jms.JMSContext;

class Echo {
    void echo(JMSContext ctx, jakarta.jms.Destination reply, String body) {
        ctx.createProducer().send(reply, body);
    }
}
"""
    assert flows(link({"Echo.java": text})) == []


HAZELCAST_JAVA = """package org.harbor.cranes;

import com.hazelcast.core.HazelcastInstance;
import com.hazelcast.topic.ITopic;
import java.util.concurrent.BlockingQueue;
import org.eclipse.microprofile.config.inject.ConfigProperty;

public class CraneDesk {
    private final HazelcastInstance hz;

    @ConfigProperty(name = "cranes.topic")
    String topicName;

    CraneDesk(HazelcastInstance hz) { this.hz = hz; }

    void announce(String lift) {
        ITopic<String> topic = hz.getTopic(topicName);
        topic.publish(lift);
    }

    void follow() {
        hz.<String>getTopic(topicName).addMessageListener(m -> { });
        hz.getReliableTopic("crane-faults").addMessageListener(m -> { });
    }

    void enqueue(String job) throws InterruptedException {
        BlockingQueue<String> jobs = hz.getQueue("crane-jobs");
        jobs.put(job);
    }

    String take() {
        return hz.<String>getQueue("crane-jobs").poll();
    }

    void remember(String k) {
        hz.getMap("crane-cache").put(k, k);
    }
}
"""


def test_hazelcast_topics_and_queues_publish_and_consume():
    assert flows(link({"CraneDesk.java": HAZELCAST_JAVA})) == [
        ("consumes", "hazelcast", "${cranes.topic}"),
        ("consumes", "hazelcast", "crane-faults"),
        ("consumes", "hazelcast", "crane-jobs"),
        ("publishes", "hazelcast", "${cranes.topic}"),
        ("publishes", "hazelcast", "crane-jobs"),
    ]


def test_a_queue_without_hazelcast_is_a_plain_collection():
    text = """package org.harbor.y;

import java.util.concurrent.LinkedBlockingQueue;

class Backlog {
    private final Registry registry = new Registry();
    void push(String s) { registry.getQueue("backlog").offer(s); }
}
"""
    assert flows(link({"Backlog.java": text})) == []


REDIS_PUBSUB_JAVA = """package org.harbor.signals;

import io.quarkus.redis.datasource.RedisDataSource;
import io.quarkus.redis.datasource.pubsub.PubSubCommands;
import org.eclipse.microprofile.config.ConfigProvider;

public class SignalMast {
    private static final String CHANNEL =
        ConfigProvider.getConfig().getValue("mast.channel", String.class);

    private final PubSubCommands<String> pub;

    SignalMast(RedisDataSource ds) {
        pub = ds.pubsub(String.class);
        pub.subscribe("fog-warnings", this::onFog);
    }

    void raise(String flag) {
        pub.publish(CHANNEL, flag);
    }

    void onFog(String warning) { }
}
"""


def test_quarkus_redis_pubsub_with_a_channel_read_from_microprofile_config():
    assert flows(link({"SignalMast.java": REDIS_PUBSUB_JAVA})) == [
        ("consumes", "redis", "fog-warnings"),
        ("publishes", "redis", "${mast.channel}"),
    ]


def test_get_value_on_something_not_a_config_is_not_a_property():
    text = REDIS_PUBSUB_JAVA.replace("ConfigProvider.getConfig().getValue", "Flags.registry().getValue")
    assert ("publishes", "redis", "${mast.channel}") not in flows(link({"SignalMast.java": text}))


CONFIG_PARAM_JAVA = """package org.harbor.pilots;

import jakarta.jms.JMSContext;
import org.eclipse.microprofile.config.inject.ConfigProperty;

public class PilotRoster {
    private final String roster;

    PilotRoster(@ConfigProperty(name = "pilots.roster", defaultValue = "pilot-roster") String roster) {
        this.roster = roster;
    }

    void post(JMSContext ctx, String name) {
        ctx.createProducer().send(ctx.createQueue(roster), name);
    }
}
"""


def test_a_config_property_constructor_parameter_carries_its_key_and_default():
    assert flows(link({"PilotRoster.java": CONFIG_PARAM_JAVA})) == [
        ("publishes", "jms", "${pilots.roster:pilot-roster}"),
    ]
