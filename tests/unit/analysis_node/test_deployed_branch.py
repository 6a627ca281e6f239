"""`NODE_ENV === "production" ? "http://orders:80" : "http://localhost:3001"`: the address a deployed
service uses is the branch its environment name selects; any other choice between literals stays
unknown."""

from __future__ import annotations

import pytest

from .support import analyze, url


def _url(condition: str) -> str | None:
    code = f"""\
        import axios from 'axios';
        const KITCHEN = {condition} ? 'http://kitchen:8080' : 'http://localhost:8080';
        export const order = (dish: string) => axios.post(`${{KITCHEN}}/tickets`, {{ dish }});
        """
    calls = analyze({"src/waiter.ts": code}).calls
    assert len(calls) == 1
    return url(calls[0].url)


@pytest.mark.parametrize(
    "condition",
    [
        "process.env.NODE_ENV === 'production'",
        "process.env.NODE_ENV == 'prod'",
        "'production' === process.env.APP_ENV",
        "process.env.NODE_ENV !== 'development'",
        "process.env.STAGE != 'local'",
    ],
)
def test_the_deployed_branch_of_an_environment_name_test_is_the_address(condition: str) -> None:
    assert _url(condition) == "http://kitchen:8080/tickets"


@pytest.mark.parametrize(
    "condition",
    ["process.env.NODE_ENV === 'development'", "process.env.MODE === 'test'"],
)
def test_a_local_environment_name_selects_the_other_branch(condition: str) -> None:
    assert _url(condition) == "http://localhost:8080/tickets"


@pytest.mark.parametrize(
    "condition",
    [
        "process.env.USE_MOCKS === 'true'",  # not an environment name
        "process.env.NODE_ENV === 'blue'",  # not a known environment
        "process.env.NODE_ENV",  # no comparison
        "isProduction",  # a flag computed elsewhere
    ],
)
def test_any_other_choice_between_two_addresses_stays_unknown(condition: str) -> None:
    assert _url(condition) == "{?KITCHEN}/tickets"
