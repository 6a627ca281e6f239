"""Moved to ``orbitkb.sql.change_surface`` (shared with the PostgreSQL store); this name keeps working.

The module object is the shared one itself, so ``orbitkb.sqlite.change_surface.X`` and a monkeypatch of it
reach the same code; the star import only tells type checkers its names.
"""

import sys

from orbitkb.sql import change_surface as _shared
from orbitkb.sql.change_surface import *  # noqa: F403

sys.modules[__name__] = _shared
