"""Clients injected through parameter defaults: a constructor keeps ``http: HTTParty`` and
``base_url: ENV.fetch(...)`` in fields that its other methods call through; a method's own
defaulted parameters are what it calls with when its caller passes nothing."""

from __future__ import annotations

from .helpers import link, show

INJECTED = """
module Billing
  class LedgerClient
    def initialize(http: HTTParty, base_url: ENV.fetch("LEDGER_URL", "http://ledger:4000"))
      @http = http
      @base_url = base_url
    end

    def balance(account)
      @http.get("#{@base_url}/api/balances/#{account}")
    end

    def post_entry(entry)
      @http.post("#{@base_url}/api/entries", body: entry.to_json)
    end
  end

  class Couriers
    def initialize(conn = Faraday.new(url: ENV["COURIER_URL"]), retries = 3)
      @conn = conn
      @retries = retries
    end

    def book(parcel)
      @conn.put("/bookings/#{parcel}")
    end
  end

  def self.rate(sku, client: RestClient, base: "http://pricing:9000")
    client.get("#{base}/rates/#{sku}")
  end
end
"""

NOT_CLIENTS = """
class Report
  def initialize(store: ReportStore, limit: 10)
    @store = store
    @limit = limit
  end

  def fetch(id)
    @store.get("/reports/#{id}")
    @limit.get("x")
  end
end
"""


def test_clients_and_base_urls_from_parameter_defaults() -> None:
    facts = link({"lib/billing.rb": INJECTED})
    assert sorted((c.client, c.method, show(c.url), c.line) for c in facts.calls) == [
        ("faraday", "PUT", "{env:COURIER_URL}/bookings/{?}", 24),
        ("httparty", "GET", "{env:LEDGER_URL|http://ledger:4000}/api/balances/{?}", 9),
        ("httparty", "POST", "{env:LEDGER_URL|http://ledger:4000}/api/entries", 13),
        ("rest-client", "GET", "http://pricing:9000/rates/{?}", 29),
    ]


def test_an_injected_object_that_is_no_http_client_makes_no_call() -> None:
    assert link({"lib/report.rb": NOT_CLIENTS}).calls == ()
