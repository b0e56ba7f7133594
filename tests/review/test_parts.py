"""The parts of a review that must hold at any size or input: a trace stays a page long at
43,000 tools, folder names never escape or collide, old → new values are exact."""

from __future__ import annotations

from toolcat.pin.diff import ABSENT, changed_values
from toolcat.resolution import Decision
from toolcat.review.requests import folder_names
from toolcat.review.trace import SHOWN, trace_markdown


def test_a_trace_of_43000_tools_is_bounded_and_counts_every_tool():
    leaves = tuple(Decision(f"tool_{i}", "deferred" if i % 2 else "excluded",
                            "over-cap" if i % 2 else "unsafe", f"rank {i}, score 0.{i:05d}")
                   for i in range(43_000))
    root = Decision("query", "10 visible", None, "profile default",
                    (Decision("automatic search", "10 shown", None, "the cap is 10", leaves),))
    lines = trace_markdown(root).splitlines()
    assert len(lines) <= SHOWN + 5
    assert lines[2] == "    - tool_0 → excluded [unsafe] — rank 0, score 0.00000"
    rest = [line for line in lines if "… and" in line]
    counted = sum(int(line.split("… and ")[1].split(" more")[0].replace(",", ""))
                  for line in rest)
    assert counted == 43_000 - SHOWN


def test_a_trace_escapes_html_and_keeps_one_line_per_decision():
    root = Decision("<script>alert(1)</script>\nnext", "visible", "rule", "why <b>")
    assert trace_markdown(root) == \
        "- &lt;script>alert(1)&lt;/script> next → visible [rule] — why &lt;b>\n"


def test_folder_names_are_safe_distinct_and_stable():
    ids = ["q1", "Q1", "../../etc", "/abs", "..", ".", "a b", "a-b", "x" * 300, "ü"]
    names = folder_names(ids)
    assert names["q1"] == "q1" and names["a-b"] == "a-b"
    assert len({n.lower() for n in names.values()}) == len(ids)
    assert all("/" not in n and not n.startswith(".") and n for n in names.values())
    assert all(len(n) <= 80 for n in names.values())
    assert folder_names(ids) == names


def test_changed_values_give_each_node_its_old_and_new_value():
    old = {"type": "object", "properties": {"a": {"type": "string"}, "b": {"enum": [1, 2]}}}
    new = {"type": "object", "properties": {"b": {"enum": [1, 3]}, "c": {"type": "integer"}}}
    found = [(v.path, v.old, v.new) for v in changed_values(old, new)]
    assert found == [("/properties/a", {"type": "string"}, ABSENT),
                     ("/properties/b/enum/1", 2, 3),
                     ("/properties/c", ABSENT, {"type": "integer"})]
