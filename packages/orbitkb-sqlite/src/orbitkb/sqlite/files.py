"""Moved to ``orbitkb.sql.files`` (shared with the PostgreSQL store); this name keeps working.

The module object is the shared one itself, so ``orbitkb.sqlite.files.X`` and a monkeypatch of it
reach the same code; the star import only tells type checkers its names.
"""

import sys

from orbitkb.sql import files as _shared
from orbitkb.sql.files import *  # noqa: F403

sys.modules[__name__] = _shared
