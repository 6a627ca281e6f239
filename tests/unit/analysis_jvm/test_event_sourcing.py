"""Eventuate Client event sourcing: an aggregate repository publishes its aggregate's events, an
``@EventSubscriber`` handler consumes the stream its event's ``@EventEntity`` names."""

from __future__ import annotations

import json

from orbitkb.analysis.facts import LinkedFacts, ServiceContext
from orbitkb.analysis.jvm import ANALYZER
from orbitkb.analysis.jvm.resolve import render


def link(files: dict[str, str], context: tuple[str, ...] = ()) -> LinkedFacts:
    parsed = {p: json.loads(json.dumps(ANALYZER.parse(p, text))) for p, text in files.items()}
    return ANALYZER.link(ServiceContext("svc", ".", "jvm-spring", "repo", context), parsed)


def flows(facts: LinkedFacts) -> list[tuple[str, str]]:
    return sorted({(m.direction, render(m.channel)) for m in facts.messages})


WALLET_CONFIG = """package org.coinly.wallets;

import io.eventuate.AggregateRepository;
import io.eventuate.EventuateAggregateStore;
import org.springframework.context.annotation.Bean;

public class WalletConfiguration {
  @Bean
  public AggregateRepository<Wallet, WalletCommand> wallets(EventuateAggregateStore store) {
    return new AggregateRepository<Wallet, WalletCommand>(Wallet.class, store);
  }
}
"""
WALLET = "package org.coinly.wallets;\n\npublic class Wallet { }\n"

PAYOUT_CONFIG_KOTLIN = """package org.coinly.payouts

import io.eventuate.AggregateRepository
import io.eventuate.EventuateAggregateStore

class Payout

class PayoutConfiguration {
    fun payouts(store: EventuateAggregateStore) = AggregateRepository(Payout::class.java, store)
}
"""

# library (context) files: the events and the interface that names their aggregate
WALLET_EVENT = """package org.coinly.events;

import io.eventuate.Event;
import io.eventuate.EventEntity;

@EventEntity(entity = "org.coinly.wallets.Wallet")
public interface WalletEvent extends Event { }
"""
WALLET_OPENED = "package org.coinly.events;\n\npublic class WalletOpened implements WalletEvent { }\n"
WALLET_DRAINED = "package org.coinly.events;\n\npublic class WalletDrained extends WalletOpened { }\n"
STRAY_EVENT = "package org.coinly.events;\n\npublic class Stray { }\n"
LIBRARY = {
    "lib/src/main/java/WalletEvent.java": WALLET_EVENT,
    "lib/src/main/java/WalletOpened.java": WALLET_OPENED,
    "lib/src/main/java/WalletDrained.java": WALLET_DRAINED,
    "lib/src/main/java/Stray.java": STRAY_EVENT,
}

SUBSCRIBER = """package org.coinly.statements;

import io.eventuate.DispatchedEvent;
import io.eventuate.EventHandlerContext;
import io.eventuate.EventHandlerMethod;
import io.eventuate.EventSubscriber;
import org.coinly.events.*;

@EventSubscriber(id = "statementHandlers")
public class StatementWorkflow {
  @EventHandlerMethod
  public void opened(DispatchedEvent<WalletOpened> de) { }

  @EventHandlerMethod
  public java.util.concurrent.CompletableFuture<?> drained(EventHandlerContext<WalletDrained> ctx) { return null; }

  @EventHandlerMethod
  public void stray(DispatchedEvent<Stray> de) { }

  public void notAHandler(DispatchedEvent<WalletOpened> de) { }
}
"""


def test_aggregate_repository_publishes_the_aggregate_java_and_kotlin():
    facts = link(
        {
            "src/main/java/WalletConfiguration.java": WALLET_CONFIG,
            "src/main/java/Wallet.java": WALLET,
            "src/main/kotlin/Payouts.kt": PAYOUT_CONFIG_KOTLIN,
        }
    )
    assert flows(facts) == [
        ("publishes", "org.coinly.payouts.Payout"),
        ("publishes", "org.coinly.wallets.Wallet"),
    ]
    assert {m.line for m in facts.messages} == {9, 10}


def test_event_subscriber_consumes_the_stream_its_event_entity_names():
    files = {"src/main/java/StatementWorkflow.java": SUBSCRIBER, **LIBRARY}
    facts = link(files, context=tuple(LIBRARY))
    assert flows(facts) == [("consumes", "org.coinly.wallets.Wallet")]
    assert sorted(m.line for m in facts.messages) == [11, 14]  # the handler annotations


def test_without_eventuate_or_the_subscriber_annotation_nothing_is_read():
    plain_repo = WALLET_CONFIG.replace("import io.eventuate.AggregateRepository;\n", "").replace(
        "import io.eventuate.EventuateAggregateStore;\n", ""
    )
    no_subscriber = SUBSCRIBER.replace('@EventSubscriber(id = "statementHandlers")\n', "")
    files = {
        "src/main/java/WalletConfiguration.java": plain_repo,
        "src/main/java/Wallet.java": WALLET,
        "src/main/java/StatementWorkflow.java": no_subscriber,
        **LIBRARY,
    }
    assert flows(link(files, context=tuple(LIBRARY))) == []


def test_an_event_sourced_aggregate_is_a_persisted_entity():
    facts = link(
        {
            "src/main/java/WalletConfiguration.java": WALLET_CONFIG,
            "src/main/java/Wallet.java": WALLET,
            "src/main/kotlin/Payouts.kt": PAYOUT_CONFIG_KOTLIN,
        }
    )
    found = sorted((e.name, e.class_name, e.kind, e.file, e.start_line) for e in facts.entities)
    assert found == [
        # Payout is declared in the Kotlin file itself; Wallet's own class is the evidence
        ("org.coinly.payouts.Payout", "Payout", "sql_table", "src/main/kotlin/Payouts.kt", 6),
        ("org.coinly.wallets.Wallet", "Wallet", "sql_table", "src/main/java/Wallet.java", 3),
    ]


def test_an_aggregate_outside_the_service_is_named_at_its_repository():
    facts = link({"src/main/java/WalletConfiguration.java": WALLET_CONFIG})
    assert [(e.class_name, e.file, e.start_line) for e in facts.entities] == [
        ("Wallet", "src/main/java/WalletConfiguration.java", 10)
    ]
