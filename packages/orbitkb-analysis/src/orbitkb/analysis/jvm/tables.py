"""Framework and library signatures for the JVM analyzer, as data: adding one is adding a row."""

from __future__ import annotations

from orbitkb.analysis.httpverbs import HTTP_METHODS, titled

# --------------------------------------------------------------------------- HTTP APIs

#: Spring MVC/WebFlux mapping annotations -> HTTP method (None: read ``method=``, default ANY)
MAPPINGS: dict[str, str | None] = {
    "RequestMapping": None,
    "GetMapping": "GET",
    "PostMapping": "POST",
    "PutMapping": "PUT",
    "DeleteMapping": "DELETE",
    "PatchMapping": "PATCH",
    # Spring 6 HTTP interfaces (@HttpExchange clients) share the shape
    "HttpExchange": None,
    "GetExchange": "GET",
    "PostExchange": "POST",
    "PutExchange": "PUT",
    "DeleteExchange": "DELETE",
    "PatchExchange": "PATCH",
    # Micronaut's route and declarative-client annotations (io.micronaut.http.annotation)
    **titled(),
}
PATH_ATTRS = ("value", "path", "url", "uri", "uris")
CONTROLLER_ANNOTATIONS = {
    "RestController",
    "Controller",
    "RepositoryRestController",
    "BasePathAwareController",
}
JAXRS_METHODS = set(HTTP_METHODS)
ROUTER_VERBS = set(HTTP_METHODS)
ROUTER_MARKERS = {"route", "router", "coRouter", "nest", "andRoute", "andNest"}

# --------------------------------------------------------------------------- message listeners

#: listener annotation -> (provider, attributes holding channel names)
LISTENERS: dict[str, tuple[str, tuple[str, ...]]] = {
    "KafkaListener": ("kafka", ("topics", "topicPattern", "value")),
    "RabbitListener": ("rabbitmq", ("queues", "value", "queuesToDeclare", "bindings")),
    "JmsListener": ("jms", ("destination",)),
    "SqsListener": ("sqs", ("value", "queueNames")),
    "StreamListener": ("stream", ("value", "target")),
    "NatsListener": ("nats", ("subject", "value")),
    # Eventuate Tram's annotation handlers: a command channel, a domain-event channel (aggregate type)
    "EventuateCommandHandler": ("eventuate", ("channel",)),
    "EventuateDomainEventHandler": ("eventuate", ("channel",)),
}
#: MicroProfile Reactive Messaging: method annotation -> direction of its channel
REACTIVE_METHODS = {"Incoming": "consumes", "Outgoing": "publishes"}
#: types of a ``@Channel`` injection that send (emitters) or receive (streams)
REACTIVE_EMITTERS = frozenset({"Emitter", "MutinyEmitter"})
REACTIVE_STREAMS = frozenset({"Publisher", "Multi", "Flowable", "PublisherBuilder", "Flow.Publisher"})
#: the package of Quarkus's gRPC annotations (``@GrpcClient``, ``@GrpcService``)
QUARKUS_GRPC = "io.quarkus.grpc."
#: what a Quarkus gRPC service method returns (Mutiny): ``Uni<Reply>``, ``Multi<Reply>``
MUTINY_TYPES = frozenset({"Uni", "Multi"})
#: Micronaut messaging beans: class annotation -> (provider, direction of its methods' channels)
MICRONAUT_MESSAGING = {
    "KafkaListener": ("kafka", "consumes"),
    "KafkaClient": ("kafka", "publishes"),
    "RabbitListener": ("rabbitmq", "consumes"),
    "RabbitClient": ("rabbitmq", "publishes"),
    "NatsListener": ("nats", "consumes"),
    "NatsClient": ("nats", "publishes"),
    "JMSListener": ("jms", "consumes"),
    "JMSProducer": ("jms", "publishes"),
}
#: Micronaut method annotations naming a channel -> the attributes holding it
MICRONAUT_CHANNELS = {"Topic": ("value", "topics"), "Queue": ("value",), "Binding": ("value",), "Subject": ("value",)}
#: Spring Cloud Stream's legacy binding interface constants
STREAM_CONSTANTS = {
    "Sink.INPUT": "input",
    "Processor.INPUT": "input",
    "Source.OUTPUT": "output",
    "Processor.OUTPUT": "output",
}
#: Spring Cloud Stream's binding-interface method annotations -> the direction of the binding
STREAM_BINDING_ANNOTATIONS = {"Output": "publishes", "Input": "consumes"}
#: build artifacts (name prefixes) that make a service a Spring Cloud Stream application: with a
#: binder on the classpath, every Function / Consumer / Supplier bean is bound, imports or not
STREAM_ARTIFACTS = ("spring-cloud-stream", "spring-cloud-starter-stream")
STREAM_FUNCTION_TYPES = {
    "Consumer": ("in",),
    "Function": ("in", "out"),
    "Supplier": ("out",),
    "BiFunction": ("in", "out"),
}

# --------------------------------------------------------------------------- outbound HTTP

#: RestTemplate methods -> HTTP method (None: read the HttpMethod argument)
REST_TEMPLATE: dict[str, str | None] = {
    "getForObject": "GET",
    "getForEntity": "GET",
    "headForHeaders": "HEAD",
    "postForObject": "POST",
    "postForEntity": "POST",
    "postForLocation": "POST",
    "patchForObject": "PATCH",
    "put": "PUT",
    "delete": "DELETE",
    "optionsForAllow": "OPTIONS",
    "exchange": None,
    "execute": None,
}
#: methods that are RestTemplate's whatever the receiver is called
REST_TEMPLATE_DISTINCT = {
    "getForObject",
    "getForEntity",
    "postForObject",
    "postForEntity",
    "postForLocation",
    "patchForObject",
}
REST_TEMPLATE_TYPES = {"RestTemplate", "RestOperations", "OAuth2RestTemplate"}
FLUENT_CLIENT_TYPES = {"WebClient": "WebClient", "RestClient": "RestClient"}
FLUENT_VERBS = {
    "get": "GET",
    "post": "POST",
    "put": "PUT",
    "delete": "DELETE",
    "patch": "PATCH",
    "head": "HEAD",
    "options": "OPTIONS",
}
#: Ktor's HTTP client (Kotlin): ``client.get(url)``, ``client.post(url) { .. }``, ``client.request(url)
#: { method = .. }``, ``client.get { url(..) }`` on an ``HttpClient``, in files importing the client
KTOR_CLIENT_IMPORT = "io.ktor.client"
KTOR_VERBS: dict[str, str | None] = {**FLUENT_VERBS, "request": None, "prepareGet": "GET", "preparePost": "POST"}
#: Spring Cloud Gateway's ``ProxyExchange`` (a handler parameter): ``proxy.uri(x).get()`` sends the
#: request on, ``forward()`` with the incoming request's own method
PROXY_EXCHANGE_TYPES = frozenset({"ProxyExchange"})
PROXY_EXCHANGE_VERBS: dict[str, str | None] = {**FLUENT_VERBS, "forward": None}
#: Jakarta/JAX-RS client API: ``client.target(url)`` on these types, in files importing these packages
JAXRS_CLIENT_TYPES = frozenset({"Client", "javax.ws.rs.client.Client", "jakarta.ws.rs.client.Client"})
JAXRS_CLIENT_IMPORTS = ("javax.ws.rs.client", "jakarta.ws.rs.client")
#: Apache/Java client request objects: constructor name -> method
REQUEST_OBJECTS = {
    "HttpGet": "GET",
    "HttpPost": "POST",
    "HttpPut": "PUT",
    "HttpDelete": "DELETE",
    "HttpPatch": "PATCH",
    "HttpHead": "HEAD",
}
JDK_VERBS = {
    "GET": "GET",
    "POST": "POST",
    "PUT": "PUT",
    "DELETE": "DELETE",
    "get": "GET",
    "post": "POST",
    "put": "PUT",
    "delete": "DELETE",
    "patch": "PATCH",
}
#: types whose beans carry an address (base URL, gRPC target)
ADDRESSED_TYPES = {
    "WebClient",
    "RestClient",
    "RestTemplate",
    "ManagedChannel",
    "Channel",
    "WebClient.Builder",
    "RestClient.Builder",
}
#: Spring Boot customizer beans applied to every auto-configured builder of a client type: one
#: setting ``baseUrl`` gives every client built from an injected builder that address
CLIENT_CUSTOMIZERS = {"RestClientCustomizer": "RestClient", "WebClientCustomizer": "WebClient"}
GRPC_STUB_FACTORIES = {"newBlockingStub", "newStub", "newFutureStub", "newReactorStub", "newBlockingV2Stub"}
#: generated API clients given their address by a setter: setter -> the client types it belongs to
#: (Kiota request adapters, OpenAPI Generator's ``ApiClient``); every request goes below that base
BASE_URL_SETTERS = {
    "setBaseUrl": frozenset({"RequestAdapter", "DefaultRequestAdapter", "OkHttpRequestAdapter", "BaseRequestAdapter"}),
    "setBasePath": frozenset({"ApiClient"}),
}

# --------------------------------------------------------------------------- outbound messaging

#: requests built with ``new`` whose first argument names what they open (Elasticsearch's REST
#: clients: ``new SearchRequest("orders")``), in files importing the library -> the STORE_HANDLES type
STORE_REQUESTS = {
    name: "ElasticsearchRequest"
    for name in ("IndexRequest", "SearchRequest", "GetRequest", "DeleteRequest", "UpdateRequest", "CountRequest",
                 "DeleteByQueryRequest", "UpdateByQueryRequest", "CreateIndexRequest", "GetIndexRequest")
}  # fmt: skip
STORE_REQUEST_IMPORTS = ("org.elasticsearch",)
#: getters whose result is a store handle of STORE_HANDLES whatever the receiver's declared type:
#: ``mongoClient.getDatabase(db).getCollection(name)``
STORE_HANDLE_GETTERS = {"getDatabase": "MongoDatabase", "getConnection": "Connection", "createStatement": "Statement"}
#: receiver type -> (provider, {method: channel argument index})
PUBLISHERS: dict[str, tuple[str, dict[str, int]]] = {
    "KafkaTemplate": ("kafka", {"send": 0}),
    "KafkaOperations": ("kafka", {"send": 0}),
    "ReactiveKafkaProducerTemplate": ("kafka", {"send": 0}),
    "RabbitTemplate": (
        "rabbitmq",
        {"convertAndSend": 0, "send": 0, "convertSendAndReceive": 0, "sendAndReceive": 0},
    ),
    "AmqpTemplate": ("rabbitmq", {"convertAndSend": 0, "send": 0, "convertSendAndReceive": 0}),
    "RabbitOperations": ("rabbitmq", {"convertAndSend": 0, "send": 0, "convertSendAndReceive": 0}),
    "RabbitMessagingTemplate": ("rabbitmq", {"convertAndSend": 0, "send": 0}),
    "JmsTemplate": ("jms", {"convertAndSend": 0, "send": 0, "convertSendAndReceive": 0}),
    "JmsMessagingTemplate": ("jms", {"convertAndSend": 0, "send": 0}),
    "JmsOperations": ("jms", {"convertAndSend": 0, "send": 0}),
    "StreamBridge": ("stream", {"send": 0}),
    "SqsTemplate": ("sqs", {"send": 0, "sendAsync": 0}),
    "QueueMessagingTemplate": ("sqs", {"convertAndSend": 0, "send": 0}),
    "NotificationMessagingTemplate": ("sns", {"sendNotification": 0, "convertAndSend": 0}),
    "SqsClient": ("sqs", {"sendMessage": 0, "sendMessageBatch": 0}),
    "SqsAsyncClient": ("sqs", {"sendMessage": 0, "sendMessageBatch": 0}),
    "AmazonSQS": ("sqs", {"sendMessage": 0, "sendMessageBatch": 0}),
    "AmazonSQSAsync": ("sqs", {"sendMessage": 0, "sendMessageAsync": 0}),
    "SnsClient": ("sns", {"publish": 0}),
    "SnsAsyncClient": ("sns", {"publish": 0}),
    "AmazonSNS": ("sns", {"publish": 0}),
    "RedisTemplate": ("redis", {"convertAndSend": 0}),
    "StringRedisTemplate": ("redis", {"convertAndSend": 0}),
    "ReactiveRedisTemplate": ("redis", {"convertAndSend": 0}),
    # Quarkus Redis data source: ``ds.pubsub(T.class)`` -> publish(channel, message)
    "PubSubCommands": ("redis", {"publish": 0}),
    "ReactivePubSubCommands": ("redis", {"publish": 0}),
    "Connection": ("nats", {"publish": 0}),
    # Dapr: publishEvent(pubsubName, topic, data); the component names the broker (dapr.apply)
    "DaprClient": ("dapr", {"publishEvent": 1}),
    "DaprPreviewClient": ("dapr", {"publishEvent": 1}),
}
#: Kafka Streams DSL methods whose first argument is a topic -> the direction of that topic
KAFKA_STREAMS_DSL = {"stream": "consumes", "table": "consumes", "globalTable": "consumes", "to": "publishes", "through": "publishes"}
KAFKA_STREAMS_IMPORT = "org.apache.kafka.streams"
#: listener containers set up in code: type -> (provider, setters whose arguments name channels);
#: a provider of None is decided by the file's imports (Spring AMQP and JMS share type names)
LISTENER_CONTAINERS: dict[str, tuple[str | None, frozenset[str]]] = {
    "SimpleMessageListenerContainer": (
        None,
        frozenset({"setQueueNames", "addQueueNames", "setDestinationName"}),
    ),
    "DirectMessageListenerContainer": ("rabbitmq", frozenset({"setQueueNames", "addQueueNames"})),
    "AbstractMessageListenerContainer": (None, frozenset({"setQueueNames", "setDestinationName"})),
    "DefaultMessageListenerContainer": ("jms", frozenset({"setDestinationName"})),
    "ContainerProperties": ("kafka", frozenset({"<init>"})),
}
LISTENER_CONTAINER_IMPORTS = (("org.springframework.amqp", "rabbitmq"), ("org.springframework.jms", "jms"))
#: receiver-name fragments that stand in for an unknown type (lower-case) -> type
RECEIVER_NAME_HINTS = (
    ("resttemplate", "RestTemplate"),
    ("webclient", "WebClient"),
    ("restclient", "RestClient"),
    ("kafkatemplate", "KafkaTemplate"),
    ("kafka", "KafkaTemplate"),
    ("rabbittemplate", "RabbitTemplate"),
    ("rabbit", "RabbitTemplate"),
    ("amqp", "AmqpTemplate"),
    ("jmstemplate", "JmsTemplate"),
    ("jms", "JmsTemplate"),
    ("streambridge", "StreamBridge"),
    ("sqstemplate", "SqsTemplate"),
    ("sqs", "SqsClient"),
    ("sns", "SnsClient"),
    ("redistemplate", "RedisTemplate"),
)
#: when a ``template.convertAndSend`` receiver is untyped, the file's imports decide
IMPORT_HINTS = (
    ("org.springframework.amqp", "RabbitTemplate"),
    ("org.springframework.jms", "JmsTemplate"),
    ("org.springframework.kafka", "KafkaTemplate"),
    ("org.springframework.data.redis", "RedisTemplate"),
)
#: JMS 2 / classic JMS: a destination made by name (``ctx.createQueue("q")``) and handed to these
#: methods is published to or consumed from (``ctx.createProducer().send(dest, m)``,
#: ``ctx.createConsumer(dest)``, ``session.createProducer(dest)``); only in files importing JMS
JMS_DESTINATION_FACTORIES = frozenset({"createQueue", "createTopic"})
JMS_DESTINATION_USES = {
    "send": "publishes",
    "createProducer": "publishes",
    "createSender": "publishes",
    "createPublisher": "publishes",
    "createConsumer": "consumes",
    "createDurableConsumer": "consumes",
    "createSharedConsumer": "consumes",
    "createSharedDurableConsumer": "consumes",
    "createDurableSubscriber": "consumes",
    "createReceiver": "consumes",
    "createSubscriber": "consumes",
}
JMS_IMPORTS = ("javax.jms", "jakarta.jms")
#: Hazelcast's distributed topics and queues: getter -> {method on what it returns: direction};
#: only in files importing Hazelcast
HAZELCAST_STRUCTURES = {
    "getTopic": {"publish": "publishes", "publishAsync": "publishes", "publishAll": "publishes",
                 "addMessageListener": "consumes"},
    "getReliableTopic": {"publish": "publishes", "publishAsync": "publishes", "publishAll": "publishes",
                         "addMessageListener": "consumes"},
    "getQueue": {"offer": "publishes", "put": "publishes", "add": "publishes", "addAll": "publishes",
                 "poll": "consumes", "take": "consumes", "drainTo": "consumes", "addItemListener": "consumes"},
}  # fmt: skip
HAZELCAST_IMPORT = "com.hazelcast"
#: AWS request builders: method -> provider for the channel setter
AWS_CHANNEL_SETTERS = {"queueUrl": "sqs", "topicArn": "sns", "targetArn": "sns"}

# --------------------------------------------------------------------------- persistence

#: @Document/@Table-like annotations: (kind, engine hint, framework, name attributes)
STORE_ANNOTATIONS: dict[str, tuple[str, str | None, str, tuple[str, ...]]] = {
    "Document": ("document_collection", "mongodb", "spring-data-mongodb", ("collection", "value")),
    "RedisHash": ("key_value", "redis", "spring-data-redis", ("value",)),
    "Node": ("graph_node", "neo4j", "spring-data-neo4j", ("labels", "value", "primaryLabel")),
    "DynamoDBTable": ("document_collection", "dynamodb", "aws-dynamodb-mapper", ("tableName",)),
    # AWS SDK v2 enhanced client beans: the table is named where the client opens it, so the class
    # name stands for it (no name attributes)
    "DynamoDbBean": ("document_collection", "dynamodb", "aws-dynamodb-enhanced", ()),
    "DynamoDbImmutable": ("document_collection", "dynamodb", "aws-dynamodb-enhanced", ()),
}
#: imports that change what @Document / @Table mean
STORE_IMPORTS = (
    ("org.springframework.data.elasticsearch", "search_index", "elasticsearch", "spring-data-elasticsearch"),
    ("org.springframework.data.couchbase", "document_collection", "couchbase", "spring-data-couchbase"),
    ("org.springframework.data.cassandra", "sql_table", "cassandra", "spring-data-cassandra"),
    ("org.springframework.data.relational", "sql_table", None, "spring-data-jdbc"),
    ("org.springframework.data.mongodb", "document_collection", "mongodb", "spring-data-mongodb"),
    # the DataStax Java driver's object mapper: its @Entity is a Cassandra table (@CqlName names it)
    ("com.datastax.oss.driver.api.mapper", "wide_column", "cassandra", "datastax-mapper"),
)
#: the frameworks of STORE_IMPORTS whose own ``@Entity`` annotation is not JPA's
NON_JPA_ENTITY_FRAMEWORKS = frozenset({"datastax-mapper"})
#: repository base interface -> (entity kind, engine hint, framework)
REPOSITORIES: dict[str, tuple[str, str | None, str]] = {
    "JpaRepository": ("sql_table", None, "spring-data-jpa"),
    "JpaSpecificationExecutor": ("sql_table", None, "spring-data-jpa"),
    "ListJpaRepository": ("sql_table", None, "spring-data-jpa"),
    "RevisionRepository": ("sql_table", None, "spring-data-jpa"),
    "MongoRepository": ("document_collection", "mongodb", "spring-data-mongodb"),
    "ReactiveMongoRepository": ("document_collection", "mongodb", "spring-data-mongodb"),
    "R2dbcRepository": ("sql_table", None, "spring-data-r2dbc"),
    "ElasticsearchRepository": ("search_index", "elasticsearch", "spring-data-elasticsearch"),
    "CassandraRepository": ("sql_table", "cassandra", "spring-data-cassandra"),
    "ReactiveCassandraRepository": ("sql_table", "cassandra", "spring-data-cassandra"),
    "CouchbaseRepository": ("document_collection", "couchbase", "spring-data-couchbase"),
    "Neo4jRepository": ("graph_node", "neo4j", "spring-data-neo4j"),
    "CrudRepository": ("unknown", None, "spring-data"),
    "ListCrudRepository": ("unknown", None, "spring-data"),
    "PagingAndSortingRepository": ("unknown", None, "spring-data"),
    "ListPagingAndSortingRepository": ("unknown", None, "spring-data"),
    "ReactiveCrudRepository": ("unknown", None, "spring-data"),
    "ReactiveSortingRepository": ("unknown", None, "spring-data"),
    "CoroutineCrudRepository": ("unknown", None, "spring-data"),
    "Repository": ("unknown", None, "spring-data"),
    # Quarkus Panache: repositories are classes implementing these
    "PanacheRepository": ("sql_table", None, "panache"),
    "PanacheRepositoryBase": ("sql_table", None, "panache"),
    "PanacheMongoRepository": ("document_collection", "mongodb", "panache-mongodb"),
    "PanacheMongoRepositoryBase": ("document_collection", "mongodb", "panache-mongodb"),
    "ReactivePanacheMongoRepository": ("document_collection", "mongodb", "panache-mongodb"),
    "ReactivePanacheMongoRepositoryBase": ("document_collection", "mongodb", "panache-mongodb"),
}
#: frameworks whose repositories are classes, not interfaces
CLASS_REPOSITORY_FRAMEWORKS = frozenset({"panache", "panache-mongodb"})
#: frameworks naming a collection after the class as written (Spring Data uncapitalizes it)
COLLECTION_AS_CLASS = frozenset({"panache-mongodb"})
#: Panache MongoDB active-record base classes: a subclass is a collection (``@MongoEntity`` names it)
PANACHE_MONGO_ENTITIES = frozenset(
    {"PanacheMongoEntity", "PanacheMongoEntityBase", "ReactivePanacheMongoEntity", "ReactivePanacheMongoEntityBase"}
)
#: MongoTemplate methods -> index of their collection-name argument (an overload passing a Class
#: there names no collection: it does not fold to text)
_MONGO_TEMPLATE = {
    **dict.fromkeys(("getCollection", "createCollection", "dropCollection", "collectionExists"), 0),
    **dict.fromkeys(("findAll", "insert", "save", "remove", "count", "exists", "aggregate"), 1),
    **dict.fromkeys(("find", "findOne", "updateFirst", "updateMulti", "upsert", "findAllAndRemove"), 2),
}
#: JdbcTemplate-style methods whose first argument is the SQL statement
_JDBC = dict.fromkeys(
    ("query", "queryForObject", "queryForList", "queryForMap", "queryForRowSet", "queryForStream", "update",
     "batchUpdate", "execute"),
    0,
)  # fmt: skip
#: Redis as a store: the key is the first argument of a client's command, of a template's key method,
#: or of the call after a template's ``opsForValue()``-style accessor
REDIS_TEMPLATES = frozenset(
    {"RedisTemplate", "StringRedisTemplate", "ReactiveRedisTemplate", "ReactiveStringRedisTemplate"}
)
REDIS_TEMPLATE_OPS = frozenset(
    {"opsForValue", "opsForHash", "opsForList", "opsForSet", "opsForZSet", "opsForGeo", "opsForHyperLogLog"}
)
REDIS_TEMPLATE_KEYS = frozenset(
    "delete hasKey expire boundValueOps boundHashOps boundListOps boundSetOps boundZSetOps boundGeoOps "
    "unlink persist getExpire expireAt rename execute executePipelined".split()
)
REDIS_CLIENTS = frozenset(
    "Jedis JedisCluster JedisPooled UnifiedJedis RedisCommands RedisAsyncCommands RedissonClient "
    # Quarkus's typed command groups (``ValueCommands<String, Cart> carts = ds.value(Cart.class)``)
    "ValueCommands ReactiveValueCommands StringCommands ReactiveStringCommands HashCommands "
    "ReactiveHashCommands ListCommands ReactiveListCommands SetCommands ReactiveSetCommands "
    "SortedSetCommands ReactiveSortedSetCommands KeyCommands ReactiveKeyCommands".split()
)
REDIS_COMMANDS = frozenset(
    "set get setex setnx getSet del exists expire incr incrBy decr hset hget hgetAll hmset hmget hdel hincrBy "
    "lpush rpush lpop rpop lrange sadd srem smembers sismember zadd zrange zrem zscore "
    "getBucket getMap getList getSet getSortedSet getAtomicLong "
    "getdel getex incrby decrby hgetall hincrby psetex append".split()
)
#: Quarkus's Redis data sources: ``ds.value(String.class).set(key, v)`` opens a command group whose
#: first argument is the key
REDIS_DATA_SOURCES = frozenset({"RedisDataSource", "ReactiveRedisDataSource"})
REDIS_DATA_SOURCE_GROUPS = frozenset("value string hash list set sortedSet key json".split())
#: key-value clients whose keys are never named as a space: client type -> (engine, framework, the
#: data verbs a call of which makes the service store there)
_MEMCACHED_VERBS = frozenset(
    "get set add replace delete touch incr decr cas gets asyncGet getBulk getMulti append prepend".split()
)
KEY_VALUE_CLIENTS: dict[str, tuple[str, str, frozenset[str]]] = {
    "MemcachedClient": ("memcached", "memcached", _MEMCACHED_VERBS),  # spymemcached, xmemcached
    "MemCachedClient": ("memcached", "memcached", _MEMCACHED_VERBS),  # the Whalin/Danga client
    "IMap": ("hazelcast", "hazelcast", frozenset(
        "put get remove set delete putIfAbsent replace containsKey values keySet entrySet putAll "
        "getAll evict lock tryLock".split()
    )),
    "ReplicatedMap": ("hazelcast", "hazelcast", frozenset("put get remove containsKey values putAll".split())),
}  # fmt: skip
#: client type -> {method: name argument index} of calls that open a table/collection by name, or
#: (``sql_table`` handles) run a statement whose tables are read from its text
#: (typed receivers only: ``getTable`` and ``table`` are common words)
STORE_HANDLES: dict[str, tuple[str, str | None, str, dict[str, int]]] = {
    # Elasticsearch's REST client requests, made by ``new`` (STORE_REQUESTS): no method opens an index
    "ElasticsearchRequest": ("search_index", "elasticsearch", "elasticsearch-rest-client", {}),
    "DynamoDB": ("document_collection", "dynamodb", "aws-dynamodb-document", {"getTable": 0}),
    "DynamoDbEnhancedClient": ("document_collection", "dynamodb", "aws-dynamodb-enhanced", {"table": 0}),
    "DynamoDbEnhancedAsyncClient": ("document_collection", "dynamodb", "aws-dynamodb-enhanced", {"table": 0}),
    "MongoDatabase": ("document_collection", "mongodb", "mongodb-driver", {"getCollection": 0}),
    "MongoTemplate": ("document_collection", "mongodb", "spring-data-mongodb", _MONGO_TEMPLATE),
    "ReactiveMongoTemplate": ("document_collection", "mongodb", "spring-data-mongodb", _MONGO_TEMPLATE),
    "MongoOperations": ("document_collection", "mongodb", "spring-data-mongodb", _MONGO_TEMPLATE),
    "JdbcTemplate": ("sql_table", None, "spring-jdbc", _JDBC),
    "NamedParameterJdbcTemplate": ("sql_table", None, "spring-jdbc", _JDBC),
    "JdbcOperations": ("sql_table", None, "spring-jdbc", _JDBC),
    "JdbcClient": ("sql_table", None, "spring-jdbc", {"sql": 0}),
    "HazelcastInstance": ("key_value", "hazelcast", "hazelcast", {"getMap": 0, "getReplicatedMap": 0}),
    # plain JDBC and the Vert.x reactive SQL clients Quarkus injects: the statement names the tables
    "Connection": ("sql_table", None, "jdbc", {"prepareStatement": 0, "prepareCall": 0}),
    "Statement": ("sql_table", None, "jdbc", {"executeQuery": 0, "executeUpdate": 0, "execute": 0, "addBatch": 0}),
    "PgPool": ("sql_table", "postgres", "vertx-sql-client", {"query": 0, "preparedQuery": 0}),
    "MySQLPool": ("sql_table", "mysql", "vertx-sql-client", {"query": 0, "preparedQuery": 0}),
    "SqlClient": ("sql_table", None, "vertx-sql-client", {"query": 0, "preparedQuery": 0}),
}
#: service framework -> how its JAX-RS resources are served: (the server's prefix, the configured
#: application path, whether that setting overrides an ``@ApplicationPath``). Quarkus REST /
#: RESTEasy Classic / the older RESTEasy Reactive read their path only without the annotation;
#: Spring Boot's ``spring.jersey.application-path`` replaces it; Micronaut's JAX-RS resources are
#: its controllers, under its context path
JAXRS_ROOTS: dict[str, tuple[str, str, bool]] = {
    "quarkus": (
        "${quarkus.http.root-path:}",
        "${quarkus.rest.path:}${quarkus.resteasy.path:}${quarkus.resteasy-reactive.path:}",
        False,
    ),
    "micronaut": ("${micronaut.server.context-path:}", "", False),
    "spring-boot": ("${server.servlet.context-path:}${server.context-path:}", "spring.jersey.application-path", True),
}
PRIMITIVES = {"int", "long", "short", "byte", "boolean", "char", "double", "float"}
NOT_NULL_ANNOTATIONS = {"NotNull", "NonNull", "NotBlank", "NotEmpty", "Id", "EmbeddedId"}
SKIP_FIELD_ANNOTATIONS = {"Transient"}

# --------------------------------------------------------------------------- configuration

#: Spring Cloud Gateway's Java DSL: ``r.path("/x/**").and().method("GET").uri(target)`` route predicates
GATEWAY_PREDICATES = {
    "path", "host", "method", "header", "query", "cookie", "remoteAddr", "weight", "after", "before",
    "between", "predicate", "readBody", "alwaysTrue",
}  # fmt: skip
GATEWAY_IMPORT = "org.springframework.cloud.gateway"

#: annotations that make a service a proxy to every service registered with discovery
DISCOVERY_PROXIES = {"EnableZuulProxy"}
#: service-discovery lookups by name: ``discoveryClient.getInstances("orders")``,
#: ``loadBalancer.choose("orders")``, Eureka's ``getNextServerFromEureka("orders", false)``
DISCOVERY_LOOKUPS = frozenset({"getInstances", "choose", "getNextServerFromEureka"})
#: what a looked-up instance's getter (or Kotlin property) gives: a format of the service name
INSTANCE_ADDRESSES = {
    "getUri": "http://{}", "uri": "http://{}", "getHomePageUrl": "http://{}/", "homePageUrl": "http://{}/",
    "getHost": "{}", "host": "{}", "getServiceId": "{}", "serviceId": "{}",
}  # fmt: skip
#: classes whose fields Spring binds to properties under the annotation's prefix
CONFIG_PROPERTIES = {"ConfigurationProperties", "ConfigProperties"}

# --------------------------------------------------------------------------- entry points

#: ``@EnableAutoConfiguration`` alone is not here: it also marks plain configuration classes and test
#: contexts; a real application with it still has a ``static main``
APP_ANNOTATIONS = {"SpringBootApplication", "QuarkusMain", "MicronautApplication"}
TEST_DIRS = ("src/test/", "src/testFixtures/", "src/integrationTest/", "src/it/", "src/jmh/")
#: Gradle/Maven source sets other than ``main`` whose name says test (``integration-test``,
#: ``componentTest``, ``acceptanceTest``, ``e2e``...) hold tests, never deployable code
TEST_SOURCE_SET_WORDS = ("test", "e2e", "jmh", "it", "fixtures", "benchmark")

# --------------------------------------------------------------------------- Eventuate Tram

EVENTUATE_IMPORT = "io.eventuate"
#: fluent builder call -> (direction, a call that must come before it in the chain, or None)
EVENTUATE_CHAINS: dict[str, tuple[str, str | None]] = {
    "forAggregateType": ("consumes", None),  # DomainEventHandlersBuilder
    "andForAggregateType": ("consumes", None),
    "fromChannel": ("consumes", None),  # CommandHandlersBuilder / SagaCommandHandlersBuilder
    "andFromChannel": ("consumes", None),
    "withChannel": ("publishes", "forCommand"),  # CommandEndpointBuilder (saga participant proxies)
    "to": ("publishes", "send"),  # saga DSL: send(command).to(channel)
}
#: receiver type -> {method: (direction, channel argument index)}
EVENTUATE_RECEIVERS: dict[str, dict[str, tuple[str, int]]] = {
    "DomainEventPublisher": {"publish": ("publishes", 0)},
    "CommandProducer": {"send": ("publishes", 0)},
    "MessageProducer": {"send": ("publishes", 0)},
}
#: base types whose first type argument is the aggregate whose events a subtype publishes (the
#: older base class; the typed publisher interface of newer versions and its base implementation)
EVENTUATE_AGGREGATE_PUBLISHERS = {
    "AbstractAggregateDomainEventPublisher",
    "DomainEventPublisherForAggregate",
    "AbstractDomainEventPublisherForAggregateImpl",
}
#: Eventuate Client (event sourcing): repositories built with the aggregate class persist its events
EVENTUATE_AGGREGATE_REPOSITORIES = {"AggregateRepository", "ReactiveAggregateRepository"}
#: ``@EventSubscriber`` classes: handler annotation, event wrapper types (type argument = the event),
#: and the annotation on an event (or a supertype) naming the aggregate whose stream it is in
EVENTUATE_SUBSCRIBER = "EventSubscriber"
EVENTUATE_HANDLER = "EventHandlerMethod"
EVENTUATE_EVENT_WRAPPERS = ("EventHandlerContext", "DispatchedEvent")
EVENTUATE_EVENT_ENTITY = "EventEntity"

# --------------------------------------------------------------------------- Spring Data REST

DATA_REST_IMPORT = "org.springframework.data.rest"
DATA_REST_RESOURCES = ("RepositoryRestResource", "RestResource")
#: resolved against the service's configuration when facts are built (``build.py``)
DATA_REST_BASE = "${spring.data.rest.base-path:}"
DATA_REST_COLLECTION = (("GET", "findAll"), ("POST", "save"))
DATA_REST_ITEM = (("GET", "findById"), ("PUT", "save"), ("PATCH", "save"), ("DELETE", "deleteById"))
IRREGULAR_PLURALS = {"person": "people", "child": "children", "man": "men", "woman": "women"}

# --------------------------------------------------------------------------- Axon Framework

AXON_IMPORT = "org.axonframework"
#: handler annotations whose method consumes its payload; ``@EventSourcingHandler`` (an aggregate
#: replaying its own events) is deliberately absent: it consumes nothing from the bus
AXON_HANDLERS = {"EventHandler", "SagaEventHandler", "CommandHandler", "QueryHandler"}
#: gateway/bus type -> methods whose first argument is the payload they publish
AXON_SENDERS: dict[str, frozenset[str]] = {
    "CommandGateway": frozenset({"send", "sendAndWait"}),
    "ReactorCommandGateway": frozenset({"send", "sendAll"}),
    "CommandBus": frozenset({"dispatch"}),
    "EventGateway": frozenset({"publish"}),
    "ReactorEventGateway": frozenset({"publish"}),
    "EventBus": frozenset({"publish"}),
    "EventStore": frozenset({"publish"}),
    "QueryGateway": frozenset({"query", "subscriptionQuery", "scatterGather", "streamingQuery", "queryMany"}),
    "ReactorQueryGateway": frozenset(
        {"query", "queryMany", "queryUpdates", "subscriptionQuery", "subscriptionQueryMany", "scatterGather",
         "streamingQuery"}
    ),
}  # fmt: skip
#: ``AggregateLifecycle.apply(event)`` (also statically imported) publishes the event
AXON_APPLY = ("AggregateLifecycle", "apply")
#: wrappers around a payload: factory calls and message types whose (type) argument is the payload
AXON_WRAPPERS = {
    "asCommandMessage", "asEventMessage", "GenericCommandMessage", "GenericEventMessage",
    "GenericQueryMessage", "GenericDomainEventMessage", "CommandMessage", "EventMessage", "QueryMessage",
    "DomainEventMessage", "SubscriptionQueryMessage",
}  # fmt: skip
#: receiver-name fragments (lower-case) standing for an Axon gateway when a receiver is untyped
AXON_NAME_HINTS = (
    ("commandgateway", "CommandGateway"),
    ("querygateway", "QueryGateway"),
    ("eventgateway", "EventGateway"),
    ("commandbus", "CommandBus"),
    ("eventbus", "EventBus"),
)
