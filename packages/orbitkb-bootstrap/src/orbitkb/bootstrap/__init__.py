"""orbitkb-bootstrap: the composition root. Builds adapters from settings and hands use cases to
the CLI, the MCP server and users' scripts."""

from orbitkb.bootstrap.container import Application, build_application
from orbitkb.bootstrap.settings import Settings

__all__ = ["Application", "Settings", "build_application"]
