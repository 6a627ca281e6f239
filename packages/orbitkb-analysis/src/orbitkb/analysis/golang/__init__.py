"""Go analyzer: net/http, gin, echo, chi, gorilla/mux, fiber routes; HTTP/resty/gRPC clients;
Kafka/RabbitMQ/NATS/Redis/SQS/SNS messaging; GORM models and MongoDB collections."""

from orbitkb.analysis.golang.analyzer import GoAnalyzer

ANALYZER = GoAnalyzer()

__all__ = ["ANALYZER", "GoAnalyzer"]
