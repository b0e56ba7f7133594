"""Pinning: the lock file that freezes a catalog's tools, and the diff between two catalogs."""
