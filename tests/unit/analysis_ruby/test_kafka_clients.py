"""Kafka and AMQP client breadth in Ruby: Karafka 1.x ``consumer_groups.draw`` and Karafka 2
``consumer_group`` blocks, WaterDrop 1.x producer classes, Racecar consumers, Hutch and NATS."""

from __future__ import annotations

from tests.unit.analysis_ruby.helpers import link, show


def _channels(files: dict[str, str]) -> list[tuple[str, str, str]]:
    return sorted((m.direction, show(m.channel), m.provider) for m in link(files).messages)


def test_karafka_one_consumer_groups_draw() -> None:
    assert _channels({
        "karafka.rb": """
        class LedgerKarafka < Karafka::App
          setup do |config|
            config.client_id = 'ledger'
          end

          consumer_groups.draw do
            topic "members-feed" do
              consumer MembersFeedConsumer
            end
            topic :invoices do
              consumer InvoicesConsumer
              backend :inline
            end
          end
        end
        """
    }) == [("consumes", "invoices", "kafka"), ("consumes", "members-feed", "kafka")]  # fmt: skip


def test_karafka_two_consumer_group_blocks() -> None:
    assert _channels({
        "karafka.rb": """
        class ShelfApp < Karafka::App
          routes.draw do
            consumer_group :restock do
              topic :low_stock do
                consumer LowStockConsumer
              end
            end
          end
        end
        """
    }) == [("consumes", "low_stock", "kafka")]  # fmt: skip


def test_waterdrop_producer_classes_and_instances() -> None:
    assert _channels({
        "app/services/announcer.rb": """
        class Announcer
          def shelved(book)
            WaterDrop::SyncProducer.call(book.to_json, topic: 'books-shelved')
            WaterDrop::AsyncProducer.call(book.id.to_s, topic: "books-audit", key: book.id.to_s)
          end
        end
        """,
        "config/initializers/producer.rb": """
        Outbox = WaterDrop::Producer.new
        """,
        "app/controllers/loans_controller.rb": """
        class LoansController < ApplicationController
          def create
            Outbox.produce_async(topic: 'loans', payload: params.to_json)
            head :created
          end
        end
        """,
    }) == [("publishes", "books-audit", "kafka"), ("publishes", "books-shelved", "kafka"),
           ("publishes", "loans", "kafka")]  # fmt: skip


def test_racecar_consumer_subscribes_to() -> None:
    assert _channels({
        "app/consumers/refunds_consumer.rb": """
        class RefundsConsumer < Racecar::Consumer
          subscribes_to "refunds.requested"

          def process(message)
            Refund.create!(payload: message.value)
          end
        end
        """,
        "app/consumers/plain.rb": """
        class Plain
          def process(message); end
        end
        """,
    }) == [("consumes", "refunds.requested", "kafka")]  # fmt: skip


def test_hutch_consumer_and_publish() -> None:
    assert _channels({
        "app/consumers/greeter.rb": """
        class Greeter
          include Hutch::Consumer
          consume 'members.joined'

          def process(message)
            Hutch.publish('mail.welcome', to: message[:email])
          end
        end
        """
    }) == [("consumes", "members.joined", "rabbitmq"), ("publishes", "mail.welcome", "rabbitmq")]  # fmt: skip


def test_nats_subjects() -> None:
    assert _channels({
        "lib/dispatch.rb": """
        require 'nats/client'

        class Dispatch
          def initialize
            @nats = NATS.connect(ENV.fetch('NATS_URL', 'nats://nats:4222'))
          end

          def run
            @nats.subscribe('couriers.available') { |msg| assign(msg.data) }
            @nats.publish('couriers.assigned', '{}')
            @mailer.publish('newsletter')
          end
        end
        """
    }) == [("consumes", "couriers.available", "nats"), ("publishes", "couriers.assigned", "nats")]  # fmt: skip
