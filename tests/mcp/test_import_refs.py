"""A live server's inputSchema may refer only inside itself: a file `$ref` would be resolved
on the client's machine, so the import refuses it and writes nothing."""

from __future__ import annotations

import pytest

from tests.mcp.conftest import BROKEN

pytest.importorskip("mcp")
pytestmark = pytest.mark.mcp


def test_a_file_ref_from_a_live_server_is_refused_and_nothing_is_written(run, tmp_path):
    out = tmp_path / "imported.yaml"
    result = run("import", "mcp", "--timeout", "30", "-o", str(out), "--", *BROKEN, "fileref")
    assert result.exit_code == 2
    assert result.stderr.count("\n") == 1
    assert "sent tool 'peek' with a file $ref '../../.ssh/id_rsa' at " \
           "inputSchema/properties/key" in result.stderr
    assert not out.exists()
