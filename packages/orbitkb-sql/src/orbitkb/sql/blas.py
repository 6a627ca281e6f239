"""Matrix products of a query on one BLAS thread.

A query's product is one matrix times one vector: memory-bound, over in a few milliseconds, and
OpenBLAS splits it across every core by default, its helper threads spinning while they wait.
On the shared two-core machine (session 16, the 1,000-service system's 40,000 vectors) one thread
cost 6.4 ms of CPU a query against 10–11 ms with two, and 0.15 against 0.63 ms for 1,200 vectors,
with the same results bit for bit (each row's dot product is the same kernel whichever thread runs
it). The limit holds only around the product, so a program that imports the store keeps its own
BLAS threads for its own work; the controller is built once, on the first query.
"""

from __future__ import annotations

import threading
from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

_lock = threading.Lock()
_controller: Any = None


def _blas() -> Any:
    global _controller
    with _lock:
        if _controller is None:
            from threadpoolctl import ThreadpoolController

            _controller = ThreadpoolController()
        return _controller


@contextmanager
def one_thread() -> Iterator[None]:
    """BLAS on one thread inside the block (numpy must be imported already)."""
    with _blas().limit(limits=1, user_api="blas"):
        yield
