"""Images built by a CI workflow (GitHub Actions): which folder each image is.

A compose file or manifest often runs ``image: acme/shop-api:dev`` that only a workflow builds:
a ``docker/build-push-action`` step (``context``, ``file``, ``tags``; tags written out, or read from
a ``docker/metadata-action`` step's ``images`` through ``${{ steps.meta.outputs.tags }}``), or a
``run:`` step calling ``docker build`` (layout.dockerbuild). Workflows run at the repository root,
so paths are relative to it. An image still holding ``${{ ... }}`` says nothing and is skipped.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterable, Mapping

import yaml

from orbitkb.analysis import paths
from orbitkb.analysis.layout.dockerbuild import Build, read_builds
from orbitkb.analysis.yamlines import LDict, LList, load_all

#: The folder GitHub Actions reads workflows from.
WORKFLOW_DIR = ".github/workflows"
#: Actions whose ``with:`` builds an image (by the action's name, any owner or version).
BUILD_ACTIONS = frozenset({"build-push-action"})
#: Actions whose ``with: images`` names the images a later build step tags.
META_ACTIONS = frozenset({"metadata-action"})
_OUTPUT = re.compile(r"\$\{\{\s*steps\.([\w-]+)\.outputs\.tags\s*\}\}")


def is_workflow(path: str) -> bool:
    return paths.parent(path) == WORKFLOW_DIR and path.endswith((".yml", ".yaml"))


def keep_workflows(dir_path: str) -> bool:
    """A listing's prune: True for every folder that cannot hold a workflow."""
    return dir_path not in (".github", WORKFLOW_DIR)


def _action(step: LDict) -> str:
    uses = str(step.get("uses") or "")
    return uses.partition("@")[0].rsplit("/", 1)[-1]


def _items(value: object) -> list[str]:
    """A list written as YAML, or as text with one item per line or comma (a line of ``key=value``
    fields, metadata-action's long form, is one item)."""
    lines = [str(v) for v in value] if isinstance(value, list) else str(value or "").splitlines()
    return [w.strip() for line in lines for w in ([line] if "=" in line else line.split(",")) if w.strip()]


def _image(item: str) -> str:
    """``name=acme/api,enable=true`` (metadata-action's long form) -> ``acme/api``."""
    fields = dict(f.partition("=")[::2] for f in item.split(",") if "=" in f)
    return fields.get("name", item).strip()


def _steps(doc: object) -> Iterable[tuple[LDict, int]]:
    jobs = doc.get("jobs") if isinstance(doc, LDict) else None
    for job in jobs.values() if isinstance(jobs, LDict) else []:
        steps = job.get("steps") if isinstance(job, LDict) else None
        if not isinstance(steps, LList):
            continue
        for i, step in enumerate(steps):
            if isinstance(step, LDict):
                yield step, steps.line(i)


def read_workflow(path: str, text: str) -> list[Build]:
    """The images one workflow builds, each with its context and Dockerfile."""
    try:
        docs = load_all(text)
    except (yaml.YAMLError, ValueError, RecursionError):
        return []  # an unreadable workflow says nothing of the services
    out: list[Build] = []
    for doc in docs[:1]:
        steps = list(_steps(doc))
        meta = {
            str(step.get("id")): [_image(i) for i in _items(w.get("images"))]
            for step, _line in steps
            if _action(step) in META_ACTIONS and step.get("id") and isinstance(w := step.get("with"), LDict)
        }
        for step, line in steps:
            run = step.get("run")
            if isinstance(run, str):
                out.extend((img, ctx, df, path, line) for img, ctx, df, _p, _l in read_builds("x", run))
            with_ = step.get("with")
            if _action(step) not in BUILD_ACTIONS or not isinstance(with_, LDict):
                continue
            context = str(with_.get("context") or ".").strip().removeprefix("./") or "."
            folder = paths.join(".", context)
            dockerfile = str(with_.get("file") or "").strip()
            built = paths.join(".", dockerfile.removeprefix("./")) if dockerfile else None
            if folder is None or "$" in context or "$" in dockerfile:
                continue
            tags: list[str] = []
            for item in _items(with_.get("tags")):
                found = _OUTPUT.fullmatch(item)
                tags.extend(meta.get(found.group(1), []) if found else [item])
            out.extend((tag, folder, built, path, line) for tag in tags if tag and "$" not in tag)
    return out


def read_workflows(files: Iterable[str], read: Callable[[str], str]) -> dict[str, str]:
    """Workflow path -> text for the workflow files among ``files``."""
    return {p: read(p) for p in sorted(files) if is_workflow(p)}


def builds(texts: Mapping[str, str]) -> list[Build]:
    return [b for path, text in sorted(texts.items()) for b in read_workflow(path, text)]
