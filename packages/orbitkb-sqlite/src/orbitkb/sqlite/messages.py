"""Moved to ``orbitkb.sql.messages`` (shared with the PostgreSQL store); this name keeps working.

The module object is the shared one itself, so ``orbitkb.sqlite.messages.X`` and a monkeypatch of it
reach the same code; the star import only tells type checkers its names.
"""

import sys

from orbitkb.sql import messages as _shared
from orbitkb.sql.messages import *  # noqa: F403

sys.modules[__name__] = _shared
