"""Stages after layout: link each service, assemble its configuration, build and resolve facts."""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from typing import Any

import attrs

from orbitkb.analysis import filetypes as ft
from orbitkb.analysis.build import FactBuilder, config_evidence, evidence
from orbitkb.analysis.config import dotnet as dotnet_config
from orbitkb.analysis.config.config_server import ConfigServers
from orbitkb.analysis.config.service_config import ServiceConfig, build_config
from orbitkb.analysis.config.spring import SpringDoc
from orbitkb.analysis.contracts.merge import merge as merge_contract
from orbitkb.analysis.contracts.merge import read_contract
from orbitkb.analysis.dapr.appids import Unit as DaprUnit
from orbitkb.analysis.dapr.apply import Dapr
from orbitkb.analysis.facts import LinkedFacts
from orbitkb.analysis.gateways.calls import (
    DISCOVERY_PROXY,
    compose_label_routes,
    discovery_routes,
    mounted_config,
    proxy_routes,
    registers_with_discovery,
    spring_routes,
    zuul_routes,
)
from orbitkb.analysis.grpc.services import GrpcIndex, ProtoService, parse_proto_file
from orbitkb.analysis.layout.deploy import Deployment
from orbitkb.analysis.layout.infra import is_label_proxy
from orbitkb.analysis.layout.model import Layout, ServiceUnit
from orbitkb.analysis.libraries import grouped_modules, library_files, shared_code_files
from orbitkb.analysis.linking import Linker
from orbitkb.analysis.ownership import assign_owners, readme_index, readme_paragraph
from orbitkb.analysis.reading import vocabulary
from orbitkb.analysis.reading.parsing import ParsedResults, decode
from orbitkb.analysis.reading.sources import Sources
from orbitkb.analysis.registry import LoadedAnalyzer
from orbitkb.analysis.resolution import configrefs, engines
from orbitkb.analysis.resolution.calls import CallResolver, CallTarget
from orbitkb.analysis.resolution.configrefs import KIND as CONFIG_REF
from orbitkb.analysis.resolution.matcher import ServiceIndex
from orbitkb.analysis.technologies import TechnologyReader
from orbitkb.analysis.vendors.code import never_imported, without_echoes
from orbitkb.analysis.vendors.manifests import (
    NOTE_PREFIX,
    covered_by_messages,
    declared_sdks,
    own_manifests,
    sdk_ecosystem,
    shared_manifests,
)
from orbitkb.analysis.vendors.settings import backed_by_sdks, configured_vendors
from orbitkb.domain.ids import make_id, service_id
from orbitkb.domain.integrations import find_vendor
from orbitkb.domain.model import (
    Api,
    CallKind,
    Evidence,
    Gap,
    Message,
    ResourceType,
    Service,
    ServiceCall,
    ServiceFacts,
    TargetKind,
)
from orbitkb.domain.ports import AnalysisCache
from orbitkb.domain.runs import IndexedFile


class Pipeline:
    def __init__(
        self,
        repository: str,
        commit: str | None,
        analyzers: Mapping[str, LoadedAnalyzer],
        src: Sources,
        layout: Layout,
        deployment: Deployment,
        spring_docs: Sequence[SpringDoc],
        nginx_confs: Sequence[str],
        progress: Callable[[str, int, int], None],
        cache: AnalysisCache,
        workers: int = 0,
    ) -> None:
        self.workers = workers
        self.repo = repository
        self.commit = commit
        self.analyzers = analyzers
        self.src = src
        self.units = layout.services
        self.layout = layout
        self.deployment = deployment
        self.spring_docs = spring_docs
        self.config_servers = ConfigServers(spring_docs, src.texts)
        self.nginx = nginx_confs
        self.progress = progress
        self.gaps: list[Gap] = []
        self._readmes = readme_index(src.texts)
        self.cache = cache

    def _protos(self) -> GrpcIndex:
        found: list[ProtoService] = []
        for path in sorted(p for p in self.src.texts if p.endswith(".proto") and not ft.is_test_path(p)):
            services, error = parse_proto_file(path, self.src.texts[path])
            found.extend(services)
            if error:
                self.gaps.append(Gap(self.repo, path, "parse_error", error))
        return GrpcIndex(found)

    def run(self) -> tuple[list[ServiceFacts], list[IndexedFile], list[Gap]]:
        records = self.src.records
        owners = assign_owners((r.path for r in records), self.units)
        owners.update(grouped_modules(self.units, self.layout.libraries, owners, (r.path for r in records if not r.test)))
        owned: dict[int, list[str]] = {}
        for path, unit_index in sorted(owners.items()):
            owned.setdefault(unit_index, []).append(path)
        for i, unit in enumerate(self.units):  # one build deployed once per region/tenant: same files
            twin = next((j for j in sorted(owned) if j != i and self.units[j].root == unit.root), None)
            if i not in owned and twin is not None:
                owned[i] = list(owned[twin])
        sids = [service_id(self.repo, u.name) for u in self.units]
        linker = Linker(self.repo, self.analyzers, self.src, self.cache, self.progress, self.workers)
        libraries = library_files(self.units, self.layout.libraries, (r.path for r in records if not r.test), owners)
        for i, shared in shared_code_files(self.units, owned, self.src).items():  # Go pkg/, Nest libs/
            libraries[i] = sorted({*libraries.get(i, ()), *shared})
        linked = linker.link_all(self.units, owned, libraries)
        self.gaps.extend(linker.gaps)
        for facts in linked:
            self.gaps.extend(
                Gap(self.repo, g.file, g.kind, g.reason) for g in facts.gaps if g.kind != CONFIG_REF
            )
        grpc = self._protos()
        implementers, implemented, impl_types = self._grpc_servers(grpc, linked, owned)
        configs = [self._config(i, unit, owned.get(i, []), linked[i]) for i, unit in enumerate(self.units)]
        ports = [self._ports(u, configs[i], owned.get(i, [])) for i, u in enumerate(self.units)]
        dapr_units = (
            DaprUnit(u.name, tuple(u.aliases), u.root, tuple(ports[i])) for i, u in enumerate(self.units)
        )
        sidecars = Dapr.read(self.src.texts, dapr_units)  # app ids, state and pub/sub components
        linked = [sidecars.apply(u.name, facts) for u, facts in zip(self.units, linked)]
        linked = [self._contract(facts, owned.get(i, [])) for i, facts in enumerate(linked)]
        for facts, config in zip(linked, configs):  # values the code needs, checked against config
            for ref in (g for g in facts.gaps if g.kind == CONFIG_REF):
                gap = configrefs.check(self.repo, ref, config)
                if gap is not None:
                    self.gaps.append(gap)
        builders = [FactBuilder(sids[i], linked[i], configs[i], self.commit) for i in range(len(self.units))]
        self._registered = [
            u.name for u, c in zip(self.units, configs) if registers_with_discovery(c.props, u.deps())
        ]
        apis = {
            unit.name: b.build_apis(implemented[i], impl_types[i])
            for i, (unit, b) in enumerate(zip(self.units, builders))
        }
        index = ServiceIndex(
            ((u.name, [*u.aliases, *sidecars.aliases(u.name)], ports[i]) for i, u in enumerate(self.units)),
            self.deployment.k8s.namespaces,
        )
        resolver = CallResolver(index, grpc, implementers, apis, self.deployment.k8s.ingress)
        resources = {r.name: r.engine for r in self.layout.resources}
        present = {r.path for r in records} | {g.path for g in self.src.gaps if g.kind == "too_large"}
        tech = TechnologyReader(self.src.texts, present)
        roots = [u.root for u in self.units]
        out: list[ServiceFacts] = []
        for i, unit in enumerate(self.units):
            self.progress("resolve", i, len(self.units))
            b = builders[i]
            deps = unit.deps()
            depends = {resources[d] for c in unit.compose for d in c.depends_on if d in resources}
            service = self._service(unit, sids[i], linked[i], owned.get(i, []))
            messages = b.build_messages(deps)
            self.gaps.extend(Gap(self.repo, g.file, g.kind, g.reason) for g in b.unresolved)
            calls = self._calls(unit, sids, i, b, resolver, owned.get(i, []))
            calls = without_echoes(calls)
            calls += self._declared_sdks(unit, sids[i], calls, messages, configs[i], owned.get(i, []))
            technologies = tech.service(
                sids[i], unit, own_manifests(unit.root, unit.manifests, roots), owned.get(i, []),
                service.framework, service.evidence[:1], self.commit,
            )  # fmt: skip
            out.append(
                ServiceFacts(
                    service=service, components=tuple(b.components), apis=tuple(b.apis), calls=tuple(calls),
                    entities=tuple(b.build_entities(depends, deps)), messages=tuple(messages),
                    files=tuple(owned.get(i, [])), technologies=technologies,
                    vocabulary=self._vocabulary(unit, owned.get(i, []), linker.words(i)),
                )
            )  # fmt: skip
        self.progress("resolve", len(self.units), len(self.units))
        files = [
            IndexedFile(self.repo, r.path, r.sha256, r.size, sids[owners[r.path]] if r.path in owners else None,
                        ft.CODE_STACKS.get(ft.suffix_of(r.name)))
            for r in sorted(records, key=lambda r: r.path)
        ]  # fmt: skip
        return sorted(out, key=lambda f: f.service.name), files, self.gaps

    def _vocabulary(self, unit: ServiceUnit, owned: Sequence[str], linked_words: Sequence[tuple[str, int]]) -> tuple[str, ...]:
        """The words of the linked code, of every other file the service owns (config, templates,
        code in a stack without a linker) and of its file names, as a bag (``vocabulary.bag``)."""
        lists: list[Any] = [self.src.words[p] for p in owned if p in self.src.words]
        parsed = self.src.parsed
        if unit.stack not in self.analyzers:  # parsed files of a service no linker reads
            mine = [p for p in owned if p in parsed]
            if isinstance(parsed, ParsedResults):
                parsed.load(mine)
            lists += [decode(parsed[p]).get(vocabulary.KEY) or {} for p in mine]
        linked = set() if unit.stack not in self.analyzers else {p for p in owned if p in parsed}
        names = [p for p in owned if p not in linked]  # linked files' names are in the linked words
        return vocabulary.bag(vocabulary.merge(lists, names, linked_words))

    def _grpc_servers(
        self, grpc: GrpcIndex, linked: Sequence[LinkedFacts], owned: Mapping[int, Sequence[str]]
    ) -> tuple[dict[str, list[str]], list[list[ProtoService]], list[dict[str, str]]]:
        """(proto service -> implementing services, protos implemented by each unit, and each
        unit's implementing type per proto service when the registration names it)."""
        implementers: dict[str, list[str]] = {}
        implemented: list[list[ProtoService]] = []
        impl_types: list[dict[str, str]] = []
        for i, (unit, facts) in enumerate(zip(self.units, linked)):
            served = set(facts.grpc_implements)
            types: dict[str, str] = {}
            for path in owned.get(i, []):
                for name, impl in self.src.grpc_registrations.get(path, ()):
                    served.add(name)
                    if impl:
                        types.setdefault(name.rsplit(".", 1)[-1], impl)
            protos = {p.full_name: p for p in (grpc.find(n, unit.root) for n in served) if p is not None}
            implemented.append([protos[k] for k in sorted(protos)])
            impl_types.append(types)
            for name in sorted(served):
                proto = grpc.find(name, unit.root)
                # known protos by full name; others by simple name (no .proto in this repository)
                implementers.setdefault(proto.full_name if proto else name.rsplit(".", 1)[-1], []).append(
                    unit.name
                )
        return implementers, implemented, impl_types

    def _contract(self, facts: LinkedFacts, owned: Sequence[str]) -> LinkedFacts:
        """The API documents in the service's folder merged with what its code shows (``contracts``)."""
        merged, gaps = merge_contract(self.repo, facts, read_contract(owned, self.src.texts))
        self.gaps.extend(gaps)
        return merged

    def _config(self, i: int, unit: ServiceUnit, owned: Sequence[str], facts: LinkedFacts) -> ServiceConfig:
        owned_set = set(owned)
        docs = [d for d in self.spring_docs if d.file in owned_set]
        docs += self.config_servers.served([unit.name, *unit.aliases], docs)
        config_paths = [p for p in owned if p in self.src.texts]
        return build_config(unit, self.deployment.k8s, self.src.texts, config_paths, docs, facts.properties)

    def _ports(self, unit: ServiceUnit, config: ServiceConfig, owned: Sequence[str] = ()) -> list[int]:
        ports = [p for c in unit.compose for p in c.ports]
        ports += [p for _, container in unit.workloads for p in container.ports]
        ports += [p for m in unit.manifests[:1] for p in m.ports]
        server = config.props.get("server.port")
        if server and server.value.strip().isdigit():
            ports.append(int(server.value.strip()))
        listens = config.linked.get("server.port")  # the port the service's own code listens on
        if listens is not None and listens.value.strip().isdigit():
            ports.append(int(listens.value.strip()))
        ports += [p for f in owned if f in self.src.texts for p in dotnet_config.launch_ports(f, self.src.texts[f])]
        listen = [(k, v.value) for k, vs in config.env.items() for v in vs[:1]]
        listen += [(k, v.value) for k in config.props.keys() if (v := config.props.get(k))]
        return ports + dotnet_config.configured_ports(listen)

    def _service(self, unit: ServiceUnit, sid: str, facts: LinkedFacts, owned: Sequence[str]) -> Service:
        readme = readme_paragraph(unit.root, self.src.texts, self._readmes)
        ev = [evidence(f, line, line, self.commit) for f, line in unit.evidence]
        if readme:
            ev.append(evidence(readme[0], 1, 1, self.commit, "README"))
        return Service(
            id=sid, name=unit.name, repository=self.repo, root_dir=unit.root, stack=unit.stack,
            framework=engines.framework_from_deps(facts.framework, unit.deps()) or unit.framework,
            aliases=tuple(unit.aliases),
            readme=readme[1] if readme else None, evidence=tuple(sorted(set(ev), key=lambda e: (e.file, e.start_line))),
        )  # fmt: skip

    def _calls(
        self,
        unit: ServiceUnit,
        sids: Sequence[str],
        i: int,
        b: FactBuilder,
        resolver: CallResolver,
        owned: Sequence[str],
    ) -> list[ServiceCall]:
        sid_by_name = {u.name: sids[k] for k, u in enumerate(self.units)}
        out: dict[str, ServiceCall] = {}
        reached_from: dict[str, dict[str, None]] = {}  # call id -> every API reaching it, in order

        def add(
            kind: str, file: str, line: int, end: int, client: str, target: CallTarget,
            api: Api | None, component_id: str | None, note: str | None = None,
        ) -> None:  # fmt: skip
            to_sid = sid_by_name.get(target.to_service) if target.to_service else None
            cid = make_id(
                "call", sids[i], kind, file, line, client, target.target, target.method, target.path
            )
            if api is not None:
                reached_from.setdefault(cid, {})[api.id] = None
            out.setdefault(
                cid,
                ServiceCall(
                    id=cid, from_service_id=sids[i], call_kind=CallKind(kind), target=target.target,
                    target_kind=TargetKind.INTERNAL if to_sid else TargetKind.UNKNOWN, to_service_id=to_sid,
                    from_api_id=api.id if api else None, from_component_id=component_id,
                    method=target.method, path=target.path, to_api_id=target.to_api.id if target.to_api else None,
                    confidence=target.confidence,
                    evidence=(evidence(file, line, end, self.commit, note), *config_evidence(target.config, self.commit)),
                ),
            )  # fmt: skip

        config = b.config
        routes = list(spring_routes(config.props)) + list(zuul_routes(config.props))
        for raw in b.linked.calls:
            if raw.client == DISCOVERY_PROXY:
                routes += discovery_routes(raw.file, raw.line, config.props, self._registered, unit.name)
                continue
            kind = "grpc" if raw.kind == "grpc" else "http"
            target = resolver.resolve(config, kind, raw.url, raw.method, raw.grpc_service, raw.target_hint)
            api = b.api_for_handler(raw.api_handler)
            component = b.component_id(raw.component) or (api.component_id if api else None)
            add(kind, raw.file, raw.line, raw.end_line, raw.client, target, api, component)
        mounts = [m for c in unit.compose for m in c.mounts]
        for conf in self.nginx:
            if conf in set(owned) or mounted_config(conf, unit.root, mounts):
                routes.extend(proxy_routes(conf, self.src.texts[conf], self._registered, unit.name))
        for proxy in (c for c in unit.compose if is_label_proxy(c.image)):
            routes.extend(compose_label_routes(proxy, self.deployment.compose))
        for route in routes:
            target = resolver.resolve(config, route.kind, route.url, route.method, route_path=route.path)
            add(route.kind, route.file, route.line, route.line, route.client, target, None, None, route.note)
        for cid, api_ids in reached_from.items():
            out[cid] = attrs.evolve(out[cid], from_api_id=None, from_api_ids=tuple(api_ids))
        return sorted(
            out.values(), key=lambda c: (c.evidence[0].file, c.evidence[0].start_line, c.target, c.id)
        )

    def _declared_sdks(
        self, unit: ServiceUnit, sid: str, calls: Sequence[ServiceCall], messages: Sequence[Message],
        config: ServiceConfig, owned: Sequence[str],
    ) -> list[ServiceCall]:
        """One call per vendor SDK the service's own manifests declare or vendor its configuration
        names (a host in a value; a credential key where a manifest of the service, its own or one it
        shares, declares that vendor's SDK), unless its code already reaches that vendor (a
        call to its host, a message on its queue, an import) or its code never imports a declared
        SDK that only works imported (``vendorcode.never_imported``)."""
        code = [p for p in owned if p in self.src.parsed and p not in self.src.failed]
        reached = {v.name for v in (find_vendor(c.target) for c in calls) if v is not None}
        providers = {m.provider for m in messages}
        manifests = own_manifests(unit.root, unit.manifests, (u.root for u in self.units))
        by_vendor: dict[str, list[Evidence]] = {}
        for sdk in declared_sdks(manifests, self.src.texts):
            if sdk.vendor in reached or covered_by_messages(sdk.vendor, providers):
                continue
            if sdk.vendor == "AWS" and any(v.startswith("AWS") for v in reached):
                continue  # the generic SDK, already seen calling one AWS service
            if never_imported(sdk_ecosystem(sdk.file), sdk.package, code):
                continue
            note = NOTE_PREFIX + sdk.package
            by_vendor.setdefault(sdk.vendor, []).append(
                evidence(sdk.file, sdk.line, sdk.line, self.commit, note)
            )
        shared = shared_manifests(unit.root, unit.manifests, (u.root for u in self.units))
        shared_vendors = [sdk.vendor for sdk in declared_sdks(shared, self.src.texts)]
        for conf in backed_by_sdks(configured_vendors(config.values()), [*shared_vendors, *by_vendor]):
            if conf.vendor in reached or covered_by_messages(conf.vendor, providers):
                continue
            if conf.vendor == "AWS" and any(v.startswith("AWS") for v in [*reached, *by_vendor]):
                continue  # a credential for the generic SDK, already seen reaching one AWS service
            ev = evidence(conf.file, conf.line, conf.line, self.commit, conf.why + conf.key)
            by_vendor.setdefault(conf.vendor, []).append(ev)
        out = []
        for vendor, found in sorted(by_vendor.items()):
            first = found[0]
            known = find_vendor(vendor)
            out.append(
                ServiceCall(
                    id=make_id("call", sid, "http", first.file, first.start_line, "manifest", vendor, None, None),
                    from_service_id=sid, call_kind=CallKind.HTTP, target=vendor, target_kind=TargetKind.EXTERNAL,
                    resource_type=known.resource_type if known else ResourceType.OTHER,
                    confidence=0.6, evidence=tuple(found),
                )
            )  # fmt: skip
        return out
