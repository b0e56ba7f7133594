"""The three provider APIs the gateway speaks, each as the few operations the proxy needs:
where the tools and the user's words sit in a request, how a tool is written, which calls a
reply makes, how a conversation goes on with the answers to the gateway's own calls, and the
provider's error shape.

Nothing here trusts the body: `check` refuses a request the provider would refuse for its
shape (a 400 in the provider's error shape), and every other function reads only what `check`
accepted. Tools that are not functions (Anthropic's server tools, OpenAI's built-in tools) are
never scored, dropped or deferred: they pass through as they came.
"""

from __future__ import annotations

import json
from abc import ABC, abstractmethod
from collections.abc import Callable, Iterator, Mapping, Sequence
from dataclasses import dataclass
from typing import Any, ClassVar

from toolcat.model import Tool

Body = dict[str, Any]
Shorten = Callable[[str], str | None]


def _shorten_content(content: Any, shorten: Shorten, text_types: tuple[str, ...]) -> Any:
    """A tool result's content (a string, or a list of text parts) with its texts shortened;
    the same object when nothing changed."""
    if isinstance(content, str):
        short = shorten(content)
        return content if short is None else short
    if not isinstance(content, list):
        return content
    parts, changed = [], False
    for part in content:
        if isinstance(part, dict) and part.get("type") in text_types \
                and isinstance(part.get("text"), str):
            short = shorten(part["text"])
            if short is not None:
                part, changed = {**part, "text": short}, True
        parts.append(part)
    return parts if changed else content


class BadRequest(ValueError):
    """A request body the provider would refuse: the message says which part and why."""


@dataclass(frozen=True)
class Call:
    """One tool call in a reply: the id the answer must name, the tool, its arguments."""

    id: str
    name: str
    arguments: Any  # a mapping when the reply's arguments are a JSON object; else None


def _text(content: Any) -> str:
    """The text of a message's content: a string, or the text parts of a list."""
    if isinstance(content, str):
        return content
    if isinstance(content, list):
        return " ".join(part["text"] for part in content if isinstance(part, dict)
                        and part.get("type") in ("text", "input_text")
                        and isinstance(part.get("text"), str))
    return ""


def _user_texts(messages: Sequence[Any]) -> list[str]:
    return [text for m in messages if isinstance(m, dict) and m.get("role") == "user"
            and (text := _text(m.get("content")).strip())]


def _list(value: Any) -> list[Any]:
    """`value` if it is a list (a reply's part that should be one), else an empty list."""
    return value if isinstance(value, list) else []


def _arguments(raw: Any) -> Any:
    if isinstance(raw, dict):
        return raw
    if isinstance(raw, str):
        try:
            parsed = json.loads(raw)
        except (ValueError, RecursionError):
            return None
        return parsed if isinstance(parsed, dict) else None
    return None


def _require(body: Any, key: str, kind: type, what: str) -> None:
    if key not in body:
        raise BadRequest(f"{key}: Field required")
    if not isinstance(body[key], kind) or isinstance(body[key], bool):
        raise BadRequest(f"{key}: {what}")


def _check_tools(tools: Any, is_function: Callable[[Any], bool],
                 name_of: Callable[[dict[str, Any]], Any]) -> None:
    if tools is None:
        return
    if not isinstance(tools, list):
        raise BadRequest("tools: Input should be a valid list")
    seen: set[str] = set()
    for i, item in enumerate(tools):
        if not isinstance(item, dict):
            raise BadRequest(f"tools.{i}: Input should be an object")
        if not is_function(item):
            continue
        name = name_of(item)
        if not isinstance(name, str) or not name:
            raise BadRequest(f"tools.{i}.name: Input should be a non-empty string")
        if name in seen:
            raise BadRequest(f"tools: Tool names must be unique ('{name}' is repeated)")
        seen.add(name)


class Api(ABC):
    """What the proxy needs of one provider API (see the module docstring)."""

    name: str
    path: str
    messages_key: str
    schema_key: str  # where a function tool's definition keeps its JSON Schema

    @abstractmethod
    def check(self, body: Any) -> Body:
        """The body, if its shape is one the provider accepts.

        Raises:
            BadRequest: it is not.
        """
        ...

    @abstractmethod
    def is_function(self, item: Mapping[str, Any]) -> bool:
        ...

    def definition(self, item: Mapping[str, Any]) -> Mapping[str, Any]:
        """The part of a function tool that holds its name, description and schema."""
        return item

    def tool_name(self, item: Mapping[str, Any]) -> str:
        return str(self.definition(item)["name"])

    def read(self, item: Mapping[str, Any]) -> Tool:
        """The canonical tool of a function tool of a request."""
        definition = self.definition(item)
        schema = definition.get(self.schema_key)
        return Tool(name=str(definition["name"]),
                    description=str(definition.get("description") or ""),
                    parameters=schema if isinstance(schema, dict) else None, raw=dict(item),
                    shape=self.name)

    @abstractmethod
    def write(self, tool: Tool) -> dict[str, Any]:
        """`tool` (the gateway's own) as this API's function tool."""
        ...

    @abstractmethod
    def messages(self, body: Body) -> list[Any]:
        ...

    def query(self, body: Body) -> str:
        """The words the tools are chosen for: the last user message that has text."""
        texts = _user_texts(self.messages(body))
        return texts[-1] if texts else ""

    def first_user(self, body: Body) -> str:
        """The first user message's text: the conversation's key."""
        texts = _user_texts(self.messages(body))
        return texts[0] if texts else ""

    @abstractmethod
    def used(self, body: Body) -> list[str]:
        """The names of the tools the conversation called, oldest first."""
        ...

    def chosen(self, body: Body) -> str | None:
        """The tool `tool_choice` forces the model to call, if it names one."""
        choice = body.get("tool_choice")
        if not isinstance(choice, dict):
            return None
        function = choice.get("function")
        name = (function if isinstance(function, dict) else choice).get("name")
        return name if isinstance(name, str) else None

    @abstractmethod
    def calls(self, reply: Any) -> list[Call]:
        ...

    @abstractmethod
    def go_on(self, body: Body, reply: Any, answers: Sequence[tuple[Call, str]]) -> Body:
        """`body` continued by `reply` (whose calls are all the gateway's) and the gateway's
        answers to them."""
        ...

    @abstractmethod
    def strip(self, reply: Any, names: set[str]) -> Any:
        """`reply` without its calls of `names` (the gateway's tools), as a client expects
        a reply with no such calls."""
        ...

    @abstractmethod
    def error(self, status: int, message: str) -> dict[str, Any]:
        ...

    @abstractmethod
    def shorten_results(self, body: Body, shorten: Shorten) -> Body:
        """`body` with each tool result's text replaced by `shorten(text)` where that is not
        None (the messages it changes are copies)."""
        ...


class Anthropic(Api):
    """The Messages API: POST /v1/messages."""

    name, path, messages_key = "anthropic", "/v1/messages", "messages"
    schema_key = "input_schema"
    ERRORS: ClassVar[dict[int, str]] = {400: "invalid_request_error", 401: "authentication_error",
              403: "permission_error", 404: "not_found_error", 413: "request_too_large",
              421: "permission_error", 429: "rate_limit_error", 502: "api_error",
              504: "timeout_error"}

    def check(self, body: Any) -> Body:
        if not isinstance(body, dict):
            raise BadRequest("the body must be a JSON object")
        _require(body, "model", str, "Input should be a valid string")
        _require(body, "max_tokens", int, "Input should be a valid integer")
        _require(body, "messages", list, "Input should be a valid list")
        for i, message in enumerate(body["messages"]):
            if not isinstance(message, dict) or message.get("role") not in ("user",
                                                                             "assistant"):
                raise BadRequest(f"messages.{i}: each message must be an object whose role "
                                 "is 'user' or 'assistant'")
            if not isinstance(message.get("content"), (str, list)):
                raise BadRequest(f"messages.{i}.content: Input should be a string or a list")
        _check_tools(body.get("tools"), self.is_function, lambda t: t.get("name"))
        return body

    def is_function(self, item: Mapping[str, Any]) -> bool:
        return "input_schema" in item and item.get("type", "custom") == "custom"

    def write(self, tool: Tool) -> dict[str, Any]:
        return {"name": tool.name, "description": tool.description,
                "input_schema": tool.parameters}

    def messages(self, body: Body) -> list[Any]:
        return list(body.get("messages") or ())

    def used(self, body: Body) -> list[str]:
        return [block["name"] for m in self.messages(body) if m.get("role") == "assistant"
                and isinstance(m.get("content"), list) for block in m["content"]
                if isinstance(block, dict) and block.get("type") == "tool_use"
                and isinstance(block.get("name"), str)]

    def calls(self, reply: Any) -> list[Call]:
        content = reply.get("content") if isinstance(reply, dict) else None
        return [Call(str(b.get("id", "")), b["name"], _arguments(b.get("input")))
                for b in _list(content) if isinstance(b, dict) and b.get("type") == "tool_use"
                and isinstance(b.get("name"), str)]

    def go_on(self, body: Body, reply: Any, answers: Sequence[tuple[Call, str]]) -> Body:
        results = [{"type": "tool_result", "tool_use_id": call.id, "content": text}
                   for call, text in answers]
        messages = [*self.messages(body), {"role": "assistant", "content": _list(
            reply.get("content"))},
                    {"role": "user", "content": results}]
        return {**body, "messages": messages}

    def strip(self, reply: Any, names: set[str]) -> Any:
        content = [b for b in _list(reply.get("content")) if not (
            isinstance(b, dict) and b.get("type") == "tool_use" and b.get("name") in names)]
        stripped = {**reply, "content": content}
        if reply.get("stop_reason") == "tool_use" and not any(
                isinstance(b, dict) and b.get("type") == "tool_use" for b in content):
            stripped["stop_reason"] = "end_turn"
        return stripped

    def shorten_results(self, body: Body, shorten: Shorten) -> Body:
        messages = []
        for message in self.messages(body):
            content = message.get("content")
            if message.get("role") == "user" and isinstance(content, list):
                blocks = [{**b, "content": _shorten_content(b.get("content"), shorten,
                                                            ("text",))}
                          if isinstance(b, dict) and b.get("type") == "tool_result" else b
                          for b in content]
                if any(a is not b for a, b in zip(blocks, content, strict=True)):
                    message = {**message, "content": blocks}
            messages.append(message)
        return {**body, "messages": messages}

    def error(self, status: int, message: str) -> dict[str, Any]:
        kind = self.ERRORS.get(status, "invalid_request_error" if status < 500 else
                               "api_error")
        return {"type": "error", "error": {"type": kind, "message": message}}


class _OpenAI(Api):
    schema_key = "parameters"

    def error(self, status: int, message: str) -> dict[str, Any]:
        kind = "invalid_request_error" if status < 500 else "server_error"
        return {"error": {"message": message, "type": kind, "param": None,
                          "code": "gateway_timeout" if status == 504 else None}}


class Chat(_OpenAI):
    """The Chat Completions API: POST /v1/chat/completions."""

    name, path, messages_key = "openai", "/v1/chat/completions", "messages"

    def check(self, body: Any) -> Body:
        if not isinstance(body, dict):
            raise BadRequest("the body must be a JSON object")
        _require(body, "model", str, "Input should be a valid string")
        _require(body, "messages", list, "Input should be a valid list")
        for i, message in enumerate(body["messages"]):
            if not isinstance(message, dict) or not isinstance(message.get("role"), str):
                raise BadRequest(f"messages[{i}]: each message must be an object with a role")
        _check_tools(body.get("tools"), self.is_function,
                     lambda t: t["function"].get("name"))
        return body

    def is_function(self, item: Mapping[str, Any]) -> bool:
        return item.get("type") == "function" and isinstance(item.get("function"), dict)

    def definition(self, item: Mapping[str, Any]) -> Mapping[str, Any]:
        function: Mapping[str, Any] = item["function"]  # is_function checked it is an object
        return function

    def write(self, tool: Tool) -> dict[str, Any]:
        return {"type": "function", "function": {"name": tool.name,
                                                 "description": tool.description,
                                                 "parameters": tool.parameters}}

    def messages(self, body: Body) -> list[Any]:
        return list(body.get("messages") or ())

    def used(self, body: Body) -> list[str]:
        return [call["function"]["name"] for m in self.messages(body)
                if m.get("role") == "assistant" and isinstance(m.get("tool_calls"), list)
                for call in m["tool_calls"] if isinstance(call, dict)
                and isinstance(call.get("function"), dict)
                and isinstance(call["function"].get("name"), str)]

    def shorten_results(self, body: Body, shorten: Shorten) -> Body:
        messages = [{**m, "content": _shorten_content(m.get("content"), shorten, ("text",))}
                    if m.get("role") == "tool" else m for m in self.messages(body)]
        return {**body, "messages": messages}

    def _message(self, reply: Any) -> dict[str, Any]:
        choices = reply.get("choices") if isinstance(reply, dict) else None
        if isinstance(choices, list) and choices and isinstance(choices[0], dict) \
                and isinstance(choices[0].get("message"), dict):
            message: dict[str, Any] = choices[0]["message"]
            return message
        return {}

    def calls(self, reply: Any) -> list[Call]:
        return [Call(str(c.get("id", "")), c["function"]["name"],
                     _arguments(c["function"].get("arguments")))
                for c in _list(self._message(reply).get("tool_calls"))
                if isinstance(c, dict) and isinstance(c.get("function"), dict)
                and isinstance(c["function"].get("name"), str)]

    def go_on(self, body: Body, reply: Any, answers: Sequence[tuple[Call, str]]) -> Body:
        results = [{"role": "tool", "tool_call_id": call.id, "content": text}
                   for call, text in answers]
        message = {k: v for k, v in self._message(reply).items()
                   if k in ("role", "content", "tool_calls")}
        return {**body, "messages": [*self.messages(body), message, *results]}

    def strip(self, reply: Any, names: set[str]) -> Any:
        choices = []
        for choice in _list(reply.get("choices")):
            message = choice.get("message") if isinstance(choice, dict) else None
            if not isinstance(message, dict) or not _list(message.get("tool_calls")):
                choices.append(choice)
                continue
            kept = [c for c in message["tool_calls"] if not (
                isinstance(c, dict) and isinstance(c.get("function"), dict)
                and c["function"].get("name") in names)]
            message = {**message, "tool_calls": kept or None}
            choice = {**choice, "message": message}
            if not kept and choice.get("finish_reason") == "tool_calls":
                choice["finish_reason"] = "stop"
            choices.append(choice)
        return {**reply, "choices": choices}


class Responses(_OpenAI):
    """The Responses API: POST /v1/responses."""

    name, path, messages_key = "openai-responses", "/v1/responses", "input"

    def check(self, body: Any) -> Body:
        if not isinstance(body, dict):
            raise BadRequest("the body must be a JSON object")
        _require(body, "model", str, "Input should be a valid string")
        given = body.get("input")
        if given is not None and not isinstance(given, (str, list)):
            raise BadRequest("input: Input should be a string or a list")
        if isinstance(given, list) and not all(isinstance(item, dict) for item in given):
            raise BadRequest("input: each item must be an object")
        _check_tools(body.get("tools"), self.is_function, lambda t: t.get("name"))
        return body

    def is_function(self, item: Mapping[str, Any]) -> bool:
        return item.get("type") == "function"

    def write(self, tool: Tool) -> dict[str, Any]:
        return {"type": "function", "name": tool.name, "description": tool.description,
                "parameters": tool.parameters, "strict": False}

    def messages(self, body: Body) -> list[Any]:
        given = body.get("input")
        if isinstance(given, str):
            return [{"role": "user", "content": given}]
        return list(given or ())

    def shorten_results(self, body: Body, shorten: Shorten) -> Body:
        if not isinstance(body.get("input"), list):
            return body
        items = [{**item, "output": _shorten_content(item.get("output"), shorten,
                                                     ("input_text", "output_text"))}
                 if item.get("type") == "function_call_output" else item
                 for item in self.messages(body)]
        return {**body, "input": items}

    def used(self, body: Body) -> list[str]:
        return [item["name"] for item in self.messages(body)
                if item.get("type") == "function_call" and isinstance(item.get("name"), str)]

    def calls(self, reply: Any) -> list[Call]:
        output = reply.get("output") if isinstance(reply, dict) else None
        return [Call(str(item.get("call_id", "")), item["name"],
                     _arguments(item.get("arguments")))
                for item in _list(output) if isinstance(item, dict)
                and item.get("type") == "function_call" and isinstance(item.get("name"), str)]

    def go_on(self, body: Body, reply: Any, answers: Sequence[tuple[Call, str]]) -> Body:
        results = [{"type": "function_call_output", "call_id": call.id, "output": text}
                   for call, text in answers]
        if body.get("previous_response_id") and isinstance(reply.get("id"), str):
            # a conversation the provider keeps: the reply is in it already
            return {**body, "previous_response_id": reply["id"], "input": results}
        return {**body, "input": [*self.messages(body), *_list(reply.get("output")),
                                  *results]}

    def strip(self, reply: Any, names: set[str]) -> Any:
        output = [item for item in _list(reply.get("output")) if not (
            isinstance(item, dict) and item.get("type") == "function_call"
            and item.get("name") in names)]
        return {**reply, "output": output}


APIS: dict[str, Api] = {api.path: api for api in (Anthropic(), Chat(), Responses())}


def sse_events(raw: bytes) -> Iterator[Any]:
    """The JSON data of each server-sent event of a stream (`[DONE]` and non-JSON skipped)."""
    for block in raw.replace(b"\r\n", b"\n").split(b"\n\n"):
        data = b"\n".join(line[5:].lstrip(b" ") for line in block.split(b"\n")
                          if line.startswith(b"data:"))
        if not data or data == b"[DONE]":
            continue
        try:
            yield json.loads(data)
        except (ValueError, RecursionError):
            continue


def assemble(api: Api, raw: bytes) -> Any:
    """The reply a finished event stream amounts to, in the API's non-streamed shape (only
    what `calls`, `go_on` need: content and tool calls)."""
    events = [e for e in sse_events(raw) if isinstance(e, dict)]
    if isinstance(api, Anthropic):
        return _assemble_anthropic(events)
    if isinstance(api, Chat):
        return _assemble_chat(events)
    for event in events:
        if event.get("type") == "response.completed" and isinstance(event.get("response"),
                                                                    dict):
            return event["response"]
    return {"output": []}


def _assemble_anthropic(events: list[dict[str, Any]]) -> dict[str, Any]:
    reply: dict[str, Any] = {"content": []}
    partial: dict[int, list[str]] = {}
    blocks: dict[int, dict[str, Any]] = {}
    for event in events:
        kind = event.get("type")
        index = event.get("index")
        if kind == "message_start" and isinstance(event.get("message"), dict):
            reply = {**event["message"], "content": []}
        elif kind == "content_block_start" and isinstance(index, int) \
                and isinstance(event.get("content_block"), dict):
            blocks[index] = dict(event["content_block"])
        elif kind == "content_block_delta" and index in blocks \
                and isinstance(event.get("delta"), dict):
            delta = event["delta"]
            if delta.get("type") == "text_delta":
                blocks[index]["text"] = blocks[index].get("text", "") + str(delta.get("text"))
            elif delta.get("type") == "input_json_delta":
                partial.setdefault(index, []).append(str(delta.get("partial_json", "")))
        elif kind == "message_delta" and isinstance(event.get("delta"), dict):
            reply["stop_reason"] = event["delta"].get("stop_reason")
    for index, block in sorted(blocks.items()):
        if block.get("type") == "tool_use" and index in partial:
            block["input"] = _arguments("".join(partial[index]) or "{}") or {}
        reply["content"].append(block)
    return reply


def _assemble_chat(events: list[dict[str, Any]]) -> dict[str, Any]:
    message: dict[str, Any] = {"role": "assistant", "content": None}
    calls: dict[int, dict[str, Any]] = {}
    finish = None
    for event in events:
        choices = event.get("choices")
        if not isinstance(choices, list) or not choices or not isinstance(choices[0], dict):
            continue
        delta = choices[0].get("delta")
        finish = choices[0].get("finish_reason") or finish
        if not isinstance(delta, dict):
            continue
        if isinstance(delta.get("content"), str):
            message["content"] = (message["content"] or "") + delta["content"]
        for part in _list(delta.get("tool_calls")):
            if not isinstance(part, dict) or not isinstance(part.get("index"), int):
                continue
            call = calls.setdefault(part["index"], {"id": "", "type": "function",
                                                    "function": {"name": "", "arguments": ""}})
            if isinstance(part.get("id"), str):
                call["id"] = part["id"]
            function = part.get("function")
            if isinstance(function, dict):
                for key in ("name", "arguments"):
                    if isinstance(function.get(key), str):
                        call["function"][key] += function[key]
    if calls:
        message["tool_calls"] = [calls[i] for i in sorted(calls)]
    return {"choices": [{"index": 0, "message": message, "finish_reason": finish}]}
