"""Moved to ``orbitkb.sql.codec`` (shared with the PostgreSQL store); this name keeps working.

The module object is the shared one itself, so ``orbitkb.sqlite.codec.X`` and a monkeypatch of it
reach the same code; the star import only tells type checkers its names.
"""

import sys

from orbitkb.sql import codec as _shared
from orbitkb.sql.codec import *  # noqa: F403

sys.modules[__name__] = _shared
