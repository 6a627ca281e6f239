"""NestJS CQRS over an event store: the feature stream a module appends to, the streams it reads."""

from __future__ import annotations

from .support import analyze, url

LEDGER_MODULE = """\
    import { Module } from '@nestjs/common';
    import { EventStoreModule, EventStoreSubscriptionType } from '@acme/nestjs-event-store';

    @Module({
      imports: [
        EventStoreModule.registerFeature({
          type: 'event-store',
          featureStreamName: '$ce-ledger',
          subscriptions: [
            { type: EventStoreSubscriptionType.Volatile, stream: '$ce-ledger' },
            { type: EventStoreSubscriptionType.Volatile, stream: '$ce-invoice' },
          ],
          eventHandlers: {},
        }),
      ],
    })
    export class LedgerModule {}
    """

LEDGER_HANDLER = """\
    import { EventBus } from '@nestjs/cqrs';

    export class OpenLedgerHandler {
      constructor(private readonly eventBus: EventBus) {}

      async execute(cmd: any) {
        await this.eventBus.publish({ kind: 'ledger-opened', id: cmd.id });
      }
    }
    """


def _messages(files: dict[str, str]) -> list[tuple[str, str | None, str, str, int]]:
    facts = analyze(files)
    return sorted((m.direction, url(m.channel), m.provider, m.file, m.line) for m in facts.messages)


def test_feature_stream_is_published_and_subscriptions_consumed() -> None:
    got = _messages({"src/ledger.module.ts": LEDGER_MODULE, "src/open-ledger.handler.ts": LEDGER_HANDLER})
    assert got == [
        ("consumes", "$ce-invoice", "eventstore", "src/ledger.module.ts", 11),
        ("consumes", "$ce-ledger", "eventstore", "src/ledger.module.ts", 10),
        ("publishes", "$ce-ledger", "eventstore", "src/ledger.module.ts", 8),
    ]


def test_aggregates_merged_through_the_event_publisher_also_publish() -> None:
    handler = """\
        import { EventPublisher } from '@nestjs/cqrs';
        import { STREAM } from './streams';

        export class CloseLedgerHandler {
          constructor(private readonly publisher: EventPublisher) {}

          async execute(cmd: any) {
            const ledger = this.publisher.mergeObjectContext(cmd.ledger);
            ledger.commit();
          }
        }
        """
    module = """\
        import { EventStoreModule } from 'nestjs-eventstore';
        import { STREAM, AUDIT } from './streams';

        export const imports = [
          EventStoreModule.forFeature({ featureStreamName: STREAM, subscriptions: [AUDIT] }),
        ];
        """
    streams = "export const STREAM = '$ce-close';\nexport const AUDIT = '$ce-audit';\n"
    got = _messages({"src/m.ts": module, "src/h.ts": handler, "src/streams.ts": streams})
    assert [(d, c, p) for d, c, p, _, _ in got] == [
        ("consumes", "$ce-audit", "eventstore"),
        ("publishes", "$ce-close", "eventstore"),
    ]


def test_a_service_that_publishes_no_events_only_consumes() -> None:
    got = _messages({"src/ledger.module.ts": LEDGER_MODULE})
    assert [(d, c) for d, c, *_ in got] == [("consumes", "$ce-invoice"), ("consumes", "$ce-ledger")]


def test_other_modules_registering_features_are_not_event_stores() -> None:
    module = """\
        import { MongoModule } from '@acme/repo-orm';
        import { TypeOrmModule } from '@nestjs/typeorm';

        export const imports = [
          MongoModule.registerFeature({ featureStreamName: 'x', subscriptions: [{ stream: 'y' }] }),
          TypeOrmModule.forFeature([{ stream: 'z' }]),
        ];
        """
    assert _messages({"src/m.ts": module, "src/h.ts": LEDGER_HANDLER}) == []
