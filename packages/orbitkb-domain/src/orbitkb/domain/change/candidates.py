"""Candidate retrieval for a task: per-term keyword evidence weighted by rarity (a word that names
one service says more than a word every service has), semantic neighbours when an embedder is
installed (fused by Reciprocal Rank Fusion), hinted services, then expansion over calls and
message links, decaying with hops."""

from __future__ import annotations

import json
import math
import re
from collections import defaultdict
from collections.abc import Iterable, Mapping, Sequence
from functools import lru_cache
from importlib import resources

from attrs import define, evolve, field

from orbitkb.domain.architecture.graph import SystemGraph
from orbitkb.domain.catalog import ServiceCatalog
from orbitkb.domain.change.fallback import guess_from_code, links, most_connected, neighbours, reads_as_work
from orbitkb.domain.change.fullnames import named_in_full
from orbitkb.domain.change.naming import DECORATION, NameMatch, loose_names
from orbitkb.domain.change.topic import OWN_DOMAIN, about_software, off_topic, own_domains
from orbitkb.domain.change.umbrella import umbrellas
from orbitkb.domain.model import Service
from orbitkb.domain.ports import SearchQuery
from orbitkb.domain.retrieval import HybridRetriever
from orbitkb.domain.runs import SearchHit
from orbitkb.domain.system_model import SystemModel
from orbitkb.domain.text import HTTP_METHODS, stem, words

KIND_WEIGHT = {"service": 1.0, "technology": 0.85, "api": 0.8, "entity": 0.75, "component": 0.7, "message": 0.65,
               "call": 0.35, "source": 0.3}
FIELD_WEIGHT = {"name_text": 1.0, "keywords": 0.7, "text": 0.5}
EDGE_DECAY = {"out": 0.4, "in": 0.3, "MESSAGE_LINK": 0.3}
MAX_TERMS = 16
#: how much a strong candidate's link lifts a matched service the task names (_expand)
SUPPORT = 0.25
SYNONYM_WEIGHT = 0.6
SEMANTIC_WEIGHT = 0.25
PER_TERM_LIMIT = 80
VECTOR_LIMIT = 60  # the task's nearest facts by meaning
#: Below this absolute evidence (rarity x kind x field of the best word), a task matches nothing:
#: words every service's code uses ("write", "value") are not a reason to change anything.
ABSTAIN_FLOOR = 0.3
#: A service only semantically close to the task needs this cosine (absolute, not relative to the
#: best one: a nonsense task still has a "closest" service).
SEMANTIC_ALONE = 0.5
#: Below this best cosine (the packaged MiniLM), a task is about something this system is not.
SEMANTIC_TOPIC = 0.3
SOURCE_WEIGHT = 2.0  # the best bm25 match over the code is worth about one named fact
#: the best bm25 match over the words of the commits that changed a service (its history); on the
#: real-history tune half, F1 0.572 without it, 0.585 / 0.587 / 0.591 / 0.573 at 1 / 2 / 4 / 8; the
#: held-out half, measured once at 4, fell (0.50 -> 0.47): a weak, not yet general signal (it helps
#: where commit messages are descriptive). Shipped at 0: the history still shows in reasons and in
#: search (kind "history"), but does not move the ranking until a larger held-out set says it should.
HISTORY_WEIGHT = 0.0
FIRM_KINDS = frozenset({"service", "api", "entity", "message", "component", "technology"})
#: What names a service beyond any doubt of wording: its own facts and files, not a library's name.
NAMING_KINDS = (FIRM_KINDS - {"technology"}) | {"file"}
MIN_PREFIX_WORD = 4  # shorter task words match whole words only
MAX_TECH_NAMES = 12  # a word in more distinct technology names than this names none of them
#: Words of many libraries' names that name no technology of their own.
LIBRARY_WORDS = frozenset("""client clients core api apis common commons starter starters test tests testing
    plugin plugins web data util utils tools tool lib libs library sdk runtime model models annotations
    annotation module modules parent dependencies bom types support extensions extension framework
    server service services app boot cloud platform integration http json io org com net dev base""".split())


@define
class Candidate:
    service: Service
    score: float = 0.0
    keyword: float = 0.0
    semantic: float = 0.0
    #: bm25 of the service's code for all task words, relative to the best service (0..1)
    source: float = 0.0
    #: bm25 of the words of the commits that changed the service, relative to the best service (0..1)
    history: float = 0.0
    #: match | hint | expansion | code, hub (no fact matched, a guess: change/fallback.py)
    via: str = "match"
    matched_terms: set[str] = field(factory=set)
    hits: list[SearchHit] = field(factory=list)
    hops: int = 0
    #: the other services it is linked to by calls or messages, each once (change/fallback.neighbours)
    degree: int = 0
    #: its calls and message links in and out, per call site: how a guess finds the hub (a vague
    #: task changes a hub more often than a leaf; change/fallback.links)
    links: int = 0
    #: the strongest single piece of word evidence (absolute): what abstention is decided on
    strength: float = 0.0
    #: task words matched through a technology the service uses (a library, language, framework)
    tech_terms: set[str] = field(factory=set)
    #: a task word names one of its facts (service, API, entity, channel, component, technology)
    firm: bool = False
    #: the task's words that name one of its facts (service, API, entity, channel, component, file)
    naming_terms: set[str] = field(factory=set)
    #: the task's words hit its name, but name it only in part (change/fullnames.py): not "named"
    named_in_part: bool = False
    reached_from: str | None = None
    edge_type: str | None = None
    channel: str | None = None
    #: why it is a candidate when no word evidence says so
    note: str | None = None


@lru_cache(maxsize=1)
def synonyms() -> dict[str, tuple[str, ...]]:
    raw = json.loads(resources.files("orbitkb.domain").joinpath("synonyms.json").read_text("utf-8"))
    return {k: tuple(v) for k, v in raw["synonyms"].items()}


def term_variants(term: str) -> list[tuple[str, float]]:
    """The term itself (weight 1) and the words code tends to use for it (weight 0.6)."""
    out = [(term, 1.0)]
    st = stem(term)
    for key in (term, st):
        for syn in synonyms().get(key, ()):
            if syn != term:
                out.append((syn, SYNONYM_WEIGHT))
    seen: dict[str, float] = {}
    for word, w in out:
        seen[word] = max(seen.get(word, 0.0), w)
    return list(seen.items())


#: Words that appear in every service's routes or in every task: they carry no signal here.
GENERIC = frozenset("""api apis endpoint endpoints service services list lists first last newest latest
    oldest show shows page pages data info detail details new old http https get put post
    svc server servers app application microservice microservices
    add added adding create created creating update updated updating change changes changed fix fixed
    fixes fixing issue issues remove removed removing replace replaced improve improved improvement
    refactor refactored refactoring minor cleanup clean tidy move moved moving rename renamed wip
    initial various small misc not now just like instead better more less some thing things work
    working com org www github find""".split())
_URL = re.compile(r"https?://\S+|\b[\w.-]+@[\w.-]+\b")


def name_words(services: Iterable[Service]) -> frozenset[str]:
    """Words of service names that keep a generic task word: "service" in "payment-service" names
    nothing (every service is one), but a service called "api" or "post" must stay findable."""
    return _name_words(tuple((s.name, s.aliases) for s in services))


@lru_cache(maxsize=8)  # the same services on every request of a snapshot
def _name_words(names: tuple[tuple[str, tuple[str, ...]], ...]) -> frozenset[str]:
    out: set[str] = set()
    for name, aliases in names:
        for n in (name, *aliases):
            ws = words(n)
            out.update(w for w in ws if w not in DECORATION or len(ws) == 1)
    return frozenset(out)


def task_terms(task: str, keep: frozenset[str] = frozenset()) -> list[str]:
    """Content words of a task; generic words are dropped unless they name something indexed
    (a service called "post" or "page" must stay findable)."""
    seen: dict[str, None] = {}
    for w in words(_URL.sub(" ", task)):
        if len(w) >= 2 and (w not in GENERIC or w in keep):
            seen.setdefault(w, None)
    return list(seen)[:MAX_TERMS]


def _by_service(catalog: ServiceCatalog) -> dict[str, Service]:
    return {s.name: s for s in catalog.services}


def retrieve(task: str, retriever: HybridRetriever, catalog: ServiceCatalog, graph: SystemGraph,
             hints: Sequence[Service] = (), files: Mapping[str, Sequence[str]] | None = None,
             ) -> tuple[dict[str, Candidate], list[str]]:
    """Candidates by service name, and the task terms that matched nothing at all. ``files``: per
    service id, the paths of its files the task names (change/files.py)."""
    services = _by_service(catalog)
    n = max(len(services), 1)
    cands: dict[str, Candidate] = {}
    unmatched = []
    terms = task_terms(task, name_words(services.values()))
    code_words = source_terms(task)
    # one store read for every keyword query below and the task's nearest vectors
    retriever.prefetch(keyword_queries(terms, code_words), task, VECTOR_LIMIT)
    tech_ok = _distinctive_technology_terms(retriever, terms)
    loose = loose_names(task, list(services.values()))
    in_full = named_in_full(task, services.values(), loose)
    # the code beside a proxy declared in the root compose file is the other services' (change/umbrella.py)
    borrowed = _umbrellas(retriever, services)
    for term in terms:
        best: dict[str, tuple[float, SearchHit]] = {}
        source_only: dict[str, tuple[float, SearchHit]] = {}
        for word, factor in term_variants(term):
            hits = retriever.keyword(sorted({word, stem(word)}), PER_TERM_LIMIT, snippets=_reads_snippets(word))
            top_source = 0.0
            for rank, h in enumerate(hits, 1):
                if h.service not in services or h.kind == "history":
                    continue  # the history is ranked once, over all task words (below)
                if h.kind == "source" and h.service in borrowed:
                    continue
                if h.kind in ("technology", "service") and h.field == "name_text" and not _names_word(h.name, word):
                    continue  # "java" is not javascript; "not" does not name notification-service
                if h.kind == "technology" and (h.field != "name_text" or term not in tech_ok):
                    continue  # a word in many libraries' names ("client", "spring") names none of them
                if len(word) < MIN_PREFIX_WORD and not _names_word(f"{h.name} {h.snippet or ''}", word):
                    continue  # a short word matches itself, not every longer word it begins ("up" ≠ "update")
                w = KIND_WEIGHT.get(h.kind, 0.3) * FIELD_WEIGHT.get(h.field, 0.5) * factor
                if h.kind == "service" and h.field == "name_text" and h.service in in_full:
                    w *= 1.5  # the task names the service itself (one word its name shares is not that)
                if rank > 50:
                    w *= 0.5
                if h.kind == "source":
                    # ranked by bm25 among the services' code: how much of it is about the word
                    top_source = top_source or h.score
                    w *= max(0.3, h.score / top_source) if top_source > 0 else 1.0
                pool = source_only if h.kind == "source" else best
                if w > pool.get(h.service, (0.0, h))[0]:
                    other = factor < 1.0 and not _same_family(word, term)
                    # a word matching an API only by its method ("patch the fence") names no API
                    if h.field == "name_text" and (other or (h.kind == "api" and word in HTTP_METHODS)):
                        # another word code tends to use for the task's word ("buy" -> order), or an
                        # HTTP method in an API's name, is evidence but names nothing: never firm or "named"
                        h = evolve(h, field="synonym" if other else "method")
                    elif h.field == "name_text" and h.kind in FIRM_KINDS and not _names_word(h.name, word):
                        # the search matches prefixes: a longer word of the name that begins with the
                        # task's word ("call" in Callback) is evidence, but names nothing
                        h = evolve(h, field="prefix")
                    pool[h.service] = (w, h)
        if not best and not source_only:
            unmatched.append(term)
            continue
        strong = sum(1 for w, _ in best.values() if w >= 0.5) or len(best)
        idf = max(0.2, math.log((n + 1) / (strong + 0.5)))
        named = [name for name, (_, h) in best.items() if h.kind == "service" and h.field == "name_text"]
        # a word that names a service is rare among service names even when common in the text
        idf_named = max(0.2, math.log((n + 1) / (len(named) + 0.5)))
        # a word of the source counts by its own rarity across the services' code
        idf_source = max(0.2, math.log((n + 1) / (len(source_only) + len(best) + 0.5)))
        evidence = {name: (w, h, idf_named if name in named else idf) for name, (w, h) in best.items()}
        for name, (w, h) in source_only.items():
            if name not in evidence:
                evidence[name] = (w, h, idf_source)
        # a source word is evidence on its own only when few services' code uses it
        rare_in_source = len(source_only) + len(best) <= max(1, n // 4)
        for name, (w, h, rarity) in evidence.items():
            c = cands.setdefault(name, Candidate(services[name]))
            if h.kind != "source":  # the code's words are ranked once, over all task words (below)
                c.keyword += rarity * w
            c.strength = max(c.strength, (ABSTAIN_FLOOR if rare_in_source else 0.0) if h.kind == "source"
                             else rarity * w)
            c.matched_terms.add(term)
            c.hits.append(h)
            c.firm = c.firm or (h.field == "name_text" and h.kind in FIRM_KINDS)
            if h.field == "name_text" and h.kind in NAMING_KINDS:
                c.naming_terms.add(term)
            if h.kind == "technology":
                c.tech_terms.add(term)
    _loose_names(loose, services, cands, n, terms)
    _named_files(files or {}, services, cands, n, terms)
    for c in cands.values():
        c.named_in_part = c.service.name not in in_full and any(
            h.kind == "service" and h.field == "name_text" for h in c.hits)
    _rank_by_source(retriever, code_words, cands, borrowed)
    _rank_by_history(retriever, code_words, cands)
    vector = retriever.vector(task, VECTOR_LIMIT)
    if vector:
        sem: dict[str, float] = defaultdict(float)
        owners = {h.ref_id: h for h in retriever._fill_names(vector)}
        for h in owners.values():
            if h.service in services:
                sem[h.service] = max(sem[h.service], h.score)
        for name, sim in sem.items():
            c = cands.setdefault(name, Candidate(services[name]))
            c.semantic = sim
    _combine(cands)
    # unnamed words (code, descriptions, synonyms) alone for under a third of the task: off topic
    # offline; with an embedder, like the strict rule, only when the task does not read like software work
    code_only = _unnamed_words_only(cands, terms)
    if _off_topic(cands, terms, unmatched) or (code_only and retriever.embedder is None) or (
            retriever.embedder is not None and off_topic(
                retriever.embedder, task, weak=code_only or _off_topic(cands, terms, unmatched, True),
                named=len(_naming_terms(cands, terms)), terms=len(terms), embed=retriever.embed,
                own=lambda: _own_domains(retriever))):
        unmatched = list(terms)
        cands.clear()
    if not cands and not hints and len(services) == 1 and retriever.embedder is not None \
            and about_software(retriever.embedder, task, retriever.embed):
        # the one service of a system is what a task about software work changes, named or not
        only = next(iter(services.values()))
        cands[only.name] = Candidate(only, score=1.0, note="the only service of the system, and the task reads "
                                                           "like software work (no word of it names anything)")
    if not cands and not hints and _reads_as_work(task, retriever):
        _guess_from_code(retriever, services, code_words, cands)
        if not cands:
            _guess_the_hub(graph, services, cands)
    top = max((c.score for c in cands.values()), default=1.0) or 1.0
    for s in hints:
        c = cands.setdefault(s.name, Candidate(s))
        c.via = "hint"
        c.score = max(c.score, top)
    _expand(cands, graph, services)
    for c in cands.values():
        c.degree, c.links = neighbours(graph, c.service), links(graph, c.service)
    return cands, unmatched


def _reads_as_work(task: str, retriever: HybridRetriever) -> bool:
    """A word of software work, and to the embedder when one is loaded: what a guess needs."""
    return reads_as_work(task) and (retriever.embedder is None
                                    or about_software(retriever.embedder, task, retriever.embed))


def _guess_from_code(retriever: HybridRetriever, services: dict[str, Service],
                     code_words: Sequence[str], cands: dict[str, Candidate]) -> None:
    """No fact matched, yet the task reads as software work: the service whose code ranks first for
    its words, as a guess (change/fallback.py). Real-history tune half, offline: empty answers
    28 -> 20 of 250, F1 0.614 -> 0.628, the guess right 6 times in 8; off-topic sentences answered
    64 of 760 either way."""
    guess = guess_from_code(retriever, code_words, _source_words(code_words), services.keys() - _umbrellas(retriever, services))
    if guess is None:
        return
    name, telling = guess
    cands[name] = Candidate(services[name], score=1.0, via="code", matched_terms=set(telling),
                            note=f"no fact the index holds matches the task; a guess from the words of the code: "
                                 f"its code ranks first for the task's words, and holds [{', '.join(telling)}]")


def _guess_the_hub(graph: SystemGraph, services: dict[str, Service], cands: dict[str, Candidate]) -> None:
    """Software work that names nothing the index holds and no word of which tells one service's
    code apart ("refactor to DI", "WIP in observability"): the most connected service, as a guess
    (change/fallback.py); nothing when no service has more links than all others. Real-history tune
    half (250 tasks, one index, refit each way): F1 0.635 -> 0.663, leave-one-repository-out 0.626
    -> 0.654 (9 tasks better, none worse), the guess right 8 times in 8."""
    hub = most_connected(graph, services.values())
    if hub is None:
        return
    n = links(graph, hub)
    cands[hub.name] = Candidate(hub, score=1.0, via="hub", links=n,
                                note="no fact the index holds matches the task and no word of it tells one service's "
                                     f"code apart; a guess: the task reads as software work, and this is the most "
                                     f"connected service ({n} links)" if len(services) > 1 else
                                     "no fact the index holds matches the task; a guess: the task reads as software "
                                     "work, and this is the only service of the system")


def _source_words(terms: Sequence[str]) -> list[str]:
    return sorted({t for term in terms for t in (term, stem(term)) if len(t) >= MIN_PREFIX_WORD} |
                  {term for term in terms if len(term) < MIN_PREFIX_WORD})


def source_terms(task: str) -> list[str]:
    """The words the source ranking asks for: every content word of the task, the generic ones
    too — bm25 weighs "page" or "list" by their rarity in the code, where they can be telling
    (measured on the real-history tune half: top-1 F1 of the source ranking 0.51 -> 0.54)."""
    seen: dict[str, None] = {}
    for w in words(_URL.sub(" ", task)):
        if len(w) >= 2:
            seen.setdefault(w, None)
    return list(seen)[:MAX_TERMS]


def keyword_queries(terms: Sequence[str], code_words: Sequence[str] | None = None) -> list[SearchQuery]:
    """Every keyword query ``retrieve`` asks for these task terms (data access only: the store
    answers them in one read; a query missing here is still asked, one read more)."""
    out = [SearchQuery((term,), PER_TERM_LIMIT, ("technology",), snippets=False) for term in terms]
    out += [SearchQuery(tuple(sorted({word, stem(word)})), PER_TERM_LIMIT, snippets=_reads_snippets(word))
            for term in terms for word, _ in term_variants(term)]
    ranked = tuple(_source_words(terms if code_words is None else code_words))
    out.append(SearchQuery(ranked, PER_TERM_LIMIT, ("source",), snippets=False))
    out.append(SearchQuery(ranked, PER_TERM_LIMIT, ("history",), snippets=False))
    return out


def _reads_snippets(word: str) -> bool:
    """Whether ``retrieve`` reads the snippets of a word's hits: only a short word's, to tell that
    the word itself is there ("up" is not "update"); the store skips cutting the others."""
    return len(word) < MIN_PREFIX_WORD


def _distinctive_technology_terms(retriever: HybridRetriever, terms: Sequence[str]) -> set[str]:
    """Task words that name few distinct technologies: "lombok" or "zipkin" name a library,
    "client" or "spring" are words of dozens of library names and name none."""
    out: set[str] = set()
    for term in terms:
        hits = retriever.keyword([term], PER_TERM_LIMIT, kinds=("technology",), snippets=False)
        names = {h.name for h in hits if h.field == "name_text" and _names_word(h.name, term)}
        if term not in LIBRARY_WORDS and 0 < len(names) <= MAX_TECH_NAMES:
            out.add(term)
    return out


def _rank_by_source(retriever: HybridRetriever, terms: Sequence[str], cands: dict[str, Candidate],
                    borrowed: frozenset[str] = frozenset()) -> None:
    """bm25 over each service's code for all task words at once: how much of a service's code is
    about this task. Only services some word already reached get it (the source alone never
    makes a candidate that no word matched), and never one whose code is ``borrowed``."""
    hits = [h for h in retriever.keyword(_source_words(terms), PER_TERM_LIMIT, kinds=("source",), snippets=False)
            if h.service not in borrowed]
    # relative to the best service of the whole system, not only of those the words reached
    top = max((h.score for h in hits), default=0.0)
    if top <= 0:
        return
    for h in (h for h in hits if h.service in cands):
        cands[h.service].source = max(cands[h.service].source, h.score / top)


def code_ranking(retriever: HybridRetriever, task: str, services: Iterable[Service]) -> dict[str, float]:
    """Per service of the system whose code ranks for the task's words (bm25 over each service's
    code, the same query as the candidates' source evidence: answered from the request's cache), its
    score relative to the best service's; never a service whose code is borrowed (change/umbrella.py)."""
    by_name = {s.name: s for s in services}
    borrowed = _umbrellas(retriever, by_name)
    hits = [h for h in retriever.keyword(_source_words(source_terms(task)), PER_TERM_LIMIT, kinds=("source",),
                                         snippets=False) if h.service not in borrowed]
    top = max((h.score for h in hits), default=0.0)
    out: dict[str, float] = {}
    if top <= 0:
        return out
    for h in hits:
        if h.service in by_name:
            out[h.service] = max(out.get(h.service, 0.0), h.score / top)
    return out


def _rank_by_history(retriever: HybridRetriever, terms: Sequence[str], cands: dict[str, Candidate]) -> None:
    """bm25 over the words of each service's past commit messages, for all task words at once:
    how much of how people described its changes is about this task. Like the source ranking, it
    only strengthens services some word already reached."""
    hits = retriever.keyword(_source_words(terms), PER_TERM_LIMIT, kinds=("history",), snippets=False)
    top = max((h.score for h in hits), default=0.0)
    if top <= 0:
        return
    for h in (h for h in hits if h.service in cands):
        cands[h.service].history = max(cands[h.service].history, h.score / top)


def _off_topic(cands: dict[str, Candidate], terms: Sequence[str], unmatched: Sequence[str],
               semantic_on: bool = False) -> bool:
    """Abstain unless something names what the task is about (a service, API, entity, channel,
    component or technology by name, or a close semantic match) or most of the task's words are
    words of this system. An off-topic task always brushes a few words that are everywhere in
    descriptions, field names or code ("name", "read", "table"), never most of them."""
    if any((_names_beyond_technology(c) if semantic_on else c.firm) or c.semantic >= SEMANTIC_ALONE
           for c in cands.values()):
        return False
    weak = max((c.strength for c in cands.values()), default=0.0) < ABSTAIN_FLOOR
    if len(unmatched) * 2 > len(terms) and (weak or semantic_on):
        return True
    # with embeddings, a task far from everything indexed needs two thirds of its words to be the system's
    return (semantic_on and len(unmatched) * 3 > len(terms)
            and max((c.semantic for c in cands.values()), default=0.0) < SEMANTIC_TOPIC)


def _umbrellas(retriever: HybridRetriever, services: dict[str, Service]) -> frozenset[str]:
    """change/umbrella.py's services, found once per snapshot (a scan of every pair of services)."""
    facts = retriever.facts
    if isinstance(facts, SystemModel):
        return facts.derived("umbrellas", lambda: umbrellas(services.values()))
    return umbrellas(services.values())


def _own_domains(retriever: HybridRetriever) -> frozenset[str]:
    """The everyday domains the system is itself about (change/topic.py), once per snapshot."""
    embedder = retriever.embedder
    if embedder is None:
        return frozenset()

    def build() -> frozenset[str]:
        def closest(vector: Sequence[float]) -> float:
            hits = retriever.store.nearest_embeddings(embedder.model_id, vector, 1, OWN_DOMAIN)
            return max((h.similarity for h in hits), default=0.0)
        return own_domains(embedder, closest)

    facts = retriever.facts
    return facts.derived(f"own_domains:{embedder.model_id}", build) if isinstance(facts, SystemModel) else build()


def _naming_terms(cands: dict[str, Candidate], terms: Sequence[str]) -> set[str]:
    """The task's words that name one of the system's facts by its name (not a technology's)."""
    return {t for c in cands.values() for t in c.naming_terms} & set(terms)


def _unnamed_words_only(cands: dict[str, Candidate], terms: Sequence[str]) -> bool:
    """No fact is named (no service, API, entity, channel, component, technology or file by its
    name), only words of descriptions, keywords, synonyms, HTTP methods, longer words or code match,
    and they hold fewer than a third of the task's words: an everyday sentence brushes a word or two
    that the system's texts contain ("table" among an entity's keywords, "purchase" as a synonym of
    order, a word some code holds); a commit message written in the system's words does not leave
    two thirds of its words to nothing. (Real-history tune half, offline: code words alone 181 -> 94
    of 760 off-topic sentences answered, one of 250 commit messages lost; every unnamed evidence
    96 -> 64, no commit message's answer changed; held-out half 36 -> 24 of 280, none changed.)"""
    if not terms or not cands or any(c.firm for c in cands.values()):
        return False
    held = {t for c in cands.values() for t in c.matched_terms} & set(terms)
    return len(held) * 3 < len(terms)


def _same_family(variant: str, term: str) -> bool:
    """"payment" for "pay", "notify" for "notification": one word in another form, not another word."""
    a, b = stem(variant), stem(term)
    return len(min(a, b, key=len)) >= 3 and (a.startswith(b) or b.startswith(a))


def _named_by_task(c: Candidate) -> bool:
    """The task names the service itself (its name, an alias, loosely), not only one of its facts."""
    return not c.named_in_part and any(h.kind == "service" and h.field == "name_text" for h in c.hits)


def _names_beyond_technology(c: Candidate) -> bool:
    """Firm evidence other than a technology's name: many libraries are named by everyday words
    ("spring", "history", "express"), which keep a task on topic only when it reads like software."""
    return any(h.field == "name_text" and h.kind in NAMING_KINDS for h in c.hits)


def _names_word(name: str, word: str) -> bool:
    """A technology hit counts only when one of its name's words is the task word (FTS matches
    prefixes: "java" would otherwise match "javascript")."""
    mine = set(words(name, keep_stopwords=True))
    return word in mine or stem(word) in {stem(w) for w in mine}


def _loose_names(found: Sequence[NameMatch], services: dict[str, Service], cands: dict[str, Candidate],
                 n: int, terms: Sequence[str]) -> None:
    """Services the task names loosely (run together, misspelt, shortened): as if named exactly."""
    rarity = max(0.2, math.log((n + 1) / 1.5))
    for m in found:
        c = cands.setdefault(m.service, Candidate(services[m.service]))
        if any(h.kind == "service" and h.field == "name_text" for h in c.hits):
            continue
        _as_named(c, rarity, m.matched, terms, SearchHit("service", m.service, m.service, 1.0, "name_text",
                                                         f"named as '{m.matched}' ({m.how})", services[m.service].id))


def _named_files(files: Mapping[str, Sequence[str]], services: dict[str, Service], cands: dict[str, Candidate],
                 n: int, terms: Sequence[str]) -> None:
    """Services owning a file the task names: as if the task named the service, shared among the
    few services that own a file of that name."""
    by_id = {s.id: s for s in services.values()}
    owned = {sid: paths for sid, paths in files.items() if sid in by_id}
    if not owned:
        return
    rarity = max(0.2, math.log((n + 1) / (len(owned) + 0.5)))
    for sid, paths in sorted(owned.items()):
        svc = by_id[sid]
        c = cands.setdefault(svc.name, Candidate(svc))
        _as_named(c, rarity, paths[0].rsplit("/", 1)[-1], terms,
                  SearchHit("file", svc.name, paths[0], 1.0, "name_text", f"the task names its file {paths[0]}", sid))


def _as_named(c: Candidate, rarity: float, matched: str, terms: Sequence[str], hit: SearchHit) -> None:
    """Evidence as strong as the task naming the service itself (a loose name, a file it owns). The
    task's words the match holds count as matched, each once ("chat.css" is the words chat and css,
    not a third word beside them)."""
    w = KIND_WEIGHT["service"] * FIELD_WEIGHT["name_text"] * 1.5
    c.keyword += rarity * w
    c.strength = max(c.strength, rarity * w)
    c.firm = True
    c.matched_terms.update(w for w in words(matched) if w in terms)
    c.naming_terms.update(words(matched))
    c.hits.append(hit)


def _combine(cands: dict[str, Candidate]) -> None:
    """Keyword evidence decides; semantic similarity (when an embedder is installed) adds a bounded
    bonus, and alone can only make a weak candidate — otherwise every service, being somewhat
    similar to any task, would flood the answer (measured on the benchmark)."""
    kmax = max((_words_score(c) for c in cands.values()), default=0.0) or 1.0
    smax = max((c.semantic for c in cands.values()), default=0.0) or 1.0
    for c in cands.values():
        sem = c.semantic / smax if c.semantic else 0.0
        if c.keyword or c.source:
            c.score = _words_score(c) / kmax + SEMANTIC_WEIGHT * sem
        else:
            c.score = 0.35 * sem if sem >= 0.8 and c.semantic >= SEMANTIC_ALONE else 0.0
    for name in [n for n, c in cands.items() if c.score == 0.0 and not c.keyword and not c.source]:
        del cands[name]


def _words_score(c: Candidate) -> float:
    return c.keyword + SOURCE_WEIGHT * c.source + HISTORY_WEIGHT * c.history


def _expand(cands: dict[str, Candidate], graph: SystemGraph, services: dict[str, Service], hops: int = 2) -> None:
    frontier = sorted((c for c in cands.values() if c.score >= 0.3), key=lambda c: (-c.score, c.service.name))
    for hop in range(1, hops + 1):
        nxt = []
        for c in frontier:
            name = graph.label_of(c.service)  # the graph keeps same-named services of two repositories apart
            neighbours = [(e.target, "out" if e.type != "MESSAGE_LINK" else "MESSAGE_LINK", e)
                          for e in graph.out.get(name, ()) if e.internal]
            neighbours += [(e.source, "in" if e.type != "MESSAGE_LINK" else "MESSAGE_LINK", e)
                           for e in graph.inc.get(name, ())]
            for label, kind, e in neighbours:
                svc = graph.by_label.get(label)
                if svc is None or svc.name not in services or svc.name == c.service.name:
                    continue
                other = svc.name
                score = c.score * EDGE_DECAY[kind] ** hop if hop > 1 else c.score * EDGE_DECAY[kind]
                existing = cands.get(other)
                if existing is None:
                    existing = cands[other] = Candidate(svc, via="expansion", hops=hop,
                                                        reached_from=name, edge_type=e.type, channel=e.channel)
                    existing.score = score
                    nxt.append(existing)
                elif existing.via == "expansion" and score > existing.score:
                    existing.score = score
                    existing.reached_from, existing.edge_type, existing.channel = name, e.type, e.channel
                elif existing.via == "match" and hop == 1 and not existing.reached_from:
                    # a matched service that a strong candidate is wired to: the link is noted (a
                    # runner-up with one word and a link may be secondary), and raises the score only
                    # of a service the task names — a call alone is no evidence that this task changes
                    # a service (on the real-history tune half, raising every linked match moved 9
                    # tasks, all for the worse; raising only named ones moves 3, two for the better)
                    if _named_by_task(existing):
                        existing.score = max(existing.score + SUPPORT * score, 0.8 * score)
                    existing.reached_from, existing.edge_type, existing.channel = name, e.type, e.channel
        frontier = [c for c in nxt if c.score >= 0.3]
