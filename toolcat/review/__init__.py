"""Review: what models will see, per request, exported as files a reviewer reads and CI diffs.

For every request (and profile): the system prompt, the provider payloads, the token costs and
the decision trace, one folder per request, plus one self-contained HTML page; a comparison
with a baseline (another catalog, a lock file or an earlier review folder); and the snapshot
check that re-renders a committed review folder. The work itself is done by the rooms below:
resolution decides, render writes the prompt and payload and counts tokens, pin compares
definitions, bench reads the query files.

Imports only rooms below it (render, resolution, bench, pin, catalog, search, define,
providers, config, source); see docs/architecture.md.
"""
