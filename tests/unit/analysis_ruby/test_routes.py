"""Rails routes.rb, Sinatra and Grape routes, with every prefix composed and the exact handlers."""

from __future__ import annotations

from .helpers import link, routes

RAILS_ROUTES = """
Rails.application.routes.draw do
  namespace :shop do
    resources :baskets, only: %i[index show create] do
      member { post :checkout }
      collection do
        get :abandoned
      end
      resources :lines, only: [:index]
    end
    resource :profile, except: [:new, :edit, :destroy]
  end
  scope path: '/admin', module: 'backoffice' do
    resources :coupons, only: :destroy
  end
  get 'health', to: 'status#ping'
  post '/hooks/:source' => 'hooks#receive'
  match 'legacy/search', to: 'search#run', via: [:get, :post]
  root to: 'home#index'
end
"""


def test_rails_resources_namespaces_scopes_and_verbs() -> None:
    facts = link({"config/routes.rb": RAILS_ROUTES})
    assert routes(facts) == [
        ("DELETE", "/admin/coupons/{id}", "Backoffice::CouponsController.destroy"),
        ("GET", "/", "HomeController.index"),
        ("GET", "/health", "StatusController.ping"),
        ("GET", "/legacy/search", "SearchController.run"),
        ("GET", "/shop/baskets", "Shop::BasketsController.index"),
        ("GET", "/shop/baskets/abandoned", "Shop::BasketsController.abandoned"),
        ("GET", "/shop/baskets/{basket_id}/lines", "Shop::LinesController.index"),
        ("GET", "/shop/baskets/{id}", "Shop::BasketsController.show"),
        ("GET", "/shop/profile", "Shop::ProfilesController.show"),
        ("PATCH", "/shop/profile", "Shop::ProfilesController.update"),
        ("POST", "/hooks/{source}", "HooksController.receive"),
        ("POST", "/legacy/search", "SearchController.run"),
        ("POST", "/shop/baskets", "Shop::BasketsController.create"),
        ("POST", "/shop/baskets/{id}/checkout", "Shop::BasketsController.checkout"),
        ("POST", "/shop/profile", "Shop::ProfilesController.create"),
        ("PUT", "/shop/profile", "Shop::ProfilesController.update"),
    ]
    assert {a.framework for a in facts.apis} == {"rails"}
    assert facts.framework == "rails"


SINATRA_MODULAR = """
require 'sinatra/base'

class Tickets < Sinatra::Base
  get '/tickets/:id' do
    Ticket.find(params[:id]).to_json
  end

  delete '/tickets/:id' do
    204
  end
end
"""

SINATRA_CLASSIC = """
require 'sinatra'

post '/quotes' do
  'ok'
end
"""


def test_sinatra_modular_and_classic_routes() -> None:
    facts = link({"app/tickets.rb": SINATRA_MODULAR, "quotes.rb": SINATRA_CLASSIC})
    assert routes(facts) == [
        ("DELETE", "/tickets/{id}", "Tickets.DELETE /tickets/{id}"),
        ("GET", "/tickets/{id}", "Tickets.GET /tickets/{id}"),
        ("POST", "/quotes", "main.POST /quotes"),
    ]
    assert {a.component for a in facts.apis if a.file == "app/tickets.rb"} == {"Tickets"}
    assert facts.framework == "sinatra"


GRAPE = """
module Fleet
  class Root < Grape::API
    prefix :api
    version 'v2', using: :path
    mount Fleet::Trucks
  end

  class Trucks < Grape::API
    resource :trucks do
      get do
        Truck.all
      end
      route_param :plate do
        get do
          Truck.find_by(plate: params[:plate])
        end
        put 'park' do
          :ok
        end
      end
    end
  end
end
"""


def test_grape_resources_route_params_and_mount_prefixes() -> None:
    facts = link({"app/api/fleet.rb": GRAPE})
    assert [(m, p) for m, p, _ in routes(facts)] == [
        ("GET", "/api/v2/trucks"),
        ("GET", "/api/v2/trucks/{plate}"),
        ("PUT", "/api/v2/trucks/{plate}/park"),
    ]
    assert facts.framework == "grape"


def test_verbs_outside_a_route_context_are_not_routes() -> None:
    facts = link({
        "lib/cache.rb": """
        class Cache
          def fetch(key)
            store.get(key)
          end
        end
        """,
        "app/controllers/pages_controller.rb": """
        class PagesController < ApplicationController
          def show
            get_page
          end
        end
        """,
    })  # fmt: skip
    assert facts.apis == ()


def test_api_only_applications_route_no_html_form_actions() -> None:
    routes_rb = """
    Rails.application.routes.draw do
      resources :parcels, except: [:destroy]
    end
    """
    application = """
    module Depot
      class Application < Rails::Application
        config.api_only = true
      end
    end
    """
    full = link({"config/routes.rb": routes_rb})
    api = link({"config/routes.rb": routes_rb, "config/application.rb": application})
    assert {a.handler.rsplit(".", 1)[-1] for a in full.apis} == {"index", "create", "new", "edit", "show", "update"}
    assert [(m, p) for m, p, _ in routes(api)] == [
        ("GET", "/parcels"), ("GET", "/parcels/{id}"), ("PATCH", "/parcels/{id}"), ("POST", "/parcels"),
        ("PUT", "/parcels/{id}"),
    ]  # fmt: skip


def test_ruby_and_php_test_files_are_test_code() -> None:
    from orbitkb.analysis.filetypes import is_test_path

    for path in ("app/models/order_spec.rb", "lib/cart_test.rb", "src/Billing/InvoiceTest.php"):
        assert is_test_path(path), path
    assert not is_test_path("app/models/spectrum.rb") and not is_test_path("src/Testimonial.php")
