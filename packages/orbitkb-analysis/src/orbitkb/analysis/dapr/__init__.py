"""Dapr: service invocation through the sidecar, state stores and pub/sub components.

An app calls another through its Dapr sidecar (``/v1.0/invoke/<app-id>/method/<path>`` or a
``dapr-app-id`` header, or an SDK client), keeps state in a named state store and publishes to a
named pub/sub component. The app ids come from deployments (``dapr.io/app-id`` annotations,
``daprd``/``dapr run`` arguments, multi-app run files) and the engines and brokers behind the
named components from their component YAML (``type: state.redis``).
"""
