"""Tool calls: parse, validate and accept the calls a model returned, against the catalog."""
