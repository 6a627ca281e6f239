"""Import paths of a Go project written for GOPATH (no go.mod): which folder each one names.

Before modules, a project lived at ``$GOPATH/src/<import path>`` and imported its own packages by
that path (``micr-go/core/db``, ``github.com/acme/shop/pkg/kafka``), declared nowhere in the
repository (dep's Gopkg.toml, glide.yaml or a Dockerfile's ``WORKDIR $GOPATH/src/micr-go`` at
most). The root path is recovered from the imports themselves: the prefix whose remainder is a
folder of the repository holding Go code.
"""

from __future__ import annotations

from collections.abc import Iterable, Set

#: The first segments of the standard library's import paths (``net/http``, ``encoding/json``):
#: never a project's own root, whatever folders the repository has.
STDLIB_ROOTS = frozenset(
    {"archive", "bufio", "builtin", "bytes", "cmp", "compress", "container", "context", "crypto",
     "database", "debug", "embed", "encoding", "errors", "expvar", "flag", "fmt", "go", "hash", "html",
     "image", "index", "io", "iter", "log", "maps", "math", "mime", "net", "os", "path", "plugin",
     "reflect", "regexp", "runtime", "slices", "sort", "strconv", "strings", "sync", "syscall",
     "testing", "text", "time", "unicode", "unique", "unsafe", "C"}
)  # fmt: skip


def gopath_roots(imports: Iterable[str], code_dirs: Set[str]) -> dict[str, str]:
    """Import-path prefix -> the repository folder it stands for (always the root, ``.``): every
    prefix ``p`` of an import ``p/rest`` (not the standard library's) where ``rest`` is a folder in
    ``code_dirs`` (folders holding Go code); under a hosted path (a first segment with a dot) ``rest``
    must be two folders deep, as one folder name alone matches third-party packages too."""
    out: dict[str, str] = {}
    for imp in sorted(set(imports)):
        parts = imp.strip("/").split("/")
        if len(parts) < 2 or parts[0] in STDLIB_ROOTS:
            continue
        for k in range(1, len(parts)):
            if "." in parts[0] and len(parts) - k < 2:
                break  # one folder under a hosted path (``github.com/go-chi/chi/v5/middleware``): too weak
            if "/".join(parts[k:]) in code_dirs:
                out.setdefault("/".join(parts[:k]), ".")
                break
    return out
