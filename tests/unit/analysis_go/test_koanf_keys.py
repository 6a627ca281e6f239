"""koanf: ``k.String("clients.ledger.url")`` on a ``koanf.New(".")`` tree reads a config key, as
``viper.GetString`` does, so the service's config file (or the environment) resolves it; a method
of another object named ``String`` reads nothing."""

from __future__ import annotations

from orbitkb.analysis.facts import LinkedFacts

from .helpers import link, show

GOMOD = "module example.com/shop/web\n\ngo 1.22\n"

PACKAGE_TREE = """
package main

import (
	"net/http"

	"github.com/knadh/koanf/parsers/yaml"
	"github.com/knadh/koanf/providers/file"
	"github.com/knadh/koanf/v2"
)

var conf = koanf.New(".")

func main() {
	_ = conf.Load(file.Provider("app.yaml"), yaml.Parser())
	_, _ = http.Get(conf.String("clients.ledger.url") + "/entries")
}
"""

HANDED_TREE = """
package main

import (
	"net/http"

	"github.com/knadh/koanf/v2"
)

type Quotes struct {
	base string
}

func NewQuotes(k *koanf.Koanf) *Quotes {
	return &Quotes{base: k.MustString("quotes.base")}
}

func (q *Quotes) Latest() {
	_, _ = http.Get(q.base + "/latest")
}

func main() {
	NewQuotes(koanf.New(".")).Latest()
}
"""

OTHER_STRING = """
package main

import (
	"net/http"
	"strings"
)

func main() {
	var b strings.Builder
	b.WriteString("http://static-host")
	_, _ = http.Get(b.String() + "/ping")
}
"""


def _urls(facts: LinkedFacts) -> list[str]:
    return sorted(show(c.url) or "" for c in facts.calls)


def test_a_key_read_from_a_package_level_tree_is_a_config_property() -> None:
    assert _urls(link({"web/go.mod": GOMOD, "web/main.go": PACKAGE_TREE})) == ["{prop:clients.ledger.url}/entries"]


def test_a_key_read_from_a_tree_handed_to_a_constructor_is_a_config_property() -> None:
    assert _urls(link({"web/go.mod": GOMOD, "web/main.go": HANDED_TREE})) == ["{prop:quotes.base}/latest"]


def test_string_on_another_object_is_not_a_config_read() -> None:
    assert not any("prop:" in u for u in _urls(link({"web/go.mod": GOMOD, "web/main.go": OTHER_STRING})))
