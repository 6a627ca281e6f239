"""The dependency-injector container: adapters built once per process from settings, use cases
built on demand. Tests and scripts swap any adapter with ``app.adapters.store.override(...)``."""

from __future__ import annotations

from orbitkb.bootstrap import factories
from orbitkb.bootstrap.deferred import Deferred
from orbitkb.bootstrap.lean import containers, providers  # dependency-injector, minus unused integrations
from orbitkb.bootstrap.settings import Settings
from orbitkb.domain.model_cache import CachedModelReader


class Adapters(containers.DeclarativeContainer):
    settings = providers.Dependency(instance_of=Settings)
    store = providers.Singleton(factories.make_store, settings)
    #: what `list` reads: the store, or for a one-shot read of an SQLite file a lighter reader in front of it
    listing = providers.Singleton(factories.make_listing, settings, store.provider)
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
        architecture=providers.Factory(Deferred("architecture.RecomputeArchitecture"), store=adapters.store),
        embedder=adapters.embedder,
        store=adapters.store,
        embed=providers.Object(Deferred("embeddings.EmbedKnowledge")),
        backend=adapters.backend,
        enrich=providers.Object(Deferred("enrich_hook.EnrichAfterIndex")),
        git=adapters.git,
        settings=settings,
    )
    index_repository = providers.Factory(
        Deferred("indexing.IndexRepository"),
        store=adapters.store,
        analyzer=adapters.analyzer,
        git=adapters.git,
        open_tree=adapters.open_tree,
        folders=adapters.folders,
        backend_name=adapters.backend.provided.name,
        hooks=index_hooks,
    )
    remove_repository = providers.Factory(Deferred("lifecycle.RemoveRepository"), store=adapters.store)
    list_blind_spots = providers.Factory(Deferred("blind_spots.ListBlindSpots"), store=adapters.store)
    list_repositories = providers.Factory(Deferred("describe.ListRepositories"), store=adapters.store, git=adapters.git, models=adapters.models)
    list_services = providers.Factory(Deferred("listing.ListServices"), store=adapters.listing, models=adapters.models)
    describe_service = providers.Factory(Deferred("describe.DescribeService"), store=adapters.store, git=adapters.git, models=adapters.models)
    list_apis = providers.Factory(Deferred("describe.ListApis"), store=adapters.store, git=adapters.git, models=adapters.models)
    describe_api = providers.Factory(Deferred("describe.DescribeApi"), store=adapters.store, git=adapters.git, models=adapters.models)
    describe_persistence = providers.Factory(Deferred("describe.DescribePersistence"), store=adapters.store, git=adapters.git, models=adapters.models)
    describe_messages = providers.Factory(Deferred("describe.DescribeMessages"), store=adapters.store, git=adapters.git, models=adapters.models)
    get_status = providers.Factory(Deferred("status.GetStatus"), store=adapters.store, git=adapters.git)
    export_snapshot = providers.Factory(Deferred("export.ExportSnapshot"), store=adapters.store, git=adapters.git)
    #: export format -> callable(KnowledgeSnapshot) -> {relative path: text}
    renderers = providers.Callable(Deferred("RENDERERS", package="orbitkb.domain.exports").resolve)
    get_relationships = providers.Factory(Deferred("architecture.GetRelationships"), store=adapters.store, git=adapters.git, models=adapters.models)
    trace_flow = providers.Factory(Deferred("architecture.TraceFlow"), store=adapters.store, models=adapters.models)
    find_architecture_smells = providers.Factory(Deferred("architecture.FindArchitectureSmells"), store=adapters.store, models=adapters.models)
    recompute_architecture = providers.Factory(Deferred("architecture.RecomputeArchitecture"), store=adapters.store)
    search = providers.Factory(Deferred("search.Search"), store=adapters.store, embedder=adapters.embedder, models=adapters.models)
    find_change_surface = providers.Factory(
        Deferred("change_surface.FindChangeSurface"),
        store=adapters.store,
        git=adapters.git,
        embedder=adapters.embedder,
        backend=adapters.backend.provided.backend,
        models=adapters.models,
    )
    record_feedback = providers.Factory(Deferred("feedback.RecordFeedback"), store=adapters.store)
    find_provenance = providers.Factory(Deferred("provenance.FindProvenance"), store=adapters.store, folders=adapters.folders)
    draw_system_map = providers.Factory(Deferred("system_map.DrawSystemMap"), store=adapters.store, git=adapters.git, models=adapters.models)
    list_change_surface_runs = providers.Factory(Deferred("history.ListChangeSurfaceRuns"), store=adapters.store)
    refresh_repositories = providers.Factory(Deferred("refresh.RefreshRepositories"), store=adapters.store,
                                             index=index_repository)
    verify_change_surface = providers.Factory(Deferred("feedback.VerifyChangeSurface"), store=adapters.store, git=adapters.git)


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
