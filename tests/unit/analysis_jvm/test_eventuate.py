"""Eventuate Tram: domain events on aggregate-type channels, command channels, library constants."""

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


AGGREGATE_PUBLISHER = """package org.lendly.loans.domain;

import io.eventuate.tram.events.aggregates.AbstractAggregateDomainEventPublisher;
import io.eventuate.tram.events.publisher.DomainEventPublisher;

public class LoanEventPublisher extends AbstractAggregateDomainEventPublisher<Loan, LoanEvent> {
  public LoanEventPublisher(DomainEventPublisher publisher) {
    super(publisher, Loan.class, Loan::getId);
  }
}
"""
LOAN = "package org.lendly.loans.domain;\n\npublic class Loan { private long id; }\n"


def test_aggregate_publisher_subclass_publishes_on_the_aggregate_class_name():
    facts = link({"src/main/java/LoanEventPublisher.java": AGGREGATE_PUBLISHER, "src/main/java/Loan.java": LOAN})
    assert flows(facts) == [("publishes", "org.lendly.loans.domain.Loan")]
    assert facts.messages[0].provider == "eventuate"


def test_publish_with_a_class_literal_java_import_and_kotlin_same_package():
    java = """package org.lendly.ledger;

import io.eventuate.tram.events.publisher.DomainEventPublisher;
import org.lendly.ledger.model.Entry;

public class Ledger {
  private DomainEventPublisher events;
  public void book(Entry e) { events.publish(Entry.class, e.getId(), java.util.List.of()); }
  public void raw() { events.publish("ledger-audit", "1", java.util.List.of()); }
}
"""
    kotlin = """package org.lendly.vouchers

import io.eventuate.tram.events.publisher.DomainEventPublisher

class Voucher(val id: Long)

class VoucherService(private val publisher: DomainEventPublisher) {
    fun issue(v: Voucher) { publisher.publish(Voucher::class.java, v.id, listOf()) }
}
"""
    facts = link({"src/main/java/Ledger.java": java, "src/main/kotlin/Vouchers.kt": kotlin})
    assert flows(facts) == [
        ("publishes", "ledger-audit"),
        ("publishes", "org.lendly.ledger.model.Entry"),
        ("publishes", "org.lendly.vouchers.Voucher"),
    ]


HANDLERS = """package org.lendly.notify;

import io.eventuate.tram.events.subscriber.DomainEventHandlers;
import io.eventuate.tram.events.subscriber.DomainEventHandlersBuilder;
import io.eventuate.tram.commands.consumer.CommandHandlers;
import io.eventuate.tram.sagas.participant.SagaCommandHandlersBuilder;
import org.lendly.loans.api.LoanChannels;

public class NotifyHandlers {
  public DomainEventHandlers events() {
    return DomainEventHandlersBuilder
        .forAggregateType("org.lendly.people.Borrower")
        .onEvent(BorrowerJoined.class, this::joined)
        .andForAggregateType(LoanChannels.LOAN_EVENTS)
        .onEvent(LoanGranted.class, this::granted)
        .build();
  }
  public CommandHandlers commands() {
    return SagaCommandHandlersBuilder.fromChannel(LoanChannels.NOTIFY_COMMANDS)
        .onMessage(SendLetter.class, this::send).build();
  }
  void joined(Object e) {}
  void granted(Object e) {}
  Object send(Object c) { return null; }
}
"""
LIBRARY_CHANNELS = """package org.lendly.loans.api;

import org.springframework.web.bind.annotation.*;

public class LoanChannels {
  public static final String LOAN_EVENTS = "org.lendly.loans.domain.Loan";
  public static final String NOTIFY_COMMANDS = "notifyService";
}

@RestController
class NeverServedHere {
  @GetMapping("/never") public String x() { return ""; }
}
"""


def test_handlers_consume_and_library_constants_resolve_without_becoming_facts():
    files = {"src/main/java/NotifyHandlers.java": HANDLERS, "../loans-api/src/main/java/LoanChannels.java": LIBRARY_CHANNELS}
    facts = link(files, context=("../loans-api/src/main/java/LoanChannels.java",))
    assert flows(facts) == [
        ("consumes", "notifyService"),
        ("consumes", "org.lendly.loans.domain.Loan"),
        ("consumes", "org.lendly.people.Borrower"),
    ]
    assert facts.apis == () and all(c.file.startswith("src/") for c in facts.components)
    without = link({"src/main/java/NotifyHandlers.java": HANDLERS})
    assert ("consumes", "{LoanChannels.NOTIFY_COMMANDS}") in flows(without)


def test_saga_commands_and_command_endpoints_publish():
    saga = """package org.lendly.loans.sagas;

import io.eventuate.tram.sagas.simpledsl.SimpleSaga;
import io.eventuate.tram.commands.consumer.CommandWithDestination;
import static io.eventuate.tram.commands.consumer.CommandWithDestinationBuilder.send;

public class GrantLoanSaga implements SimpleSaga<Object> {
  private CommandWithDestination reserve(Object data) {
    return send(new ReserveFunds()).to("treasuryService").build();
  }
}
"""
    proxy = """package org.lendly.loans.sagas;

import io.eventuate.tram.sagas.simpledsl.CommandEndpoint;
import io.eventuate.tram.sagas.simpledsl.CommandEndpointBuilder;

public class ScoringProxy {
  public final CommandEndpoint<Object> score = CommandEndpointBuilder
      .forCommand(ScoreBorrower.class)
      .withChannel("scoringService")
      .withReply(Object.class)
      .build();
}
"""
    facts = link({"src/main/java/GrantLoanSaga.java": saga, "src/main/java/ScoringProxy.java": proxy})
    assert flows(facts) == [("publishes", "scoringService"), ("publishes", "treasuryService")]


def test_common_builder_words_without_eventuate_are_not_messaging():
    plain = """package org.lendly.mail;

import org.lendly.mail.Envelope;

public class Mailer {
  private Outbox outbox;
  private Publisher publisher;
  public void go() {
    Envelope.send(new Letter()).to("someone@example.org");
    new Route().withChannel("sms");
    publisher.publish(Letter.class, "1");
    outbox.fromChannel("x");
  }
}
"""
    assert flows(link({"src/main/java/Mailer.java": plain})) == []


ANNOTATED_JAVA = """package org.lendly.wallets.messaging;

import io.eventuate.tram.commands.consumer.CommandMessage;
import io.eventuate.tram.commands.consumer.annotations.EventuateCommandHandler;
import io.eventuate.tram.events.subscriber.DomainEventEnvelope;
import io.eventuate.tram.events.subscriber.annotations.EventuateDomainEventHandler;

public class WalletHandlers {
  public static final String LOANS = "org.lendly.loans.domain.Loan";

  @EventuateCommandHandler(subscriberId = "walletCommands", channel = "walletService")
  public Object debit(CommandMessage<DebitWallet> cm) { return null; }

  @EventuateDomainEventHandler(
      subscriberId = "walletLoanEvents",
      channel = LOANS)
  public void onLoanGranted(DomainEventEnvelope<LoanGranted> event) { }

  public void notAHandler() { }
}
"""

ANNOTATED_KOTLIN = """package org.lendly.audit

import io.eventuate.tram.commands.consumer.annotations.EventuateCommandHandler

object AuditChannels { const val COMMANDS = "auditService" }

class AuditHandlers {
    @EventuateCommandHandler(subscriberId = "audit", channel = AuditChannels.COMMANDS)
    fun record(cm: Any): Any? = null
}
"""


def test_annotated_eventuate_handlers_consume_their_channel_literal_constant_and_kotlin():
    facts = link({"src/main/java/WalletHandlers.java": ANNOTATED_JAVA, "src/main/kotlin/Audit.kt": ANNOTATED_KOTLIN})
    assert flows(facts) == [
        ("consumes", "auditService"),
        ("consumes", "org.lendly.loans.domain.Loan"),
        ("consumes", "walletService"),
    ]
    assert {m.provider for m in facts.messages} == {"eventuate"}
    handlers = sorted(a.handler for a in facts.apis if a.kind == "message")
    assert handlers == ["AuditHandlers.record", "WalletHandlers.debit", "WalletHandlers.onLoanGranted"]


def test_a_subscriber_id_alone_names_no_channel():
    text = """package org.lendly.misc;

import io.eventuate.tram.commands.consumer.annotations.EventuateCommandHandler;

public class Odd {
  @EventuateCommandHandler(subscriberId = "onlyAnId")
  public Object handle(Object cm) { return null; }
}
"""
    assert flows(link({"src/main/java/Odd.java": text})) == []


TYPED_PUBLISHER = """package org.lendly.cards.domain;

import io.eventuate.tram.events.publisher.DomainEventPublisherForAggregate;

public interface CardEventPublisher extends DomainEventPublisherForAggregate<Card, Long, CardEvent> {
}
"""
TYPED_PUBLISHER_IMPL = """package org.lendly.cards.domain;

import io.eventuate.tram.events.publisher.AbstractDomainEventPublisherForAggregateImpl;
import io.eventuate.tram.events.publisher.DomainEventPublisher;

public class CardEventPublisherImpl extends AbstractDomainEventPublisherForAggregateImpl<Card, Long, CardEvent>
    implements CardEventPublisher {
  public CardEventPublisherImpl(DomainEventPublisher publisher) { super(Card.class, Card::getId, publisher, CardEvent.class); }
}
"""
CARD = "package org.lendly.cards.domain;\n\npublic class Card { private Long id; }\n"
NOT_A_PUBLISHER = """package org.lendly.cards.domain;

import java.util.function.Supplier;

public interface CardSource extends Supplier<Card> { }
"""


def test_typed_publisher_interface_and_its_implementation_publish_the_aggregate_channel():
    alone = link({"src/main/java/CardEventPublisher.java": TYPED_PUBLISHER, "src/main/java/Card.java": CARD})
    assert flows(alone) == [("publishes", "org.lendly.cards.domain.Card")]
    both = link(
        {
            "src/main/java/CardEventPublisher.java": TYPED_PUBLISHER,
            "src/main/java/CardEventPublisherImpl.java": TYPED_PUBLISHER_IMPL,
            "src/main/java/Card.java": CARD,
            "src/main/java/CardSource.java": NOT_A_PUBLISHER,
        }
    )
    assert flows(both) == [("publishes", "org.lendly.cards.domain.Card")]
