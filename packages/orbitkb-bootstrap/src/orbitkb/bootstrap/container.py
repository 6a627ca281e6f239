"""The dependency-injector container: adapters built once per process from settings, use cases
built on demand. Tests and scripts swap any adapter with ``app.adapters.store.override(...)``."""

from __future__ import annotations

from orbitkb.bootstrap import factories
from orbitkb.bootstrap.lean import containers, providers  # dependency-injector, minus unused integrations
from orbitkb.bootstrap.settings import Settings
from orbitkb.domain.exports import RENDERERS
from orbitkb.domain.model_cache import CachedModelReader
from orbitkb.domain.usecases import (
    architecture,
    blind_spots,
    change_surface,
    describe,
    embeddings,
    enrich_hook,
    export,
    feedback,
    history,
    indexing,
    lifecycle,
    provenance,
    refresh,
    search,
    status,
    system_map,
)


class Adapters(containers.DeclarativeContainer):
    settings = providers.Dependency(instance_of=Settings)
    store = providers.Singleton(factories.make_store, settings)
    #: the SystemModel, loaded once and kept until the snapshot fingerprint changes
    models = providers.Singleton(CachedModelReader, store)
    backups = providers.Singleton(factories.make_backups, settings)
    git = providers.Singleton(factories.make_git)
    analyzer = providers.Singleton(factories.make_analyzer)
    open_tree = providers.Object(factories.open_working_tree)
    folders = providers.Singleton(factories.make_folders)
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
        folders=adapters.folders,
        backend_name=adapters.backend.provided.name,
        hooks=index_hooks,
    )
    remove_repository = providers.Factory(lifecycle.RemoveRepository, store=adapters.store)
    list_blind_spots = providers.Factory(blind_spots.ListBlindSpots, store=adapters.store)
    list_repositories = providers.Factory(describe.ListRepositories, store=adapters.store, git=adapters.git, models=adapters.models)
    list_services = providers.Factory(describe.ListServices, store=adapters.store, models=adapters.models)
    describe_service = providers.Factory(describe.DescribeService, store=adapters.store, git=adapters.git, models=adapters.models)
    list_apis = providers.Factory(describe.ListApis, store=adapters.store, git=adapters.git, models=adapters.models)
    describe_api = providers.Factory(describe.DescribeApi, store=adapters.store, git=adapters.git, models=adapters.models)
    describe_persistence = providers.Factory(describe.DescribePersistence, store=adapters.store, git=adapters.git, models=adapters.models)
    describe_messages = providers.Factory(describe.DescribeMessages, store=adapters.store, git=adapters.git, models=adapters.models)
    get_status = providers.Factory(status.GetStatus, store=adapters.store, git=adapters.git)
    export_snapshot = providers.Factory(export.ExportSnapshot, store=adapters.store, git=adapters.git)
    #: export format -> callable(KnowledgeSnapshot) -> {relative path: text}
    renderers = providers.Object(RENDERERS)
    get_relationships = providers.Factory(architecture.GetRelationships, store=adapters.store, git=adapters.git, models=adapters.models)
    trace_flow = providers.Factory(architecture.TraceFlow, store=adapters.store, models=adapters.models)
    find_architecture_smells = providers.Factory(architecture.FindArchitectureSmells, store=adapters.store, models=adapters.models)
    recompute_architecture = providers.Factory(architecture.RecomputeArchitecture, store=adapters.store)
    search = providers.Factory(search.Search, store=adapters.store, embedder=adapters.embedder, models=adapters.models)
    find_change_surface = providers.Factory(
        change_surface.FindChangeSurface,
        store=adapters.store,
        git=adapters.git,
        embedder=adapters.embedder,
        backend=adapters.backend.provided.backend,
        models=adapters.models,
    )
    record_feedback = providers.Factory(feedback.RecordFeedback, store=adapters.store)
    find_provenance = providers.Factory(provenance.FindProvenance, store=adapters.store, folders=adapters.folders)
    draw_system_map = providers.Factory(system_map.DrawSystemMap, store=adapters.store, git=adapters.git, models=adapters.models)
    list_change_surface_runs = providers.Factory(history.ListChangeSurfaceRuns, store=adapters.store)
    refresh_repositories = providers.Factory(refresh.RefreshRepositories, store=adapters.store,
                                             index=index_repository)
    verify_change_surface = providers.Factory(feedback.VerifyChangeSurface, store=adapters.store, git=adapters.git)


class Application(containers.DeclarativeContainer):
    settings = providers.Dependency(instance_of=Settings)
    adapters = providers.Container(Adapters, settings=settings)
    use_cases = providers.Container(UseCases, adapters=adapters, settings=settings)


def build_application(settings: Settings | None = None, keep_model: bool = True) -> Application:
    """``keep_model``: readers share one SystemModel, reloaded when the snapshot changes — right
    for a process that answers many questions (the MCP server, scripts, benchmarks). A one-shot
    command passes False: one question read from the store costs less than loading everything."""
    app = Application(settings=settings or Settings.resolve())
    if not keep_model:
        app.adapters.models.override(providers.Object(None))
    return app
