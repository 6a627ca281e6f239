"""The PHP analyzer's test helpers: the shared ones (``tests/support/analysis.py``) bound to it;
its tests compare routes without lines and unfolded parts without hints."""

from __future__ import annotations

from functools import partial

from orbitkb.analysis.php import ANALYZER
from tests.support import analysis

link = analysis.linker(ANALYZER)
show = partial(analysis.show, hints=False)
routes = partial(analysis.routes, lines=False)
