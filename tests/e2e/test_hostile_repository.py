"""A planted hostile repository through the real command and the real MCP server (issue 13 #7):
its git config, hooks and attributes would write marker files; `index`, `verify` and the MCP
`verify_change_surface` tool must leave none."""

from __future__ import annotations

import asyncio
from pathlib import Path

import mcp

from tests.support.hostile_git import fired, plant

from .conftest import Cli, git
from .test_mcp_stdio import params


def test_index_and_verify_run_nothing_from_a_hostile_repository(cli: Cli, example_repo: Path,
                                                                tmp_path: Path) -> None:
    base = git(example_repo, "rev-parse", "HEAD")
    marks = plant(example_repo, tmp_path / "marks")
    cli.run("index", str(example_repo), "--repository-name", "shop")
    run_id = cli.json("analyze", "Refund a captured card payment from the back office")["run_id"]
    (example_repo / "payments" / "src" / "payments" / "payments.service.ts").write_text("// changed\n")
    v = cli.json("verify", str(run_id), "--repository", "shop", "--since", base)
    assert "payments" in v["actual"]
    cli.run("verify", str(run_id), "--repository", "shop", "--since", base, "--record-feedback")

    async def over_mcp() -> None:
        async with mcp.Client(params(cli.db)) as client:
            res = await client.call_tool("verify_change_surface",
                                         {"run_id": run_id, "repository": "shop", "since_commit": base})
            assert not res.is_error, res.content[0].text
            assert "payments" in (res.structured_content or {})["actual"]

    asyncio.run(over_mcp())
    assert fired(marks) == []
