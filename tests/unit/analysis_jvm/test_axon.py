"""Axon Framework: commands, events and queries are channels named by their payload's fully
qualified class; gateways and ``AggregateLifecycle.apply`` publish, annotated handlers consume."""

from __future__ import annotations

import json

from orbitkb.analysis.facts import LinkedFacts, ServiceContext
from orbitkb.analysis.jvm import ANALYZER
from orbitkb.analysis.jvm.resolve import render


def link(files: dict[str, str], context: tuple[str, ...] = ()) -> LinkedFacts:
    parsed = {p: json.loads(json.dumps(ANALYZER.parse(p, text))) for p, text in files.items()}
    return ANALYZER.link(ServiceContext("svc", ".", "jvm-spring", "repo", context), parsed)


def flows(facts: LinkedFacts) -> list[tuple[str, str, str]]:
    return sorted({(m.direction, render(m.channel), m.provider) for m in facts.messages})


API = "org.shelf.lending.api"

# the message classes, Kotlin data classes in one file (as Axon projects often write them)
MESSAGES_KT = """package org.shelf.lending.api

data class LendBook(val bookId: String, val reader: String)
data class ReturnBook(val bookId: String)
data class BookLent(val bookId: String, val reader: String)
data class BookReturned(val bookId: String)
class FindLoans
"""

LOAN_JAVA = """package org.shelf.lending.command;

import org.shelf.lending.api.LendBook;
import org.shelf.lending.api.ReturnBook;
import org.shelf.lending.api.BookLent;
import org.shelf.lending.api.BookReturned;
import org.axonframework.commandhandling.CommandHandler;
import org.axonframework.eventsourcing.EventSourcingHandler;
import org.axonframework.spring.stereotype.Aggregate;

import static org.axonframework.modelling.command.AggregateLifecycle.apply;

@Aggregate
class Loan {
    private String bookId;

    protected Loan() { }

    @CommandHandler
    Loan(LendBook command) {
        apply(new BookLent(command.getBookId(), command.getReader()));
    }

    @CommandHandler
    void handle(ReturnBook command) {
        BookReturned returned = new BookReturned(command.getBookId());
        apply(returned);
    }

    @EventSourcingHandler
    void on(BookLent event) {
        this.bookId = event.getBookId();
    }
}
"""

DESK_JAVA = """package org.shelf.lending.web;

import org.shelf.lending.api.*;
import org.axonframework.commandhandling.gateway.CommandGateway;
import org.axonframework.queryhandling.QueryGateway;
import org.axonframework.messaging.responsetypes.ResponseTypes;

public class LendingDesk {
    private final CommandGateway commandGateway;
    private final QueryGateway queryGateway;

    LendingDesk(CommandGateway commandGateway, QueryGateway queryGateway) {
        this.commandGateway = commandGateway;
        this.queryGateway = queryGateway;
    }

    public Object lend(String id, String who) {
        return commandGateway.sendAndWait(new LendBook(id, who));
    }

    public void giveBack(ReturnBook command) {
        commandGateway.send(command);
    }

    public Object loans() {
        return queryGateway.query(new FindLoans(), ResponseTypes.multipleInstancesOf(String.class));
    }
}
"""

# a projection written in Kotlin: event handlers, a query handler and an event-sourcing handler
PROJECTION_KT = """package org.shelf.lending.query

import org.shelf.lending.api.BookLent
import org.shelf.lending.api.BookReturned
import org.shelf.lending.api.FindLoans
import org.axonframework.eventhandling.EventHandler
import org.axonframework.queryhandling.QueryHandler

class LoanProjection {
    @EventHandler
    fun on(event: BookLent) { }

    @EventHandler
    fun on(event: BookReturned, @Timestamp at: java.time.Instant) { }

    @QueryHandler
    fun handle(query: FindLoans): List<String> = emptyList()
}
"""

FILES = {
    "src/main/kotlin/org/shelf/lending/api/messages.kt": MESSAGES_KT,
    "src/main/java/org/shelf/lending/command/Loan.java": LOAN_JAVA,
    "src/main/java/org/shelf/lending/web/LendingDesk.java": DESK_JAVA,
    "src/main/kotlin/org/shelf/lending/query/LoanProjection.kt": PROJECTION_KT,
}


def test_commands_events_and_queries_are_class_named_channels():
    assert flows(link(FILES)) == [
        ("consumes", f"{API}.BookLent", "axon"),
        ("consumes", f"{API}.BookReturned", "axon"),
        ("consumes", f"{API}.FindLoans", "axon"),
        ("consumes", f"{API}.LendBook", "axon"),
        ("consumes", f"{API}.ReturnBook", "axon"),
        ("publishes", f"{API}.BookLent", "axon"),
        ("publishes", f"{API}.BookReturned", "axon"),
        ("publishes", f"{API}.FindLoans", "axon"),
        ("publishes", f"{API}.LendBook", "axon"),
        ("publishes", f"{API}.ReturnBook", "axon"),
    ]


def test_handler_evidence_is_the_annotation_line_and_constructors_count():
    facts = link(FILES)
    lend = next(
        m for m in facts.messages if m.direction == "consumes" and render(m.channel).endswith("LendBook")
    )
    assert (lend.file, lend.line, lend.client) == (
        "src/main/java/org/shelf/lending/command/Loan.java",
        19,
        "CommandHandler",
    )


def test_event_sourcing_handlers_replay_and_do_not_consume():
    facts = link({k: v for k, v in FILES.items() if "query" not in k})
    assert ("consumes", f"{API}.BookLent", "axon") not in flows(facts)


KOTLIN_AGGREGATE = """package org.shelf.fines

import org.axonframework.commandhandling.CommandHandler
import org.axonframework.eventhandling.gateway.EventGateway
import org.axonframework.modelling.command.AggregateLifecycle

class FineIssued(val amount: Int)
class IssueFine(val amount: Int)
class FinePaid(val amount: Int)

class Fine {
    constructor()

    @CommandHandler
    constructor(cmd: IssueFine) {
        AggregateLifecycle.apply(FineIssued(cmd.amount))
    }
}

class Cashier(private val events: EventGateway) {
    fun settle(amount: Int) {
        val paid = FinePaid(amount)
        events.publish(paid)
        val receipt = StringBuilder().apply { append(amount) }
    }
}
"""


def test_kotlin_constructor_handlers_lifecycle_apply_and_event_gateway():
    facts = link({"src/main/kotlin/org/shelf/fines/Fine.kt": KOTLIN_AGGREGATE})
    assert flows(facts) == [
        ("consumes", "org.shelf.fines.IssueFine", "axon"),
        ("publishes", "org.shelf.fines.FineIssued", "axon"),
        ("publishes", "org.shelf.fines.FinePaid", "axon"),
    ]


WRAPPED = """package org.shelf.audit;

import org.axonframework.eventhandling.EventBus;
import org.axonframework.eventhandling.EventHandler;
import org.axonframework.eventhandling.EventMessage;
import org.axonframework.eventhandling.GenericEventMessage;
import org.shelf.lending.api.BookLent;

public class AuditTrail {
    private EventBus eventBus;

    void record(AuditNoted note) {
        eventBus.publish(GenericEventMessage.asEventMessage(note));
    }

    @EventHandler
    void on(EventMessage<BookLent> message) { }

    @EventHandler(payloadType = AuditNoted.class)
    void any(Object payload) { }
}
"""
AUDIT_NOTED = "package org.shelf.audit;\n\npublic class AuditNoted { }\n"


def test_message_wrappers_and_payload_type_attribute():
    facts = link(
        {
            "src/main/java/org/shelf/audit/AuditTrail.java": WRAPPED,
            "src/main/java/org/shelf/audit/AuditNoted.java": AUDIT_NOTED,
        }
    )
    assert flows(facts) == [
        ("consumes", "org.shelf.audit.AuditNoted", "axon"),
        ("consumes", f"{API}.BookLent", "axon"),
        ("publishes", "org.shelf.audit.AuditNoted", "axon"),
    ]


NOT_AXON = """package org.shelf.bus;

import com.google.common.eventbus.EventBus;
import io.vertx.core.eventbus.EventBus;

public class Relay {
    private EventBus eventBus;
    private Gateway commandGateway;

    @EventHandler
    void on(Shelved event) { }

    void go() {
        eventBus.publish("shelf.address", new Shelved());
        commandGateway.send(new Shelved());
        apply(new Shelved());
    }
}
"""


def test_same_names_without_axon_are_not_messaging():
    assert flows(link({"src/main/java/org/shelf/bus/Relay.java": NOT_AXON})) == []


def test_opaque_payloads_are_skipped():
    text = DESK_JAVA.replace("commandGateway.send(command);", "commandGateway.send(build());")
    found = flows(link({"src/main/java/org/shelf/lending/web/LendingDesk.java": text}))
    assert [f for f in found if f[1].endswith("ReturnBook")] == []
