"""One Dockerfile building one of several Go programs per build argument (``go build
./apps/$APP``), in a GOPATH project whose own import root (``bookclub/...``) no go.mod declares:
each program folder is a service, a scratch ``main`` at the root is not, and the shared packages
they import by that root are read as their libraries."""

from __future__ import annotations

import textwrap

import pytest

from orbitkb.analysis import StaticCodeAnalyzer
from orbitkb.analysis.golang.gopath import gopath_roots
from orbitkb.analysis.layout.buildargs import program_folders
from orbitkb.domain.fakes import MemorySourceTree
from orbitkb.domain.fakes.analysis import DictAnalysisCache
from orbitkb.domain.ports import AnalysisRequest

DOCKERFILE = """
FROM golang:1.21 AS build
ARG APP
WORKDIR $GOPATH/src/bookclub
COPY . .
RUN CGO_ENABLED=0 go build -ldflags "-s" -o /out/app ./apps/$APP
FROM scratch
COPY --from=build /out/app /app
ENTRYPOINT ["/app"]
"""

SCRATCH = """
package main

import "fmt"

func main() { fmt.Println(1 + 1) }
"""

NOTIFY = """
package notify

import "net/http"

func Loaned(title string) {
	http.Post("http://members:7000/loans", "text/plain", nil)
}
"""

CATALOG = """
package main

import (
	"net/http"

	"bookclub/pkg/notify"
)

func lend(w http.ResponseWriter, r *http.Request) { notify.Loaned("dune") }

func main() {
	http.HandleFunc("/lend", lend)
	http.ListenAndServe(":7000", nil)
}
"""

MEMBERS = """
package main

import "net/http"

func loans(w http.ResponseWriter, r *http.Request) {}

func main() {
	http.HandleFunc("/loans", loans)
	http.ListenAndServe(":7000", nil)
}
"""


def analyze(files: dict[str, str]):
    tree = MemorySourceTree({p: textwrap.dedent(t).lstrip("\n") for p, t in files.items()}, commit="c0ffee")
    result = StaticCodeAnalyzer(workers=0).analyze(tree, AnalysisRequest("bookclub"), DictAnalysisCache())
    return {f.service.name: f for f in result.services}


def club(**more: str) -> dict[str, str]:
    return {
        "Gopkg.toml": '[[constraint]]\n  name = "github.com/lib/pq"\n',
        "main.go": SCRATCH,
        "pkg/notify/notify.go": NOTIFY,
        "apps/catalog/main.go": CATALOG,
        "apps/members/main.go": MEMBERS,
        **more,
    }


def test_each_program_a_build_argument_picks_is_a_service_and_reads_the_shared_packages() -> None:
    services = analyze(club(Dockerfile=DOCKERFILE))
    assert sorted(services) == ["catalog", "members"]  # the root scratch program ships in no image
    assert services["catalog"].service.root_dir == "apps/catalog"
    # notify is imported as bookclub/pkg/notify: the GOPATH root names the repository's own folder
    assert {c.to_service_id for c in services["catalog"].calls} == {services["members"].service.id}


@pytest.mark.parametrize(
    "build",
    [
        "RUN go build -o /out/app ./apps/catalog",  # one named program: nothing chosen by an argument
        "RUN go build ./...",
    ],
)
def test_negative_a_build_without_an_argument_keeps_the_project_whole(build: str) -> None:
    services = analyze(club(Dockerfile=f"FROM golang:1.21\nCOPY . .\n{build}\n"))
    assert sorted(services) == ["bookclub"]


def test_negative_an_argument_folder_with_one_program_splits_nothing() -> None:
    files = club(Dockerfile=DOCKERFILE)
    del files["apps/members/main.go"]
    assert sorted(analyze(files)) == ["bookclub"]


@pytest.mark.parametrize(
    ("run", "folders"),
    [
        ("CGO_ENABLED=0 GOOS=linux go build -a -o /app ./services/$SERVICE", ["services"]),
        ("go build -o=/bin/svc ./cmd/${NAME}/ && strip /bin/svc", ["cmd"]),
        ("cd /src; go install -tags netgo src/apps/$(APP)", ["src/apps"]),
        ("go build -o /app .", []),
        ("go build ./$SERVICE", []),  # the variable is the whole path: no folder holds the programs
        ("go build ./svc-$NAME/cmd", []),  # a variable inside a folder name, not the last segment
        ("npm run build -- ./apps/$APP", []),  # not a Go build
    ],
)
def test_program_folders_of_a_run_line(run: str, folders: list[str]) -> None:
    assert program_folders(run) == folders


def test_gopath_roots_are_the_prefixes_whose_rest_is_a_folder_of_code() -> None:
    dirs = {"pkg/notify", "apps/catalog", "middleware", "internal/store"}
    imports = [
        "bookclub/pkg/notify",  # the project's own root, declared nowhere
        "github.com/acme/club/internal/store",  # a hosted root, two folders deep
        "net/http",  # the standard library, never
        "github.com/go-chi/chi/v5/middleware",  # one folder under a hosted path: too weak
        "fmt",
    ]
    assert gopath_roots(imports, dirs) == {"bookclub": ".", "github.com/acme/club": "."}
