"""A ``url.URL{Scheme, Host, Path}`` literal is the URL ``scheme://host`` + path its ``String()``
gives (the scheme defaults to http); a literal without a Host says nothing about the target."""

from __future__ import annotations

from orbitkb.analysis.facts import LinkedFacts

from .helpers import link, show

GOMOD = "module example.com/shop/web\n\ngo 1.22\n"

KEYED = """
package main

import (
	"net/http"
	"net/url"
	"os"
)

func main() {
	target := &url.URL{Scheme: "https", Host: os.Getenv("LEDGER_HOST"), Path: "/entries"}
	req, _ := http.NewRequest(http.MethodPost, target.String(), nil)
	_, _ = http.DefaultClient.Do(req)
}
"""

PATH_SET_LATER = """
package main

import (
	"net/http"
	"net/url"
)

func main() {
	u := url.URL{Host: "quotes:8080"}
	u.Path = "/latest"
	_, _ = http.Get(u.String())
}
"""

NO_HOST = """
package main

import (
	"net/http"
	"net/url"
)

func main() {
	u := url.URL{Path: "/relative"}
	_, _ = http.Get(u.String())
}
"""


def _urls(facts: LinkedFacts) -> list[str]:
    return sorted(show(c.url) or "" for c in facts.calls)


def test_scheme_host_and_path_make_the_url() -> None:
    assert _urls(link({"web/go.mod": GOMOD, "web/main.go": KEYED})) == ["https://{env:LEDGER_HOST}/entries"]


def test_a_path_set_after_the_literal_joins_the_default_scheme_and_host() -> None:
    assert _urls(link({"web/go.mod": GOMOD, "web/main.go": PATH_SET_LATER})) == ["http://quotes:8080/latest"]


def test_a_literal_without_a_host_names_no_target() -> None:
    assert not any("://" in u for u in _urls(link({"web/go.mod": GOMOD, "web/main.go": NO_HOST})))
