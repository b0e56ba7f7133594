"""A noun said as a request's verb (toolcat.search.denominal): "snapshot the VM" asks to create
a snapshot, "email bob" to send an e-mail. Model-free, but for the last test, which ranks with
the real model."""

from __future__ import annotations

import pytest

from toolcat.model import Tool
from toolcat.search.actions import AGREEMENT
from toolcat.search.denominal import Denominal


def tools(server: str, *names: str) -> list[Tool]:
    return [Tool(name=n, description=f"{n} does it", server=server) for n in names]


VMS = tools("vms", "create_vm_snapshot", "rollback_vm_snapshot", "delete_vm_snapshot",
            "list_vm_snapshots", "send_email", "create_or_update_file", "get_file")


@pytest.mark.parametrize(("request_", "made"), [
    ("snapshot vm 110 before the upgrade", "create_vm_snapshot"),
    ("please snapshot it first", "create_vm_snapshot"),
    ("email bob@acme.io that the window moved", "send_email"),
])
def test_a_noun_said_as_the_verb_lifts_the_tools_that_make_or_send_it(request_: str,
                                                                      made: str) -> None:
    found = Denominal(VMS).evidence(request_)
    assert [VMS[i].name for i in found.nonzero()[0]] == [made]
    assert found.max() == AGREEMENT


@pytest.mark.parametrize("request_", [
    "file a GitLab issue: login page crashes",  # "a": the issue is made, not a file
    "delete the snapshot of vm 110",  # a verb of the action table
    "which snapshots does vm 110 have",  # no order
    "roll vm 110 back to its snapshot",  # a verb no name makes
])
def test_other_verbs_and_a_made_object_lift_nothing(request_: str) -> None:
    assert not Denominal(VMS).evidence(request_).any()


def test_a_server_that_does_not_name_its_tools_by_action_lifts_nothing() -> None:
    topics = tools("finance", "getRatingsSnapshot", "getSectorSnapshot", "quote", "news")
    assert not Denominal(topics).evidence("snapshot the ratings of AAPL").any()
    assert not Denominal([]).evidence("snapshot everything").any()


HYPERVISOR = [
    Tool(name="create_container_snapshot", server="hypervisor",
         description="Create a snapshot of a container's current state."),
    Tool(name="rollback_container_snapshot", server="hypervisor",
         description="Roll a container back to one of its snapshots."),
    Tool(name="delete_container_snapshot", server="hypervisor",
         description="Delete a snapshot of a container."),
    Tool(name="list_container_snapshots", server="hypervisor",
         description="List the snapshots of a container."),
    Tool(name="start_container", server="hypervisor", description="Start a container."),
    Tool(name="stop_container", server="hypervisor", description="Stop a container."),
]


@pytest.mark.semantic
@pytest.mark.parametrize("request_", [
    "snapshot container 204 first, the upgrade might break it",  # rollback_ first before
    "snapshot the mail container before we try the new version",
])
def test_snapshotting_a_container_puts_the_tool_that_creates_one_first(request_: str) -> None:
    from toolcat.search import build_scorer, rank

    found = rank(build_scorer("hybrid", HYPERVISOR), request_, limit=1)
    assert found[0].tool.name == "create_container_snapshot"
    assert "'snapshot' is a noun its name creates or sends" in found[0].reason
