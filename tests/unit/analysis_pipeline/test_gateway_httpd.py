"""Apache httpd reverse proxies (ProxyPass, ProxyPassMatch, <Location>, RewriteRule [P],
balancer members) and consul-template renderings of proxy configs (a service's range, the range
over every registered service), as gateway routes and calls from the proxy."""

from __future__ import annotations

from orbitkb.analysis.facts import Env, Expr
from orbitkb.analysis.gateways.calls import is_proxy_config, nginx_routes, proxy_routes, proxy_server
from orbitkb.analysis.gateways.httpd import prefix_downstream, regex_downstream
from orbitkb.analysis.gateways.templates import render, uses_discovery


def show(expr: Expr) -> str:
    return "".join("${" + p.name + "}" if isinstance(p, Env) else getattr(p, "text", "?") for p in expr.parts)


def routes(text: str, registered=(), own="", path="front/site.conf"):
    return [
        (show(r.url), r.path, r.line, r.client)
        for r in proxy_routes(path, text, registered, own)
    ]


HTTPD = """<VirtualHost *:80>
    Define LEDGER ledger:9000
    ProxyPass /quotes http://quotes:8000/api
    ProxyPass /static !
    ProxyPassMatch "^/ledger/(.*)$" "http://${LEDGER}/v1/$1"
    <Location /hooks>
        ProxyPass http://hooks:7000/
    </Location>
    RewriteEngine On
    RewriteRule ^/legacy/(.*)$ http://quotes:8000/old/$1 [P,L]
    RewriteRule ^/moved/(.*)$ http://elsewhere.example/$1 [R=301,L]
    <Proxy "balancer://pool">
        BalancerMember http://worker-a:8080
        BalancerMember http://worker-b:8080 loadfactor=2
    </Proxy>
    ProxyPass /jobs balancer://pool/tasks
    ProxyPassReverse /jobs balancer://pool/tasks
</VirtualHost>
"""


def test_httpd_directives_become_routes():
    assert routes(HTTPD) == [
        ("http://quotes:8000/api", "/api/**", 3, "apache-httpd"),
        ("http://ledger:9000/v1/$1", "/v1/**", 5, "apache-httpd"),
        ("http://hooks:7000/", "/**", 7, "apache-httpd"),
        ("http://quotes:8000/old/$1", "/old/**", 10, "apache-httpd"),
        ("http://worker-a:8080/tasks", "/tasks/**", 16, "apache-httpd"),
        ("http://worker-b:8080/tasks", "/tasks/**", 16, "apache-httpd"),
    ]


def test_downstream_paths():
    assert prefix_downstream("/shop", "http://shop:8080") == ("/**", "ProxyPass /shop forwarded as /**")
    assert prefix_downstream("/shop/", "http://shop:8080/shop/") == ("/shop/**", None)
    assert regex_downstream("^/a/(.*)$", "http://a/$1") == ("/**", "^/a/(.*)$ forwarded as /**")


def test_which_files_are_proxy_configs():
    assert is_proxy_config("edge/default.conf", "location / { proxy_pass http://a; }")
    assert is_proxy_config("edge/site.ctmpl", "ProxyPass /a http://a")
    assert is_proxy_config("edge/rules.conf", "RewriteRule ^/(.*)$ http://a/$1 [L,P]")
    assert not is_proxy_config("edge/rules.conf", "RewriteRule ^/(.*)$ /b/$1 [PT]")
    assert not is_proxy_config("edge/notes.md", "ProxyPass /a http://a")
    assert proxy_server("ProxyPass /a http://a") == "apache-httpd"
    assert proxy_server("location / { proxy_pass http://a; }") == "nginx"


ALL_SERVICES = """<VirtualHost *:80>
{{range services}}
<Proxy balancer://{{.Name}}>
{{range service .Name}}  BalancerMember http://{{.Address}}:{{.Port}}
{{end}}
</Proxy>
    ProxyPass /{{.Name}} balancer://{{.Name}}
{{end}}
</VirtualHost>
"""


def test_a_range_over_all_services_routes_to_each_registered_service():
    assert uses_discovery(ALL_SERVICES)
    got = routes(ALL_SERVICES, registered=["larder", "pantry", "front"], own="front")
    assert got == [
        ("http://larder", "/**", 7, "apache-httpd"),
        ("http://pantry", "/**", 7, "apache-httpd"),
    ]
    assert routes(ALL_SERVICES) == []  # nobody registered: nothing rendered


NGINX_TEMPLATE = """upstream larder {
  {{range service "v2.larder@east"}}server {{.Address}}:{{.Port}} max_fails=3;
  {{else}}server 127.0.0.1:65535; # no instance
  {{end}}
}
server {
  listen 80;
  location /larder/ { proxy_pass http://larder/; }
  location /pantry/ { proxy_pass http://{{env "PANTRY_HOST"}}:9000/; }
}
"""


def test_a_service_range_names_the_service_in_an_nginx_template():
    rendered = render(NGINX_TEMPLATE, [])
    assert len(rendered) == 1 and rendered[0].count("\n") == NGINX_TEMPLATE.count("\n")
    assert routes(NGINX_TEMPLATE, path="edge/nginx.conf.ctmpl") == [
        ("http://larder/", "/**", 8, "nginx"),
        ("http://${PANTRY_HOST}:9000/", "/pantry/**", 9, "nginx"),
    ]


def test_negative_templates_without_consul_are_left_alone():
    text = "location /a/ {\n proxy_pass http://{{ .Values.backend }}/;\n}\n"
    assert not uses_discovery(text)
    assert list(proxy_routes("a.conf", text, ["x"])) == list(nginx_routes("a.conf", text))


def test_an_httpd_gateway_service_calls_every_registered_service(analyze):
    registered = "spring:\n  cloud:\n    consul:\n      host: consul\n"
    files = {
        "docker-compose.yml": (
            "services:\n  consul: {image: 'consul:1.15'}\n  larder: {build: ./larder}\n"
            "  pantry: {build: ./pantry}\n  front: {build: ./front, ports: ['80:80']}\n"
        ),
        "larder/pom.xml": "<project><artifactId>larder</artifactId></project>",
        "larder/src/main/java/L.java": "// @entry\n// @api GET /shelves shelves\n",
        "larder/src/main/resources/application.yml": "spring.application.name: larder\n" + registered,
        "pantry/pom.xml": "<project><artifactId>pantry</artifactId></project>",
        "pantry/src/main/java/P.java": "// @entry\n// @api GET /jars jars\n",
        "pantry/src/main/resources/application.yml": "spring.application.name: pantry\n" + registered,
        "front/Dockerfile": "FROM ubuntu:22.04\nRUN apt-get install -y apache2\nCOPY site.ctmpl /etc/site.ctmpl\n",
        "front/site.ctmpl": ALL_SERVICES,
    }
    run = analyze(files)
    front = run.service("front")
    assert front.service.framework == "apache-httpd"
    by_id = {f.service.id: f.service.name for f in run.result.services}
    assert sorted((by_id.get(c.to_service_id or ""), c.path, c.evidence[0].start_line) for c in front.calls) == [
        ("larder", "/**", 7),
        ("pantry", "/**", 7),
    ]
