"""Check a tool's parameters against the JSON Schema meta-schema its `$schema` names.

Draft 2020-12 (the default) spreads its meta-schema over seven vocabulary files joined by
`$dynamicRef`, and resolving those references is most of the cost of checking a schema with
jsonschema (about 0.7 ms each; 3 s for a 4,000-tool catalog). The vocabularies define disjoint
keywords and the dynamic anchor only ever resolves to the top meta-schema, so the same rules
written as one schema (the vocabularies' `properties` and `$defs` merged, `$dynamicRef: #meta`
read as `$ref: #`) accept and reject exactly the same schemas, five times faster (each error
is reported once, where the official meta-schema repeats it once per vocabulary). The merged
schema is built from jsonschema's own copies at first use; tests compare it with the original.

Even so, checking every distinct schema of a 43,000-tool catalog took jsonschema 1.4 s. The
same merged meta-schema compiled by jsonschema-rs answers "valid or not" a hundred times
faster (4,547 distinct schemas: 5 ms against 0.44 s), and nearly every schema is valid; only
a schema it rejects is checked again by jsonschema, whose errors toolcat reports (their
paths and wording). Tests hold the two verdicts equal over every schema toolcat's tests and
the shared benchmark sets hold, and over generated ones.
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Iterator
from functools import cache
from typing import Any

from toolcat.source.positions import escape
from toolcat.wording import schema_message

DRAFT_2020_12 = "https://json-schema.org/draft/2020-12/schema"
MAX_MESSAGE = 160


def _merged(node: Any) -> Any:
    if isinstance(node, dict):
        if node.get("$dynamicRef") == "#meta":
            node = {**{k: v for k, v in node.items() if k != "$dynamicRef"}, "$ref": "#"}
        ref = node.get("$ref")
        if isinstance(ref, str) and ref.startswith("meta/"):  # into a vocabulary's $defs
            node = {**node, "$ref": "#" + ref.partition("#")[2]}
        return {k: _merged(v) for k, v in node.items()}
    if isinstance(node, list):
        return [_merged(v) for v in node]
    return node


@cache
def merged_2020_12() -> dict[str, Any]:
    """The draft 2020-12 meta-schema as one self-contained schema."""
    from jsonschema import Draft202012Validator
    from jsonschema_specifications import REGISTRY

    top = Draft202012Validator.META_SCHEMA
    merged: dict[str, Any] = {"type": ["object", "boolean"], "properties": {}, "$defs": {}}
    for part in top["allOf"]:
        vocabulary = REGISTRY[f"https://json-schema.org/draft/2020-12/{part['$ref']}"].contents
        merged["properties"].update(_merged(vocabulary.get("properties", {})))
        merged["$defs"].update(_merged(vocabulary.get("$defs", {})))
    merged["properties"].update(_merged(top.get("properties", {})))
    return merged


@cache
def _validator(meta_uri: str) -> Any:
    from jsonschema import Draft202012Validator
    from jsonschema.validators import validator_for

    if meta_uri == DRAFT_2020_12:
        return Draft202012Validator(merged_2020_12())
    cls = validator_for({"$schema": meta_uri}, default=Draft202012Validator)  # a known one
    return cls(cls.META_SCHEMA)


def known_meta_schema(uri: str) -> bool:
    from jsonschema import Draft7Validator, Draft202012Validator
    from jsonschema.validators import validator_for

    # validator_for answers `default` for a $schema it does not know: two defaults tell
    schema = {"$schema": uri}
    return validator_for(schema, default=Draft7Validator) is \
        validator_for(schema, default=Draft202012Validator)


def schema_errors(schema: Any) -> Iterator[tuple[str, str]]:
    """(JSON pointer, message) for each way `schema` breaks its meta-schema.

    An unknown `$schema` is itself one error; then nothing else is checked. Catalogs repeat
    the same schemas (every tool without parameters, copies on several servers), so the
    answer is kept per schema content: each distinct schema is checked once per process.
    """
    if surely_valid(schema):
        return
    try:
        text = json.dumps(schema, ensure_ascii=False, allow_nan=True, default=repr)
    except (TypeError, ValueError, RecursionError):  # nothing to key it by: checked each time
        yield from _schema_errors(schema)
        return
    key = hashlib.blake2b(text.encode(errors="surrogatepass"), digest_size=16).digest()
    found = _checked.get(key)
    if found is None:
        if len(_checked) >= _CHECKED_LIMIT:
            _checked.clear()
        found = _checked[key] = tuple(_schema_errors(schema))
    yield from found


def surely_valid(schema: Any) -> bool:
    """jsonschema-rs's verdict that `schema` is a valid draft 2020-12 schema (the default);
    False when it finds a problem, cannot read the value, or another draft is named."""
    if isinstance(schema, dict) and "$schema" in schema and (
            not isinstance(schema["$schema"], str)
            or schema["$schema"].rstrip("#") != DRAFT_2020_12):
        return False
    validator = _fast_validator()
    try:
        return bool(validator.is_valid(schema))
    except Exception:  # a value it cannot convert (an integer past 64 bits): jsonschema decides
        return False


@cache
def _fast_validator() -> Any:
    import jsonschema_rs

    return jsonschema_rs.Draft202012Validator(merged_2020_12())


_CHECKED_LIMIT = 200_000
_checked: dict[bytes, tuple[tuple[str, str], ...]] = {}


def _schema_errors(schema: Any) -> Iterator[tuple[str, str]]:
    uri = schema.get("$schema", DRAFT_2020_12) if isinstance(schema, dict) else DRAFT_2020_12
    if not isinstance(uri, str):
        yield "/$schema", "$schema must be a string naming a meta-schema"
        return
    uri = uri.rstrip("#") if uri.rstrip("#") == DRAFT_2020_12 else uri
    if uri != DRAFT_2020_12 and not known_meta_schema(uri):
        yield "/$schema", f"unknown $schema '{uri}': not a JSON Schema draft toolcat knows"
        return
    for error in _validator(uri).iter_errors(schema):
        pointer = "".join(f"/{escape(str(token))}" for token in error.absolute_path)
        yield pointer, _message(error)


def _message(error: Any) -> str:
    path = list(error.absolute_path)
    if path and path[-1] == "type" and error.validator == "anyOf":
        text = (f"{error.instance!r} is not a JSON Schema type (array, boolean, integer, null, "
                "number, object, string)")
    else:
        text = schema_message(error)
    if len(text) > MAX_MESSAGE:
        text = text[: MAX_MESSAGE - 1] + "…"
    keyword = str(path[-1]) if path else ""
    return f"'{keyword}': {text}" if keyword else text
