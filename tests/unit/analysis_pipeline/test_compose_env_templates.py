"""A compose file's env files are often git-ignored and only their template is committed
(`.env.example`, `.env.sample`, `.env.template`, `.env.dist`): the template stands in for the
missing file, and never for one that is there."""

from __future__ import annotations

import pytest

CALLER = "# @entry\n# @call http requests env:LEDGER_URL+lit:/entries method=POST\n"
FILES = {
    "teller/requirements.txt": "requests\n",
    "teller/app.py": CALLER,
    "ledger/package.json": '{"scripts": {"start": "node server.js"}}',
    "ledger/server.js": "// @api POST /entries add\n",
}


def _configured(run) -> tuple[str | None, list[str]]:
    """The call's target and the configuration files its evidence cites."""
    calls = run.service("teller").calls
    assert len(calls) == 1, calls
    return calls[0].target, sorted({e.file for e in calls[0].evidence[1:]})


@pytest.mark.parametrize("suffix", [".example", ".sample", ".template", ".dist"])
def test_an_env_file_missing_from_the_repository_is_read_from_its_template(analyze, suffix):
    compose = "services:\n  teller:\n    build: ./teller\n    env_file: .env\n  ledger:\n    build: ./ledger\n"
    files = {**FILES, "docker-compose.yml": compose, f".env{suffix}": "LEDGER_URL=http://ledger:8080\n"}
    assert _configured(analyze(files)) == ("ledger", [f".env{suffix}"])


def test_compose_interpolation_reads_the_template_of_the_missing_dotenv(analyze):
    compose = (
        "services:\n  teller:\n    build: ./teller\n    environment:\n"
        "      LEDGER_URL: http://${LEDGER_HOST}:8080\n  ledger:\n    build: ./ledger\n"
    )
    files = {**FILES, "docker-compose.yml": compose, ".env.example": "LEDGER_HOST=ledger\n"}
    assert _configured(analyze(files)) == ("ledger", ["docker-compose.yml"])


def test_a_committed_env_file_wins_over_its_template(analyze):
    compose = "services:\n  teller:\n    build: ./teller\n    env_file: [deploy/teller.env]\n  ledger:\n    build: ./ledger\n"
    files = {
        **FILES,
        "docker-compose.yml": compose,
        "deploy/teller.env": "LEDGER_URL=http://ledger:8080\n",
        "deploy/teller.env.example": "LEDGER_URL=http://somewhere-else:1\n",
    }
    assert _configured(analyze(files)) == ("ledger", ["deploy/teller.env"])


def test_a_template_beside_no_env_file_the_compose_names_is_not_read(analyze):
    compose = "services:\n  teller:\n    build: ./teller\n  ledger:\n    build: ./ledger\n"
    files = {**FILES, "docker-compose.yml": compose, "deploy/other.env.example": "LEDGER_URL=http://ledger:8080\n"}
    assert "deploy/other.env.example" not in _configured(analyze(files))[1]
