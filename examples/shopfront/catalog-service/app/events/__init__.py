"""Kafka integration."""
