"""The Rust analyzer: axum, actix-web, rocket and warp routes, reqwest and tonic calls, rdkafka and
lapin messaging, sqlx/diesel/sea-orm/MongoDB entities."""

from orbitkb.analysis.rust.analyzer import RustAnalyzer

ANALYZER = RustAnalyzer()
