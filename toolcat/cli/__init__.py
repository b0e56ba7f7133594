"""The command line: thin typer commands that parse options, call the core and print.

Imports any room below it; see docs/architecture.md.
"""
