"""Ruby and PHP folders are services of their own stacks (no unknown_stack gap): their manifests,
routes, calls resolved through compose to the other service, channels and engines."""

from __future__ import annotations

from orbitkb.analysis.php import ANALYZER as PHP
from orbitkb.analysis.ruby import ANALYZER as RUBY

COMPOSE = """
services:
  orders:
    build: ./orders
    environment:
      STOCK_URL: http://stock:8000
      DATABASE_URL: postgres://db/orders
  stock:
    build: ./stock
  db:
    image: postgres:16
"""

GEMFILE = """source 'https://rubygems.org'
gem 'rails', '~> 7.1'
gem 'pg'
gem 'faraday'
gem 'bunny'
"""

ROUTES_RB = """Rails.application.routes.draw do
  resources :orders, only: %i[index create]
end
"""

STOCK_CLIENT = """class StockClient
  def conn
    @conn ||= Faraday.new(url: ENV.fetch('STOCK_URL', 'http://localhost:8000'))
  end

  def reserve(sku)
    conn.post("/api/reservations/#{sku}")
  end
end
"""

ORDER_MODEL = """class Order < ApplicationRecord
end
"""

COMPOSER = """{"name": "acme/stock", "require": {"php": "^8.2", "laravel/framework": "^11.0"}}"""

API_PHP = """<?php
use Illuminate\\Support\\Facades\\Route;

Route::post('reservations/{sku}', [ReservationController::class, 'store']);
"""

DATABASE_PHP = """<?php
return ['default' => env('DB_CONNECTION', 'mysql')];
"""

RESERVATION = """<?php
namespace App\\Models;

class Reservation extends Model {}
"""


def test_ruby_and_php_services_with_routes_calls_and_engines(analyze) -> None:
    run = analyze(
        {
            "docker-compose.yml": COMPOSE,
            "orders/Gemfile": GEMFILE,
            "orders/Dockerfile": "FROM ruby:3.3\n",
            "orders/config/routes.rb": ROUTES_RB,
            "orders/app/clients/stock_client.rb": STOCK_CLIENT,
            "orders/app/models/order.rb": ORDER_MODEL,
            "stock/composer.json": COMPOSER,
            "stock/Dockerfile": "FROM php:8.3-fpm\n",
            "stock/routes/api.php": API_PHP,
            "stock/config/database.php": DATABASE_PHP,
            "stock/app/Models/Reservation.php": RESERVATION,
        },
        stubs=[RUBY, PHP],
    )
    orders, stock = run.service("orders"), run.service("stock")
    assert (orders.service.stack, stock.service.stack) == ("ruby", "php")
    assert sorted((a.method, a.path) for a in orders.apis) == [("GET", "/orders"), ("POST", "/orders")]
    assert [(a.method, a.path) for a in stock.apis] == [("POST", "/api/reservations/{sku}")]
    assert [(c.target, c.method) for c in orders.calls] == [("stock", "POST")]
    assert [(e.name, e.engine) for e in orders.entities] == [("orders", "postgres")]
    assert [(e.name, e.engine) for e in stock.entities] == [("reservations", "mysql")]
    assert run.gaps("unknown_stack") == []


DATABASE_YML = """default: &default
  adapter: mysql2
  pool: <%= ENV.fetch("RAILS_MAX_THREADS") { 5 } %>

test:
  adapter: sqlite3
  database: db/test.sqlite3

production:
  <<: *default
  database: ledger
"""


def test_the_rails_database_yml_adapter_names_the_engine(analyze) -> None:
    run = analyze(
        {
            "ledger/Gemfile": "gem 'rails'\n",
            "ledger/Dockerfile": "FROM ruby:3.3\n",
            "ledger/config/database.yml": DATABASE_YML,
            "ledger/app/models/entry.rb": "class Entry < ApplicationRecord\nend\n",
        },
        stubs=[RUBY],
    )
    (entity,) = run.service("ledger").entities
    assert (entity.name, entity.engine) == ("entries", "mysql")  # not the test environment's sqlite
