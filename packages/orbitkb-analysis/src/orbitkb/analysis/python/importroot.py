"""Where the running code's imports start, read from a deployment command that names a module:
``celery -A pkg.worker worker``, ``uvicorn svc.main:app``, ``hypercorn app/main:app``,
``python -m pkg.cli``. The module named and the file that holds it fix the import root (the
folder ``sys.path`` starts at, and any package folders the image adds above the repository's),
which decides names such as a Celery task's ``module.function``."""

from __future__ import annotations

from collections.abc import Iterable, Sequence

from attrs import frozen

_MODULE_FLAGS = ("-A", "--app", "-m")


@frozen
class ImportRoot:
    folder: str  # repository folder the import names start at ("." for the root)
    prefix: str  # package path the deployment adds in front ("" when none)

    def module(self, path: str) -> str | None:
        """The dotted name ``path`` is imported as, when it lies under the import root."""
        rel = path if self.folder == "." else path[len(self.folder) + 1 :]
        if self.folder != "." and not path.startswith(self.folder + "/"):
            return None
        dotted = _dotted(rel)
        return ".".join(p for p in (self.prefix, dotted) if p)


def _dotted(path: str) -> str:
    parts = path.rsplit(".", 1)[0].split("/")
    if parts[-1] == "__init__":
        parts = parts[:-1]
    return ".".join(parts)


def named_modules(command: Sequence[str]) -> list[str]:
    """Module names a command starts: ``-A x``/``--app=x``/``-m x`` values and ``x:app`` targets."""
    out: list[str] = []
    for i, word in enumerate(command):
        value = None
        if word in _MODULE_FLAGS and i + 1 < len(command):
            value = command[i + 1]
        elif word.startswith("--app="):
            value = word.partition("=")[2]
        elif ":" in word and not word.startswith("-") and "://" not in word and word.split(":")[-1].isidentifier():
            value = word
        if value:
            module = value.split(":", 1)[0].removesuffix(".py").replace("/", ".").strip(".")
            if module and all(p.isidentifier() for p in module.split(".")):
                out.append(module)
    return out


def find(commands: Iterable[Sequence[str]], paths: Iterable[str]) -> ImportRoot | None:
    """The import root the first module-naming command implies, matched on the service's files."""
    by_dotted: dict[str, str] = {}
    for path in sorted(paths):
        if path.endswith(".py"):
            by_dotted.setdefault(_dotted(path), path)
    for command in commands:
        for module in named_modules(command):
            hit = _match(module, by_dotted)
            if hit is not None:
                return hit
    return None


def _match(module: str, by_dotted: dict[str, str]) -> ImportRoot | None:
    """Align the module's trailing parts with a file's: extra parts in front of the module are
    package folders the deployment adds; extra folders in front of the file are below the root."""
    parts = module.split(".")
    best: tuple[int, ImportRoot] | None = None
    for dotted in by_dotted:
        fparts = dotted.split(".")
        n = min(len(parts), len(fparts))
        if n == 0 or parts[-n:] != fparts[-n:]:
            continue
        if len(parts) > len(fparts):
            found = ImportRoot(".", ".".join(parts[: len(parts) - n]))
        else:
            found = ImportRoot("/".join(fparts[: len(fparts) - n]) or ".", "")
        if best is None or n > best[0]:
            best = (n, found)
    return best[1] if best else None
