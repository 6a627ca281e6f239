"""Resolution: a service's raw call sites, channels and values resolved through its configuration
to the services, APIs, engines and providers of this analysis."""
