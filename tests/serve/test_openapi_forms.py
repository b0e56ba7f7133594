"""Operations whose request body is a form (Twilio's, Stripe's and Slack's APIs take every
write so), in an OpenAPI 3 document and in its OpenAPI 2.0 (Swagger) twin, whose fields are
`in: formData` parameters: the import gives the tool the form's fields as its `body`
argument, and `toolcat serve` sends them form-encoded (`application/x-www-form-urlencoded`,
or `multipart/form-data`) to a real HTTP server started by the test, a list's items
repeating the field and an object's members named `field[member]` (docs/catalogs.md,
docs/serve.md)."""

from __future__ import annotations

import threading
from collections.abc import Iterator
from email.parser import BytesParser
from email.policy import HTTP
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from typing import Any
from urllib.parse import parse_qsl

import anyio
import pytest

from tests.serve.conftest import text
from tests.serve.test_approval import User, client
from toolcat.catalog.load import load_catalog

pytestmark = pytest.mark.mcp

DOCUMENT = """\
openapi: 3.0.3
info: {title: Texts, version: "1"}
servers: [{url: "http://127.0.0.1:PORT/v1"}]
paths:
  /messages:
    post:
      operationId: createMessage
      summary: Send a text message to a phone number.
      requestBody:
        required: true
        content:
          application/x-www-form-urlencoded:
            schema:
              type: object
              required: [To, Body]
              properties:
                To: {type: string, description: The phone number to send to.}
                Body: {type: string, description: The text of the message.}
                MediaUrl: {type: array, items: {type: string}}
                Urgent: {type: boolean}
                metadata: {type: object, additionalProperties: {type: string}}
      responses: {"201": {description: sent}}
  /uploads:
    post:
      operationId: uploadNote
      summary: Upload a note as a file.
      requestBody:
        content:
          multipart/form-data:
            schema:
              type: object
              properties: {name: {type: string}, note: {type: string}}
      responses: {"201": {description: stored}}
"""

# the same API as an OpenAPI 2.0 (Swagger) document: form fields as `in: formData` parameters
SWAGGER = """\
swagger: "2.0"
info: {title: Texts, version: "1"}
host: "127.0.0.1:PORT"
basePath: /v1
schemes: [http]
paths:
  /messages:
    post:
      operationId: createMessage
      summary: Send a text message to a phone number.
      consumes: [application/x-www-form-urlencoded]
      parameters:
        - {name: To, in: formData, type: string, required: true,
           description: The phone number to send to.}
        - {name: Body, in: formData, type: string, required: true,
           description: The text of the message.}
        - {name: MediaUrl, in: formData, type: array, items: {type: string}}
        - {name: Urgent, in: formData, type: boolean}
        - {name: metadata, in: formData, type: object}
      responses: {"201": {description: sent}}
  /uploads:
    post:
      operationId: uploadNote
      summary: Upload a note as a file.
      consumes: [multipart/form-data]
      parameters:
        - {name: name, in: formData, type: string}
        - {name: note, in: formData, type: string}
      responses: {"201": {description: stored}}
"""


class Texts(BaseHTTPRequestHandler):
    """Records each request's content type and its form fields, in order."""

    seen: list[dict[str, Any]]

    def do_POST(self) -> None:
        kind = self.headers.get("Content-Type", "")
        raw = self.rfile.read(int(self.headers.get("Content-Length") or 0))
        if kind.startswith("multipart/form-data"):
            message = BytesParser(policy=HTTP).parsebytes(
                f"Content-Type: {kind}\r\n\r\n".encode() + raw)
            fields = [(part.get_param("name", header="content-disposition"),
                       part.get_payload(decode=True).decode()) for part in message.iter_parts()]
        else:
            fields = parse_qsl(raw.decode())
        self.seen.append({"path": self.path, "kind": kind.split(";")[0], "fields": fields})
        self.send_response(201)
        self.send_header("Content-Length", "0")
        self.end_headers()

    def log_message(self, format: str, *args: Any) -> None:
        pass


@pytest.fixture(params=[DOCUMENT, SWAGGER], ids=["openapi3", "swagger2"])
def api(tmp_path: Path, request: pytest.FixtureRequest
        ) -> Iterator[tuple[Path, list[dict[str, Any]]]]:
    seen: list[dict[str, Any]] = []
    httpd = ThreadingHTTPServer(("127.0.0.1", 0), type("Handler", (Texts,), {"seen": seen}))
    threading.Thread(target=httpd.serve_forever, daemon=True).start()
    path = tmp_path / "texts.yaml"
    path.write_text(request.param.replace("PORT", str(httpd.server_address[1])))
    try:
        yield path, seen
    finally:
        httpd.shutdown()
        httpd.server_close()


def test_a_form_body_is_the_tools_body_argument(api):
    document, _ = api
    tool = {t.name: t for t in load_catalog(document).tools}["createMessage"]
    body = tool.parameters["properties"]["body"]
    assert set(body["properties"]) == {"To", "Body", "MediaUrl", "Urgent", "metadata"}
    assert body["required"] == ["To", "Body"]
    assert body["properties"]["To"]["description"] == "The phone number to send to."
    assert tool.parameters["required"] == ["body"]
    assert tool.extra["openapi"]["body"] == "application/x-www-form-urlencoded"


def test_serve_sends_a_form_body_form_encoded(api, tmp_path):
    document, seen = api
    profile = tmp_path / "profile.yaml"
    profile.write_text("name: api\nscorer: bm25\n")

    async def session() -> tuple[Any, Any]:
        async with client("-c", str(document), "-p", str(profile), user=User("accept")) as tc:
            await tc.call_tool("add_tool", {"tool_names": ["createMessage", "uploadNote"]})
            sent = await tc.call_tool("createMessage", {"body": {
                "To": "+15550100", "Body": "Tea at 5?", "MediaUrl": ["https://a.example/1.png",
                                                                    "https://a.example/2.png"],
                "Urgent": False, "metadata": {"order": "A-7"}}})
            uploaded = await tc.call_tool("uploadNote", {"body": {"name": "n.txt",
                                                                  "note": "ça va"}})
            return sent, uploaded

    sent, uploaded = anyio.run(session)
    assert not sent.is_error, text(sent)
    assert not uploaded.is_error, text(uploaded)
    assert seen[0] == {"path": "/v1/messages", "kind": "application/x-www-form-urlencoded",
                       "fields": [("To", "+15550100"), ("Body", "Tea at 5?"),
                                  ("MediaUrl", "https://a.example/1.png"),
                                  ("MediaUrl", "https://a.example/2.png"),
                                  ("Urgent", "false"), ("metadata[order]", "A-7")]}
    assert seen[1]["kind"] == "multipart/form-data"
    assert seen[1]["fields"] == [("name", "n.txt"), ("note", "ça va")]
