"""Use cases a one-shot command gets without building the container.

Building the container imports dependency-injector, and dependency-injector imports asyncio: more
than a third of `orbitkb list`. A question that has a light reader of its own is wired here from the
container's own factories, with the arguments the container would give it for one question
(``keep_model=False``: no read model). For any other settings — a server URL, ``:memory:``, a
database opened for writing — ``use_case`` answers None and the caller builds the application.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from orbitkb.bootstrap import factories
from orbitkb.bootstrap.deferred import Deferred
from orbitkb.bootstrap.settings import Settings


class StoreWhenAsked:
    """The full store, opened on the first call and kept: what the container's ``store.provider``
    is to ``factories.make_listing`` (never overridden here: tests swap stores in the container)."""

    overridden = False

    def __init__(self, settings: Settings) -> None:
        self._settings = settings
        self._store: Any = None

    def __call__(self) -> Any:
        if self._store is None:
            self._store = factories.make_store(self._settings)
        return self._store


#: use case -> (where it lives, when the light wiring applies, its arguments from the settings)
LIGHT: dict[str, tuple[str, Callable[[Settings], bool], Callable[[Settings], dict[str, Any]]]] = {
    "list_services": ("listing.ListServices", factories.light_listing,
                      lambda s: {"store": factories.make_listing(s, StoreWhenAsked(s)), "models": None}),
}


def use_case(name: str, settings: Settings) -> Any | None:
    """The use case ``name`` wired without the container, or None when it has no light wiring for
    these settings (build the application then)."""
    if name not in LIGHT:
        return None
    where, applies, arguments = LIGHT[name]
    return Deferred(where)(**arguments(settings)) if applies(settings) else None
