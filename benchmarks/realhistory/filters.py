"""The mining filters: what kind of file a path is (code, test, docs, CI, deploy, ...), how a
commit message becomes a task text, and why a commit is not a usable task."""

from __future__ import annotations

import re
from collections.abc import Sequence

from .truthmap import ServiceMap

MAX_SERVICES = 5
MIN_WORDS = 3

TEST_DIRS = {
    "test",
    "tests",
    "__tests__",
    "testing",
    "spec",
    "specs",
    "e2e",
    "integration-test",
    "integration-tests",
    "end-to-end-tests",
    "testdata",
    "mock",
    "mocks",
    "__mocks__",
}
DOC_DIRS = {"docs", "doc", "documentation", "img", "images", "screenshots"}
CI_DIRS = {".github", ".circleci", ".gitlab", ".buildkite", ".devcontainer", ".vscode", ".idea", ".mvn"}
DEPLOY_DIRS = {
    "k8s",
    "kubernetes",
    "kubernetes-manifests",
    "dev-kubernetes-manifests",
    "istio-manifests",
    "helm",
    "chart",  # one service's own Helm chart (src/orders/chart/templates/...)
    "helm-chart",
    "helm-charts",
    "charts",
    "kustomize",
    "deploy",
    "deployment",
    "deployments",
    "manifests",
    "terraform",
    "iac",
    "DCOS",
    "OpenShift",
    "Swarm",
    "K8s",
    "release",
    "extras",
    "aws-fargate-terraform",
}
# a test project folder: Orders.Tests, orders-tests, UnitTest, UserTest, IntegrationTests (capital T after
# a word, a dot, a dash or nothing; "latest" and "Contest" are not)
TEST_PROJECT = re.compile(r"(^|[.-]|(?<=[a-z]))(Unit|Functional|Integration)?Tests?$")
VENDOR_DIRS = {"vendor", "node_modules", "bower_components", "third_party", "genproto", "wwwroot/lib"}
TEST_FILE = re.compile(
    r"(_test\.go|_test\.py|^test_.*\.py|^conftest\.py|\.(test|spec)\.[jt]sx?|Tests?\.(java|kt|cs)|IT\.java"
    r"|_spec\.rb)$"
)
DOC_FILE = re.compile(
    r"(\.(md|markdown|rst|adoc)|^(LICENSE|NOTICE|AUTHORS|CODEOWNERS|CHANGELOG|CONTRIBUTING)[^/]*)$", re.I
)
CI_FILE = re.compile(
    r"^(\.travis\.ya?ml|\.gitlab-ci\.ya?ml|Jenkinsfile.*|cloudbuild[^/]*\.ya?ml|azure-pipelines[^/]*\.ya?ml"
    r"|\.drone\.ya?ml|appveyor\.ya?ml|renovate\.json5?|\.pre-commit-config\.yaml|codecov\.ya?ml)$"
)
DEPLOY_FILE = re.compile(
    r"^(docker-compose[^/]*\.ya?ml|compose[^/]*\.ya?ml|skaffold[^/]*\.ya?ml|kustomization\.ya?ml|Chart\.yaml"
    r"|values[^/]*\.ya?ml|.*\.tf|.*\.tfvars|Tiltfile|\.env)$"
)
DEPENDENCY_FILE = re.compile(
    r"^(pom\.xml|build\.gradle(\.kts)?|settings\.gradle(\.kts)?|gradle\.properties|gradle-wrapper\.properties"
    r"|package\.json|package-lock\.json|yarn\.lock|pnpm-lock\.yaml|npm-shrinkwrap\.json|go\.mod|go\.sum"
    r"|requirements[^/]*\.(txt|in)|Pipfile(\.lock)?|poetry\.lock|uv\.lock|pyproject\.toml|setup\.py|setup\.cfg"
    r"|Gemfile(\.lock)?|Cargo\.(toml|lock)|composer\.(json|lock)|mix\.(exs|lock)|.*\.csproj|packages\.config"
    r"|.*\.sln|Directory\.(Packages|Build)\.props|global\.json|\.nvmrc|\.python-version|\.tool-versions)$"
)
BOTS = re.compile(r"dependabot|renovate|github-actions|\[bot\]|snyk-bot|greenkeeper", re.I)
# leading "[scope]", "scope(x):", gitmoji shortcodes (":arrow_up:") and emoji ("⬆️") before the subject
SCOPE = re.compile(
    r"^\s*(\[[^\]]*\]\s*|:[a-z0-9_+-]+:\s*|[^\w\s\[\]()'\"`#<>:./!-]+\s*|[\w./-]+(\([^)]*\))?!?:\s*)*"
)
# a subject opening with any form of bump/upgrade ("Upgraded", "Bumping") is a version bump
VERSION_BUMP = re.compile(
    r"^(\w+\(deps?[^)]*\)|deps?)!?:|^(bump(s|ed|ing)?|upgrad(e|es|ed|ing))\b"
    r"|^(update|migrate|switch|move)(s|d|ed)?\b[^\n]{0,60}?\b(to|with)\s+(v?\d|java\b|jdk|node(js)?\b|spring"
    r"|go\b|golang|python\b|\.?net\b|dotnet|netcore|gradle|maven|alpine|debian|ubuntu)"
    r"|^(update|upgrade)(s|d|ed)?\b[^.]{0,40}\b(deps|dependenc\w*|packages|versions?|base images?|sdk|jdk"
    r"|libraries|libs|nuget|npm|gems)\b"
    r"|^(release|releasing|prepare (for )?(the )?release|version bump|\[maven-release-plugin\])"
    r"|^v?\d+\.\d+(\.\d+)?\S*\s*$",
    re.I,
)
BUILD_FILE = re.compile(
    r"^(Dockerfile[^/]*|[^/]*\.Dockerfile|Makefile|mvnw(\.cmd)?|gradlew(\.bat)?|Procfile)$"
)
FORMATTING = re.compile(
    r"(^\s*style(\(.*\))?:|\blicen[cs]es?\b|\breformat|\bprettier\b|\bgofmt\b|\bgoimports\b|\bisort\b|\bcheckstyle\b|whitespace"
    r"|code ?style|\bspotless\b|\beslint\b|\bflake8\b|\bpylint\b|\bruff\b|\btypos?\b|\bspelling\b|\bmisspell"
    r"|license headers?|copyright headers?|\blint(s|ing|er|ers)?\b|\bformat(ting|ted)? (the )?(code|files|all|sources)"
    r"|\bformatting\s*$|\brun (the )?format|\bfix(ed|es)? format|\bindentation\b)",
    re.I,
)
REVERT = re.compile(r"^\s*revert\b", re.I)
# the default message of a git host's web editor: it names the one file it changed (or an upload) and
# states no task; as a task text it would hand the answer's file name to the ranker
WEB_EDITOR = re.compile(r"^(update|create|delete|add|rename)\s+(\S+\.\w+|files via upload)$", re.I)
TRAILER = re.compile(
    r"^\s*(signed-off-by|co-authored-by|reviewed-by|reviewed-on|acked-by|tested-by|reported-by|suggested-by"
    r"|helped-by|change-id|cc|piperorigin-revid|gitorigin-revid|release-note|bug|issue|ticket|jira"
    r"|fixes|closes|resolves|refs?|see-also|related|pr|pull request)\s*:.*$",
    re.I,
)
ISSUE_LINE = re.compile(
    r"^\s*[-*]?\s*(fix(es|ed)?|close[sd]?|resolve[sd]?|refs?|see|related to|part of|towards|addresses|for)?\s*:?\s*"
    r"((\S+/\S+)?#\d+|https?://\S+/(issues|pull)/\d+\S*)([\s,.;]+(and\s+)?((\S+/\S+)?#\d+|https?://\S+))*[\s.]*$",
    re.I,
)
PR_REF = re.compile(
    r"\s*\((?:[\w.-]+/[\w.-]+)?#\d+\)|\s*\b(?:PR|pull request)\s*#?\d+|(?<![\w&])#\d+\b|https?://\S+/pull/\d+\S*",
    re.I,
)
NOISE_LINE = re.compile(r"^\s*([-=*_]{3,}|<!--.*-->|[-*]\s*\[[ xX]\].*)\s*$")
ARTIFACT = re.compile(r"\.(pyc|pyo|class|jar|war|dll|exe|so|o)$")
WORD = re.compile(r"[A-Za-z][A-Za-z0-9_'-]*")
MAX_TASK = 2000


def _dapr_component(dirs: list[str], name: str) -> bool:
    """Dapr component definitions (components.yaml, components/*.yaml): deployment wiring, not code."""
    yaml = name.endswith((".yaml", ".yml"))
    return yaml and (
        name.split(".")[0] == "components" or bool(dirs) and dirs[-1] in ("components", "dapr-components")
    )


def kind(path: str) -> str:
    """code | test | docs | ci | deploy | vendor | tooling (dotfiles) — by folder, then file name."""
    parts = path.split("/")
    dirs, name = parts[:-1], parts[-1]
    joined = "/".join(dirs)
    if any(d in VENDOR_DIRS for d in dirs) or "wwwroot/lib" in joined or ARTIFACT.search(name):
        return "vendor"
    if any(d in CI_DIRS for d in dirs) or CI_FILE.match(name):
        return "ci"
    if any(d in TEST_DIRS or TEST_PROJECT.search(d) for d in dirs):
        return "test"
    if dirs[:2] == ["src", "test"] or "/src/test" in "/" + joined or TEST_FILE.search(name):
        return "test"
    if any(d in DOC_DIRS for d in dirs) or DOC_FILE.search(name):
        return "docs"
    if any(d in DEPLOY_DIRS for d in dirs) or DEPLOY_FILE.match(name) or _dapr_component(dirs, name):
        return "deploy"
    if name.startswith(".") and name not in (".env",):
        return "tooling"
    return "code"


def is_build_file(path: str) -> bool:
    """A dependency manifest, lock file, Dockerfile or build script: changing only these is a bump."""
    name = path.rsplit("/", 1)[-1]
    return bool(DEPENDENCY_FILE.match(name) or BUILD_FILE.match(name))


def clean_message(message: str) -> str:
    """Subject + body without trailers, issue/PR references, template noise and blank runs."""
    lines = []
    for line in message.replace("\r\n", "\n").split("\n"):
        if TRAILER.match(line) or ISSUE_LINE.match(line) or NOISE_LINE.match(line):
            continue
        if line.lower().startswith("merge pull request") or line.lower().startswith("merge branch"):
            continue
        lines.append(PR_REF.sub("", line).rstrip())
    text = re.sub(r"[ \t]{2,}", " ", "\n".join(lines))
    text = re.sub(r"\s*\b(fixes|closes|resolves)[\s.]*$", "", text, flags=re.I | re.M)
    text = re.sub(r"\n{3,}", "\n\n", text).strip()
    if len(text) > MAX_TASK:
        text = text[:MAX_TASK].rsplit(" ", 1)[0] + " …"
    return text


def word_count(text: str) -> int:
    return len(WORD.findall(text))


def touched(files: Sequence[str], smap: ServiceMap) -> dict[str, list[str]]:
    """Service -> its changed code files (tests, docs, CI, deploy, vendored and dotfiles left out)."""
    out: dict[str, list[str]] = {}
    for f in files:
        if kind(f) != "code":
            continue
        owner = smap.owner(f)
        if owner is not None:
            out.setdefault(owner, []).append(f)
    return out


def drop_reason(
    parents: Sequence[str], author: str, message: str, files: Sequence[str], smap: ServiceMap
) -> str | None:
    """Why a commit is not a usable task (None: it is one). Checked in this order."""
    subject = message.strip().split("\n", 1)[0]
    code = [f for f in files if kind(f) == "code"]
    if len(parents) != 1:
        return "merge" if parents else "root"
    if BOTS.search(author):
        return "bot"
    if REVERT.match(subject):
        return "revert"
    if VERSION_BUMP.match(subject) or VERSION_BUMP.match(SCOPE.sub("", subject)):
        return "version-bump"
    if code and all(is_build_file(f) for f in code):
        return "build-files-only"
    if FORMATTING.search(subject):
        return "formatting"
    if not code:
        return "tests-docs-ci-deploy-only"
    services = touched(files, smap)
    if not services:
        return "no-service"
    if len(services) > MAX_SERVICES:
        return "too-many-services"
    text = clean_message(message)
    if word_count(text) < MIN_WORDS or WEB_EDITOR.match(text):
        return "uninformative"
    return None
