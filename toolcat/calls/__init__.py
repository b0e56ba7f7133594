"""Tool calls: parse, validate and accept the calls a model returned, against the catalog.

Imports only rooms below it (providers, source); see docs/architecture.md.
"""
