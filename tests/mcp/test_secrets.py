"""Values that look like secrets stay out of catalogs; ordinary settings are kept."""

from __future__ import annotations

import pytest

from toolcat.mcp.secrets import REDACTED, is_secret, redact_args, redact_mapping, redact_url


@pytest.mark.parametrize(("name", "value"), [
    ("GITHUB_PERSONAL_ACCESS_TOKEN", "anything"),
    ("OPENAI_API_KEY", "short"),
    ("apiKey", "v"),
    ("DB_PASSWORD", "hunter2"),
    ("Authorization", "Bearer abc.def.ghi"),
    ("SLACK_BOT", "xoxb-1234567890-abcdefghij"),
    ("ANYTHING", "sk-proj-AbCdEfGhIjKlMnOpQrStUv"),
    ("ANYTHING", "AKIAIOSFODNN7EXAMPLE"),
    ("ANYTHING", "postgres://app:s3cret@db.internal:5432/app"),
    ("ANYTHING", "x9Qm2LrT8vWz4KpN7sYb3HdF6gJc"),
    ("ANYTHING", "eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiIxMjM0NTY3ODkwIn0.sig"),
])
def test_secret_looking_settings_are_recognised(name, value):
    assert is_secret(name, value)


@pytest.mark.parametrize(("name", "value"), [
    ("LOG_LEVEL", "debug"),
    ("PATH", "/usr/local/bin:/usr/bin"),
    ("ALLOWED_DIRECTORIES", "/home/me/projects/some-long-folder-name-2024"),
    ("REGION", "us-east-1"),
    ("GITHUB_TOKEN", "${GITHUB_TOKEN}"),
    ("API_KEY", "${input:api-key}"),
    ("NODE_ENV", "production"),
])
def test_ordinary_settings_and_references_are_kept(name, value):
    assert not is_secret(name, value)


def test_mappings_keep_their_keys_and_lose_secret_values():
    assert redact_mapping({"LOG_LEVEL": "info", "API_TOKEN": "t0k3n"}) == {
        "LOG_LEVEL": "info", "API_TOKEN": REDACTED}


def test_arguments_lose_secret_values_and_the_values_of_secret_options():
    args = ["-y", "@scope/server", "--api-key", "abc", "--token=xyz", "--port", "8080",
            "ghp_abcdefghijklmnopqrstuvwxyz0123456789", "/tmp"]
    assert redact_args(args) == ["-y", "@scope/server", "--api-key", REDACTED,
                                 f"--token={REDACTED}", "--port", "8080", REDACTED, "/tmp"]


def test_urls_lose_passwords_and_secret_query_parameters():
    assert redact_url("https://user:pw@example.com/mcp?api_key=abc&region=eu") == (
        f"https://user:{REDACTED}@example.com/mcp?api_key={REDACTED}&region=eu")
    assert redact_url("http://127.0.0.1:8000/mcp") == "http://127.0.0.1:8000/mcp"


@pytest.mark.parametrize(("args", "expected"), [
    (["-h", "db", "-u", "root", "-p", "hunter2"], ["-h", "db", "-u", "root", "-p", REDACTED]),
    (["-u", "root", "-phunter2"], ["-u", "root", f"-p{REDACTED}"]),
    (["--password", "hunter2", "--token", "abc"], ["--password", REDACTED, "--token", REDACTED]),
    (["-a", "s3cret", "--port", "6379"], ["-a", REDACTED, "--port", "6379"]),
    (["-e", "API_KEY=abc123", "-e", "LOG_LEVEL=info"],
     ["-e", f"API_KEY={REDACTED}", "-e", "LOG_LEVEL=info"]),
])
def test_passwords_after_short_and_long_options_are_redacted(args, expected):
    assert redact_args(args) == expected


@pytest.mark.parametrize("args", [
    ["-y", "-p", "@scope/server-files", "server-files"],  # npx -p: a package
    ["-p", "mcp-server-foo@1.2.0", "serve"],
    ["run", "-p", "8080:80", "image"],  # docker -p: a port mapping
    ["-p", "3.12", "mcp-server-time"],  # uvx -p: a Python version
    ["--port", "5432", "-p5432"],
])
def test_packages_ports_and_versions_after_p_are_kept(args):
    assert redact_args(args) == args
