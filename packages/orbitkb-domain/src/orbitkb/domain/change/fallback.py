"""A guess when no fact matches a task that reads as software work: the service whose code uses the
task's words most, said to be a guess; failing that, the most connected service. A terse commit
message ("refactor (not work)", "Configure Logback's JMXConfigurator") names nothing the index holds,
yet its words are in one service's code more than in the others'; when no word tells one service
apart ("refactor to DI"), such work lands on the hub more often than on a leaf. An everyday sentence
reads as no software work, and nonsense has no word in any code."""

from __future__ import annotations

from collections.abc import Collection, Sequence

from attrs import frozen

from orbitkb.domain.architecture.graph import SystemGraph
from orbitkb.domain.model import Service
from orbitkb.domain.retrieval import HybridRetriever
from orbitkb.domain.text import stem, words

#: Words that mark a task as software work, whatever the system is about: how code is written,
#: built, shipped and run. Words with an everyday sense too ("test", "version", "method", "migrate",
#: "library", "handler", "upgrade") are left out: "Return the library books" is no software work.
WORK_WORDS = frozenset("""
    refactor refactors refactoring refactored cleanup wip bugfix hotfix typo typos lint linting
    codebase code commit merge readme docs documentation changelog
    deploy deploys deployment deployed deploying pipeline ci dependency dependencies docker dockerfile
    kubernetes k8s helm yaml gradle maven npm pom webpack gulp sdk compile compiler prod staging
    config configs configuration configure configured env
    api apis endpoint endpoints http https grpc protobuf proto graphql webhook cli json xml
    middleware microservice microservices backend frontend implementation implement implemented dto
    entity entities di injection async
    database db schema sql orm repo
    logging logger metrics tracing observability exception exceptions null auth authentication jwt oauth
    css html js javascript typescript java kotlin python golang dotnet unittest
""".split())
#: Shorter words are searched as prefixes ("car" finds "cart"): they never tell a service apart.
MIN_TELLING = 4


@frozen
class Guess:
    """A kind of guess made when no fact matched (``Candidate.via``): the rule it is measured as
    (change/classify.RULE_RATES) and what the answer's unknowns say the primary is."""

    rule: str
    says: str


#: Every kind of guess, by ``Candidate.via``.
GUESSES = {"code": Guess("code words only", "from the words of the code"),
           "hub": Guess("work, the hub", "(the most connected service)")}
SOURCE_LIMIT = 80


def reads_as_work(task: str) -> bool:
    """Whether a word of the task, as written or in lower case ("gRPC"), marks it as software work
    (WORK_WORDS)."""
    return not WORK_WORDS.isdisjoint({*words(task), *words(task.lower())})


def guess_from_code(retriever: HybridRetriever, task_words: Sequence[str], ranked: Sequence[str],
                    services: Collection[str]) -> tuple[str, list[str]] | None:
    """The service whose code ranks first by bm25 for the ``ranked`` words, and the task's words
    that tell it apart: in its code and not in every service's (any word of its code in a system of
    one service), of MIN_TELLING letters or more. None when no word tells it apart (a word every
    service's code holds, or no word in any code, is no reason to name one service)."""
    hits = [h for h in retriever.keyword(list(ranked), SOURCE_LIMIT, kinds=("source",), snippets=False)
            if h.service in services]
    if not hits:
        return None
    best = hits[0].service
    telling = []
    for w in task_words:
        if len(w) < MIN_TELLING:
            continue
        owners = {h.service for h in retriever.keyword(sorted({w, stem(w)}), SOURCE_LIMIT, kinds=("source",),
                                                       snippets=False) if h.service in services}
        if best in owners and (len(services) == 1 or len(owners) < len(services)):
            telling.append(w)
    return (best, telling) if telling else None


def links(graph: SystemGraph, service: Service) -> int:
    """How connected a service is, for a guess: its calls and message links in and out, each call
    site counted. Guessing by distinct neighbours instead was worse on the real-history tune half:
    the weak guess among matched services lost 3 tasks and won none, and the hub of a task that
    matched nothing was right less often (F1 summed over the 20 empty answers 11.7 -> 9.0)."""
    label = graph.label_of(service)
    return len(graph.out.get(label, ())) + len(graph.inc.get(label, ()))


def neighbours(graph: SystemGraph, service: Service) -> int:
    """How many other services it calls, is called by or shares a message channel with, each once:
    the learned mix's ``degree`` (change/ranking.py), which counting call sites inflated wherever
    the analyzers find more calls. Real-history tune half (250 tasks, one index, refit each way):
    F1 0.659 -> 0.663, leave-one-repository-out 0.650 -> 0.654 (5 tasks better, 2 worse: small)."""
    label = graph.label_of(service)
    linked = {e.target for e in graph.out.get(label, ()) if e.internal} | {e.source for e in graph.inc.get(label, ())}
    return len(linked - {label})


def most_connected(graph: SystemGraph, services: Collection[Service]) -> Service | None:
    """The service with more links than any other (the only one of a system of one); None when none
    has a link or two share the most: a guess names one hub or nothing."""
    ranked = sorted(((links(graph, s), s) for s in services), key=lambda x: (-x[0], x[1].name))
    if len(ranked) == 1:
        return ranked[0][1]
    if not ranked or not ranked[0][0] or ranked[0][0] == ranked[1][0]:
        return None
    return ranked[0][1]
