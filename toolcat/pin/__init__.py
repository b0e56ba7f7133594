"""Pinning: the lock file that freezes a catalog's tools, and the diff between two catalogs.

Imports only rooms below it (source); see docs/architecture.md.
"""
