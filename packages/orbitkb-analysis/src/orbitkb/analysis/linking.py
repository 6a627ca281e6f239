"""Linking every service through its language analyzer, with the link result cached per service.

A service whose files (paths and content hashes), context and analyzer version are unchanged is
served from the cache: its parse results are not even decoded. A linker crash is a gap for that
service only, and is not cached.

After its language linker, each service's gRPC facts are bound to the repository's protos
(``grpc.bind``): for services that register a gRPC implementation, the digests of every .proto
are part of the cache key.
"""

from __future__ import annotations

import multiprocessing
from collections import Counter, deque
from collections.abc import Callable, Iterator, Mapping, Sequence
from concurrent.futures import Future, ProcessPoolExecutor
from concurrent.futures.process import BrokenProcessPool

import attrs

from orbitkb.analysis import filetypes as ft
from orbitkb.analysis import linkcache
from orbitkb.analysis.facts import LinkedFacts, ServiceContext
from orbitkb.analysis.grpc.bind import BIND_VERSION, BindInput, bind
from orbitkb.analysis.grpc.catalog import ProtoCatalog
from orbitkb.analysis.grpc.code import CodeIndex, csharp, read_parsed
from orbitkb.analysis.grpc.services import csharp_implements
from orbitkb.analysis.layout.model import ServiceUnit
from orbitkb.analysis.reading import vocabulary
from orbitkb.analysis.reading.parsing import ParsedResults, can_fork, decode
from orbitkb.analysis.reading.sources import Sources
from orbitkb.analysis.registry import LoadedAnalyzer
from orbitkb.analysis.vendors import code as vendorcode
from orbitkb.domain.model import Gap
from orbitkb.domain.ports import AnalysisCache

BATCH = 500
POOL_MIN_SERVICES = 8  # fewer services to link than this: not worth forking workers
#: Services sent to the link workers and not yet collected, per worker (their results wait in memory).
MAX_PENDING = 4

#: The job forked workers link from (inherited through fork, never pickled): (linker, units, inputs).
_JOB: tuple[Linker, Sequence[ServiceUnit], Mapping[int, Sequence[str]]] | None = None


def _link_in_worker(i: int) -> tuple[int, str | None, list[Gap]]:
    assert _JOB is not None
    linker, units, inputs = _JOB
    before = len(linker.gaps)
    facts = linker._link(units[i], inputs[i])
    return i, (linkcache.dumps(facts) if facts is not None else None), linker.gaps[before:]


class Linker:
    def __init__(
        self,
        repository: str,
        analyzers: Mapping[str, LoadedAnalyzer],
        src: Sources,
        cache: AnalysisCache,
        progress: Callable[[str, int, int], None],
        workers: int = 0,
    ) -> None:
        self.workers = workers
        self.repo = repository
        self.analyzers = analyzers
        self.src = src
        self.cache = cache
        self.progress = progress
        self.gaps: list[Gap] = []
        self._sha = {r.path: r.sha256 for r in src.records}
        self._catalog = ProtoCatalog(())
        self._bind_key = [("\x00grpc-bind", BIND_VERSION), ("\x00vendor-code", vendorcode.version())]
        self._shared: set[str] = set()  # library files several services read: vendors of those using them
        self._context: dict[str, tuple[str, ...]] = {}  # unit root -> library files it reads
        self._foreign: dict[str, tuple[str, ...]] = {}  # unit root -> those another service owns
        #: unit index -> its linked words, packed (``LinkedFacts.vocabulary`` is the largest part of
        #: what every service's facts hold until resolution, and is read once there)
        self._words: dict[int, bytes] = {}

    def _inputs(self, unit: ServiceUnit, owned: Sequence[str]) -> list[str]:
        loaded = self.analyzers[unit.stack]
        suffixes = tuple(s.lower() for s in loaded.analyzer.suffixes)
        parsed = self.src.parsed
        return [p for p in owned if p in parsed and ft.suffix_of(p) in suffixes and p not in self.src.failed]

    def link_all(
        self,
        units: Sequence[ServiceUnit],
        owned: Mapping[int, Sequence[str]],
        libraries: Mapping[int, Sequence[str]] | None = None,
    ) -> list[LinkedFacts]:
        keys: dict[int, str] = {}
        inputs: dict[int, list[str]] = {}
        self._catalog = ProtoCatalog.from_texts(self.src.texts, [u.root for u in units])
        # only services that register a gRPC implementation depend on the protos: a proto edit
        # must not re-link every service of a big repository
        protos = [("\x00" + p, d) for p, d in self._catalog.files]
        users = Counter(p for files in (libraries or {}).values() for p in files)
        owner_of = {p: j for j, files in owned.items() for p in files}
        self._shared = {p for p, n in users.items() if n > 1}
        for i, unit in enumerate(units):
            loaded = self.analyzers.get(unit.stack)
            if loaded is None:
                continue
            inputs[i] = self._inputs(unit, owned.get(i, []))
            if getattr(loaded.analyzer, "reads_libraries", False) and libraries and i in libraries:
                self._context[unit.root] = tuple(self._inputs(unit, libraries[i]))
                self._foreign[unit.root] = tuple(p for p in self._context[unit.root] if owner_of.get(p, i) != i)
            context = self._context.get(unit.root, ())
            ctx = self._service_context(unit, context)
            serves = any(p in self.src.grpc_registrations for p in inputs[i])
            files = [(p, self._sha[p]) for p in inputs[i]] + self._bind_key + (protos if serves else [])
            foreign = set(ctx.foreign_files)  # ownership changes what a library file may say: in the key
            files += [
                ("\x00lib:" + p, self._sha[p] + ("+shared" if p in self._shared else "") + ("+foreign" if p in foreign else ""))
                for p in context
            ]
            keys[i] = linkcache.link_key(loaded.analyzer.stack, loaded.analyzer.version, ctx, files)
        wanted = sorted(set(keys.values()))
        hits: dict[str, str] = {}
        for start in range(0, len(wanted), BATCH):
            hits.update(self.cache.get_many(wanted[start : start + BATCH]))
        todo = [i for i in keys if hits.get(keys[i]) is None]
        if isinstance(self.src.parsed, ParsedResults):  # here, before linking forks workers
            self.src.parsed.load(
                p for i in todo for p in (*inputs[i], *self._context.get(units[i].root, ()))
            )
        fresh: dict[int, LinkedFacts] = {}
        puts: dict[str, str] = {}
        for i, text in self._link_many(units, inputs, todo):  # decoded as they come: no text is held
            facts = self._cached(text)
            if facts is None:
                continue
            fresh[i] = self._hold_words(i, facts)
            puts[keys[i]] = text  # type: ignore[assignment]
            if len(puts) >= BATCH:
                self.cache.put_many(dict(sorted(puts.items())))
                puts = {}
        if puts:
            self.cache.put_many(dict(sorted(puts.items())))
        out: list[LinkedFacts] = []
        for i, unit in enumerate(units):
            facts = self._cached(hits.get(keys[i])) if i in keys else None
            facts = self._with_csharp(unit, owned.get(i, []), facts or fresh.pop(i, None) or LinkedFacts())
            out.append(self._hold_words(i, facts))
        if isinstance(self.src.parsed, ParsedResults):  # linked: the parse results are not read again
            read = {p for files in inputs.values() for p in files} | {p for c in self._context.values() for p in c}
            self.src.parsed.release(r for r in self.src.records if r.path in read)
        self.progress("link", len(units), len(units))
        return out

    def _hold_words(self, i: int, facts: LinkedFacts) -> LinkedFacts:
        """``facts`` without its words, which are held packed until ``words(i)`` reads them."""
        if facts.vocabulary:
            self._words[i] = vocabulary.pack_counts(facts.vocabulary)
            facts = attrs.evolve(facts, vocabulary=())
        return facts

    def words(self, i: int) -> tuple[tuple[str, int], ...]:
        """The words (with counts) of the ``i``-th unit's linked code: read once, at resolution."""
        packed = self._words.pop(i, None)
        return vocabulary.unpack_counts(packed) if packed is not None else ()

    def _link_many(
        self, units: Sequence[ServiceUnit], inputs: Mapping[int, Sequence[str]], todo: Sequence[int]
    ) -> Iterator[tuple[int, str | None]]:
        """Link the services in ``todo``, each result as it comes (in a fixed order): on forked
        workers when there are enough of them, at most ``MAX_PENDING`` per worker in flight."""
        global _JOB
        done: set[int] = set()
        if self.workers >= 2 and len(todo) >= POOL_MIN_SERVICES and can_fork():
            order = sorted(todo, key=lambda i: -len(inputs[i]))  # big services first: even load
            _JOB = (self, units, inputs)
            try:
                context = multiprocessing.get_context("fork")
                with ProcessPoolExecutor(self.workers, mp_context=context) as pool:
                    waiting: deque[Future[tuple[int, str | None, list[Gap]]]] = deque()
                    queue = iter(order)
                    for n in range(1, len(order) + 1):
                        while len(waiting) < MAX_PENDING * self.workers and (i := next(queue, None)) is not None:
                            waiting.append(pool.submit(_link_in_worker, i))
                        i, text, gaps = waiting.popleft().result()
                        self.gaps.extend(gaps)
                        self.progress("link", n, len(units))
                        done.add(i)
                        yield i, text
                return
            except (OSError, RuntimeError, BrokenProcessPool):
                pass  # workers unavailable or killed: link the rest here instead
            finally:
                _JOB = None
        for n, i in enumerate((i for i in todo if i not in done), len(done) + 1):
            facts = self._link(units[i], inputs[i])
            self.progress("link", n, len(units))
            yield i, (linkcache.dumps(facts) if facts is not None else None)

    def _service_context(self, unit: ServiceUnit, context: tuple[str, ...]) -> ServiceContext:
        foreign = self._foreign.get(unit.root, ())
        deps = tuple(sorted(unit.deps()))
        return ServiceContext(unit.name, unit.root, unit.stack, self.repo, context, _commands(unit), foreign, deps)

    def _cached(self, text: str | None) -> LinkedFacts | None:
        if text is None:
            return None
        try:
            return linkcache.loads(text)
        except (ValueError, TypeError, KeyError):
            return None  # an unreadable entry is simply linked again

    def _link(self, unit: ServiceUnit, inputs: Sequence[str]) -> LinkedFacts | None:
        loaded = self.analyzers[unit.stack]
        context = self._context.get(unit.root, ())
        parsed = {p: decode(self.src.parsed[p]) for p in (*inputs, *context)}
        ctx = self._service_context(unit, context)
        try:
            facts = loaded.analyzer.link(ctx, parsed)
            counts = vocabulary.merge((parsed[p].get(vocabulary.KEY) or {} for p in inputs), inputs)
            facts = attrs.evolve(facts, vocabulary=tuple(counts))
            foreign = set(ctx.foreign_files)
            mine = [*inputs, *(p for p in context if p not in self._shared and p not in foreign)]  # a private library's too
            shared = [p for p in context if p in self._shared and p not in foreign and parsed[p].get(vendorcode.KEY)]
            used = vendorcode.used_shared(shared, context, inputs, self.src.texts, parsed, unit.root) if shared else []
            found = vendorcode.calls(parsed, [*mine, *used], facts.calls, facts.messages, frozenset(used))
            facts = attrs.evolve(facts, calls=(*facts.calls, *found)) if found else facts
        except Exception as exc:  # noqa: BLE001 - one linker bug must not lose the other services
            reason = f"{type(exc).__name__}: {str(exc).splitlines()[0][:200] if str(exc) else ''}"
            who = loaded.module or unit.stack
            self.gaps.append(Gap(self.repo, unit.root, "link_error", f"{who} link failed: {reason}"))
            return None
        code = lambda: CodeIndex(read_parsed(p, parsed[p]) for p in sorted(inputs))  # noqa: E731
        return self._bind(unit, inputs, facts, code)

    def _bind(
        self, unit: ServiceUnit, paths: Sequence[str], facts: LinkedFacts, code: Callable[[], CodeIndex]
    ) -> LinkedFacts:
        """``facts`` with gRPC bound to the protos and code (a binding bug costs only the binding)."""
        regs = {p: self.src.grpc_registrations[p] for p in paths if p in self.src.grpc_registrations}
        if not (regs or facts.grpc_implements or any(a.kind == "grpc" for a in facts.apis)):
            return facts
        entry = frozenset(p for p in paths if p in self.src.entry_files)
        try:
            return bind(BindInput(unit.root, facts, regs, code(), entry), self._catalog)
        except Exception as exc:  # noqa: BLE001 - keep the linker's facts
            reason = f"gRPC binding failed: {type(exc).__name__}: {str(exc)[:200]}"
            self.gaps.append(Gap(self.repo, unit.root, "link_error", reason))
            return facts

    def _with_csharp(self, unit: ServiceUnit, owned: Sequence[str], facts: LinkedFacts) -> LinkedFacts:
        """Without a C# linker (not installed, or a service of another stack holding C# files) the
        gRPC services its classes implement are found from text."""
        if unit.stack not in ("dotnet", "other") or unit.stack in self.analyzers:
            return facts
        cs = [p for p in owned if p.endswith(".cs") and p in self.src.texts]
        found = {name for p in cs for name in csharp_implements(self.src.texts[p])}
        if not found:
            return facts
        from attrs import evolve

        facts = evolve(facts, grpc_implements=tuple(sorted(set(facts.grpc_implements) | found)))
        return self._bind(unit, cs, facts, lambda: CodeIndex(csharp(p, self.src.texts[p]) for p in cs))


def _commands(unit: ServiceUnit) -> tuple[tuple[str, ...], ...]:
    """The distinct commands the unit's deployments run, in a stable order."""
    found = {tuple(c.command) for c in unit.compose if c.command}
    found |= {tuple(c.command) for _, c in unit.workloads if c.command}
    return tuple(sorted(found))
