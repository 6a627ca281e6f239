"""Gateways: route tables of Spring Cloud Gateway, Zuul, Envoy, Kong, Traefik, Ocelot, httpd,
consul-template and GraphQL federation supergraphs, read as calls from the gateway to the services it forwards to."""
