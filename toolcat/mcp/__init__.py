"""Live MCP servers: where to find them (`servers`), how to ask them for their tools with the
official SDK (`client`), and how their answers become a catalog (`importer`).

Only `client` imports the SDK (the `mcp` extra), and only inside its functions.

Imports only rooms below it (providers, source); see docs/architecture.md.
"""
