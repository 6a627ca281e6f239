"""C# / .NET analyzer: ASP.NET Core controllers, minimal APIs and Razor Pages; gRPC services and
clients; HttpClient, typed and named clients, Refit; EF Core, MongoDB.Driver, Dapper and Redis
persistence; MassTransit, Confluent.Kafka, RabbitMQ.Client and Azure Service Bus messaging."""

from orbitkb.analysis.dotnet.analyzer import DotnetAnalyzer

ANALYZER = DotnetAnalyzer()

__all__ = ["ANALYZER", "DotnetAnalyzer"]
