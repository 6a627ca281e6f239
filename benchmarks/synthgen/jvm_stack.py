"""Java Spring Boot services: controllers with class and method mappings, JPA entities and
repositories, RestTemplate/WebClient/OpenFeign clients configured in application.yml, KafkaTemplate
and RabbitTemplate publishers, @KafkaListener/@RabbitListener consumers."""

from __future__ import annotations

import random

from synthgen import jvm_filler as filler
from synthgen.emit import ExpectedApi, ServiceOutput, camel, fill_to_quota, pascal, prose
from synthgen.plan import Call, ServicePlan, render_path

MAPPING = {"GET": "GetMapping", "POST": "PostMapping", "PUT": "PutMapping", "DELETE": "DeleteMapping"}
JAVA_ACTION = {"list": "list", "get": "get", "create": "create", "update": "update", "delete": "delete"}


def emit(plan: ServicePlan) -> ServiceOutput:
    rng = random.Random(plan.seed)
    out = ServiceOutput()
    pkg = f"com.acme.{plan.domain}.{plan.name.replace('-', '')}"
    src = "src/main/java/" + pkg.replace(".", "/")
    feign = any(c.style == 2 for c in plan.calls)
    _pom(out, plan, feign)
    app = pascal(plan.name) + "Application"
    ann = "@SpringBootApplication\n@EnableFeignClients\n" if feign else "@SpringBootApplication\n"
    out.add(
        f"{src}/{app}.java",
        f"package {pkg};\n\nimport org.springframework.boot.SpringApplication;\n"
        "import org.springframework.boot.autoconfigure.SpringBootApplication;\n"
        "import org.springframework.cloud.openfeign.EnableFeignClients;\n\n"
        f"{ann}public class {app} {{\n\n    public static void main(String[] args) {{\n"
        f"        SpringApplication.run({app}.class, args);\n    }}\n}}\n",
    )
    out.add(
        f"{src}/web/ApiPaths.java",
        f"package {pkg}.web;\n\npublic final class ApiPaths {{\n\n"
        f'    public static final String BASE = "{plan.prefix}";\n\n    private ApiPaths() {{\n    }}\n}}\n',
    )
    _controllers(out, plan, pkg, src, rng)
    _entities(out, plan, pkg, src, rng)
    _clients(out, plan, pkg, src)
    _messaging(out, plan, pkg, src)
    _application_yml(out, plan)
    fill_to_quota(plan, out, [filler.util(pkg, src), filler.dto(pkg, src), filler.test(pkg)], rng)
    return out


def _pom(out: ServiceOutput, plan: ServicePlan, feign: bool) -> None:
    deps = [
        "spring-boot-starter-web",
        "spring-boot-starter-webflux",
        "spring-boot-starter-data-jpa",
        "spring-kafka",
        "spring-boot-starter-amqp",
        "postgresql",
    ]
    if feign:
        deps.append("spring-cloud-starter-openfeign")
    body = "".join(
        f"        <dependency>\n            <groupId>org.springframework.boot</groupId>\n"
        f"            <artifactId>{d}</artifactId>\n        </dependency>\n"
        for d in deps
    )
    out.add(
        "pom.xml",
        '<?xml version="1.0" encoding="UTF-8"?>\n<project xmlns="http://maven.apache.org/POM/4.0.0">\n'
        "    <modelVersion>4.0.0</modelVersion>\n    <parent>\n        <groupId>org.springframework.boot</groupId>\n"
        "        <artifactId>spring-boot-starter-parent</artifactId>\n        <version>3.2.4</version>\n    </parent>\n"
        f"    <groupId>com.acme</groupId>\n    <artifactId>{plan.name}</artifactId>\n    <version>1.0.0</version>\n"
        f"    <dependencies>\n{body}    </dependencies>\n</project>\n",
    )
    out.add(
        "Dockerfile",
        f"FROM eclipse-temurin:21-jre\nCOPY target/{plan.name}.jar /app.jar\nEXPOSE {plan.port}\n"
        'ENTRYPOINT ["java", "-jar", "/app.jar"]\n',
    )
    out.add("README.md", f"# {plan.name}\n\nSpring Boot service for {plan.domain}.\n")


def _controllers(out: ServiceOutput, plan: ServicePlan, pkg: str, src: str, rng: random.Random) -> None:
    for plural, singular in plan.resources:
        cls = singular + "Controller"
        style = rng.randrange(3)
        base = {
            0: f'"{plan.prefix}/{plural}"',
            1: f'ApiPaths.BASE + "/{plural}"',
            2: f'path = "{plan.prefix}/{plural}"',
        }[style]
        lines = [
            f"package {pkg}.web;",
            "",
            "import java.util.List;",
            "import org.springframework.http.ResponseEntity;",
            "import org.springframework.web.bind.annotation.*;",
            f"import {pkg}.service.{singular}Service;",
            f"import {pkg}.dto.{singular}Request;",
            "",
            "/**",
            f" * REST endpoints for {plural}.",
            " */",
            "@RestController",
            f"@RequestMapping({base})",
            f"public class {cls} {{",
            "",
            f"    private final {singular}Service service;",
            "",
            f"    public {cls}({singular}Service service) {{",
            "        this.service = service;",
            "    }",
            "",
        ]
        for r in plan.routes:
            if r.plural != plural:
                continue
            sub = "/".join(f"{{{r.param}}}" if s.startswith("{") else s for s in r.tail)
            name = camel(
                JAVA_ACTION.get(r.action, r.action) + "_" + (r.plural if r.action == "list" else singular)
            )
            lines += ["    /**", f"     * {prose(rng, 1)}", "     */"]
            if r.action not in JAVA_ACTION:
                lines.append(f'    @RequestMapping(value = "/{sub}", method = RequestMethod.{r.method})')
            elif sub:
                form = rng.choice(('"/{0}"', 'value = "/{0}"', 'path = "/{0}"'))
                lines.append(f"    @{MAPPING[r.method]}({form.format(sub)})")
            else:
                lines.append(f"    @{MAPPING[r.method]}")
            params = [f'@PathVariable("{r.param}") Long id'] if "{id}" in r.tail else []
            if r.method in ("POST", "PUT"):
                params.append(f"@RequestBody {singular}Request body")
            lines += [
                f"    public ResponseEntity<Object> {name}({', '.join(params)}) {{",
                f'        return ResponseEntity.ok(service.handle("{r.action}"));',
                "    }",
                "",
            ]
            out.apis.append(ExpectedApi(r.method, render_path(plan.prefix, r, "brace"), f"{cls}.{name}"))
        lines += ["}", ""]
        out.add(f"{src}/web/{cls}.java", "\n".join(lines))
        out.add(f"{src}/service/{singular}Service.java", filler.service(rng, pkg, singular))
        out.add(f"{src}/dto/{singular}Request.java", filler.request(rng, pkg, singular))


def _entities(out: ServiceOutput, plan: ServicePlan, pkg: str, src: str, rng: random.Random) -> None:
    for table, cls in plan.entities:
        fields = "".join(
            f'\n    @Column(name = "{f}")\n    private String {camel(f)};\n'
            for f in ("name", "status", "reference")
        )
        out.add(
            f"{src}/domain/{cls}.java",
            f"package {pkg}.domain;\n\nimport jakarta.persistence.*;\n\n"
            f'@Entity\n@Table(name = "{table}")\npublic class {cls} {{\n\n    @Id\n'
            f"    @GeneratedValue(strategy = GenerationType.IDENTITY)\n    private Long id;\n{fields}}}\n",
        )
        out.add(
            f"{src}/repository/{cls}Repository.java",
            f"package {pkg}.repository;\n\n"
            f"import org.springframework.data.jpa.repository.JpaRepository;\nimport {pkg}.domain.{cls};\n\n"
            f"public interface {cls}Repository extends JpaRepository<{cls}, Long> {{\n}}\n",
        )


def _client_key(target: str) -> str:
    return f"clients.{target}.url"


def _clients(out: ServiceOutput, plan: ServicePlan, pkg: str, src: str) -> None:
    by_target: dict[str, list[Call]] = {}
    for c in plan.calls:
        by_target.setdefault(c.target, []).append(c)
    for target, calls in sorted(by_target.items()):
        cls = pascal(target) + "Client"
        style = calls[0].style
        head = [
            f"package {pkg}.client;",
            "",
            "import org.springframework.beans.factory.annotation.Value;",
            "import org.springframework.stereotype.Component;",
            "import org.springframework.web.bind.annotation.*;",
            "import org.springframework.web.client.RestTemplate;",
            "import org.springframework.web.reactive.function.client.WebClient;",
            "",
        ]
        body: list[str] = []
        if style == 2:
            head += [
                "import org.springframework.cloud.openfeign.FeignClient;",
                "",
                f'@FeignClient(name = "{target}", url = "${{{_client_key(target)}}}")',
                f"public interface {cls} {{",
                "",
            ]
            for c in calls:
                path = render_path(c.target_prefix, c.route, "brace")
                arg = f'@PathVariable("{c.route.param}") Long id' if "{id}" in c.route.tail else ""
                body += [
                    f'    @{MAPPING[c.route.method]}("{path}")',
                    f"    Object {camel(c.route.action + '_' + c.route.singular)}({arg});",
                    "",
                ]
        else:
            head += [
                "@Component",
                f"public class {cls} {{",
                "",
                "    private final String baseUrl;",
                "    private final RestTemplate restTemplate = new RestTemplate();",
                "    private final WebClient webClient = WebClient.create();",
                "",
                f'    public {cls}(@Value("${{{_client_key(target)}}}") String baseUrl) {{',
                "        this.baseUrl = baseUrl;",
                "    }",
                "",
            ]
            for c in calls:
                path = render_path(c.target_prefix, c.route, "brace")
                fn = camel(c.route.action + "_" + c.route.singular)
                var = ", id" if "{id}" in c.route.tail else ""
                if style == 0:
                    call = {
                        "GET": f'restTemplate.getForObject(baseUrl + "{path}", Object.class{var})',
                        "POST": f'restTemplate.postForObject(baseUrl + "{path}", body, Object.class{var})',
                        "PUT": f'restTemplate.put(baseUrl + "{path}", body{var})',
                        "DELETE": f'restTemplate.delete(baseUrl + "{path}"{var})',
                    }[c.route.method]
                    ret = "return " if c.route.method in ("GET", "POST") else ""
                    tail = "" if ret else "\n        return null;"
                    body += [
                        f"    public Object {fn}(Long id, Object body) {{",
                        f"        {ret}{call};{tail}",
                        "    }",
                        "",
                    ]
                else:
                    body += [
                        f"    public Object {fn}(Long id, Object body) {{",
                        f"        return webClient.{c.route.method.lower()}()",
                        f'                .uri(baseUrl + "{path}"{var})',
                        "                .retrieve()",
                        "                .bodyToMono(Object.class)",
                        "                .block();",
                        "    }",
                        "",
                    ]
        out.add(f"{src}/client/{cls}.java", "\n".join(head + body) + "}\n")


def _messaging(out: ServiceOutput, plan: ServicePlan, pkg: str, src: str) -> None:
    chans = sorted(plan.publishes + plan.consumes, key=lambda c: c.name)
    if not chans:
        return
    consts = "".join(f'    public static final String {_const(c.name)} = "{c.name}";\n' for c in chans)
    out.add(
        f"{src}/messaging/Channels.java",
        f"package {pkg}.messaging;\n\npublic final class Channels {{\n\n{consts}\n"
        "    private Channels() {\n    }\n}\n",
    )
    if plan.publishes:
        lines = [
            f"package {pkg}.messaging;",
            "",
            "import org.springframework.amqp.rabbit.core.RabbitTemplate;",
            "import org.springframework.kafka.core.KafkaTemplate;",
            "import org.springframework.stereotype.Component;",
            "",
            "@Component",
            "public class EventPublisher {",
            "",
            "    private final KafkaTemplate<String, Object> kafkaTemplate;",
            "    private final RabbitTemplate rabbitTemplate;",
            "",
            "    public EventPublisher(KafkaTemplate<String, Object> kafkaTemplate, RabbitTemplate rabbitTemplate) {",
            "        this.kafkaTemplate = kafkaTemplate;",
            "        this.rabbitTemplate = rabbitTemplate;",
            "    }",
            "",
        ]
        for c in plan.publishes:
            fn = "publish" + pascal(_const(c.name).lower())
            call = (
                f"kafkaTemplate.send(Channels.{_const(c.name)}, event)"
                if c.provider == "kafka"
                else f"rabbitTemplate.convertAndSend(Channels.{_const(c.name)}, event)"
            )
            lines += [f"    public void {fn}(Object event) {{", f"        {call};", "    }", ""]
        out.add(f"{src}/messaging/EventPublisher.java", "\n".join(lines) + "}\n")
    if plan.consumes:
        lines = [
            f"package {pkg}.messaging;",
            "",
            "import org.springframework.amqp.rabbit.annotation.RabbitListener;",
            "import org.springframework.kafka.annotation.KafkaListener;",
            "import org.springframework.stereotype.Component;",
            "",
            "@Component",
            "public class EventListeners {",
            "",
        ]
        for c in plan.consumes:
            fn = "on" + pascal(_const(c.name).lower())
            ann = (
                f'@KafkaListener(topics = Channels.{_const(c.name)}, groupId = "{plan.name}")'
                if c.provider == "kafka"
                else f'@RabbitListener(queues = "{c.name}")'
            )
            lines += [
                f"    {ann}",
                f"    public void {fn}(String payload) {{",
                "        // idempotent: redeliveries are expected",
                "    }",
                "",
            ]
            out.apis.append(ExpectedApi("CONSUME", c.name, f"EventListeners.{fn}", "message"))
        out.add(f"{src}/messaging/EventListeners.java", "\n".join(lines) + "}\n")


def _const(channel: str) -> str:
    return "".join(ch if ch.isalnum() else "_" for ch in channel).upper()


def _application_yml(out: ServiceOutput, plan: ServicePlan) -> None:
    lines = [
        "spring:",
        f"  application:\n    name: {plan.name}",
        "  datasource:",
        "    url: ${DATABASE_URL:jdbc:postgresql://postgres:5432/app}",
        "  kafka:",
        "    bootstrap-servers: ${KAFKA_BOOTSTRAP:kafka:9092}",
        "  rabbitmq:",
        "    host: ${RABBITMQ_HOST:rabbitmq}",
        "server:",
        f"  port: {plan.port}",
    ]
    targets = sorted({c.target for c in plan.calls})
    if targets:
        lines.append("clients:")
        for t in targets:
            var = t.upper().replace("-", "_") + "_URL"
            lines += [f"  {t}:", f"    url: ${{{var}:http://localhost:8080}}"]
    out.add("src/main/resources/application.yml", "\n".join(lines) + "\n")
