"""Ruby framework and library signatures as data: route verbs, Rails resource actions, HTTP
clients, messaging calls and ORM base classes. Adding a library is adding a row."""

from __future__ import annotations

#: DSL verbs shared by Rails routes, Sinatra and Grape.
VERBS = {"get": "GET", "post": "POST", "put": "PUT", "patch": "PATCH", "delete": "DELETE",
         "head": "HEAD", "options": "OPTIONS"}  # fmt: skip

#: Rails ``resources`` actions: (action, method, path after the collection).
RESOURCES_ACTIONS = (
    ("index", "GET", ""), ("create", "POST", ""), ("new", "GET", "/new"), ("edit", "GET", "/{id}/edit"),
    ("show", "GET", "/{id}"), ("update", "PATCH", "/{id}"), ("update", "PUT", "/{id}"), ("destroy", "DELETE", "/{id}"),
)  # fmt: skip
#: Rails singular ``resource`` actions.
RESOURCE_ACTIONS = (
    ("create", "POST", ""), ("new", "GET", "/new"), ("edit", "GET", "/edit"), ("show", "GET", ""),
    ("update", "PATCH", ""), ("update", "PUT", ""), ("destroy", "DELETE", ""),
)  # fmt: skip

#: Resource actions that render HTML forms: ``config.api_only = true`` applications do not route them.
FORM_ACTIONS = frozenset({"new", "edit"})

#: Grape blocks that add a path segment (``route_param`` adds ``{name}``).
GRAPE_SCOPES = frozenset({"resource", "resources", "namespace", "group", "segment"})
GRAPE_BASES = frozenset({"Grape::API", "Grape::API::Instance"})
SINATRA_BASES = frozenset({"Sinatra::Base", "Sinatra::Application"})

#: One-shot HTTP calls: receiver -> {method name: HTTP method (None: from the arguments)}.
HTTP_CLASS_CALLS: dict[str, dict[str, str | None]] = {
    "Net::HTTP": {"get": "GET", "get_response": "GET", "get_print": "GET", "post": "POST", "post_form": "POST",
                  "put": "PUT", "patch": "PATCH", "delete": "DELETE"},
    "HTTParty": {"get": "GET", "post": "POST", "put": "PUT", "patch": "PATCH", "delete": "DELETE", "head": "HEAD"},
    "RestClient": {"get": "GET", "post": "POST", "put": "PUT", "patch": "PATCH", "delete": "DELETE", "head": "HEAD"},
    "Faraday": {"get": "GET", "post": "POST", "put": "PUT", "patch": "PATCH", "delete": "DELETE", "head": "HEAD"},
    "HTTP": {"get": "GET", "post": "POST", "put": "PUT", "patch": "PATCH", "delete": "DELETE", "head": "HEAD"},
    "Typhoeus": {"get": "GET", "post": "POST", "put": "PUT", "patch": "PATCH", "delete": "DELETE", "head": "HEAD"},
    "Excon": {"get": "GET", "post": "POST", "put": "PUT", "patch": "PATCH", "delete": "DELETE", "head": "HEAD"},
}  # fmt: skip
CLIENT_NAMES = {"Net::HTTP": "net-http", "HTTParty": "httparty", "RestClient": "rest-client", "Faraday": "faraday",
                "HTTP": "http.rb", "Typhoeus": "typhoeus", "Excon": "excon"}  # fmt: skip
#: ``Net::HTTP::Get.new(uri)``: the request classes.
NET_HTTP_REQUESTS = {"Get": "GET", "Post": "POST", "Put": "PUT", "Patch": "PATCH", "Delete": "DELETE", "Head": "HEAD"}
#: Constructors of connection objects whose verb calls are relative to a base URL:
#: receiver -> (keyword holding the URL, or None for the first argument).
HTTP_CONNECTIONS = {"Faraday": "url", "Faraday::Connection": "url", "Excon": None, "RestClient::Resource": None,
                    "HTTP": None}  # fmt: skip
#: Redis commands whose first argument is a key (a receiver named like ``redis`` / ``$redis`` / ``REDIS``)
REDIS_KEY_COMMANDS = frozenset(
    "set get setex setnx getset mset mget del exists expire incr incrby decr hset hget hgetall hmset hmget "
    "hdel hincrby lpush rpush lpop rpop lrange sadd srem smembers sismember zadd zrange zrem zscore".split()
)
CONNECTION_VERBS = {"get": "GET", "post": "POST", "put": "PUT", "patch": "PATCH", "delete": "DELETE", "head": "HEAD"}

#: Kafka producers (ruby-kafka, rdkafka, WaterDrop/Karafka): method names taking ``topic:``.
KAFKA_PRODUCE = frozenset({"produce", "produce_sync", "produce_async", "deliver_message", "produce_many_sync",
                           "produce_many_async"})  # fmt: skip
#: WaterDrop 1.x producer classes: ``WaterDrop::SyncProducer.call(message, topic: 'x')``.
WATERDROP_PRODUCERS = frozenset({"WaterDrop::SyncProducer", "WaterDrop::AsyncProducer"})
#: ``x.subscribe('channel')``: a word of the receiver -> provider (other subscribe methods are not brokers').
SUBSCRIBERS = (("redis", "redis"), ("kafka", "kafka"), ("consumer", "kafka"), ("nats", "nats"))
#: Bunny channel methods declaring an exchange by name.
BUNNY_EXCHANGES = frozenset({"topic", "fanout", "direct", "headers", "exchange"})
#: Background-job modules whose classes consume a queue, and their provider.
JOB_MODULES = {"Sidekiq::Worker": "redis", "Sidekiq::Job": "redis", "Sneakers::Worker": "rabbitmq",
               "Shoryuken::Worker": "sqs", "Resque": "redis", "Hutch::Consumer": "rabbitmq"}  # fmt: skip
#: Consumer base classes naming their topic in the class body (Racecar's ``subscribes_to "x"``): superclass -> provider.
CONSUMER_BASES = {"Racecar::Consumer": "kafka"}
ENQUEUE_METHODS = frozenset({"perform_async", "perform_in", "perform_at", "perform_later", "perform_bulk", "enqueue"})

#: ORM base classes: superclass -> (kind, engine hint).
MODEL_BASES = {"ActiveRecord::Base": ("sql_table", None), "ApplicationRecord": ("sql_table", None)}
MODEL_MODULES = {"Mongoid::Document": ("document_collection", "mongodb")}
#: Search-index mixins and bases: a model including one (directly or through a concern) is also indexed
#: in Elasticsearch (elasticsearch-model's ``include Elasticsearch::Model``, Chewy's ``< Chewy::Index``).
SEARCH_MODULES = frozenset({"Elasticsearch::Model", "Elasticsearch::Model::Callbacks", "Searchkick"})
SEARCH_BASES = frozenset({"Chewy::Index", "Chewy::Type"})
