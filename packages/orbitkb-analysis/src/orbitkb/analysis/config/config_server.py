"""Spring Cloud Config Server's native backend: the files a config server serves to its clients.

A config server (``spring.cloud.config.server.native.search-locations: classpath:/shared``) holds
``<application-name>.yml`` (and ``-<profile>`` variants) for each client and ``application.yml``
for all of them. A client named ``spring.application.name: orders`` runs with those properties on
top of its own: served documents rank before the client's files, an application's own before the
shared ones, as Spring Cloud Config orders them.

A git backend whose ``search-paths`` name folders of the repository itself (``properties/{application}/
{profile}``, ``config/shared``) serves those folders the same way: ``{application}`` matches the
client's name, ``{profile}`` the profile (``default`` is none).
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Mapping, Sequence
from typing import Literal

from orbitkb.analysis import paths
from orbitkb.analysis.config.spring import SpringDoc, SpringProps, read_spring

_SEARCH_KEYS = (
    "spring.cloud.config.server.native.search-locations",
    "spring.cloud.config.server.native.searchLocations",
)
_GIT_SEARCH_KEYS = (
    "spring.cloud.config.server.git.search-paths",
    "spring.cloud.config.server.git.searchPaths",
)
#: a search path's placeholders -> what they match in a folder path
_PLACEHOLDERS = {
    "{application}": "(?P<app>[^/]+)",
    "{profile}": "(?P<profile>[^/]+)",
    "{label}": "[^/]+",
    "*": "[^/]*",
}
_CONFIG_FILE = re.compile(r"^(?P<stem>[\w.\-]+)\.(?:ya?ml|properties)$")
_RESOURCES = "src/main/resources"
#: properties that make a service a config client (``spring.cloud.config.enabled: false`` does not)
_CLIENT_KEYS = ("spring.cloud.config.uri", "spring.cloud.config.discovery.enabled", "spring.config.import")
#: rank of served documents (lower wins): the application's own file, then the shared one
APP_RANK, SHARED_RANK = 0, 1


def _folder(doc_file: str, location: str) -> str | None:
    """``classpath:/shared`` next to the server's resources; ``file:./config`` from its module root."""
    location = location.strip()
    if not location or "${" in location:
        return None
    owner = paths.parent(doc_file)
    module = doc_file.split("/" + _RESOURCES + "/")[0] if "/" + _RESOURCES + "/" in "/" + doc_file else owner
    if module == doc_file:
        module = ""
    if location.startswith("classpath:"):
        base = paths.join(module, _RESOURCES) if _RESOURCES in doc_file else owner
        rest = location[len("classpath:") :]
    elif location.startswith("file:"):
        base, rest = module, location[len("file:") :]
    else:
        return None
    rest = rest.strip("/").removeprefix("./").strip("/")
    if base is None:
        return None
    return paths.join(base, rest) if rest else base


def _search_path(location: str) -> re.Pattern[str] | None:
    """A git backend's search path (from the repository root) as a pattern over folder paths."""
    location = location.strip().strip("'\"").strip("/").removeprefix("./").strip("/")
    if not location or "${" in location or ":" in location:
        return None
    pattern = re.escape(location)
    for placeholder, regex in _PLACEHOLDERS.items():
        pattern = pattern.replace(re.escape(placeholder), regex)
    return re.compile(pattern)


class ConfigServers:
    """The folders config servers of a repository serve, and the documents a client gets from them."""

    def __init__(self, spring_docs: Iterable[SpringDoc], texts: Mapping[str, str]) -> None:
        folders: set[str] = set()
        patterns: list[re.Pattern[str]] = []
        for doc in spring_docs:
            for key in _SEARCH_KEYS:
                value = doc.props.get(key)
                if value is not None:
                    folders.update(f for loc in value.value.split(",") if (f := _folder(doc.file, loc)))
            for key in _GIT_SEARCH_KEYS:
                value = doc.props.get(key)
                if value is not None:
                    patterns.extend(p for loc in value.value.split(",") if (p := _search_path(loc)))
        #: stem -> [(path, text, the client it is for (None: every client), the folder's profile)]
        self._files: dict[str, list[tuple[str, str, str | None, str | None]]] = {}
        for path in sorted(texts):
            match = _CONFIG_FILE.match(paths.basename(path))
            if not match:
                continue
            folder = paths.parent(path) or ""
            for served in [(None, None)] if folder in folders else _templated(folder, patterns):
                self._files.setdefault(match.group("stem"), []).append((path, texts[path], *served))
        self._read: dict[str, list[SpringDoc]] = {}

    def __bool__(self) -> bool:
        return bool(self._files)

    def served(self, names: Sequence[str], own: Sequence[SpringDoc]) -> list[SpringDoc]:
        """Documents served to a service known by ``names`` whose own files are ``own``."""
        if not self._files:
            return []
        props = SpringProps(list(own))
        enabled = props.get("spring.cloud.config.enabled")
        if enabled is not None and enabled.value.strip().lower() == "false":
            return []
        app = props.get("spring.application.name")
        wanted = [app.value.strip()] if app is not None and "${" not in app.value else list(names)
        out: list[SpringDoc] = []
        own_file = False  # a file served under the client's name makes it a client, even an empty one
        for name in wanted:
            for stem in sorted(self._files):
                profile = _profile_of(stem, name)
                if profile is not False:
                    own_file = own_file or any(app in (None, name) for _p, _t, app, _f in self._files[stem])
                    out.extend(self._docs(stem, profile, APP_RANK, name))
        shared = [
            doc for stem in sorted(self._files) if (profile := _profile_of(stem, "application")) is not False
            for name in wanted[:1] for doc in self._docs(stem, profile, SHARED_RANK, name)
        ]  # fmt: skip
        if out or own_file or any(props.get(k) is not None for k in _CLIENT_KEYS):
            out.extend(shared)
        return out

    def _docs(self, stem: str, profile: str | None, rank: int, client: str) -> list[SpringDoc]:
        docs: list[SpringDoc] = []
        for path, text, app, folder_profile in self._files[stem]:
            if app not in (None, client):
                continue
            if path not in self._read:
                self._read[path] = read_spring(path, text)[0]
            base = profile if profile is not None else folder_profile
            docs.extend(
                SpringDoc(d.file, d.profile if d.profile is not None else base, d.props, rank)
                for d in self._read[path]
            )
        return docs


def _templated(folder: str, patterns: Sequence[re.Pattern[str]]) -> list[tuple[str | None, str | None]]:
    """(client, profile) pairs a folder is served for by git search paths (a folder two paths
    match is served by both: ``{application}/{profile}`` to one client, ``global/{profile}`` to all)."""
    out: list[tuple[str | None, str | None]] = []
    for pattern in patterns:
        match = pattern.fullmatch(folder)
        if match:
            found = match.groupdict()
            profile = found.get("profile")
            pair = (found.get("app"), None if profile in (None, "default") else profile)
            if pair not in out:
                out.append(pair)
    return out


def _profile_of(stem: str, name: str) -> str | Literal[False] | None:
    """``orders`` -> None (default profile), ``orders-docker`` -> ``docker``, another name -> False."""
    if stem == name:
        return None
    if stem.startswith(name + "-") and len(stem) > len(name) + 1:
        return stem[len(name) + 1 :]
    return False
