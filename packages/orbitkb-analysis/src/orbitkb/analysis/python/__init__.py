"""Python analyzer (stdlib ``ast``): FastAPI, Flask, Django/DRF routes, Celery tasks, HTTP/gRPC
calls, messaging, persistence entities and constant/env folding across modules."""

from orbitkb.analysis.python.analyzer import ANALYZER, PythonAnalyzer

__all__ = ["ANALYZER", "PythonAnalyzer"]
