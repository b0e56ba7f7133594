"""Tools defined in Python: the `@tool` decorator, reading a Python module as a catalog, and
hydrating checked calls into instances of the registered classes.

Imports only rooms below it (calls, providers, source); see docs/architecture.md.
"""
