"""Signature tables of the .NET analyzer: adding a framework method or a provider is adding a row."""

from __future__ import annotations

from orbitkb.analysis.httpverbs import titled

#: ASP.NET Core action attributes -> HTTP method.
HTTP_ATTRS = {
    "HttpGet": "GET", "HttpPost": "POST", "HttpPut": "PUT", "HttpDelete": "DELETE", "HttpPatch": "PATCH",
    "HttpHead": "HEAD", "HttpOptions": "OPTIONS",
}  # fmt: skip
#: Base classes that make a class an MVC / API controller, or a Razor page.
CONTROLLER_BASES = frozenset({"Controller", "ControllerBase", "ApiController", "ODataController"})
PAGE_BASES = frozenset({"PageModel"})
#: Minimal-API endpoint methods -> HTTP method (METHODS: read from the second argument).
MAP_METHODS = {
    "MapGet": "GET", "MapPost": "POST", "MapPut": "PUT", "MapDelete": "DELETE", "MapPatch": "PATCH",
    "MapMethods": "METHODS", "Map": "ANY", "MapHealthChecks": "GET",
}  # fmt: skip

#: HttpClient methods -> HTTP method (the first argument is the URL).
HTTP_CLIENT_METHODS = {
    "GetAsync": "GET", "GetStringAsync": "GET", "GetByteArrayAsync": "GET", "GetStreamAsync": "GET",
    "GetFromJsonAsync": "GET", "PostAsync": "POST", "PostAsJsonAsync": "POST", "PutAsync": "PUT",
    "PutAsJsonAsync": "PUT", "PatchAsync": "PATCH", "PatchAsJsonAsync": "PATCH", "DeleteAsync": "DELETE",
    "DeleteFromJsonAsync": "DELETE",
}  # fmt: skip
#: Refit interface method attributes -> HTTP method.
REFIT_ATTRS = titled(("GET", "POST", "PUT", "DELETE", "PATCH", "HEAD"))

#: EF Core / Aspire / driver registrations -> database engine.
PROVIDERS = {
    "UseNpgsql": "postgres", "UseSqlServer": "sqlserver", "UseAzureSql": "sqlserver", "UseMySql": "mysql",
    "UseMySQL": "mysql", "UseSqlite": "sqlite", "UseCosmos": "cosmosdb", "UseOracle": "oracle",
    "UseMongoDB": "mongodb", "UseInMemoryDatabase": "inmemory", "UseFirebird": "firebird",
    "AddNpgsqlDbContext": "postgres", "AddSqlServerDbContext": "sqlserver", "AddMySqlDbContext": "mysql",
    "AddCosmosDbContext": "cosmosdb", "AddOracleDatabaseDbContext": "oracle",
    "AddNpgsqlDataSource": "postgres",
}  # fmt: skip
#: ADO.NET connection types (Dapper and raw SQL) -> engine.
CONNECTIONS = {
    "NpgsqlConnection": "postgres", "SqlConnection": "sqlserver", "MySqlConnection": "mysql",
    "SqliteConnection": "sqlite", "OracleConnection": "oracle", "NpgsqlDataSource": "postgres",
}  # fmt: skip
#: ADO.NET commands created with their SQL text: ``new NpgsqlCommand("INSERT INTO votes ...", conn)``.
COMMANDS = {
    "NpgsqlCommand": "postgres", "SqlCommand": "sqlserver", "MySqlCommand": "mysql",
    "SqliteCommand": "sqlite", "OracleCommand": "oracle",
}  # fmt: skip
#: Dapper / ADO.NET methods taking SQL text as their first argument.
SQL_METHODS = frozenset({
    "Query", "QueryAsync", "QueryFirst", "QueryFirstAsync", "QueryFirstOrDefault", "QueryFirstOrDefaultAsync",
    "QuerySingle", "QuerySingleAsync", "QuerySingleOrDefault", "QuerySingleOrDefaultAsync", "QueryMultiple",
    "QueryMultipleAsync", "Execute", "ExecuteAsync", "ExecuteScalar", "ExecuteScalarAsync",
    "ExecuteSqlRaw", "ExecuteSqlRawAsync", "FromSqlRaw", "SqlQueryRaw",
})  # fmt: skip
#: Calls that put Redis behind a service (StackExchange.Redis, IDistributedCache, Aspire).
REDIS_SETUP = frozenset({"AddStackExchangeRedisCache", "Connect", "ConnectAsync", "AddRedisClient",
                         "AddRedisDistributedCache", "AddRedisOutputCache"})  # fmt: skip
REDIS_TYPES = frozenset({"IDistributedCache", "IDatabase", "IConnectionMultiplexer", "ConnectionMultiplexer",
                         "IDatabaseAsync", "IRedisClient"})  # fmt: skip
#: Calls that deserialize a stored value into type T (``Deserialize<T>``) or ``T.Parser.ParseFrom``.
DESERIALIZE = frozenset({"Deserialize", "DeserializeObject", "DeserializeAsync", "ParseFrom"})

#: Message providers: type or method -> provider.
KAFKA_PRODUCE = frozenset({"Produce", "ProduceAsync"})
RABBIT_PUBLISH = frozenset({"BasicPublish", "BasicPublishAsync"})
RABBIT_CONSUME = frozenset({"BasicConsume", "BasicConsumeAsync"})
RABBIT_BIND = frozenset({"QueueBind", "QueueBindAsync"})
MASSTRANSIT_SEND = frozenset({"Publish", "Send"})
SERVICE_BUS_SENDER = frozenset({"CreateSender"})
SERVICE_BUS_RECEIVER = frozenset({"CreateProcessor", "CreateReceiver", "CreateSessionProcessor"})
