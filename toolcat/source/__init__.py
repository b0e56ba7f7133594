"""Reading source files: bounded parsing of YAML/JSON/JSONL, positions of every value, and
confined `$ref` resolution; and the cache of what is derived from them (`cache`, `checked`).
Every room that reads a file stands on this one.

Imports only rooms below it (errors, model); see docs/architecture.md.
"""
