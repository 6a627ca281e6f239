"""Gateways: route tables of Spring Cloud Gateway, Zuul, Envoy, Kong, Traefik, Ocelot, httpd and
consul-template, read as calls from the gateway to the services it forwards to."""
