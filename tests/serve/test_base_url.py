"""`toolcat serve --base-url API=URL` names an OpenAPI API of the catalog and an http(s)
address; anything else stops serve before it starts, in one line (docs/serve.md)."""

from __future__ import annotations

import pytest

from tests.conftest import DATA

PETSTORE = str(DATA / "real" / "petstore.yaml")


@pytest.mark.parametrize(("value", "message"), [
    ("Nope=https://api.example", "--base-url names 'Nope', which is no OpenAPI API of the "
     "catalog; known: Swagger Petstore"),
    ("Swagger Petstore=file:///etc/passwd", "--base-url 'Swagger Petstore=file:///etc/passwd' "
     "is not API=URL with an http or https URL, e.g. 'Swagger Petstore=https://petstore."
     "example.com/v1'"),
    ("https://api.example", "--base-url 'https://api.example' is not API=URL with an http or "
     "https URL, e.g. 'Swagger Petstore=https://petstore.example.com/v1'"),
])
def test_a_base_url_that_names_no_api_or_no_http_address_is_refused(run, value, message):
    result = run("serve", "-c", PETSTORE, "--base-url", value)
    assert result.exit_code == 2
    assert result.stderr.strip() == f"toolcat: error: {message}"
