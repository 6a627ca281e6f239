"""The persistence engines orbitkb names, written once: the values of ``Entity.engine``.

Every list of engines derives from this table or stays inside it — the analysis adapter's tables
(drivers, URL schemes, container images, ORM registrations of each stack) and the closed enum an
LLM may answer with when it describes an entity — so a new engine is a row here (and, in the
analysis adapter, the drivers, schemes and images that reveal it).
"""

from __future__ import annotations

#: An entity whose engine neither code, configuration, infrastructure nor manifests name.
UNKNOWN_ENGINE = "unknown"

#: The relational and SQL-speaking engines: the ones whose SQL text may name a table an ORM maps.
RELATIONAL_ENGINES: tuple[str, ...] = (
    "postgres",
    "mysql",
    "mariadb",
    "sqlite",
    "sqlserver",
    "oracle",
    "cockroachdb",
    "firebird",
    "spanner",
    "clickhouse",
    "h2",
    "hsqldb",
    "derby",
)

#: The engines (lower case, words joined by "-", the product's short name), grouped by what they
#: mostly store; an engine appears once even when it stores several kinds.
ENGINES: tuple[str, ...] = (
    *RELATIONAL_ENGINES,
    # documents
    "mongodb",
    "dynamodb",
    "cosmosdb",
    "firestore",
    "couchdb",
    "couchbase",
    "arangodb",
    "rethinkdb",
    # keys and values, caches, coordination
    "redis",
    "memcached",
    "hazelcast",
    "etcd",
    "zookeeper",
    # wide columns and time series
    "cassandra",
    "influxdb",
    # search and vectors
    "elasticsearch",
    "opensearch",
    "solr",
    "meilisearch",
    "typesense",
    "chroma",
    "qdrant",
    # graphs
    "neo4j",
    # cloud storage services
    "azure-table-storage",
    "azure-blob-storage",
    # a framework's in-process store (EF Core's in-memory provider)
    "inmemory",
)

#: What a describer may answer for an entity's engine: a known engine, or ``unknown``.
ENGINE_CHOICES: tuple[str, ...] = (*ENGINES, UNKNOWN_ENGINE)
