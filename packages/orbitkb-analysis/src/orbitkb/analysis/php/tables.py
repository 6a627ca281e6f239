"""PHP framework and library signatures as data: route verbs, Laravel resource actions, HTTP
clients, queue drivers and ORM base classes. Adding a library is adding a row."""

from __future__ import annotations

#: Route-registration verbs (Laravel ``Route::get``, Slim/Lumen ``$app->get``).
VERBS = {"get": "GET", "post": "POST", "put": "PUT", "patch": "PATCH", "delete": "DELETE",
         "options": "OPTIONS", "any": "ANY"}  # fmt: skip

#: Laravel ``Route::resource``: (action, method, suffix); ``{p}`` is the singular parameter.
RESOURCE_ACTIONS = (
    ("index", "GET", ""), ("create", "GET", "/create"), ("store", "POST", ""), ("show", "GET", "/{p}"),
    ("edit", "GET", "/{p}/edit"), ("update", "PUT", "/{p}"), ("update", "PATCH", "/{p}"), ("destroy", "DELETE", "/{p}"),
)  # fmt: skip
API_RESOURCE_EXCLUDED = frozenset({"create", "edit"})

#: Laravel route files the framework mounts under a prefix by convention (RouteServiceProvider).
ROUTE_FILE_PREFIXES = {"routes/api.php": "/api"}

#: Static HTTP facades: class, lower-case (``syntax.facade``) -> client name (``Http::get``, ``Http::baseUrl(x)->get``).
HTTP_FACADES = {"http": "laravel-http"}
HTTP_VERBS = {"get": "GET", "post": "POST", "put": "PUT", "patch": "PATCH", "delete": "DELETE", "head": "HEAD",
              "getAsync": "GET", "postAsync": "POST", "putAsync": "PUT", "patchAsync": "PATCH",
              "deleteAsync": "DELETE"}  # fmt: skip
#: Client classes whose constructor takes a base URI: class -> (client name, option key).
HTTP_CLIENT_CLASSES = {"Client": ("guzzle", "base_uri"), "GuzzleHttp\\Client": ("guzzle", "base_uri"),
                       "HttpClient": ("symfony-http", "base_uri")}  # fmt: skip
#: Symfony HttpClient ``$client->request('GET', url)``; Guzzle too.
REQUEST_METHOD = "request"

#: Queue drivers (config/queue.php) -> message provider.
QUEUE_DRIVERS = {"redis": "redis", "sqs": "sqs", "rabbitmq": "rabbitmq", "beanstalkd": "beanstalkd", "kafka": "kafka"}

#: Eloquent base classes (a model's superclass, short name).
ELOQUENT_BASES = frozenset({"Model", "Authenticatable", "Pivot", "Eloquent"})
#: Database drivers of config/database.php and PDO DSN prefixes -> engine.
DRIVERS = {"mysql": "mysql", "pgsql": "postgres", "sqlite": "sqlite", "sqlsrv": "sqlserver", "mariadb": "mariadb",
           "mongodb": "mongodb", "oci": "oracle"}  # fmt: skip
#: The variable Laravel's and Lumen's own config/database.php read to choose the connection.
CONNECTION_ENV = "DB_CONNECTION"
