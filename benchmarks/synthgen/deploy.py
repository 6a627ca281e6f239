"""Deployment files: docker-compose.yml (environment as mapping, list or env_file), Kubernetes
Deployments with ConfigMaps for a share of the services, and the infrastructure containers."""

from __future__ import annotations

from synthgen.plan import ServicePlan

INFRA = (
    ("postgres", "postgres:16", {"POSTGRES_PASSWORD": "app"}),
    ("mongo", "mongo:7", {}),
    ("redis", "redis:7-alpine", {}),
    ("zookeeper", "confluentinc/cp-zookeeper:7.5.0", {"ZOOKEEPER_CLIENT_PORT": "2181"}),
    ("kafka", "confluentinc/cp-kafka:7.5.0", {"KAFKA_ZOOKEEPER_CONNECT": "zookeeper:2181"}),
    ("rabbitmq", "rabbitmq:3-management", {}),
)


def _env(plan: ServicePlan, by_name: dict[str, ServicePlan]) -> dict[str, str]:
    env = {
        "LOG_LEVEL": "info",
        "KAFKA_BOOTSTRAP": "kafka:9092",
        "RABBITMQ_URL": "amqp://guest:guest@rabbitmq:5672/",
        "DATABASE_URL": f"postgresql://app:app@postgres:5432/{plan.name.replace('-', '_')}",
    }
    for target in sorted({c.target for c in plan.calls}):
        callee = by_name[target]
        env[callee.env_var()] = callee.url()
    return env


def compose(plans: list[ServicePlan]) -> tuple[str, dict[str, str]]:
    """(docker-compose.yml text, {path: text} of env files it references)."""
    by_name = {p.name: p for p in plans}
    lines = ["# Generated benchmark system.", "name: synthetic", "", "services:"]
    env_files: dict[str, str] = {}
    for name, image, env in INFRA:
        lines += [f"  {name}:", f"    image: {image}"]
        if env:
            lines.append("    environment:")
            lines += [f'      {k}: "{v}"' for k, v in env.items()]
        lines.append("")
    for i, p in enumerate(plans):
        lines.append(f"  {p.name}:")
        if i % 2:
            lines.append(f"    build: ./{p.root_dir}")
        else:
            lines += ["    build:", "      context: .", f"      dockerfile: {p.root_dir}/Dockerfile"]
        env = _env(p, by_name)
        if p.k8s:  # addresses come from the Kubernetes manifests for these
            env = {
                k: v
                for k, v in env.items()
                if not k.endswith("_URL") or k in ("RABBITMQ_URL", "DATABASE_URL")
            }
        if p.env_style == 0:
            lines.append("    environment:")
            lines += [f"      {k}: {v}" for k, v in env.items()]
        elif p.env_style == 1:
            lines.append("    environment:")
            lines += [f"      - {k}={v}" for k, v in env.items()]
        else:
            path = f"env/{p.name}.env"
            lines += ["    env_file:", f"      - {path}"]
            env_files[path] = "".join(f"{k}={v}\n" for k, v in env.items())
        deps = sorted({c.target for c in p.calls})[:3]
        lines += [f"    depends_on: [postgres, kafka, rabbitmq{''.join(', ' + d for d in deps)}]", ""]
    return "\n".join(lines), env_files


def k8s(plan: ServicePlan, plans_by_name: dict[str, ServicePlan]) -> str:
    env = _env(plan, plans_by_name)
    urls = {k: v for k, v in env.items() if k.endswith("_URL") and k not in ("RABBITMQ_URL", "DATABASE_URL")}
    cm = f"{plan.name}-config"
    lines = ["apiVersion: v1", "kind: ConfigMap", "metadata:", f"  name: {cm}", "data:"]
    lines += [f'  {k}: "{v}"' for k, v in urls.items()] or ["  {}"]
    lines += [
        "---",
        "apiVersion: apps/v1",
        "kind: Deployment",
        "metadata:",
        f"  name: {plan.name}",
        "spec:",
        "  replicas: 2",
        "  selector:",
        "    matchLabels:",
        f"      app: {plan.name}",
        "  template:",
        "    metadata:",
        "      labels:",
        f"        app: {plan.name}",
        "    spec:",
        "      containers:",
        f"        - name: {plan.name}",
        f"          image: registry.example.com/{plan.name}:latest",
        "          ports:",
        f"            - containerPort: {plan.port}",
        "          env:",
    ]
    for i, (k, v) in enumerate(urls.items()):
        if i % 2:
            lines += [f"            - name: {k}", f'              value: "{v}"']
        else:
            lines += [
                f"            - name: {k}",
                "              valueFrom:",
                "                configMapKeyRef:",
                f"                  name: {cm}",
                f"                  key: {k}",
            ]
    lines += [
        "            - name: LOG_LEVEL",
        "              value: info",
        "---",
        "apiVersion: v1",
        "kind: Service",
        "metadata:",
        f"  name: {plan.name}",
        "spec:",
        "  selector:",
        f"    app: {plan.name}",
        "  ports:",
        f"    - port: {plan.port}",
        f"      targetPort: {plan.port}",
        "",
    ]
    return "\n".join(lines)
