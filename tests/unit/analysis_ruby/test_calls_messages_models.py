"""Ruby HTTP clients with base URLs from constants and ENV, jobs and brokers, ActiveRecord models."""

from __future__ import annotations

from .helpers import link, show

SETTINGS = """
BILLING_HOST = ENV.fetch('BILLING_HOST') { 'billing:9000' }
"""

CLIENTS = """
require 'net/http'

class Gateway
  include HTTParty
  base_uri ENV['LEDGER_URL'] || 'http://ledger:8080'

  def balance(id)
    self.class.get("/balances/#{id}")
  end
end

class Couriers
  def initialize
    @http = Faraday.new(url: ENV.fetch('COURIER_URL', 'http://courier'))
  end

  def book(parcel)
    @http.post('/bookings', parcel.to_json)
  end
end

class Catalog
  def conn
    @conn ||= Faraday.new(url: 'http://catalog:3000')
  end

  def item(sku)
    conn.get("items/#{sku}")
  end
end

module Billing
  def self.invoice(id)
    uri = URI("http://#{BILLING_HOST}/invoices/#{id}")
    Net::HTTP.get_response(uri)
  end

  def self.void(id)
    RestClient.delete("http://#{BILLING_HOST}/invoices/#{id}")
  end
end
"""


def test_http_clients_with_base_urls_from_env_and_constants() -> None:
    facts = link({"config/settings.rb": SETTINGS, "lib/clients.rb": CLIENTS})
    assert sorted((c.client, c.method, show(c.url), c.line) for c in facts.calls) == [
        ("faraday", "GET", "http://catalog:3000/items/{?}", 28),
        ("faraday", "POST", "{env:COURIER_URL|http://courier}/bookings", 18),
        ("httparty", "GET", "{env:LEDGER_URL|http://ledger:8080}/balances/{?}", 8),
        ("net-http", "GET", "http://{env:BILLING_HOST|billing:9000}/invoices/{?}", 35),
        ("rest-client", "DELETE", "http://{env:BILLING_HOST|billing:9000}/invoices/{?}", 39),
    ]


def test_calls_inside_a_route_are_attributed_to_it() -> None:
    facts = link({
        "app.rb": """
        class Front < Sinatra::Base
          get '/quote' do
            Net::HTTP.get(URI('http://pricing:8000/price'))
          end
        end
        """
    })  # fmt: skip
    (call,) = facts.calls
    assert call.api_handler == "Front.GET /quote" == facts.apis[0].handler


WORKERS = """
class ReceiptWorker
  include Sidekiq::Worker
  sidekiq_options queue: 'receipts'

  def perform(order_id); end
end

class OrdersController < ApplicationController
  def create
    ReceiptWorker.perform_async(42)
  end
end

class Events
  def initialize
    @kafka = Kafka.new(['kafka:9092'])
    conn = Bunny.new.tap(&:start)
    @ch = conn.create_channel
  end

  def shipped(order)
    @kafka.deliver_message(order.to_json, topic: 'orders.shipped')
    @ch.default_exchange.publish(order.id.to_s, routing_key: 'labels')
    x = @ch.fanout('audit')
    x.publish('shipped')
  end

  def listen
    q = @ch.queue('returns', durable: true)
    q.subscribe(manual_ack: true) { |_d, _p, body| body }
    consumer = @kafka.consumer(group_id: 'shipping')
    consumer.subscribe('orders.paid')
  end
end
"""


def test_jobs_bunny_and_kafka_channels() -> None:
    facts = link({"app/workers.rb": WORKERS})
    assert sorted((m.direction, show(m.channel), m.provider, m.line) for m in facts.messages) == [
        ("consumes", "orders.paid", "kafka", 32),
        ("consumes", "receipts", "redis", 1),
        ("consumes", "returns", "rabbitmq", 30),
        ("publishes", "audit", "rabbitmq", 25),
        ("publishes", "labels", "rabbitmq", 23),
        ("publishes", "orders.shipped", "kafka", 22),
        ("publishes", "receipts", "redis", 10),
    ]


def test_karafka_routes_consume_topics() -> None:
    facts = link({
        "karafka.rb": """
        class KarafkaApp < Karafka::App
          routes.draw do
            topic :payments do
              consumer PaymentsConsumer
            end
          end
        end
        """
    })  # fmt: skip
    assert [(m.direction, show(m.channel), m.provider) for m in facts.messages] == [
        ("consumes", "payments", "kafka")
    ]


MODELS = """
class ApplicationRecord < ActiveRecord::Base
  self.abstract_class = true
end

class LineItem < ApplicationRecord
end

class Person < ApplicationRecord
end

class Voucher < ActiveRecord::Base
  self.table_name = 'promo_codes'
end

class Review
  include Mongoid::Document
  store_in collection: 'feedback'
end

class Plain
end
"""


def test_active_record_mongoid_models_and_table_names() -> None:
    facts = link({"app/models.rb": MODELS})
    assert [(e.name, e.kind, e.class_name, e.engine_hint, e.framework) for e in facts.entities] == [
        ("feedback", "document_collection", "Review", "mongodb", "mongoid"),
        ("line_items", "sql_table", "LineItem", None, "activerecord"),
        ("people", "sql_table", "Person", None, "activerecord"),
        ("promo_codes", "sql_table", "Voucher", None, "activerecord"),
    ]


def test_bad_ruby_becomes_no_facts_not_a_crash() -> None:
    facts = link({"broken.rb": "class (\n  get '/x' do\n"})
    assert facts.entities == () and facts.calls == ()


PUBLISHER = """
class RefundPublisher
  def call(data)
    channel.default_exchange.publish(data, routing_key: queue.name)
  end

  private

  def connection
    @conn ||= Bunny.new(host: 'rabbitmq').tap(&:start)
  end

  def channel
    @channel ||= connection.create_channel
  end

  def queue
    @queue ||= channel.queue 'refunds', durable: true
  end
end

class RefundWorker
  include Sneakers::Worker
  QUEUE = :refunds
  from_queue QUEUE, durable: true
end

class OtherWorker
  include Sneakers::Worker
  QUEUE = :other
  from_queue QUEUE
end
"""


def test_memoized_bunny_queue_and_class_constant_queues() -> None:
    facts = link({"app/refunds.rb": PUBLISHER})
    assert sorted((m.direction, show(m.channel), m.provider, m.component) for m in facts.messages) == [
        ("consumes", "other", "rabbitmq", "OtherWorker"),
        ("consumes", "refunds", "rabbitmq", "RefundWorker"),
        ("publishes", "refunds", "rabbitmq", "RefundPublisher"),
    ]


def test_subscribe_is_a_channel_only_on_a_broker_client() -> None:
    facts = link({
        "app/listeners.rb": """
        class Listeners
          def run
            $redis.subscribe('price-changes') { |on| on.message { |_c, m| m } }
            Redis.current.publish('restock', 'sku-1')
            ActiveSupport::Notifications.subscribe('render') { |*args| args }
            Wisper.subscribe('ledger')
          end
        end
        """
    })  # fmt: skip
    assert sorted((m.direction, show(m.channel), m.provider) for m in facts.messages) == [
        ("consumes", "price-changes", "redis"),
        ("publishes", "restock", "redis"),
    ]
