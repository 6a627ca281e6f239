"""How URL and channel values are folded: env fallbacks written several ways, constants across
packages, Sprintf, url.JoinPath, config structs with env tags; attribution stops after one hop."""

from __future__ import annotations

from .helpers import link, show

CONSTS = """
package consts

const (
	Scheme = "http"
	Host   = Scheme + "://" + "billing"
)

const Port = 8081
"""

MAIN = """
package main

import (
	"cmp"
	"fmt"
	"net/http"
	"net/url"
	"os"

	"github.com/kelseyhightower/envconfig"

	"example.com/acme/gateway/consts"
)

type Settings struct {
	UsersURL string `envconfig:"USERS_URL" default:"http://users:8080"`
	Timeout  int
}

func main() {
	addr := os.Getenv("SEARCH_ADDR")
	if addr == "" {
		addr = "search:9200"
	}
	http.Get("http://" + addr + "/_search")

	http.Get(cmp.Or(os.Getenv("REPORTS_URL"), "http://reports") + "/daily")

	var s Settings
	envconfig.Process("", &s)
	http.Post(s.UsersURL+"/users", "application/json", nil)

	billing := fmt.Sprintf("%s:%d/invoices/%s", consts.Host, consts.Port, "latest")
	http.Get(billing)

	u, _ := url.JoinPath(os.Getenv("AUDIT_URL"), "v1", "events")
	http.Post(u, "application/json", nil)

	base := "http://notify"
	if v, ok := os.LookupEnv("NOTIFY_URL"); ok {
		base = v
	}
	http.Get(base + "/ping")
}
"""


def test_env_fallbacks_constants_sprintf_and_config_tags() -> None:
    facts = link({"gateway/consts/consts.go": CONSTS, "gateway/main.go": MAIN})
    assert sorted((c.line, c.method, show(c.url)) for c in facts.calls) == [
        (25, "GET", "http://{env:SEARCH_ADDR|search:9200}/_search"),
        (27, "GET", "{env:REPORTS_URL|http://reports}/daily"),
        (31, "POST", "{env:USERS_URL|http://users:8080}/users"),
        (34, "GET", "http://billing:8081/invoices/latest"),
        (37, "POST", "{env:AUDIT_URL}/v1/events"),
        (43, "GET", "{env:NOTIFY_URL|http://notify}/ping"),
    ]


LAYERS = """
package main

import (
	"net/http"

	"github.com/go-chi/chi/v5"
)

type Repo struct{}

func (r *Repo) Load() { http.Get("http://storage/objects") }

type Service struct{ repo *Repo }

func (s *Service) Place() {
	http.Post("http://payments/charge", "application/json", nil)
	s.repo.Load()
}

type API struct{ svc *Service }

func (a *API) PlaceOrder(w http.ResponseWriter, r *http.Request) { a.svc.Place() }

func main() {
	api := &API{svc: &Service{repo: &Repo{}}}
	r := chi.NewRouter()
	r.Post("/orders", api.PlaceOrder)
	http.ListenAndServe(":8080", r)
}
"""


def test_calls_are_attributed_to_the_handler_one_hop_deep_only() -> None:
    facts = link({"orders/main.go": LAYERS})
    assert sorted((c.line, show(c.url), c.api_handler, c.component) for c in facts.calls) == [
        (11, "http://storage/objects", None, "Repo"),
        (16, "http://payments/charge", "API.PlaceOrder", "Service"),
    ]
