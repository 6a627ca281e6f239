"""A service whose facts say it routes requests to other services (gateway routes, proxy calls,
handlers that pass a request on to the same path) is not the user-facing service, whatever its
name says ("agent-portal-gateway"); a front end whose own web server proxies the API paths to the
back ends still is."""

from __future__ import annotations

from orbitkb.domain.change.ui import routing_services, ui_services
from orbitkb.domain.fakes import InMemoryKnowledgeStore
from orbitkb.domain.ids import make_id, service_id
from orbitkb.domain.model import (
    Api,
    CallKind,
    Evidence,
    Repository,
    Service,
    ServiceCall,
    ServiceFacts,
    TargetKind,
    Technology,
)
from orbitkb.domain.search_docs import documents_for
from orbitkb.domain.usecases.change_surface import FindChangeSurface

KENNEL = "kennel"


def _sid(name: str) -> str:
    return service_id(KENNEL, name)


def _svc(name: str) -> Service:
    return Service(_sid(name), name, KENNEL, name, "jvm-spring")


def _api(svc: str, method: str, path: str) -> Api:
    return Api(make_id("api", svc, method, path), _sid(svc), method, path, f"{svc}.handle", f"{svc}/App.java", 1, 2)


def _call(src: str, dst: str, method: str | None, path: str, file: str, api: Api | None = None) -> ServiceCall:
    return ServiceCall(make_id("call", src, dst, method or "", path), _sid(src), CallKind.HTTP, dst,
                       TargetKind.INTERNAL, to_service_id=_sid(dst), method=method, path=path,
                       from_api_id=api.id if api else None, evidence=(Evidence(file, 3, 3),))


def _tech(svc: str, kind: str, name: str) -> Technology:
    return Technology(make_id("tech", svc, kind, name), _sid(svc), kind, name)


def test_handlers_passing_requests_on_to_two_services_route_them() -> None:
    walks, vets = _api("pet-portal", "GET", "/api/walks/{id}"), _api("pet-portal", "POST", "/api/vets/visits")
    calls = [_call("pet-portal", "walks", "GET", "/walks/{walkId}", "pet-portal/WalksProxy.java", walks),
             _call("pet-portal", "vets", "POST", "/visits", "pet-portal/VetsProxy.java", vets)]
    assert routing_services(calls, [walks, vets], []) == {_sid("pet-portal")}


def test_a_route_table_in_configuration_routes_requests() -> None:
    calls = [_call("dog-portal", "walks", "GET", "/api/Walks", "dog-portal/routes.json"),
             _call("dog-portal", "vets", "POST", "/api/Vets/{everything}", "dog-portal/routes.json"),
             _call("edge", "walks", None, "/walks", "edge/nginx.conf"),
             _call("edge", "vets", "GET", "/vets/**", "edge/gateway.yml")]
    assert routing_services(calls, [], []) == {_sid("dog-portal"), _sid("edge")}


def test_calls_that_do_not_pass_the_request_on_are_not_routes() -> None:
    page = _api("web", "GET", "/basket")
    calls = [_call("web", "walks", "GET", "/walks/{id}", "web/Basket.java", page),  # a page's handler asks two back
             _call("web", "vets", "GET", "/vets", "web/Basket.java", page)]       # ends for its data
    assert routing_services(calls, [page], []) == frozenset()


def test_one_back_end_is_not_enough_to_be_a_gateway() -> None:
    assert routing_services([_call("portal", "walks", None, "/api", "portal/nginx.conf")], [], []) == frozenset()


def test_a_front_end_whose_web_server_routes_the_api_paths_is_still_user_facing() -> None:
    routes = [_call(s, "walks", None, "/api/walks", f"{s}/nginx.conf") for s in ("spa", "vue-web", "shop")]
    routes += [_call(s, "vets", None, "/api/vets", f"{s}/nginx.conf") for s in ("spa", "vue-web", "shop")]
    techs = [_tech("spa", "language", "javascript"), _tech("spa", "base_image", "nginx"),
             _tech("vue-web", "framework", "vue"), _tech("vue-web", "language", "java"),
             _tech("shop", "library", "org.springframework.boot:spring-boot-starter-thymeleaf")]
    assert routing_services(routes, [_api("vue-web", "GET", "/health")], techs) == frozenset()


def test_a_router_is_left_out_of_the_user_facing_services() -> None:
    services = [_svc("agent-portal-gateway"), _svc("web"), _svc("walks")]
    assert [s.name for s in ui_services(services)] == ["agent-portal-gateway", "web"]
    assert [s.name for s in ui_services(services, frozenset({_sid("agent-portal-gateway")}))] == ["web"]


def _store(routes: bool) -> InMemoryKnowledgeStore:
    walks = _api("walks", "GET", "/walks/{id}")
    forward = _api("agent-portal-gateway", "GET", "/api/walks/{id}")
    calls = (_call("agent-portal-gateway", "walks", "GET", "/walks/{id}", "gw/WalksClient.java", forward),
             _call("agent-portal-gateway", "vets", None if routes else "GET", "/vets/schedule", "gw/VetsClient.java"))
    facts = [ServiceFacts(_svc("agent-portal-gateway"), apis=(forward,), calls=calls),
             ServiceFacts(_svc("web"), technologies=(_tech("web", "framework", "react"),)),
             ServiceFacts(_svc("walks"), apis=(walks,), vocabulary=("walk", "leash", "duration")),
             ServiceFacts(_svc("vets"), vocabulary=("vet", "appointment"))]
    store = InMemoryKnowledgeStore()
    store.replace_repository_facts(Repository(KENNEL, "/src/kennel"), facts, [], [], [], documents_for(facts))
    return store


def test_a_task_about_what_users_see_promotes_the_front_end_not_the_gateway() -> None:
    task = "Show the leash duration of a walk on the page"
    surface = FindChangeSurface(_store(routes=True))(task, record=False)
    promoted = [f.service for f in surface.secondary if "user-facing" in f.reason]
    assert promoted == ["web"]
    # the same gateway that routes only one of its calls (the other a plain call): two user-facing services
    surface = FindChangeSurface(_store(routes=False))(task, record=False)
    promoted = sorted(f.service for f in surface.secondary if "user-facing" in f.reason)
    assert promoted == ["agent-portal-gateway", "web"]
