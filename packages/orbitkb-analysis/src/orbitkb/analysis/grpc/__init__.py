"""gRPC: the repository's .proto catalog, which services implement which rpc, and the code
that implements it."""
