"""Service layout: which folders are deployable services, libraries, infrastructure or unknown code."""
