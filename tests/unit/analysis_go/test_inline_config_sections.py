"""Config sections written in place (``Billing struct { URL string `env:"..."` }`` inside the
config struct, as cleanenv / envconfig / viper users often do) are read like named section types:
an env-tagged field gives its variable and default, a key-tagged one its whole key path."""

from __future__ import annotations

from orbitkb.analysis.facts import LinkedFacts

from .helpers import link, show

GOMOD = "module example.com/shop/web\n\ngo 1.22\n"

ENV_SECTION = """
package main

import (
	"net/http"

	"github.com/ilyakaznacheev/cleanenv"
)

type Settings struct {
	Billing struct {
		BaseURL string `yaml:"base_url" env:"BILLING_URL" env-default:"http://billing:7000"`
	} `yaml:"billing"`
	Ledger struct {
		Inner struct {
			Addr string `envconfig:"LEDGER_ADDR" default:"http://ledger:7100"`
		}
	}
}

func main() {
	var s Settings
	_ = cleanenv.ReadEnv(&s)
	_, _ = http.Post(s.Billing.BaseURL+"/invoices", "application/json", nil)
	_, _ = http.Get(s.Ledger.Inner.Addr + "/entries")
}
"""

KEY_SECTION = """
package main

import (
	"net/http"

	"github.com/spf13/viper"
)

type Conf struct {
	Upstreams struct {
		Catalog string `mapstructure:"catalog"`
	} `mapstructure:"upstreams"`
}

func main() {
	var c Conf
	_ = viper.Unmarshal(&c)
	_, _ = http.Get(c.Upstreams.Catalog + "/items")
}
"""

GRPC_SECTION = """
package main

import (
	"github.com/kelseyhightower/envconfig"
	"google.golang.org/grpc"
	"google.golang.org/grpc/credentials/insecure"

	stockpb "example.com/protos/stock/v1"
)

type Env struct {
	Stock struct {
		Target string `envconfig:"STOCK_TARGET" default:"stock:9000"`
	}
}

func main() {
	var e Env
	envconfig.MustProcess("", &e)
	conn, _ := grpc.NewClient(e.Stock.Target, grpc.WithTransportCredentials(insecure.NewCredentials()))
	_ = stockpb.NewStockServiceClient(conn)
}
"""

GORM_INLINE = """
package main

import "gorm.io/gorm"

type Invoice struct {
	gorm.Model
	Meta struct {
		Note string `gorm:"column:note"`
	} `gorm:"embedded"`
}

func main() {
	var db *gorm.DB
	_ = db.AutoMigrate(&Invoice{})
}
"""


def _urls(facts: LinkedFacts) -> list[str]:
    return sorted(show(c.url) or "" for c in facts.calls)


def test_env_tagged_fields_of_inline_sections_give_their_variable_and_default() -> None:
    facts = link({"web/go.mod": GOMOD, "web/main.go": ENV_SECTION})
    assert _urls(facts) == [
        "{env:BILLING_URL|http://billing:7000}/invoices",
        "{env:LEDGER_ADDR|http://ledger:7100}/entries",
    ]


def test_key_tagged_fields_of_inline_sections_are_the_whole_key_path() -> None:
    facts = link({"web/go.mod": GOMOD, "web/main.go": KEY_SECTION})
    assert _urls(facts) == ["{prop:upstreams.catalog}/items"]


def test_a_grpc_target_from_an_inline_section_names_the_address() -> None:
    facts = link({"web/go.mod": GOMOD, "web/main.go": GRPC_SECTION})
    assert [(c.kind, show(c.url)) for c in facts.calls] == [("grpc", "{env:STOCK_TARGET|stock:9000}")]


def test_an_inline_struct_is_never_an_entity_or_a_component_of_its_own() -> None:
    facts = link({"web/go.mod": GOMOD, "web/main.go": GORM_INLINE})
    assert not any("$" in (e.name or "") or "$" in (e.class_name or "") for e in facts.entities)
    assert not any("$" in c.name for c in facts.components)
