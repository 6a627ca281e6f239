"""The real-history benchmark: mining filters, message cleaning and root mapping on a tiny git
repository made here (no network, no clones), and the whole benchmark on the clones when present."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT / "benchmarks"))

from realhistory.filters import clean_message, drop_reason, kind  # noqa: E402
from realhistory.mine import mine_repo  # noqa: E402
from realhistory.truthmap import ServiceMap, load  # noqa: E402

SMAP = ServiceMap(
    "tiny",
    {
        "orders": ("services/orders", "orders"),
        "payments": ("services/payments",),
        "billing": ("billing-*",),
        "web": ("web",),
    },
    "tune",
    "https://github.com/example/tiny",
)


def _git(repo: Path, *args: str, date: str = "2024-01-01T12:00:00+00:00", author: str = "dev") -> str:
    env = {
        **os.environ,
        "GIT_AUTHOR_NAME": author,
        "GIT_AUTHOR_EMAIL": f"{author}@example.invalid",
        "GIT_COMMITTER_NAME": author,
        "GIT_COMMITTER_EMAIL": f"{author}@example.invalid",
        "GIT_AUTHOR_DATE": date,
        "GIT_COMMITTER_DATE": date,
    }
    return subprocess.run(
        ["git", *args], cwd=repo, check=True, capture_output=True, text=True, env=env
    ).stdout


def _commit(repo: Path, n: int, message: str, files: dict[str, str], author: str = "dev") -> str:
    for path, text in files.items():
        (repo / path).parent.mkdir(parents=True, exist_ok=True)
        (repo / path).write_text(text)
    _git(repo, "add", "-A")
    _git(repo, "commit", "-qm", message, date=f"2024-01-{n:02d}T12:00:00+00:00", author=author)
    return _git(repo, "rev-parse", "HEAD").strip()


@pytest.fixture(scope="module")
def tiny(tmp_path_factory: pytest.TempPathFactory) -> Path:
    repo = tmp_path_factory.mktemp("tiny")
    _git(repo, "init", "-q", "-b", "main")
    _commit(
        repo,
        1,
        "Initial import of the shop",
        {
            "services/orders/app.py": "x = 1\n",
            "services/payments/pay.go": "package p\n",
            "web/index.js": "1\n",
            "billing-api/Main.java": "class M {}\n",
            "README.md": "shop\n",
        },
    )
    _commit(
        repo,
        2,
        "Let customers cancel an order within a day\n\nSigned-off-by: Dev <d@x.invalid>\n"
        "Co-authored-by: Other <o@x.invalid>\nFixes #12",
        {"services/orders/app.py": "x = 2\n"},
    )
    _commit(repo, 3, "Bump requests from 2.31 to 2.32", {"services/orders/requirements.txt": "requests\n"})
    _commit(repo, 4, "Update README with the setup steps", {"README.md": "shop!\n"})
    _commit(repo, 5, "Add tests for payment refunds", {"services/payments/pay_test.go": "package p\n"})
    _commit(repo, 6, "fix", {"web/index.js": "2\n"})
    _commit(repo, 7, "Reformat all sources with prettier", {"web/index.js": "3\n"})
    _commit(
        repo,
        8,
        "Show the refund status on the order page (#345)",
        {
            "web/index.js": "4\n",
            "services/payments/pay.go": "package q\n",
            "billing-api/Main.java": "class N {}\n",
        },
    )
    _commit(repo, 9, "Add a shipping service with its own API", {"shipping/main.py": "1\n"})
    _commit(
        repo,
        10,
        "Deploy the orders service to the staging cluster",
        {"k8s/orders.yaml": "kind: Deployment\n", "services/orders/Dockerfile": "FROM python\n"},
    )
    _commit(
        repo,
        11,
        "Add a fraud check before charging the card",
        {"services/payments/fraud.go": "package p\n"},
        author="dependabot[bot]",
    )
    _git(repo, "checkout", "-q", "-b", "side", "HEAD~1")
    _commit(repo, 12, "Side branch change to the web page", {"web/side.js": "1\n"})
    _git(repo, "checkout", "-q", "main")
    _git(
        repo,
        "merge",
        "-q",
        "--no-ff",
        "-m",
        "Merge branch side into main",
        "side",
        date="2024-01-13T12:00:00+00:00",
    )
    return repo


def test_kinds_of_files() -> None:
    assert kind("services/orders/app.py") == "code"
    assert kind("services/orders/tests/test_app.py") == "test"
    assert kind("src/main/java/a/OrderServiceTest.java") == "test"
    assert kind("web/src/app.spec.ts") == "test"
    assert kind("docs/setup.png") == "docs" and kind("orders/README.md") == "docs"
    assert kind(".github/workflows/ci.yml") == "ci"
    assert kind("kubernetes-manifests/orders.yaml") == "deploy" and kind("docker-compose.yml") == "deploy"
    assert kind("web/node_modules/x/index.js") == "vendor"
    assert kind("python-service/components.yaml") == "deploy"  # Dapr component wiring
    assert kind("node-service/components/pubsub.yaml") == "deploy"
    assert kind("web/src/components/Cart.tsx") == "code"
    assert kind("src/orders/chart/templates/deployment.yaml") == "deploy"  # a service's own Helm chart
    assert kind("src/orders/chart/templates/_helpers.tpl") == "deploy"
    assert kind("web/src/chart.js") == "code" and kind("web/src/chart-view/Bar.tsx") == "code"  # not a chart folder


def test_test_project_folders_of_every_casing_hold_tests() -> None:
    for path in ("Users/UnitTest/UsersTests.cs", "Users/UserTest/UnitTest1.cs", "Users/Test/Fixture.cs",
                 "Users/Tests/Fixture.cs", "Orders.IntegrationTests/Api.cs", "Orders.Tests/Api.cs"):
        assert kind(path) == "test", path
    for path in ("feeds/latest/list.py", "Contest/Entry.cs", "TestBench/Run.cs", "web/src/Testimonials.tsx"):
        assert kind(path) == "code", path


def test_a_solution_file_alone_is_a_build_file() -> None:
    one = ["p"]
    assert drop_reason(one, "dev", "List the users project in the solution", ["orders/Orders.sln"], SMAP) == (
        "build-files-only"
    )
    assert drop_reason(one, "dev", "Add the users endpoints", ["orders/Orders.sln", "orders/Api.cs"], SMAP) is None


def test_a_web_editor_default_message_is_no_task() -> None:
    one, code = ["p"], ["services/orders/app.py"]
    for message in ("Update app.py", "Create services/orders/app.py", "Delete helpers.js", "Add files via upload",
                    "update server.js\n"):
        assert drop_reason(one, "dev", message, code, SMAP) == "uninformative", message
    for message in ("Update app.py to retry the payment call", "Rename Buyer.cs to Customer.cs",
                    "Update app.py\n\nRetry the payment call twice before failing the order"):
        assert drop_reason(one, "dev", message, code, SMAP) is None, message


def test_message_cleaning() -> None:
    msg = "Add Pix payments (#1234)\n\nSupport Pix at checkout. See #99\n\nSigned-off-by: A <a@b>\nCo-authored-by: B <b@c>\n"
    assert clean_message(msg) == "Add Pix payments\n\nSupport Pix at checkout. See"


def test_drop_reasons() -> None:
    one = ["p"]
    code = ["services/orders/app.py"]
    assert drop_reason(["a", "b"], "dev", "Merge x", code, SMAP) == "merge"
    assert drop_reason(one, "renovate[bot] <r@x>", "Update x", code, SMAP) == "bot"
    assert drop_reason(one, "dev", "chore(deps): bump x from 1 to 2", code, SMAP) == "version-bump"
    assert drop_reason(one, "dev", "Update Spring Boot to 3.2.1", code, SMAP) == "version-bump"
    assert drop_reason(one, "dev", "⬆️ Upgrade Sentry and FastAPI", code, SMAP) == "version-bump"
    assert drop_reason(one, "dev", ":arrow_up: Bump the client", code, SMAP) == "version-bump"
    assert drop_reason(one, "dev", "🐛 Fix the order total", code, SMAP) is None
    assert (
        drop_reason(one, "dev", "Pin the client libraries", ["orders/package.json"], SMAP)
        == "build-files-only"
    )
    assert drop_reason(one, "dev", "Run gofmt over everything", code, SMAP) == "formatting"
    assert drop_reason(one, "dev", "Document the API", ["docs/api.md", "orders/x_test.go"], SMAP) == (
        "tests-docs-ci-deploy-only"
    )
    assert drop_reason(one, "dev", "Add a helper script", ["scripts/run.py"], SMAP) == "no-service"
    six = [f"svc{i}/a.py" for i in range(6)]
    many = ServiceMap("m", {f"s{i}": (f"svc{i}",) for i in range(6)})
    assert drop_reason(one, "dev", "Rename the logger everywhere", six, many) == "too-many-services"
    assert drop_reason(one, "dev", "wip", code, SMAP) == "uninformative"
    assert drop_reason(one, "dev", "Let customers cancel an order", code, SMAP) is None


def test_version_bump_in_every_verb_form() -> None:
    one, code = ["p"], ["services/orders/app.py"]
    for subject in ("Upgraded the web client to the new router", "Upgrading the ORM of the orders service",
                    "upgrades: a newer HTTP stack for orders", "Bumping the queue library in orders",
                    "[orders] Upgraded the broker client", "build(orders): Bumped the base image"):
        assert drop_reason(one, "dev", subject, code, SMAP) == "version-bump", subject
    for subject in ("Add an upgrade button to the plan page", "Bumpy retries: smooth the order backoff",
                    "Upgrader tool: let customers move plans"):
        assert drop_reason(one, "dev", subject, code, SMAP) is None, subject


def test_owner_and_root_mapping() -> None:
    assert SMAP.owner("orders/app.py") == "orders" and SMAP.owner("services/orders/x/y.py") == "orders"
    assert SMAP.owner("billing-api/Main.java") == "billing" and SMAP.owner("ordersx/a.py") is None
    assert SMAP.map_root("services/orders") == "orders"  # the same folder
    assert SMAP.map_root("services/orders/app") == "orders"  # inside a truth service
    assert SMAP.map_root("billing-worker") == "billing"  # a sibling module of a '*' prefix
    assert SMAP.map_root("services") is None  # contains two truth services: no mapping
    assert SMAP.map_root(".") is None and SMAP.map_root("tools") is None
    single = ServiceMap("s", {"api": ("src/api",)})
    assert single.map_root("src") == "api" and single.map_root(".") == "api"  # contains exactly one


def test_root_mapping_counts_only_the_services_present_at_the_commit() -> None:
    layered = ServiceMap(
        "layered",
        {"till": ("cmd/till", "internal/till"), "oven": ("cmd/oven", "internal/oven"), "gate": ("cmd/gate",)},
    )
    early = ["go.mod", "cmd/till/main.go", "internal/till/order.go", "README.md"]
    assert layered.present(early) == {"till"}
    assert layered.map_root(".") is None  # without a commit: three services lie under the root
    assert layered.map_root(".", layered.present(early)) == "till"  # only one exists yet
    assert layered.map_root("cmd", {"till"}) == "till" and layered.map_root("internal", {"till"}) == "till"
    later = [*early, "cmd/oven/main.go", "internal/oven/bake.go"]
    assert layered.map_root(".", layered.present(later)) is None  # two exist: still ambiguous
    assert layered.map_root("cmd/oven", layered.present(early)) == "oven"  # its own folder: owner wins
    assert layered.map_root(".", set()) is None and layered.map_root("tools", {"till"}) is None
    assert SMAP.map_root("services", {"orders", "web"}) == "orders"  # payments not there yet
    assert SMAP.map_root("services", {"orders", "payments"}) is None


def test_a_root_service_stands_for_the_one_service_no_other_root_claims() -> None:
    backend = ServiceMap(
        "backend",
        {"api": ("src", "main.py"), "mailer": ("workers/mailer",), "ledger": ("workers/ledger",)},
    )
    present = {"api", "mailer", "ledger"}
    assert backend.map_root(".", present) is None  # alone, the root holds three
    roots = {"shop": ".", "mailer-worker": "workers/mailer", "ledger-worker": "workers/ledger"}
    assert backend.map_roots(roots, present) == {"shop": "api", "mailer-worker": "mailer", "ledger-worker": "ledger"}
    # a worker the index did not find leaves two candidates for the root: no mapping
    assert backend.map_roots({"shop": ".", "mailer-worker": "workers/mailer"}, present) == {
        "shop": None, "mailer-worker": "mailer"}
    # a folder holding two services stands for the one no other root claims
    assert backend.map_roots({"all": "workers", "mailer-worker": "workers/mailer"}, present)["all"] == "ledger"
    assert backend.map_roots({"tools": "tools", "shop": "."}, {"api"}) == {"tools": None, "shop": "api"}


def test_mining_a_tiny_history(tiny: Path) -> None:
    tasks, reasons = mine_repo(tiny, SMAP, per_repo=15)
    by_text = {t["task"].split("\n")[0]: t for t in tasks}
    assert set(by_text) == {
        "Let customers cancel an order within a day",
        "Show the refund status on the order page",
        "Side branch change to the web page",
    }
    cancel = by_text["Let customers cancel an order within a day"]
    assert cancel["task"] == "Let customers cancel an order within a day"  # trailers and 'Fixes #12' gone
    assert cancel["expected"] == ["orders"]
    assert cancel["parent"] == _git(tiny, "rev-parse", cancel["commit"] + "^").strip()
    assert cancel["url"] == f"https://github.com/example/tiny/commit/{cancel['commit']}"
    assert by_text["Show the refund status on the order page"]["expected"] == ["billing", "payments", "web"]
    assert reasons["root"] == 1 and reasons["merge"] == 1 and reasons["bot"] == 1
    assert reasons["version-bump"] == 1 and reasons["formatting"] == 1 and reasons["uninformative"] == 1
    assert reasons["tests-docs-ci-deploy-only"] == 2 and reasons["no-service"] == 1
    assert reasons["build-files-only"] == 1
    again, _ = mine_repo(tiny, SMAP, per_repo=15)
    assert again == tasks  # deterministic
    two, _ = mine_repo(tiny, SMAP, per_repo=2)
    assert len(two) == 2


def test_a_service_whose_folder_holds_only_docs_or_tests_at_the_parent_is_created_not_changed(
    tmp_path: Path,
) -> None:
    repo = tmp_path / "planned"
    repo.mkdir()
    _git(repo, "init", "-q", "-b", "main")
    _commit(
        repo,
        1,
        "Lay out the shop before writing it",
        {
            "services/orders/app.py": "x = 1\n",
            "web/README.md": "the storefront, to come\n",
            "services/payments/tests/test_pay.py": "def test_pay(): pass\n",
        },
    )
    _commit(repo, 2, "Write the first storefront page", {"web/index.js": "1\n"})
    _commit(repo, 3, "Charge the card when an order is placed", {"services/payments/pay.py": "1\n"})
    _commit(repo, 4, "Keep the order total in cents", {"services/orders/app.py": "x = 2\n"})
    _commit(repo, 5, "Show the total on the storefront page", {"web/index.js": "2\n"})
    tasks, reasons = mine_repo(repo, SMAP, per_repo=15)
    assert {t["task"] for t in tasks} == {
        "Keep the order total in cents",  # orders had code at its parent
        "Show the total on the storefront page",  # web's code exists since commit 2
    }
    assert reasons["creates-service"] == 2  # web had a README only, payments a test only


def test_committed_tasks_are_consistent() -> None:
    doc = json.loads((ROOT / "benchmarks" / "realhistory" / "tasks.json").read_text())
    maps = load()
    tasks = doc["tasks"]
    assert len(tasks) >= 120 and len({t["repository"] for t in tasks}) >= 10
    for t in tasks:
        smap = maps[t["repository"]]
        assert t["split"] == smap.split and 1 <= len(t["expected"]) <= 5
        assert set(t["expected"]) <= set(smap.services) and t["task"].strip()
        assert len(t["parent"]) == len(t["commit"]) == 40


def test_the_holdout_split_is_large_enough_to_report() -> None:
    doc = json.loads((ROOT / "benchmarks" / "realhistory" / "tasks.json").read_text())
    holdout = [t for t in doc["tasks"] if t["split"] == "holdout"]
    assert len(holdout) >= 150 and len({t["repository"] for t in holdout}) >= 12


def test_no_benchmark_tunes_on_the_other_ones_held_out_repositories() -> None:
    history = json.loads((ROOT / "benchmarks" / "realhistory" / "services.json").read_text())["repositories"]
    facts = json.loads((ROOT / "benchmarks" / "realworld" / "repos.json").read_text())["repositories"]
    fact_split = {r["repository"].lower(): r["split"] for r in facts}
    for name, spec in history.items():
        other = fact_split.get(spec["repository"].lower())
        if spec["split"] == "holdout":
            assert other in (None, "report"), f"{name} is held out here but tuned on in realworld"
        else:
            assert other != "report", f"{name} is tuned on here but held out in realworld"


def _listing(tmp_path: Path, *extra: str) -> subprocess.CompletedProcess[str]:
    def task(repo: str, split: str, n: int) -> dict[str, object]:
        return {"repository": repo, "split": split, "commit": f"{n:040d}", "task": "Keep totals in cents"}

    tasks = [task("shop", "tune", 1), task("shop", "tune", 2), task("ledger", "holdout", 3), task("gone", "holdout", 4)]
    (tmp_path / "tasks.json").write_text(json.dumps({"tasks": tasks}))
    for repo in ("shop", "ledger"):  # "gone" has no clone
        (tmp_path / "clones" / repo).mkdir(parents=True, exist_ok=True)
    return subprocess.run(
        [sys.executable, str(ROOT / "benchmarks" / "realhistory.py"), "--clones", str(tmp_path / "clones"),
         "--tasks", str(tmp_path / "tasks.json"), "--out", str(tmp_path / "rh"), "--cache", str(tmp_path / "cache"),
         "--list", *extra],
        capture_output=True, text=True, timeout=120, cwd=ROOT,
    )


def test_listing_counts_the_selected_tasks_without_scoring(tmp_path: Path) -> None:
    proc = _listing(tmp_path)
    assert proc.returncode == 0, proc.stderr
    assert proc.stdout.splitlines() == [
        "ledger\tholdout\t1",
        "shop\ttune\t2",
        "holdout: 1 tasks from 1 repositories",
        "tune: 2 tasks from 1 repositories",
    ]
    assert not list(tmp_path.glob("rh*")) and not (tmp_path / "cache").exists()  # nothing written
    held = _listing(tmp_path, "--split", "holdout")
    assert held.stdout.splitlines() == ["ledger\tholdout\t1", "holdout: 1 tasks from 1 repositories"]


CLONES = Path(os.environ.get("ORBITKB_CLONES", "/work/clones"))


@pytest.mark.skipif(not (CLONES / "nameko-examples").exists(), reason="no clones (set ORBITKB_CLONES)")
def test_benchmark_on_the_clones(tmp_path: Path) -> None:
    proc = subprocess.run(
        [
            sys.executable,
            str(ROOT / "benchmarks" / "realhistory.py"),
            "--clones",
            str(CLONES),
            "--only",
            "nameko-examples",
            "--limit",
            "2",
            "--cache",
            str(tmp_path / "cache"),
            "--out",
            str(tmp_path / "rh"),
            "--quiet",
        ],
        capture_output=True,
        text=True,
        timeout=300,
        cwd=ROOT,
    )
    assert proc.returncode == 0, proc.stderr
    result = json.loads((tmp_path / "rh.json").read_text())
    assert result["summary"]["tasks"] == 2
    for key in ("orbitkb", "baseline_all", "baseline_bm25_top1", "baseline_bm25_top2"):
        assert 0.0 <= result["summary"][key]["f1"] <= 1.0
    assert "### Quality" in (tmp_path / "rh.md").read_text()


def test_the_evidence_mix_fit_learns_which_feature_points_at_the_changed_service() -> None:
    from realhistory.fit import f1, fit

    from orbitkb.domain.change.ranking import FEATURES

    def row(truth: str, named: float, linked: float) -> tuple[str, list[float]]:
        f = dict.fromkeys(FEATURES, 0.0)
        f["named"], f["linked"] = named, linked
        return truth, [f[k] for k in FEATURES]

    # the changed service is named 4 times in 5 and never linked; the others the other way round
    samples = [{"expected": {"a"}, "rows": [row("a", float(i % 5 != 0), 0.0), row("b", float(i % 5 == 0), 1.0)]}
               for i in range(20)]
    w, _ = fit(samples)
    assert w[FEATURES.index("named")] > 0 > w[FEATURES.index("linked")]
    assert f1({"a"}, {"a"}) == 1.0 and f1({"a", "b"}, {"a"}) == 2 / 3 and f1(set(), {"a"}) == 0.0


def test_report_tables_write_every_cell_through_one_formatter() -> None:
    from realhistory.report import buckets, quality

    method = {"tasks": 3, "precision": 0.5, "recall": None, "f1": 1.0, "exact": 2}
    result = {
        "per_split": {"tune": {"orbitkb": method}},
        "summary": {"orbitkb": method, "calibration": {"buckets": [
            {"bucket": "0.8-1.0", "n": 4, "mean_confidence": 0.875, "observed": None},
        ]}},
    }  # fmt: skip
    assert quality(result).splitlines() == [
        "| split | method | tasks | precision | recall | F1 | exact |",
        "|---|---|---|---|---|---|---|",
        "| tune | orbitkb (primary+secondary) | 3 | 0.50 | — | 1.00 | 2 |",
        "| all | orbitkb (primary+secondary) | 3 | 0.50 | — | 1.00 | 2 |",
    ]
    assert buckets(result).splitlines()[2:] == ["| 0.8-1.0 | 4 | 0.88 | — |"]
