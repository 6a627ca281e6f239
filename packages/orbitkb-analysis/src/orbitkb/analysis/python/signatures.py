"""Framework and library signatures as data: adding a library is adding a row here.

Names are the qualified names the code imports (``httpx.AsyncClient``), after import aliases
are resolved. ``family`` groups constructors whose objects expose the same methods.
"""

from __future__ import annotations

# ----------------------------------------------------------------------------- parse-time filters
SKIP_NAMES = frozenset(
    "print len isinstance issubclass hasattr getattr setattr range enumerate zip map filter sorted "
    "reversed min max sum any all abs round repr id type super bool float tuple set frozenset bytes "
    "list dict int str iter next callable vars locals globals hash divmod pow format chr ord hex "
    "object property staticmethod classmethod".split()
)
SKIP_METHODS = frozenset(
    "append extend insert pop remove clear copy items keys values setdefault join split rsplit strip "
    "lstrip rstrip lower upper startswith endswith replace encode decode format isoformat debug info "
    "warning warn error exception critical log sort count index add discard union intersection "
    "difference dumps loads dump load model_dump model_validate dict json raise_for_status fetchone "
    "fetchall fetchmany strftime strptime total_seconds now utcnow today uuid4 hex zfill ljust rjust "
    "capitalize title group groups match search sub findall fullmatch compile read write close flush "
    "seek isdigit isalpha sleep filter filter_by order_by first one scalar scalars scalar_one "
    "one_or_none exclude annotate values_list select_related prefetch_related assertEqual assertTrue "
    "assertFalse assertIn assertIsNone assertRaises assert_called_once_with assert_called_with "
    "getLogger isEnabledFor".split()
)
#: modules whose calls never matter to us (checked after entry points, e.g. asyncio.run)
SKIP_MODULES = frozenset(
    "logging json re datetime time math typing collections itertools uuid random hashlib base64 os sys "
    "pathlib asyncio pytest unittest copy decimal enum dataclasses string textwrap struct abc contextlib "
    "warnings inspect operator shutil tempfile traceback secrets hmac io csv pickle glob fnmatch argparse "
    "subprocess threading signal builtins".split()
)
ENTRY_CALLS = frozenset(
    {
        "uvicorn.run",
        "fastapi.FastAPI",
        "flask.Flask",
        "quart.Quart",
        "apiflask.APIFlask",
        "celery.Celery",
        "starlette.applications.Starlette",
        "django.core.management.execute_from_command_line",
        "django.core.wsgi.get_wsgi_application",
        "django.core.asgi.get_asgi_application",
        "aiohttp.web.run_app",
        "aiohttp.web.Application",
        "waitress.serve",
        "hypercorn.asyncio.serve",
        "grpc.server",
        "grpc.aio.server",
        "faststream.FastStream",
        "sanic.Sanic",
        "litestar.Litestar",
        "connexion.App",
        "connexion.FlaskApp",
        "connexion.AsyncApp",
        "falcon.App",
        "falcon.asgi.App",
        "tornado.web.Application",
        "ninja.NinjaAPI",
    }
)

# ----------------------------------------------------------------------------- values
ENV_FUNCS = frozenset(
    {"os.getenv", "os.environ.get", "os.environ.setdefault", "os.environ.pop", "decouple.config", "getenv"}
)
#: objects whose call (or .str()/.int()/... method) reads an environment variable
ENV_OBJECTS = frozenset(
    {"environ.Env", "environs.Env", "starlette.config.Config", "decouple.AutoConfig", "decouple.Config"}
)
ENV_OBJECT_METHODS = frozenset("str int bool float url list dict json path get __call__".split())
SETTINGS_BASES = frozenset(
    {
        "pydantic_settings.BaseSettings",
        "pydantic_settings.main.BaseSettings",
        "pydantic.BaseSettings",
        "pydantic.v1.BaseSettings",
        "pydantic.env_settings.BaseSettings",
    }
)
DEPENDS = frozenset({"fastapi.Depends", "fastapi.params.Depends", "fastapi.Security"})

# ----------------------------------------------------------------------------- object families
FAMILIES: dict[str, str] = {
    # http clients
    "requests.Session": "http:requests",
    "requests.session": "http:requests",
    "requests.sessions.Session": "http:requests",
    "httpx.Client": "http:httpx",
    "httpx.AsyncClient": "http:httpx",
    "aiohttp.ClientSession": "http:aiohttp",
    "aiohttp.client.ClientSession": "http:aiohttp",
    "urllib3.PoolManager": "http:urllib3",
    "http.client.HTTPConnection": "http-conn:http",
    "http.client.HTTPSConnection": "http-conn:https",
    # web frameworks
    "fastapi.FastAPI": "fastapi",
    "fastapi.APIRouter": "fastapi",
    "fastapi.routing.APIRouter": "fastapi",
    "flask.Flask": "flask",
    "flask.Blueprint": "flask",
    "flask_smorest.Blueprint": "flask",
    "apiflask.APIFlask": "flask",
    "apiflask.APIBlueprint": "flask",
    "quart.Quart": "flask",
    "quart.Blueprint": "flask",
    # Sanic routes like Flask (``@app.route(uri, methods=...)``, ``@bp.get``, ``Blueprint(url_prefix=)``)
    **{q: "flask" for q in ("sanic.Sanic", "sanic.app.Sanic", "sanic.Blueprint", "sanic.blueprints.Blueprint")},
    "flask_restx.Namespace": "restx-ns",
    "flask_restplus.Namespace": "restx-ns",
    "flask_restx.Api": "restx-api",
    "flask_restplus.Api": "restx-api",
    "flask_restful.Api": "restx-api",
    "rest_framework.routers.DefaultRouter": "drf-router",
    "rest_framework.routers.SimpleRouter": "drf-router",
    "rest_framework_nested.routers.NestedSimpleRouter": "drf-nested-router",
    "rest_framework_nested.routers.NestedDefaultRouter": "drf-nested-router",
    # Dapr sidecar clients (python/dapr_sdk.py)
    "dapr.clients.DaprClient": "dapr",
    "dapr.aio.clients.DaprClient": "dapr",
    "dapr.clients.grpc.client.DaprGrpcClient": "dapr",
    # Dapr app extensions: ``@dapr_app.subscribe(pubsub="bus", topic="orders")`` consumes (python/messaging.py)
    "dapr.ext.fastapi.DaprApp": "dapr-app",
    "flask_dapr.DaprApp": "dapr-app",
    "flask_dapr.app.DaprApp": "dapr-app",
    "dapr.ext.grpc.App": "dapr-app",
    # messaging
    "kafka.KafkaProducer": "kafka-producer",
    "aiokafka.AIOKafkaProducer": "kafka-producer",
    "confluent_kafka.Producer": "kafka-producer",
    "confluent_kafka.SerializingProducer": "kafka-producer",
    "confluent_kafka.avro.AvroProducer": "kafka-producer",
    "kafka.KafkaConsumer": "kafka-consumer",
    "aiokafka.AIOKafkaConsumer": "kafka-consumer",
    "confluent_kafka.Consumer": "kafka-consumer",
    "confluent_kafka.DeserializingConsumer": "kafka-consumer",
    "confluent_kafka.avro.AvroConsumer": "kafka-consumer",
    "pika.BlockingConnection": "amqp-connection",
    "pika.SelectConnection": "amqp-connection",
    "aio_pika.connect": "amqp-connection",
    "aio_pika.connect_robust": "amqp-connection",
    # aio-pika's declared types: a connection, channel, exchange or queue handed in and annotated
    **{f"aio_pika.{m}{t}": "amqp-connection" for m in ("", "abc.") for t in ("AbstractConnection", "AbstractRobustConnection")},
    **{f"aio_pika.{m}{t}": "amqp-channel" for m in ("", "abc.") for t in ("AbstractChannel", "AbstractRobustChannel")},
    **{f"aio_pika.{m}{t}": "amqp-exchange" for m in ("", "abc.") for t in ("AbstractExchange", "AbstractRobustExchange")},
    **{f"aio_pika.{m}{t}": "amqp-queue" for m in ("", "abc.") for t in ("AbstractQueue", "AbstractRobustQueue")},
    "aio_pika.RobustConnection": "amqp-connection",
    "kombu.Producer": "kombu-producer",
    "kombu.messaging.Producer": "kombu-producer",
    "aio_pika.Connection": "amqp-connection",
    "aio_pika.RobustChannel": "amqp-channel",
    "aio_pika.Channel": "amqp-channel",
    "aio_pika.Exchange": "amqp-exchange",
    "aio_pika.Queue": "amqp-queue",
    "redis.Redis": "redis",
    "redis.StrictRedis": "redis",
    "redis.from_url": "redis",
    "redis.Redis.from_url": "redis",
    "redis.StrictRedis.from_url": "redis",
    "redis.client.Redis": "redis",
    "redis.client.StrictRedis": "redis",
    "redis.RedisCluster": "redis",
    "redis.cluster.RedisCluster": "redis",
    "redis.asyncio.StrictRedis.from_url": "redis",
    "redis.asyncio.Redis": "redis",
    "redis.asyncio.from_url": "redis",
    "redis.asyncio.StrictRedis": "redis",
    "redis.asyncio.Redis.from_url": "redis",
    "aioredis.from_url": "redis",
    "aioredis.Redis": "redis",
    "aioredis.create_redis_pool": "redis",
    "nats.connect": "nats",
    "nats.NATS": "nats",
    "nats.aio.client.Client": "nats",
    "celery.Celery": "celery",
    "pymongo.MongoClient": "mongo-client",
    "motor.motor_asyncio.AsyncIOMotorClient": "mongo-client",
    # a session's ``client`` is the client it was started from (``session.client.shop.orders``)
    "motor.motor_asyncio.AsyncIOMotorClientSession": "mongo-session",
    "pymongo.client_session.ClientSession": "mongo-session",
    "mongomock.MongoClient": "mongo-client",
    # Firestore: the Cloud client library and the Firebase Admin SDK (``firestore.client()``)
    "google.cloud.firestore.Client": "firestore-client",
    "google.cloud.firestore.AsyncClient": "firestore-client",
    "google.cloud.firestore_v1.Client": "firestore-client",
    "google.cloud.firestore_v1.AsyncClient": "firestore-client",
    "google.cloud.firestore_v1.client.Client": "firestore-client",
    "firebase_admin.firestore.client": "firestore-client",
    "firebase_admin.firestore_async.client": "firestore-client",
    "grpc.insecure_channel": "grpc-channel",
    "grpc.secure_channel": "grpc-channel",
    "grpc.aio.insecure_channel": "grpc-channel",
    "grpc.aio.secure_channel": "grpc-channel",
    # raw SQL drivers: connections and pools (family "sql:<engine>"; cursors keep the family)
    "psycopg2.connect": "sql:postgres",
    "psycopg.connect": "sql:postgres",
    "psycopg.AsyncConnection.connect": "sql:postgres",
    "psycopg_pool.ConnectionPool": "sql:postgres",
    "psycopg2.pool.SimpleConnectionPool": "sql:postgres",
    "psycopg2.pool.ThreadedConnectionPool": "sql:postgres",
    "asyncpg.connect": "sql:postgres",
    "asyncpg.create_pool": "sql:postgres",
    "aiopg.connect": "sql:postgres",
    "aiopg.create_pool": "sql:postgres",
    "pg8000.connect": "sql:postgres",
    "pymysql.connect": "sql:mysql",
    "MySQLdb.connect": "sql:mysql",
    "mysql.connector.connect": "sql:mysql",
    "aiomysql.connect": "sql:mysql",
    "aiomysql.create_pool": "sql:mysql",
    "sqlite3.connect": "sql:sqlite",
    "aiosqlite.connect": "sql:sqlite",
    "pyodbc.connect": "sql:sqlserver",
    "databases.Database": "sql:",  # the engine is the URL's scheme: left to the configuration
    "pymssql.connect": "sql:sqlserver",
    "clickhouse_driver.Client": "sql:clickhouse",
    # the DataStax Cassandra driver: a cluster's ``connect()`` session executes CQL text
    "cassandra.cluster.Cluster": "sql:cassandra",
    "elasticsearch.Elasticsearch": "search:elasticsearch",
    "elasticsearch.AsyncElasticsearch": "search:elasticsearch",
    "opensearchpy.OpenSearch": "search:opensearch",
    "opensearchpy.AsyncOpenSearch": "search:opensearch",
    "boto3.Session": "boto3-session",
    "boto3.session.Session": "boto3-session",
    "aioboto3.Session": "boto3-session",
    "faststream.kafka.KafkaBroker": "faststream:kafka",
    "faststream.rabbit.RabbitBroker": "faststream:rabbitmq",
    "faststream.nats.NatsBroker": "faststream:nats",
    "faststream.redis.RedisBroker": "faststream:redis",
    # routers group subscribers and publishers before ``broker.include_router(router)``
    **{
        f"faststream.{b}.{m}{kind}Router": f"faststream:{p}"
        for b, kind, p in (("kafka", "Kafka", "kafka"), ("rabbit", "Rabbit", "rabbitmq"), ("nats", "Nats", "nats"), ("redis", "Redis", "redis"))
        for m in ("", "fastapi.")
    },
}
#: constructors whose family depends on the AWS service name in their first argument
BOTO_CLIENTS = frozenset({"boto3.client", "boto3.resource"})
AWS_SERVICES = {"sqs": "sqs", "sns": "sns", "dynamodb": "dynamodb"}
_ES_METHODS = "index search get delete update create count exists mget delete_by_query update_by_query".split()
#: (family, method) -> (entity kind, engine, framework, (position, keyword) of the name): calls on a
#: client that name a table or index — boto3 DynamoDB and the Elasticsearch/OpenSearch clients
NAMED_STORE_CALLS: dict[tuple[str, str], tuple[str, str, str, tuple[int | None, str]]] = {
    ("dynamodb", "Table"): ("document_collection", "dynamodb", "boto3", (0, "name")),
    **{
        ("dynamodb", m): ("document_collection", "dynamodb", "boto3", (None, "TableName"))
        for m in "put_item get_item update_item delete_item query scan create_table describe_table".split()
    },
    **{
        (f"search:{e}", m): ("search_index", e, f"{e}-py", (0, "index"))
        for e in ("elasticsearch", "opensearch")
        for m in _ES_METHODS
    },
}  # fmt: skip

#: (family, method) -> (family of the returned object, where its name comes from)
METHOD_RESULTS: dict[tuple[str, str], tuple[str, tuple[int | None, str | None]]] = {
    ("amqp-connection", "channel"): ("amqp-channel", (None, None)),
    ("amqp-channel", "declare_queue"): ("amqp-queue", (0, "name")),
    ("amqp-channel", "get_queue"): ("amqp-queue", (0, "name")),
    ("amqp-channel", "declare_exchange"): ("amqp-exchange", (0, "name")),
    ("amqp-channel", "get_exchange"): ("amqp-exchange", (0, "name")),
    ("redis", "pubsub"): ("redis-pubsub", (None, None)),
    ("nats", "jetstream"): ("nats", (None, None)),
    ("sqs", "get_queue_by_name"): ("sqs-queue", (None, "QueueName")),
    ("sqs", "get_queue_url"): ("sqs-queue-url", (None, "QueueName")),
    ("sqs", "create_queue"): ("sqs-queue-url", (None, "QueueName")),
    ("sns", "create_topic"): ("sns-topic-arn", (None, "Name")),
    ("sqs", "Queue"): ("sqs-queue", (0, "url")),
    ("sns", "Topic"): ("sns-topic", (0, "arn")),
    ("mongo-client", "get_database"): ("mongo-db", (0, "name")),
    ("mongo-client", "get_default_database"): ("mongo-db", (None, None)),
    ("mongo-db", "get_collection"): ("mongo-coll", (0, "name")),
    ("firestore-client", "collection"): ("firestore-coll", (0, "collection_path")),
    ("firestore-client", "collection_group"): ("firestore-coll", (0, "collection_id")),
    ("firestore-client", "document"): ("firestore-doc", (None, None)),
    ("firestore-coll", "document"): ("firestore-doc", (None, None)),
    ("firestore-doc", "collection"): ("firestore-coll", (0, "collection_id")),
    **{
        (f"sql:{e}", m): (f"sql:{e}", (None, None))
        for e in ("postgres", "mysql", "sqlite", "sqlserver")
        for m in ("cursor", "acquire", "getconn", "connection")
    },
    ("sql:cassandra", "connect"): ("sql:cassandra", (None, None)),  # Cluster(...).connect(): a session
}
ATTR_RESULTS: dict[tuple[str, str], tuple[str, str]] = {
    ("amqp-channel", "default_exchange"): ("amqp-exchange", ""),
    ("amqp-exchange", "channel"): ("amqp-channel", ""),  # aio-pika: the channel an exchange was declared on
    ("mongo-session", "client"): ("mongo-client", ""),
}
#: attributes of a Mongo database/client that are methods, not collection/database names
MONGO_NON_NAMES = frozenset(
    "command list_collection_names list_collections create_collection drop_collection client name "
    "list_database_names drop_database close admin server_info start_session watch get_database "
    "get_default_database get_collection with_options codec_options read_preference".split()
)

# ----------------------------------------------------------------------------- HTTP
HTTP_VERBS = {v: v.upper() for v in ("get", "post", "put", "patch", "delete", "head", "options")}
#: module-level functions: qualified name -> (method, or None when the method is argument 0)
HTTP_FUNCS: dict[str, tuple[str | None, str]] = {
    **{f"{lib}.{v}": (m, lib) for lib in ("requests", "httpx") for v, m in HTTP_VERBS.items()},
    "requests.request": (None, "requests"),
    "httpx.request": (None, "httpx"),
    "httpx.stream": (None, "httpx"),
    "aiohttp.request": (None, "aiohttp"),
    "urllib.request.urlopen": ("GET", "urllib"),
}
HTTP_CLIENT_METHODS: dict[str, str | None] = {**HTTP_VERBS, "request": None, "stream": None}
URLLIB_REQUEST = frozenset({"urllib.request.Request"})

# ----------------------------------------------------------------------------- messaging
#: (family, method) -> (direction, provider, channel spec); specs are interpreted in messaging.py
MESSAGE_METHODS: dict[tuple[str, str], tuple[str, str, str]] = {
    ("kafka-producer", "send"): ("publishes", "kafka", "topic"),
    ("kafka-producer", "send_and_wait"): ("publishes", "kafka", "topic"),
    ("kafka-producer", "produce"): ("publishes", "kafka", "topic"),
    ("kafka-consumer", "subscribe"): ("consumes", "kafka", "topics"),
    ("amqp-channel", "basic_publish"): ("publishes", "rabbitmq", "basic_publish"),
    ("amqp-channel", "basic_consume"): ("consumes", "rabbitmq", "queue"),
    ("amqp-channel", "queue_bind"): ("consumes", "rabbitmq", "bind_exchange"),
    ("amqp-exchange", "publish"): ("publishes", "rabbitmq", "exchange_publish"),
    ("kombu-producer", "publish"): ("publishes", "rabbitmq", "kombu_publish"),
    ("amqp-queue", "consume"): ("consumes", "rabbitmq", "self"),
    ("amqp-queue", "iterator"): ("consumes", "rabbitmq", "self"),
    ("amqp-queue", "__aiter__"): ("consumes", "rabbitmq", "self"),  # ``async for msg in queue``
    ("amqp-queue", "bind"): ("consumes", "rabbitmq", "queue_bind_arg"),
    ("redis", "publish"): ("publishes", "redis", "arg0:channel"),
    ("redis", "xadd"): ("publishes", "redis", "arg0:name"),
    ("redis", "xreadgroup"): ("consumes", "redis", "streams:2"),
    ("redis", "xread"): ("consumes", "redis", "streams:0"),
    # a Redis list as a work queue: a push hands items to whoever pops them (``list_push``: only
    # when this service never reads the list back), a pop — blocking or polled — takes one
    ("redis", "lpush"): ("publishes", "redis", "list_push"),
    ("redis", "rpush"): ("publishes", "redis", "list_push"),
    ("redis", "lpop"): ("consumes", "redis", "arg0:name"),
    ("redis", "rpop"): ("consumes", "redis", "arg0:name"),
    ("redis", "blpop"): ("consumes", "redis", "keys"),
    ("redis", "brpop"): ("consumes", "redis", "keys"),
    ("redis", "brpoplpush"): ("consumes", "redis", "arg0:src"),
    ("redis", "blmove"): ("consumes", "redis", "arg0:first_list"),
    ("redis-pubsub", "subscribe"): ("consumes", "redis", "all"),
    ("redis-pubsub", "psubscribe"): ("consumes", "redis", "all"),
    ("nats", "publish"): ("publishes", "nats", "arg0:subject"),
    ("nats", "request"): ("publishes", "nats", "arg0:subject"),
    ("nats", "subscribe"): ("consumes", "nats", "arg0:subject"),
    ("nats", "pull_subscribe"): ("consumes", "nats", "arg0:subject"),
    ("sqs", "send_message"): ("publishes", "sqs", "kw_tail:QueueUrl"),
    ("sqs", "send_message_batch"): ("publishes", "sqs", "kw_tail:QueueUrl"),
    ("sqs", "receive_message"): ("consumes", "sqs", "kw_tail:QueueUrl"),
    ("sqs-queue", "send_message"): ("publishes", "sqs", "self"),
    ("sqs-queue", "send_messages"): ("publishes", "sqs", "self"),
    ("sqs-queue", "receive_messages"): ("consumes", "sqs", "self"),
    ("sns", "publish"): ("publishes", "sns", "kw_tail:TopicArn|TargetArn"),
    ("sns", "publish_batch"): ("publishes", "sns", "kw_tail:TopicArn"),
    ("sns-topic", "publish"): ("publishes", "sns", "self"),
    ("celery", "send_task"): ("publishes", "celery", "arg0:name"),
    ("faststream:kafka", "publish"): ("publishes", "kafka", "arg1:topic"),
    ("faststream:rabbitmq", "publish"): ("publishes", "rabbitmq", "arg1:queue|exchange"),
    ("faststream:nats", "publish"): ("publishes", "nats", "arg1:subject"),
    ("faststream:redis", "publish"): ("publishes", "redis", "arg1:channel|stream|list"),
}
#: redis commands that read a list back without taking from it: a list a service reads so is its
#: own store, and its pushes are no messages
REDIS_LIST_READS = frozenset("lrange lindex llen ltrim lset lrem lpos".split())
#: constructors that consume the topics they are given
CONSUMER_CONSTRUCTORS = {"kafka.KafkaConsumer": "kafka", "aiokafka.AIOKafkaConsumer": "kafka"}
#: receiver unknown (a parameter, an attribute set elsewhere): method -> candidates
#: (library that must be imported, or None when the method name alone is distinctive; family)
DUCK_METHODS: dict[str, tuple[tuple[str | None, str], ...]] = {
    "basic_publish": ((None, "amqp-channel"),),
    "basic_consume": ((None, "amqp-channel"),),
    "queue_bind": (("pika", "amqp-channel"),),
    "send_and_wait": ((None, "kafka-producer"),),
    "produce": (("confluent_kafka", "kafka-producer"),),
    "send": (("kafka", "kafka-producer"), ("aiokafka", "kafka-producer")),
    "subscribe": (
        ("kafka", "kafka-consumer"),
        ("aiokafka", "kafka-consumer"),
        ("confluent_kafka", "kafka-consumer"),
        ("nats", "nats"),
        ("redis", "redis-pubsub"),
        ("aioredis", "redis-pubsub"),
    ),
    "publish": (("nats", "nats"), ("redis", "redis"), ("aioredis", "redis"), ("aio_pika", "amqp-exchange")),
    "xadd": ((None, "redis"),),
    "xreadgroup": ((None, "redis"),),
    "send_task": ((None, "celery"),),  # Celery's own verb: the app is often built in another service
}
#: (family of an AWS response, field) holding the resource the request named:
#: ``get_queue_url(QueueName="orders")["QueueUrl"]`` is the queue ``orders``
RESPONSE_NAMES = frozenset({("sqs-queue-url", "QueueUrl"), ("sns-topic-arn", "TopicArn")})
#: keyword arguments that identify an AWS call whatever the receiver
DUCK_KEYWORDS: dict[tuple[str, str], str] = {
    ("send_message", "QueueUrl"): "sqs",
    ("send_message_batch", "QueueUrl"): "sqs",
    ("receive_message", "QueueUrl"): "sqs",
    ("publish", "TopicArn"): "sns",
    ("publish", "TargetArn"): "sns",
}
CELERY_TASK_DECORATORS = frozenset({"celery.shared_task", "celery.task"})
CELERY_SEND_METHODS = frozenset({"delay", "apply_async"})
#: settings holding a beat schedule (Django ``CELERY_`` namespace, old upper-case, app.conf names)
CELERY_BEAT_SETTINGS = frozenset({"celery_beat_schedule", "celerybeat_schedule", "beat_schedule"})
#: methods that make a signature of a task (``tick.s()``), as handed to ``add_periodic_task``
CELERY_SIGNATURE_METHODS = frozenset({"s", "si", "signature"})
GRPC_STUB_SUFFIX = "Stub"

# ----------------------------------------------------------------------------- nameko
#: entrypoint decorators -> kind (``http`` route, ``rpc`` method, ``event`` handler, ``consume`` queue)
NAMEKO_DECORATORS = {
    "nameko.web.handlers.http": "http",
    "nameko.rpc.rpc": "rpc",
    "nameko.events.event_handler": "event",
    "nameko.messaging.consume": "consume",
}
#: entrypoint classes a project subclasses, then decorates with ``MyHandler.decorator``
NAMEKO_ENTRYPOINT_BASES = {
    "nameko.web.handlers.HttpRequestHandler": "http",
    "nameko.rpc.Rpc": "rpc",
    "nameko.events.EventHandler": "event",
    "nameko.messaging.Consumer": "consume",
}
#: proxies bound to one target service (its name is argument 0): ``proxy.method(...)``
NAMEKO_SERVICE_PROXIES = frozenset(
    {
        "nameko.rpc.RpcProxy",
        "nameko.rpc.ServiceRpc",
        "nameko.standalone.rpc.ServiceRpcProxy",
        "nameko.standalone.rpc.ServiceRpcClient",
    }
)
#: proxies to the whole cluster: ``proxy.<service>.method(...)``
NAMEKO_CLUSTER_PROXIES = frozenset(
    {
        "nameko.rpc.ClusterRpc",
        "nameko.rpc.ClusterRpcProxy",
        "nameko.standalone.rpc.ClusterRpcProxy",
        "nameko.standalone.rpc.ClusterRpcClient",
    }
)
#: ``dispatch("event", payload)`` inside a service: the source is the service itself
NAMEKO_DISPATCHERS = frozenset({"nameko.events.EventDispatcher"})
#: ``dispatch("source_service", "event", payload)`` from outside a service
NAMEKO_STANDALONE_DISPATCHERS = frozenset({"nameko.standalone.events.event_dispatcher"})
NAMEKO_PUBLISHERS = frozenset({"nameko.messaging.Publisher"})
KOMBU_ENTITIES = frozenset({"kombu.Queue", "kombu.Exchange", "kombu.entity.Queue", "kombu.entity.Exchange"})

# ----------------------------------------------------------------------------- persistence
DJANGO_MODEL_BASES = frozenset({"django.db.models.Model", "django.db.models.base.Model"})
SQLMODEL_BASES = frozenset({"sqlmodel.SQLModel", "sqlmodel.main.SQLModel"})
SQLA_COLUMNS = frozenset({"Column", "mapped_column"})
SQLA_TABLES = frozenset({"sqlalchemy.Table", "sqlalchemy.schema.Table", "sqlalchemy.sql.schema.Table"})
DJANGO_NON_COLUMNS = frozenset({"ManyToManyField", "GenericRelation", "GenericForeignKey"})
#: ORM model bases whose table is ``class Meta: <key> = "..."`` (else the class name in lower case)
META_TABLE_MODELS = {
    "tortoise.models.Model": ("tortoise-orm", ("table",)),
    "tortoise.Model": ("tortoise-orm", ("table",)),
    "peewee.Model": ("peewee", ("table_name", "db_table")),
}
#: peewee database classes (a model's ``Meta.database``) -> engine
PEEWEE_DATABASES = {
    **{f"{m}.PostgresqlDatabase": "postgres" for m in ("peewee", "playhouse.postgres_ext")},
    "playhouse.postgres_ext.PostgresqlExtDatabase": "postgres",
    "playhouse.pool.PooledPostgresqlDatabase": "postgres",
    "playhouse.pool.PooledPostgresqlExtDatabase": "postgres",
    "peewee.MySQLDatabase": "mysql",
    "playhouse.pool.PooledMySQLDatabase": "mysql",
    "peewee.SqliteDatabase": "sqlite",
    "playhouse.sqlite_ext.SqliteExtDatabase": "sqlite",
    "playhouse.pool.PooledSqliteDatabase": "sqlite",
}
#: model base classes of stores other than SQL/MongoDB -> (framework, entity kind, engine, where the
#: name is written: an attribute of ``class Meta`` or of the class itself; else the class name)
STORE_MODELS: dict[str, tuple[str, str, str, tuple[str, str]]] = {
    "pynamodb.models.Model": ("pynamodb", "document_collection", "dynamodb", ("Meta", "table_name")),
    "cassandra.cqlengine.models.Model": ("cqlengine", "sql_table", "cassandra", ("", "__table_name__")),
    "redis_om.HashModel": ("redis-om", "key_value", "redis", ("Meta", "model_key_prefix")),
    "redis_om.JsonModel": ("redis-om", "key_value", "redis", ("Meta", "model_key_prefix")),
}
MONGO_DOCUMENTS = {
    "beanie.Document": "beanie",
    "mongoengine.Document": "mongoengine",
    "odmantic.Model": "odmantic",
}
#: search-index document classes -> (framework, engine); the index is ``class Index: name = ...``
#: (``class Meta: index = ...`` on the older DocType)
SEARCH_DOCUMENTS = {
    "elasticsearch_dsl.Document": ("elasticsearch-dsl", "elasticsearch"),
    "elasticsearch_dsl.AsyncDocument": ("elasticsearch-dsl", "elasticsearch"),
    "elasticsearch_dsl.DocType": ("elasticsearch-dsl", "elasticsearch"),
    "elasticsearch.dsl.Document": ("elasticsearch-dsl", "elasticsearch"),
    "elasticsearch.dsl.AsyncDocument": ("elasticsearch-dsl", "elasticsearch"),
    "opensearchpy.Document": ("opensearch-py", "opensearch"),
    "opensearch_dsl.Document": ("opensearch-dsl", "opensearch"),
}
#: redis commands whose first argument is a key; ``True`` when the command names a collection
#: (hash, set, sorted set, list), so a fully literal key is itself a stored entity
REDIS_KEY_COMMANDS: dict[str, bool] = {
    **dict.fromkeys(
        "get set getset setex psetex setnx incr incrby decr decrby delete exists expire ttl keys "
        "scan_iter getdel getex append".split(),
        False,
    ),
    **dict.fromkeys(
        "hget hset hmset hmget hgetall hdel hincrby hincrbyfloat hkeys hvals hexists hlen hsetnx "
        "sadd srem smembers sismember scard spop srandmember zadd zrem zrange zrevrange zscore "
        "zincrby zrangebyscore zrevrangebyscore zcard zrank lpush rpush lrange llen ltrim lindex "
        "lset linsert".split(),
        True,
    ),
}
#: redis commands distinctive enough to recognise a redis client whose construction is not seen
#: (a constructor parameter, an attribute set elsewhere) in a service that imports redis
REDIS_DUCK_COMMANDS = frozenset(
    k for k, coll in REDIS_KEY_COMMANDS.items() if coll or k in ("setex", "setnx", "incrby", "hincrby")
)
REDIS_LIBS = frozenset({"redis", "aioredis"})
#: methods of a raw SQL connection/cursor whose first argument is a statement
SQL_EXEC_METHODS = frozenset(
    "execute executemany executescript fetch fetchrow fetchval mogrify copy_expert".split()
    + "fetch_all fetch_one fetch_val execute_many iterate exec_driver_sql".split()  # databases, SQLAlchemy
    + ["execute_async"]  # the Cassandra driver's session
)
#: wrappers that hand a statement's text on unchanged: ``conn.execute(text("SELECT ..."))``
SQL_TEXT_WRAPPERS = frozenset({"sqlalchemy.text", "sqlalchemy.sql.text", "sqlalchemy.sql.expression.text"})
#: libraries whose presence lets an untyped receiver's ``execute("SELECT ...")`` count
SQL_DRIVER_LIBS = frozenset(
    "psycopg2 psycopg asyncpg aiopg pg8000 pymysql MySQLdb mysql aiomysql sqlite3 aiosqlite pyodbc pymssql clickhouse_driver".split()
    + ["sqlalchemy", "databases"]
)
#: LangChain vector stores (class; a factory classmethod on it counts too) -> (entity kind, engine,
#: keyword arguments that name the table / collection / index)
VECTOR_STORES = {
    "langchain_google_alloydb_pg.AlloyDBVectorStore": ("sql_table", "postgres", ("table_name",)),
    "langchain_google_cloud_sql_pg.PostgresVectorStore": ("sql_table", "postgres", ("table_name",)),
    "langchain_google_cloud_sql_mysql.MySQLVectorStore": ("sql_table", "mysql", ("table_name",)),
    "langchain_postgres.PGVector": ("sql_table", "postgres", ("collection_name",)),
    "langchain_postgres.vectorstores.PGVector": ("sql_table", "postgres", ("collection_name",)),
    "langchain_community.vectorstores.PGVector": ("sql_table", "postgres", ("collection_name",)),
    "langchain_chroma.Chroma": ("document_collection", "chroma", ("collection_name",)),
    "langchain_community.vectorstores.Chroma": ("document_collection", "chroma", ("collection_name",)),
    "langchain_qdrant.QdrantVectorStore": ("document_collection", "qdrant", ("collection_name",)),
    "langchain_community.vectorstores.Qdrant": ("document_collection", "qdrant", ("collection_name",)),
    "langchain_elasticsearch.ElasticsearchStore": ("search_index", "elasticsearch", ("index_name",)),
    "langchain_community.vectorstores.ElasticsearchStore": ("search_index", "elasticsearch", ("index_name",)),
    "langchain_redis.RedisVectorStore": ("key_value", "redis", ("index_name",)),
    "langchain_community.vectorstores.Redis": ("key_value", "redis", ("index_name",)),
}
#: Django CACHES backends (class path suffix) -> the store they keep entries in
DJANGO_CACHE_BACKENDS = {
    "django_redis.cache.RedisCache": "redis",
    "django.core.cache.backends.redis.RedisCache": "redis",
    "redis_cache.RedisCache": "redis",
    "redis_cache.cache.RedisCache": "redis",
    "django.core.cache.backends.memcached.PyMemcacheCache": "memcached",
    "django.core.cache.backends.memcached.PyLibMCCache": "memcached",
    "django.core.cache.backends.memcached.MemcachedCache": "memcached",
}
DJANGO_ENGINES = {
    "postgresql": "postgres",
    "postgis": "postgres",
    "mysql": "mysql",
    "sqlite3": "sqlite",
    "oracle": "oracle",
}

# ----------------------------------------------------------------------------- Django / DRF
DJANGO_PATH_FUNCS = frozenset(
    {
        "django.urls.path",
        "django.urls.re_path",
        "django.conf.urls.url",
        "django.urls.conf.path",
        "django.urls.conf.re_path",
    }
)
DJANGO_INCLUDE = frozenset({"django.urls.include", "django.conf.urls.include", "django.urls.conf.include"})
DJANGO_METHOD_DECORATORS = {"require_GET": ["GET"], "require_POST": ["POST"], "require_safe": ["GET", "HEAD"]}
#: generic class-based views (Django and DRF) by class name -> HTTP methods they serve
GENERIC_VIEW_METHODS = {
    "TemplateView": ["GET"],
    "ListView": ["GET"],
    "DetailView": ["GET"],
    "RedirectView": ["GET"],
    "CreateView": ["GET", "POST"],
    "UpdateView": ["GET", "POST"],
    "FormView": ["GET", "POST"],
    "DeleteView": ["GET", "POST"],
    "ListAPIView": ["GET"],
    "RetrieveAPIView": ["GET"],
    "CreateAPIView": ["POST"],
    "DestroyAPIView": ["DELETE"],
    "UpdateAPIView": ["PUT", "PATCH"],
    "ListCreateAPIView": ["GET", "POST"],
    "RetrieveUpdateAPIView": ["GET", "PUT", "PATCH"],
    "RetrieveDestroyAPIView": ["GET", "DELETE"],
    "RetrieveUpdateDestroyAPIView": ["GET", "PUT", "PATCH", "DELETE"],
}
#: DRF viewset actions: action -> (HTTP method, detail route)
VIEWSET_ACTIONS = {
    "list": ("GET", False),
    "create": ("POST", False),
    "retrieve": ("GET", True),
    "update": ("PUT", True),
    "partial_update": ("PATCH", True),
    "destroy": ("DELETE", True),
}
#: DRF base classes / mixins -> the actions they provide
VIEWSET_BASES = {
    "ModelViewSet": ("list", "create", "retrieve", "update", "partial_update", "destroy"),
    "ReadOnlyModelViewSet": ("list", "retrieve"),
    "ListModelMixin": ("list",),
    "CreateModelMixin": ("create",),
    "RetrieveModelMixin": ("retrieve",),
    "UpdateModelMixin": ("update", "partial_update"),
    "DestroyModelMixin": ("destroy",),
}
