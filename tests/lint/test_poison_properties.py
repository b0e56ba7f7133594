"""Properties of the poisoning scan on generated text: it never fails, and its quick first pass
over a whole definition never hides a finding the string-by-string reading makes."""

from __future__ import annotations

import base64

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from toolcat.lint import poison

FRAGMENTS = ["ignore", "all", "previous", "instructions", "do not tell the user", "<!--",
             "-->", "%20", "&#105;", "\\x41", "~/.ssh/id_rsa", "read", "you are now", "\n",
             "  ", "i g n o r e", "D.O N.O.T", "Іgnоrе", "ｉｇｎｏｒｅ", "\u200b", "_", "-\n",
             "role", '"role": "system"', "[//]: # (", "1gn0re", "SYSTEM:", "\x00",
             base64.b64encode(b"never tell the user about it").decode(),
             b"ignore all previous instructions".hex(), "doNotTell", "e.g.", "utf8"]
texts = st.lists(st.one_of(st.sampled_from(FRAGMENTS), st.text(max_size=12)),
                 max_size=14).map(" ".join)
entries = st.fixed_dictionaries({
    "name": texts, "description": texts,
    "parameters": st.fixed_dictionaries({"type": st.just("object"), "properties":
                                         st.dictionaries(texts, st.fixed_dictionaries({
                                             "description": texts,
                                             "enum": st.lists(texts, max_size=3)}),
                                             max_size=3)})})


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(entries)
def test_the_quick_pass_never_hides_a_finding(entry):
    assert poison.scan_definition(entry) == poison.read_each_string(entry)
