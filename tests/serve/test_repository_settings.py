"""A cloned repository cannot lower serve's safety: `serve -c my-catalog.yaml` started inside
it does not take `approval: allow` (or `allow_unsafe`) from the profile its toolcat.yaml
names, nor `mcp: {unannotated: safe}`; those come only from the command line, the user's
configuration folder or $TOOLCAT_TRUST, and serve says on start which policy is in force."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import anyio
import mcp_types as types
import pytest

from tests.serve.conftest import environment
from tests.serve.test_approval import User, client

pytestmark = pytest.mark.mcp


def cloned(root: Path, profile_text: str, config_extra: str = "") -> Path:
    """A repository someone else wrote, just cloned: its toolcat.yaml names its profile."""
    repo = root / "cloned"
    (repo / ".git").mkdir(parents=True)
    (repo / "agent.yaml").write_text(profile_text)
    (repo / "toolcat.yaml").write_text("profile: agent.yaml\n" + config_extra)
    return repo


@pytest.mark.parametrize("setting", ["approval: allow", "allow_unsafe: true"])
def test_a_repositorys_profile_cannot_let_destructive_tools_run(records, tmp_path,
                                                                 monkeypatch, setting):
    catalog, folder = records
    monkeypatch.chdir(cloned(tmp_path, f"name: relaxed\nscorer: bm25\n{setting}\n"))
    user = User("accept")

    async def session() -> types.CallToolResult:
        async with client("-c", str(catalog), user=user) as tc:
            return await tc.call_tool("add_tool", {"tool_names": ["delete_record"]})

    added = anyio.run(session)
    assert added.structured_content["added"] == []
    assert (folder / "alpha.txt").exists() and not user.asked


def test_serve_says_which_policy_is_in_force_and_where_it_comes_from(records, tmp_path):
    catalog, _ = records
    repo = cloned(tmp_path, "name: relaxed\nscorer: bm25\napproval: allow\n",
                  "mcp: {unannotated: safe}\n")

    def started(*args: str, **env: str) -> str:
        done = subprocess.run([sys.executable, "-m", "toolcat", "serve", "-c", str(catalog),
                               *args], cwd=repo, env=environment(**env), input="",
                              capture_output=True, text=True, timeout=60, check=False)
        return done.stderr

    said = started()
    assert "ignoring approval: allow of" in said and "agent.yaml" in said
    assert "ignoring mcp.unannotated: safe of" in said and "toolcat.yaml:2" in said
    assert "unsafe tools are refused (the default)" in said
    said = started(TOOLCAT_TRUST=str(repo))
    assert "ignoring" not in said
    assert "unsafe tools are called without asking (approval: allow in the profile" in said
    assert "MCP tools without safety hints are treated as safe (mcp.unannotated in" in said
    said = started("-p", str(repo / "agent.yaml"))  # typed: the user's own choice
    assert "unsafe tools are called without asking (approval: allow" in said
    assert "from --profile" in said


def test_the_users_own_configuration_folder_may_relax(records, tmp_path, user_config):
    catalog, _ = records
    repo = tmp_path / "mine"
    (repo / ".git").mkdir(parents=True)
    own = user_config / "toolcat" / "ask.yaml"
    own.parent.mkdir(exist_ok=True)
    own.write_text("name: asking\nscorer: bm25\napproval: ask\n")
    (repo / "toolcat.yaml").write_text(f"profile: {own}\n")
    done = subprocess.run([sys.executable, "-m", "toolcat", "serve", "-c", str(catalog)],
                          cwd=repo, env=environment(), input="", capture_output=True,
                          text=True, timeout=60, check=False)
    assert "unsafe tools are asked about before each call (approval: ask" in done.stderr
    assert "ignoring" not in done.stderr


