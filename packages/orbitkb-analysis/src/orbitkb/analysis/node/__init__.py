"""Node.js / TypeScript analyzer: Express, NestJS, Fastify, Koa, HTTP/gRPC clients, messaging, ORMs."""

from .analyzer import NodeAnalyzer

ANALYZER = NodeAnalyzer()

__all__ = ["ANALYZER", "NodeAnalyzer"]
