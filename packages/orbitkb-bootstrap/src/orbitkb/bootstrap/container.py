"""The dependency-injector container: adapters built once per process from settings, use cases
built on demand. Tests and scripts swap any adapter with ``app.adapters.store.override(...)``."""

from __future__ import annotations

from dependency_injector import containers, providers

from orbitkb.bootstrap import factories
from orbitkb.bootstrap.settings import Settings
from orbitkb.domain.exports import RENDERERS
from orbitkb.domain.usecases import (
    architecture,
    blind_spots,
    change_surface,
    describe,
    embeddings,
    enrich_hook,
    export,
    feedback,
    indexing,
    lifecycle,
    provenance,
    search,
    status,
)


class Adapters(containers.DeclarativeContainer):
    settings = providers.Dependency(instance_of=Settings)
    store = providers.Singleton(factories.make_store, settings)
    backups = providers.Singleton(factories.make_backups, settings)
    git = providers.Singleton(factories.make_git)
    analyzer = providers.Singleton(factories.make_analyzer)
    open_tree = providers.Object(factories.open_working_tree)
    backend = providers.Singleton(factories.make_backend, settings)
    embedder = providers.Singleton(factories.make_embedder, settings)


class UseCases(containers.DeclarativeContainer):
    adapters = providers.DependenciesContainer()
    settings = providers.Dependency(instance_of=Settings)

    index_hooks = providers.Callable(
        factories.index_hooks,
        architecture=providers.Factory(architecture.RecomputeArchitecture, store=adapters.store),
        embedder=adapters.embedder,
        store=adapters.store,
        embed=providers.Object(embeddings.EmbedKnowledge),
        backend=adapters.backend,
        enrich=providers.Object(enrich_hook.EnrichAfterIndex),
        git=adapters.git,
        settings=settings,
    )
    index_repository = providers.Factory(
        indexing.IndexRepository,
        store=adapters.store,
        analyzer=adapters.analyzer,
        git=adapters.git,
        open_tree=adapters.open_tree,
        backend_name=adapters.backend.provided.name,
        hooks=index_hooks,
    )
    remove_repository = providers.Factory(lifecycle.RemoveRepository, store=adapters.store)
    list_blind_spots = providers.Factory(blind_spots.ListBlindSpots, store=adapters.store)
    list_repositories = providers.Factory(describe.ListRepositories, store=adapters.store, git=adapters.git)
    list_services = providers.Factory(describe.ListServices, store=adapters.store)
    describe_service = providers.Factory(describe.DescribeService, store=adapters.store, git=adapters.git)
    list_apis = providers.Factory(describe.ListApis, store=adapters.store, git=adapters.git)
    describe_api = providers.Factory(describe.DescribeApi, store=adapters.store, git=adapters.git)
    describe_persistence = providers.Factory(describe.DescribePersistence, store=adapters.store, git=adapters.git)
    describe_messages = providers.Factory(describe.DescribeMessages, store=adapters.store, git=adapters.git)
    get_status = providers.Factory(status.GetStatus, store=adapters.store, git=adapters.git)
    export_snapshot = providers.Factory(export.ExportSnapshot, store=adapters.store, git=adapters.git)
    #: export format -> callable(KnowledgeSnapshot) -> {relative path: text}
    renderers = providers.Object(RENDERERS)
    get_relationships = providers.Factory(architecture.GetRelationships, store=adapters.store, git=adapters.git)
    trace_flow = providers.Factory(architecture.TraceFlow, store=adapters.store)
    find_architecture_smells = providers.Factory(architecture.FindArchitectureSmells, store=adapters.store)
    recompute_architecture = providers.Factory(architecture.RecomputeArchitecture, store=adapters.store)
    search = providers.Factory(search.Search, store=adapters.store, embedder=adapters.embedder)
    find_change_surface = providers.Factory(
        change_surface.FindChangeSurface,
        store=adapters.store,
        git=adapters.git,
        embedder=adapters.embedder,
        backend=adapters.backend.provided.backend,
    )
    record_feedback = providers.Factory(feedback.RecordFeedback, store=adapters.store)
    find_provenance = providers.Factory(provenance.FindProvenance, store=adapters.store)
    verify_change_surface = providers.Factory(feedback.VerifyChangeSurface, store=adapters.store, git=adapters.git)


class Application(containers.DeclarativeContainer):
    settings = providers.Dependency(instance_of=Settings)
    adapters = providers.Container(Adapters, settings=settings)
    use_cases = providers.Container(UseCases, adapters=adapters, settings=settings)


def build_application(settings: Settings | None = None) -> Application:
    app = Application(settings=settings or Settings.resolve())
    return app
