"""The MCP tools: validate -> call one use case -> shape a bounded JSON answer. Descriptions are
terse on purpose (agents pay for every schema byte) and say what comes next."""

from __future__ import annotations

import functools
import sys
from collections.abc import Callable
from typing import Annotated, Any, TypeVar, cast

from pydantic import Field

from mcp.server.mcpserver import MCPServer
from mcp.server.mcpserver.exceptions import ToolError
from mcp.types import CallToolResult, TextContent, ToolAnnotations
from orbitkb.bootstrap import Application
from orbitkb.domain import errors
from orbitkb.domain.paging import check_page, page
from orbitkb.domain.serialization import to_data
from orbitkb.domain.usecases.architecture import SMELL_KINDS
from orbitkb.domain.usecases.feedback import VERIFICATION_NOT_RECORDED
from orbitkb.mcp import schemas
from orbitkb.mcp.shaping import LEAVES, MAX_RESPONSE_BYTES, Shaped, cap, fit, message_size, text_of

F = TypeVar("F", bound=Callable[..., Any])
Name = Annotated[str, Field(min_length=1, max_length=200)]
Limit = Annotated[int | None, Field(description="page size, default 50, max 500")]
Offset = Annotated[int | None, Field(description="items to skip, default 0")]
Budget = Annotated[int | None, Field(ge=50, le=100_000, description="approximate max tokens of the answer")]
READ = ToolAnnotations(read_only_hint=True, open_world_hint=False)
EMPTY = {"empty": True, "guidance": "nothing is indexed yet: run `orbitkb index PATH` (or call refresh)"}

CORE = ("list_services", "describe_service", "describe_api", "search", "find_change_surface", "get_relationships",
        "find_provenance")


def _clip(text: str | None, limit: int = 160) -> str | None:
    if text is None or len(text) <= limit:
        return text
    return text[: limit - 1].rstrip() + "…"


#: How an "evidence" key reads in compact JSON; inside a string its quotes are escaped, so only a key matches.
_EVIDENCE = '"evidence":'


def _lean(value: Any) -> Any:
    """Evidence entries without their null fields: they repeat in every list and cost tokens."""
    if isinstance(value, dict):
        return {k: (_lean_evidence(v) if k == "evidence" else v if type(v) in LEAVES or type(v) is str else _lean(v))
                for k, v in value.items()}
    if isinstance(value, list):
        return [v if type(v) in LEAVES or type(v) is str else _lean(v) for v in value]
    return value


def _lean_evidence(value: Any) -> Any:
    if isinstance(value, list):
        return [{k: v for k, v in e.items() if v is not None} if isinstance(e, dict) else e for e in value]
    return value


def _few_names(repo: dict[str, Any], most: int = 50) -> dict[str, Any]:
    """A repository's first service names only: list_services pages through the rest."""
    names = repo.get("services") or []
    if len(names) <= most:
        return repo
    return {**repo, "services": names[:most], "services_truncated": True}


def _result(data: dict[str, Any]) -> CallToolResult:
    """Structured content plus ONE compact JSON text block (the SDK's default text is indented,
    doubling what an agent pays for the same answer)."""
    if isinstance(data, Shaped):  # fitted: written and measured already; _lean only removes fields,
        text, measured = data.text, data.size <= MAX_RESPONSE_BYTES  # so fit's size still bounds it
    else:
        text, measured = text_of(data), False
    if _EVIDENCE in text and ":null" in text:  # most answers have no null evidence field: no walk over them
        data = _lean(data)
        text = text_of(data)
    if not measured and message_size(data, text) > MAX_RESPONSE_BYTES:  # the whole message (both copies) under the cap
        data = cap(data)
        text = text_of(data)
    return CallToolResult(content=[TextContent(type="text", text=text)], structured_content=data)


def _guard(fn: F, in_loop: bool = False, after_call: Callable[[], object] | None = None) -> F:
    """``fn`` answering a bounded result or a ToolError. ``in_loop``: a coroutine function, so the SDK
    runs it on the event loop instead of handing every call to a worker thread (two thread switches,
    ~0.5 ms of CPU a call); for the tools that answer from the read model in about a millisecond. The
    others (an LLM, git, a re-index) run on a worker and keep the loop reading the client.
    ``after_call`` runs after each answer is shaped, whatever it was (server.py: the model heap)."""
    @functools.wraps(fn)
    def wrapper(*args: Any, **kwargs: Any) -> Any:
        try:
            return _answer(*args, **kwargs)
        finally:
            if after_call is not None:
                after_call()

    def _answer(*args: Any, **kwargs: Any) -> Any:
        try:
            return _result(fn(*args, **kwargs))
        except errors.EmptyKnowledgeBase:
            return _result(dict(EMPTY))
        except errors.OrbitkbError as exc:
            hint = f" Hint: {exc.hint}" if getattr(exc, "hint", None) else ""
            raise ToolError(f"{exc}.{hint}") from None
        except ToolError:
            raise
        except Exception as exc:  # never a stack trace to the agent; the log keeps it
            print(f"orbitkb-mcp: internal error in {fn.__name__}: {type(exc).__name__}: {exc}", file=sys.stderr)
            raise ToolError(f"internal error ({type(exc).__name__}); the server keeps serving") from None

    if not in_loop:
        return wrapper  # type: ignore[return-value]

    @functools.wraps(fn)
    async def in_loop_wrapper(*args: Any, **kwargs: Any) -> Any:
        return wrapper(*args, **kwargs)

    return in_loop_wrapper  # type: ignore[return-value]


def register(server: MCPServer, app: Application, tool_set: str = "full",
             after_call: Callable[[], object] | None = None) -> list[str]:
    uc = app.use_cases
    registered: list[str] = []
    #: without an LLM the change surface answers from the kept model and a few reads, in milliseconds:
    #: on the event loop, like the read tools (with one it may wait seconds on the LLM: on a worker)
    offline = app.adapters.backend().backend is None

    def tool(name: str, read_only: bool = True, idempotent: bool = True,
             in_loop: bool | None = None) -> Callable[[F], F]:
        """``read_only=False`` for a tool that writes anything (a run, a verdict, a re-index);
        ``idempotent=False`` when calling it again writes again (a new run each time); ``in_loop``
        (default: ``read_only``) answers on the event loop rather than on a worker thread."""
        def deco(fn: F) -> F:
            if tool_set == "core" and name not in CORE:
                return fn
            registered.append(name)
            annotations = READ if read_only else ToolAnnotations(read_only_hint=False, destructive_hint=False,
                                                                 idempotent_hint=idempotent, open_world_hint=False)
            description = " ".join((fn.__doc__ or "").split())
            server.tool(name=name, description=description, annotations=annotations)(
                _guard(fn, in_loop=read_only if in_loop is None else in_loop, after_call=after_call))
            return fn

        return deco

    @tool("list_repositories")
    def list_repositories(limit: Limit = None, offset: Offset = None) -> schemas.RepositoriesOut:
        """Indexed repositories with service names and freshness, paginated. Next: list_services."""
        lim, off = check_page(limit, offset)
        chunk, p = page(to_data(uc.list_repositories()()), lim, off)
        repositories = [_few_names(r) for r in chunk]
        return cast(schemas.RepositoriesOut, fit({"repositories": repositories, "total": p.total, "truncated": p.truncated, "limit": lim,
                    "offset": off}, ["repositories"]))

    @tool("list_blind_spots")
    def list_blind_spots(repository: Annotated[str | None, Field(max_length=200)] = None,
                         kind: Annotated[str | None, Field(max_length=50)] = None, limit: Limit = None,
                         offset: Offset = None) -> schemas.BlindSpotsOut:
        """What the indexer could not understand, per repository: gaps by kind and reason, unresolved
        calls, unknown engines/brokers/stacks; then a page of gaps. Check before trusting an absence."""
        data = to_data(uc.list_blind_spots()(repository, kind, limit, offset))
        return cast(schemas.BlindSpotsOut, fit(data, ["gaps", "repositories"]))

    @tool("list_services")
    def list_services(repository: Annotated[str | None, Field(max_length=200)] = None, limit: Limit = None,
                      offset: Offset = None) -> schemas.ServicesOut:
        """One line per service: name, short_desc, stack, api_count. Start here. Next: describe_service."""
        lim, off = check_page(limit if limit is not None else 100, offset)
        chunk, p = page(uc.list_services()(repository), lim, off)  # shape the page only, not every service
        items = [dict(i, short_desc=_clip(i.get("short_desc"))) for i in to_data(list(chunk))]
        return cast(schemas.ServicesOut, fit({"services": items, "total": p.total, "truncated": p.truncated, "limit": lim,
                    "offset": off}, ["services"]))

    @tool("describe_service")
    def describe_service(service: Name, limit: Limit = None, offset: Offset = None,
                         token_budget: Budget = None) -> schemas.ServiceOut:
        """A service: description, calls with reasons, APIs, components, entities and messages (names
        only), callers, technologies (languages, frameworks, libraries), freshness; each list paginated.
        Next: list_apis/describe_api, describe_persistence."""
        data = to_data(uc.describe_service()(service, limit, offset))
        return cast(schemas.ServiceOut, fit(data, ["technologies", "messages", "persists", "components", "called_by", "calls", "apis"],
                   token_budget))

    @tool("list_apis")
    def list_apis(service: Name, limit: Limit = None, offset: Offset = None) -> schemas.ApisOut:
        """All APIs of a service (method, path, handler, summary), paginated. Next: describe_api."""
        return cast(schemas.ApisOut, fit(to_data(uc.list_apis()(service, limit, offset)), ["apis"]))

    @tool("describe_api")
    def describe_api(service: Name, method: Annotated[str, Field(min_length=1, max_length=20)],
                     path: Annotated[str, Field(min_length=1, max_length=500)], token_budget: Budget = None) -> schemas.ApiOut:
        """One API in full: request/response shapes, validations, the calls it makes, evidence."""
        return cast(schemas.ApiOut, fit(to_data(uc.describe_api()(service, method, path)), ["messages", "calls", "validations"],
                   token_budget))

    @tool("describe_persistence")
    def describe_persistence(service: Name, limit: Limit = None, offset: Offset = None,
                             token_budget: Budget = None) -> schemas.EntitiesOut:
        """Entities a service persists, with fields, engine and who else persists the same name."""
        return cast(schemas.EntitiesOut, fit(to_data(uc.describe_persistence()(service, limit, offset)), ["entities"], token_budget))

    @tool("describe_messages")
    def describe_messages(service: Name, limit: Limit = None, offset: Offset = None,
                          token_budget: Budget = None) -> schemas.MessagesOut:
        """Channels a service publishes/consumes, provider, and the services on the other side."""
        return cast(schemas.MessagesOut, fit(to_data(uc.describe_messages()(service, limit, offset)), ["messages"], token_budget))

    @tool("search")
    def search(query: Annotated[str, Field(min_length=1, max_length=1000)],
               limit: Annotated[int, Field(ge=1, le=100)] = 20, token_budget: Budget = None) -> schemas.SearchOut:
        """Search services, APIs, components, calls, channels, entities by words (hybrid bm25 + embeddings
        when installed). Returns typed hits. Next: describe_service / describe_api."""
        return cast(schemas.SearchOut, fit(to_data(uc.search()(query, limit)), ["hits"], token_budget))

    @tool("get_relationships")
    def get_relationships(service: Name, direction: Annotated[str, Field(pattern="^(inbound|outbound|both|in|out)$")] = "both") -> schemas.RelationshipsOut:
        """1-hop graph around a service: outbound/inbound calls and message links, with reason,
        confidence, provenance, evidence. Next: trace_flow."""
        return cast(schemas.RelationshipsOut, fit(to_data(uc.get_relationships()(service, direction)), ["relationships"]))

    @tool("trace_flow")
    def trace_flow(source: Name, target: Name, max_hops: Annotated[int, Field(ge=1, le=20)] = 6) -> schemas.FlowOut:
        """Shortest paths from one service to another over calls and publish->consume links."""
        return cast(schemas.FlowOut, fit(to_data(uc.trace_flow()(source, target, max_hops)), ["alternatives"]))

    #: per question (kind, limit, offset), the last smells report and its shaped answer: the findings
    #: of one architecture run are asked again and again, and writing ~16 KB of them costs the most
    smells_shaped: dict[tuple[object, ...], tuple[object, schemas.SmellsOut]] = {}

    @tool("find_architecture_smells")
    def find_architecture_smells(kind: Annotated[str | None, Field(max_length=50, description="|".join(SMELL_KINDS))] = None,
                                 limit: Limit = None,
                                 offset: Offset = None) -> schemas.SmellsOut:
        """Structural risks (cycles, fan-in/out, shared databases, duplicate vendors, deep sync chains)
        with trend since the previous index."""
        report = uc.find_architecture_smells()(kind=kind, limit=limit, offset=offset)
        question = (kind, limit, offset)
        kept = smells_shaped.get(question)
        if kept is not None and kept[0] == report:  # the same findings as last time (by value): shaped once
            return kept[1]
        shaped = cast(schemas.SmellsOut, fit(to_data(report), ["findings"]))
        if len(smells_shaped) >= 16:  # a few questions are asked again and again; not every page
            smells_shaped.clear()
        smells_shaped[question] = (report, shaped)
        return shaped

    @tool("find_change_surface", read_only=False, idempotent=False, in_loop=offline)  # records the run, for feedback
    def find_change_surface(task: Annotated[str, Field(min_length=1, max_length=4000)],
                            hint_services: Annotated[list[Annotated[str, Field(max_length=200)]] | None,
                                                     Field(max_length=20)] = None) -> schemas.SurfaceOut:
        """CALL FIRST on a new task: the services it likely changes (primary/secondary) with reason,
        confidence, evidence, plus contracts at risk, unknowns, freshness and next queries."""
        data = to_data(uc.find_change_surface()(task, tuple(hint_services or ())))
        return cast(schemas.SurfaceOut, fit(data, ["similar_past_tasks", "no_change_hint", "persistence_affected", "flow",
                          "recommended_next_queries", "contracts_at_risk"]))

    @tool("record_change_surface_feedback", read_only=False)
    def record_change_surface_feedback(run_id: Annotated[int, Field(ge=1)], service: Name,
                                       outcome: Annotated[str, Field(pattern="^(confirmed|rejected)$")]) -> schemas.FeedbackOut:
        """After the work: did the service really need to change? Recalibrates future confidence."""
        return cast(schemas.FeedbackOut, to_data(uc.record_feedback()(run_id, service, outcome)))

    @tool("verify_change_surface", read_only=False, idempotent=False)  # records a verification
    def verify_change_surface(run_id: Annotated[int, Field(ge=1)], repository: Name,
                              since_commit: Annotated[str, Field(min_length=4, max_length=200)]) -> schemas.VerificationOut:
        """Compare a past prediction with the real git diff since a commit: precision and recall."""
        data = to_data(uc.verify_change_surface()(run_id, repository, since_commit))
        data["verification_id"] = data.get("id")
        if data["verification_id"] is None:  # a read-only agent: answered, not recorded
            data["notice"] = VERIFICATION_NOT_RECORDED
        return cast(schemas.VerificationOut, fit(data, ["unowned_files"]))

    @tool("find_provenance")
    def find_provenance(file: Annotated[str, Field(min_length=1, max_length=1000)], line: Annotated[int, Field(ge=1)],
                        repository: Annotated[str | None, Field(max_length=200)] = None) -> schemas.ProvenanceOut:
        """What is declared at file:line (service, component, API, call, message, entity) and which
        services depend on it. Use while editing a file."""
        return cast(schemas.ProvenanceOut, fit(to_data(uc.find_provenance()(file, line, repository)), ["items", "dependents"]))

    @tool("refresh", read_only=False)
    def refresh(repository: Annotated[str | None, Field(max_length=200)] = None) -> schemas.RefreshOut:
        """Re-index incrementally (only changed files are parsed) to repair staleness."""
        out: list[dict[str, Any]] = []
        for r in uc.refresh_repositories()((repository,) if repository else ()):
            if r.result is None:  # removed meanwhile: never resurrected
                out.append({"repository": r.repository, "status": "removed"})
                continue
            res = r.result
            out.append({"repository": r.repository, "commit": res.repository.indexed_commit,
                        "services": len(res.services), "files_changed": res.files_changed,
                        "files_parsed": res.files_parsed, "status": res.run.status})
        return cast(schemas.RefreshOut, {"refreshed": out} if out else dict(EMPTY))

    for info in server._tool_manager.list_tools():  # no public hook to shape schemas; see _slim
        if info.name in registered:
            info.parameters = _slim(info.parameters)
            if info.fn_metadata.output_schema is not None:
                info.fn_metadata.output_schema = _slim(info.fn_metadata.output_schema)
    return registered


def _slim(schema: Any) -> Any:
    """Schemas as small as they can be without losing meaning: no generated titles, and
    ``anyOf [X, null]`` written as ``type: [X, "null"]`` — agents pay for every byte of tools/list."""
    if isinstance(schema, list):
        return [_slim(s) for s in schema]
    if not isinstance(schema, dict):
        return schema
    out = {k: _slim(v) for k, v in schema.items()
           if not (k == "title" and isinstance(v, str)) and not (k == "additionalProperties" and v is True)}
    any_of = out.get("anyOf")
    if isinstance(any_of, list) and len(any_of) == 2 and {"type": "null"} in any_of:
        other = next(a for a in any_of if a != {"type": "null"})
        if isinstance(other, dict) and isinstance(other.get("type"), str):
            del out["anyOf"]
            out = {**other, **out, "type": [other["type"], "null"]}
    return out
