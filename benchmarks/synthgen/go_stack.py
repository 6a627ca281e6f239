"""Go services: gin (router groups composed across packages) and net/http (Go 1.22 method
patterns with a prefix constant); net/http clients, kafka-go, amqp091-go and GORM models."""

from __future__ import annotations

import random

from synthgen import go_filler as filler
from synthgen.emit import ExpectedApi, ServiceOutput, fill_to_quota, pascal
from synthgen.plan import Call, ServicePlan, render_path

GIN_ACTION = {"list": "List", "get": "Get", "create": "Create", "update": "Update", "delete": "Delete"}


def emit(plan: ServicePlan) -> ServiceOutput:
    rng = random.Random(plan.seed)
    out = ServiceOutput()
    module = f"github.com/acme/{plan.name}"
    out.add(
        "go.mod",
        f"module {module}\n\ngo 1.22\n\nrequire (\n\tgithub.com/gin-gonic/gin v1.9.1\n"
        "\tgithub.com/rabbitmq/amqp091-go v1.9.0\n\tgithub.com/segmentio/kafka-go v0.4.47\n\tgorm.io/gorm v1.25.7\n)\n",
    )
    out.add(
        "Dockerfile",
        f"FROM golang:1.22 AS build\nWORKDIR /src\nCOPY . .\nRUN go build -o /bin/app ./cmd/{plan.name}\n\n"
        f'FROM gcr.io/distroless/base\nCOPY --from=build /bin/app /app\nEXPOSE {plan.port}\nENTRYPOINT ["/app"]\n',
    )
    out.add("README.md", f"# {plan.name}\n\nGo service for {plan.domain}.\n")
    if plan.framework == "gin":
        _gin(out, plan, module, rng)
    else:
        _nethttp(out, plan, module, rng)
    _clients(out, plan)
    _messaging(out, plan)
    _models(out, plan)
    fill_to_quota(plan, out, [filler.util(), filler.types(), filler.test()], rng)
    return out


def _handler_type(plural: str) -> str:
    return pascal(plural) + "Handler"


def _gin(out: ServiceOutput, plan: ServicePlan, module: str, rng: random.Random) -> None:
    for plural, _singular in plan.resources:
        typ = _handler_type(plural)
        group = rng.random() < 0.6
        lines = [
            "package handlers",
            "",
            "import (",
            '\t"net/http"',
            "",
            '\t"github.com/gin-gonic/gin"',
            ")",
            "",
            f"// {typ} serves the {plural} resource.",
            f"type {typ} struct{{}}",
            "",
            f"// Register mounts the {plural} routes on rg.",
            f"func (h *{typ}) Register(rg *gin.RouterGroup) {{",
        ]
        if group:
            lines.append(f'\tg := rg.Group("/{plural}")')
        methods = []
        for r in plan.routes:
            if r.plural != plural:
                continue
            sub = "/".join(":" + r.param if s.startswith("{") else s for s in r.tail)
            fn = GIN_ACTION.get(r.action, pascal(r.action))
            path = ("/" + sub if sub else "") if group else f"/{plural}" + ("/" + sub if sub else "")
            lines.append(f'\t{"g" if group else "rg"}.{r.method}("{path}", h.{fn})')
            out.apis.append(ExpectedApi(r.method, render_path(plan.prefix, r, "colon"), f"{typ}.{fn}"))
            methods.append((fn, r))
        lines += ["}", ""]
        for fn, r in methods:
            lines += [f"// {fn} handles {r.method} on {plural}.", f"func (h *{typ}) {fn}(c *gin.Context) {{"]
            if "{id}" in r.tail:
                lines.append(f'\tid := c.Param("{r.param}")')
                lines.append('\tc.JSON(http.StatusOK, gin.H{"id": id})')
            else:
                lines.append('\tc.JSON(http.StatusOK, gin.H{"items": []string{}})')
            lines += ["}", ""]
        out.add(f"internal/handlers/{plural}.go", "\n".join(lines))
    regs = "".join(f"\t(&handlers.{_handler_type(p)}{{}}).Register(api)\n" for p, _ in plan.resources)
    group = f'\tapi := r.Group("{plan.prefix}")\n' if plan.prefix else '\tapi := r.Group("")\n'
    out.add(
        f"cmd/{plan.name}/main.go",
        f'package main\n\nimport (\n\t"log"\n\t"net/http"\n\t"os"\n\n'
        f'\t"github.com/gin-gonic/gin"\n\n\t"{module}/internal/handlers"\n)\n\nfunc main() {{\n\tr := gin.Default()\n'
        f'\tr.GET("/health", func(c *gin.Context) {{ c.JSON(http.StatusOK, gin.H{{"status": "ok"}}) }})\n{group}{regs}'
        f'\tport := os.Getenv("PORT")\n\tif port == "" {{\n\t\tport = "{plan.port}"\n\t}}\n'
        '\tif err := r.Run(":" + port); err != nil {\n\t\tlog.Fatal(err)\n\t}\n}\n',
    )
    out.apis.append(ExpectedApi("GET", "/health", "main"))


def _nethttp(out: ServiceOutput, plan: ServicePlan, module: str, rng: random.Random) -> None:
    for plural, _singular in plan.resources:
        typ = _handler_type(plural)
        lines = [
            "package api",
            "",
            "import (",
            '\t"encoding/json"',
            '\t"net/http"',
            ")",
            "",
            f"// {typ} serves the {plural} resource.",
            f"type {typ} struct{{}}",
            "",
            f"// Routes registers the {plural} endpoints on mux.",
            f"func (h *{typ}) Routes(mux *http.ServeMux) {{",
        ]
        methods = []
        for r in plan.routes:
            if r.plural != plural:
                continue
            sub = "/".join(f"{{{r.param}}}" if s.startswith("{") else s for s in r.tail)
            fn = GIN_ACTION.get(r.action, pascal(r.action))
            rest = f"/{plural}" + ("/" + sub if sub else "")
            lines.append(f'\tmux.HandleFunc("{r.method} "+Prefix+"{rest}", h.{fn})')
            out.apis.append(ExpectedApi(r.method, render_path(plan.prefix, r, "brace"), f"{typ}.{fn}"))
            methods.append((fn, r))
        lines += ["}", ""]
        for fn, r in methods:
            lines += [
                f"// {fn} handles {r.method} on {plural}.",
                f"func (h *{typ}) {fn}(w http.ResponseWriter, r *http.Request) {{",
            ]
            if "{id}" in r.tail:
                lines.append(
                    f'\t_ = json.NewEncoder(w).Encode(map[string]string{{"id": r.PathValue("{r.param}")}})'
                )
            else:
                lines.append("\t_ = json.NewEncoder(w).Encode([]string{})")
            lines += ["}", ""]
        out.add(f"internal/api/{plural}.go", "\n".join(lines))
    out.add(
        "internal/api/prefix.go",
        f'package api\n\n// Prefix is the mount point of every endpoint.\nconst Prefix = "{plan.prefix}"\n',
    )
    regs = "".join(f"\t(&api.{_handler_type(p)}{{}}).Routes(mux)\n" for p, _ in plan.resources)
    out.add(
        f"cmd/{plan.name}/main.go",
        f'package main\n\nimport (\n\t"log"\n\t"net/http"\n\n\t"{module}/internal/api"\n)\n\n'
        f'func main() {{\n\tmux := http.NewServeMux()\n\tmux.HandleFunc("GET /health", func(w http.ResponseWriter, r *http.Request) {{\n'
        f'\t\tw.WriteHeader(http.StatusOK)\n\t}})\n{regs}\tlog.Fatal(http.ListenAndServe(":{plan.port}", mux))\n}}\n',
    )
    out.apis.append(ExpectedApi("GET", "/health", "main"))


def _clients(out: ServiceOutput, plan: ServicePlan) -> None:
    by_target: dict[str, list[Call]] = {}
    for c in plan.calls:
        by_target.setdefault(c.target, []).append(c)
    for target, calls in sorted(by_target.items()):
        var = target.upper().replace("-", "_") + "_URL"
        typ = pascal(target) + "Client"
        lines = [
            "package clients",
            "",
            "import (",
            '\t"bytes"',
            '\t"context"',
            '\t"fmt"',
            '\t"net/http"',
            '\t"os"',
            ")",
            "",
            f"// {typ} talks to {target}.",
            f"type {typ} struct {{",
            "\tbaseURL string",
            "\thttp    *http.Client",
            "}",
            "",
            f"// New{typ} reads the address from {var}.",
            f"func New{typ}() *{typ} {{",
            f'\treturn &{typ}{{baseURL: os.Getenv("{var}"), http: http.DefaultClient}}',
            "}",
            "",
        ]
        for c in calls:
            path = render_path(c.target_prefix, c.route, "brace")
            fn = pascal(c.route.action + "_" + c.route.singular)
            lines.append(
                f"func (c *{typ}) {fn}(ctx context.Context, id string, body []byte) (*http.Response, error) {{"
            )
            if c.style == 0:
                expr = "c.baseURL+" + '"' + path.replace("{" + c.route.param + "}", '"+id+"') + '"'
                expr = expr.replace('+""', "")
                lines += [
                    f"\treq, err := http.NewRequestWithContext(ctx, http.Method{c.route.method.capitalize()}, {expr}, bytes.NewReader(body))",
                    "\tif err != nil {",
                    "\t\treturn nil, err",
                    "\t}",
                    "\treturn c.http.Do(req)",
                ]
            elif c.style == 1:
                fmtpath = path.replace("{" + c.route.param + "}", "%s")
                args = ", id" if "%s" in fmtpath else ""
                lines += [f'\turl := fmt.Sprintf("%s{fmtpath}", c.baseURL{args})']
                if c.route.method == "GET":
                    lines.append("\treturn c.http.Get(url)")
                elif c.route.method == "POST":
                    lines.append('\treturn c.http.Post(url, "application/json", bytes.NewReader(body))')
                else:
                    lines += [
                        f"\treq, _ := http.NewRequest(http.Method{c.route.method.capitalize()}, url, bytes.NewReader(body))",
                        "\treturn c.http.Do(req)",
                    ]
            else:
                fmtpath = path.replace("{" + c.route.param + "}", "%s")
                args = ", id" if "%s" in fmtpath else ""
                lines += [
                    f'\treq, err := http.NewRequestWithContext(ctx, "{c.route.method}", fmt.Sprintf("%s{fmtpath}", '
                    f'os.Getenv("{var}"){args}), bytes.NewReader(body))',
                    "\tif err != nil {",
                    "\t\treturn nil, err",
                    "\t}",
                    "\treturn http.DefaultClient.Do(req)",
                ]
            lines += ["}", ""]
        text = "\n".join(lines)
        if "fmt." not in text.replace('"fmt"', ""):
            text = text.replace('\t"fmt"\n', "")
        out.add(f"internal/clients/{target.replace('-', '_')}.go", text)


def _messaging(out: ServiceOutput, plan: ServicePlan) -> None:
    chans = sorted(plan.publishes + plan.consumes, key=lambda c: c.name)
    if not chans:
        return
    consts = "".join(f'\t{_const(c.name)} = "{c.name}"\n' for c in chans)
    out.add("internal/events/topics.go", f"package events\n\n// Channel names.\nconst (\n{consts})\n")
    if plan.publishes:
        lines = [
            "package events",
            "",
            "import (",
            '\t"context"',
            "",
            '\tamqp "github.com/rabbitmq/amqp091-go"',
            '\t"github.com/segmentio/kafka-go"',
            ")",
            "",
        ]
        for c in plan.publishes:
            fn = "Publish" + _const(c.name)
            if c.provider == "kafka":
                lines += [
                    f"func {fn}(ctx context.Context, brokers string, value []byte) error {{",
                    f"\tw := &kafka.Writer{{Addr: kafka.TCP(brokers), Topic: {_const(c.name)}}}",
                    "\tdefer w.Close()",
                    "\treturn w.WriteMessages(ctx, kafka.Message{Value: value})",
                    "}",
                    "",
                ]
            else:
                lines += [
                    f"func {fn}(ctx context.Context, ch *amqp.Channel, body []byte) error {{",
                    f'\treturn ch.PublishWithContext(ctx, "", {_const(c.name)}, false, false, amqp.Publishing{{'
                    'ContentType: "application/json", Body: body})',
                    "}",
                    "",
                ]
        out.add("internal/events/publisher.go", "\n".join(lines))
    if plan.consumes:
        lines = [
            "package events",
            "",
            "import (",
            '\t"context"',
            "",
            '\tamqp "github.com/rabbitmq/amqp091-go"',
            '\t"github.com/segmentio/kafka-go"',
            ")",
            "",
            "func handle(topic string, value []byte) {}",
            "",
        ]
        for c in plan.consumes:
            fn = "Consume" + _const(c.name)
            if c.provider == "kafka":
                lines += [
                    f"func {fn}(ctx context.Context, brokers []string) error {{",
                    f'\tr := kafka.NewReader(kafka.ReaderConfig{{Brokers: brokers, Topic: {_const(c.name)}, GroupID: "{plan.name}"}})',
                    "\tdefer r.Close()",
                    "\tfor {",
                    "\t\tm, err := r.ReadMessage(ctx)",
                    "\t\tif err != nil {",
                    "\t\t\treturn err",
                    "\t\t}",
                    "\t\thandle(m.Topic, m.Value)",
                    "\t}",
                    "}",
                    "",
                ]
            else:
                lines += [
                    f"func {fn}(ch *amqp.Channel) error {{",
                    f'\tmsgs, err := ch.Consume({_const(c.name)}, "{plan.name}", true, false, false, false, nil)',
                    "\tif err != nil {",
                    "\t\treturn err",
                    "\t}",
                    "\tfor d := range msgs {",
                    f"\t\thandle({_const(c.name)}, d.Body)",
                    "\t}",
                    "\treturn nil",
                    "}",
                    "",
                ]
        out.add("internal/events/consumer.go", "\n".join(lines))


def _const(channel: str) -> str:
    return "Topic" + "".join(p.capitalize() for p in channel.replace("-", ".").split("."))


def _models(out: ServiceOutput, plan: ServicePlan) -> None:
    for table, cls in plan.entities:
        out.add(
            f"internal/models/{cls.lower()}.go",
            f'package models\n\nimport (\n\t"time"\n\n\t"gorm.io/gorm"\n)\n\n'
            f"// {cls} is persisted in {table}.\ntype {cls} struct {{\n\tgorm.Model\n"
            f'\tName      string    `gorm:"size:200;not null"`\n\tStatus    string    `gorm:"size:32"`\n'
            f'\tReference string    `gorm:"uniqueIndex"`\n\tDueAt     time.Time\n}}\n\n'
            f'// TableName overrides the default table name.\nfunc ({cls}) TableName() string {{\n\treturn "{table}"\n}}\n',
        )
