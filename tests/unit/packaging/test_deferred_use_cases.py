"""The container names its use cases by where they live and imports one only when a command asks
for it: every name resolves to the use case class, a wrong name fails loudly on use, and a
command that lists services does not load the change surface, indexing or enrichment."""

from __future__ import annotations

import subprocess
import sys

import pytest

from orbitkb.bootstrap.container import UseCases
from orbitkb.bootstrap.deferred import Deferred
from orbitkb.bootstrap.lean import providers
from orbitkb.domain.fakes import InMemoryKnowledgeStore


def _deferred_of_every_provider() -> list[Deferred]:
    """What the use-case providers stand for (factories, and the hooks handed over as objects)."""
    kinds = (providers.Factory, providers.Object)
    return [p.provides for p in UseCases.traverse(types=kinds) if isinstance(p.provides, Deferred)]


def test_every_use_case_the_container_names_resolves_to_its_class() -> None:
    named = _deferred_of_every_provider()
    assert len(named) >= 25  # every use case of the container, the index hooks included
    for use_case in named:
        cls = use_case.resolve()
        assert isinstance(cls, type) and cls.__module__ == use_case.module and cls.__name__ == use_case.attribute
        assert cls.__module__.startswith("orbitkb.domain.usecases.")


def test_calling_a_deferred_use_case_builds_it_with_the_arguments_given() -> None:
    store = InMemoryKnowledgeStore()
    use_case = Deferred("lifecycle.RemoveRepository")(store=store)
    assert type(use_case).__name__ == "RemoveRepository" and use_case.store is store
    assert repr(Deferred("describe.ListServices")) == "Deferred(orbitkb.domain.usecases.describe.ListServices)"


@pytest.mark.parametrize(("name", "error"), [("nosuchmodule.Thing", ImportError), ("describe.NoSuchUseCase", AttributeError)])
def test_a_wrong_name_fails_when_used_naming_what_is_missing(name: str, error: type[Exception]) -> None:
    deferred = Deferred(name)  # naming it costs nothing and checks nothing
    with pytest.raises(error, match=name.split(".")[-1] if error is AttributeError else "nosuchmodule"):
        deferred()


def test_listing_services_loads_only_the_use_case_it_runs() -> None:
    code = """
import sys
from orbitkb.bootstrap import Settings, build_application
from orbitkb.domain.errors import EmptyKnowledgeBase
app = build_application(Settings.resolve({"db_path": ":memory:"}, env={}), keep_model=False)
try:
    app.use_cases.list_services()()
except EmptyKnowledgeBase:
    pass
names = ("listing", "describe", "change_surface", "indexing", "architecture", "search", "feedback")
print([n for n in names if "orbitkb.domain.usecases." + n in sys.modules],
      "orbitkb.domain.enrichment" in sys.modules, "orbitkb.domain.exports" in sys.modules)
"""
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=120)
    assert done.stdout.strip() == "['listing'] False False", done.stderr  # not the describe answers


def test_only_a_one_shot_read_of_an_sqlite_file_lists_through_the_light_reader(tmp_path) -> None:
    from orbitkb.bootstrap import Settings, build_application
    from orbitkb.sqlite.listing import ListingSqliteStore

    def listing(**settings: object) -> object:
        return build_application(Settings(**settings), keep_model=False).adapters.listing()

    assert isinstance(listing(db_path=str(tmp_path / "kb.db"), read_only=True), ListingSqliteStore)
    assert not isinstance(listing(db_path=str(tmp_path / "kb.db")), ListingSqliteStore)  # a writer
    assert not isinstance(listing(db_path=":memory:", read_only=True), ListingSqliteStore)
    app = build_application(Settings(db_path=str(tmp_path / "kb.db"), read_only=True), keep_model=False)
    fake = InMemoryKnowledgeStore()
    app.adapters.store.override(providers.Object(fake))  # a swapped store is what lists
    assert app.adapters.listing() is fake
