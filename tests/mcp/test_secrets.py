"""Values that look like secrets stay out of catalogs; ordinary settings are kept."""

from __future__ import annotations

import pytest

from toolcat.mcp.secrets import REDACTED, is_secret, redact_args, redact_mapping, redact_url

TOKEN = "ghp_" + "a1B2c3D4e5F6g7H8i9J0k1L2m3N4o5P6q7R8"


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
    # secret words fused into one all-caps word (Tencent Cloud's CloudBase server)
    ("TENCENTCLOUD_SECRETKEY", "x"),
    ("TENCENTCLOUD_SECRETID", "x"),
    ("ACCESSTOKEN", "abc"),
    ("AZURE_SUBSCRIPTIONKEY", "abc"),
    ("PASSKEY", "abc"),
    # an id under a secret word that names no public identifier, or whose value is a key's
    ("AUTH_SESSION_ID", "s1"),
    ("AWS_ACCESS_KEY_ID", "AKIAIOSFODNN7EXAMPLE"),
    ("INFISICAL_UNIVERSAL_AUTH_CLIENT_ID", "x9Qm2LrT8vWz4KpN7sYb3HdF6gJc"),
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
    # what names or locates a credential is not the credential (Proxmox's token name)
    ("PROXMOX_TOKEN_NAME", "toolcat"),
    ("OAUTH_TOKEN_URL", "https://auth.example.com/oauth/token"),
    ("SSH_KEY_FILE", "/home/me/.ssh/id_ed25519"),
    # where the service that checks it is (mcp-openstack-ops's OS_AUTH_HOST lost its address)
    ("OS_AUTH_HOST", "127.0.0.1"),
    ("KEYCLOAK_AUTH_PORT", "8443"),
    # an OAuth client's or a tenant's id is a public identifier (Infisical's client id)
    ("INFISICAL_UNIVERSAL_AUTH_CLIENT_ID", "7f3c2a10-app"),
    ("AZURE_AUTH_TENANT_ID", "contoso"),
    # words that only begin or end like a secret word
    ("TOKENIZERS_PARALLELISM", "false"),
    ("BYPASS_CACHE", "true"),
    ("KEYWORDS", "alpha,beta"),
    # a product whose name ends in "key" (awslabs' Valkey server)
    ("VALKEY_HOST", "127.0.0.1"),
    ("VALKEY_PORT", "6379"),
    ("VALKEY_ADMIN_ENABLED", "true"),
    ("HOTKEY", "ctrl+k"),
])
def test_ordinary_settings_and_references_are_kept(name, value):
    assert not is_secret(name, value)


def test_mappings_keep_their_keys_and_lose_secret_values():
    assert redact_mapping({"LOG_LEVEL": "info", "API_TOKEN": "t0k3n"}) == {
        "LOG_LEVEL": "info", "API_TOKEN": REDACTED}


def test_a_url_setting_loses_only_its_password():
    assert redact_mapping({
        "CLOUDINARY_URL": "cloudinary://123456789012345:abcdEFGHijklMNOP@demo-cloud",
        "DATABASE_URL": "postgres://app:s3cret@db.internal:5432/app",
        "DATABASE_PASSWORD_URL_TOKEN": "postgres://app:s3cret@db.internal:5432/app",
    }) == {
        "CLOUDINARY_URL": f"cloudinary://123456789012345:{REDACTED}@demo-cloud",
        "DATABASE_URL": f"postgres://app:{REDACTED}@db.internal:5432/app",
        "DATABASE_PASSWORD_URL_TOKEN": REDACTED,
    }


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


# Two real servers' command lines (benchmarks/data/real-servers/SOURCE.md): mfa-servicenow-mcp
# and @azure-devops/mcp choose how to authenticate with a flag whose name says auth; its value
# is a mode word, and the server does not start without it.
SERVICENOW = ["--instance-url", "http://127.0.0.1:8080", "--auth-type", "basic",
              "--username", "x", "--password", "x", "--tool-package", "full"]
AZURE_DEVOPS = ["/srv/node_modules/@azure-devops/mcp/dist/index.js", "contoso",
                "-a", "envvar", "-t", "x"]


def test_real_servers_keep_their_authentication_mode_and_lose_their_password():
    assert redact_args(SERVICENOW) == [
        "--instance-url", "http://127.0.0.1:8080", "--auth-type", "basic",
        "--username", "x", "--password", REDACTED, "--tool-package", "full"]
    assert redact_args(AZURE_DEVOPS) == AZURE_DEVOPS


def test_mode_words_under_auth_names_are_kept():
    kept = [["--auth-type=oauth"], ["--auth-method", "none"], ["--auth", "oauth2"],
            ["-a", "interactive"], ["--token-type", "bearer"], ["--auth-mode", "azcli"],
            ["--authentication-method", "service-principal"]]
    assert [redact_args(args) for args in kept] == kept
    settings = {"JIRA_AUTH_TYPE": "pat", "TOKEN_TYPE": "bearer", "AUTH": "envvar",
                "ADO_MCP_AUTH_METHOD": "managed-identity"}
    assert redact_mapping(settings) == settings
    assert redact_url("https://mcp.example/mcp?auth_type=basic") == (
        "https://mcp.example/mcp?auth_type=basic")


def test_real_secrets_under_auth_names_stay_redacted():
    cases = {
        ("--auth-type", "x9Qm2LrT8vWz4KpN7sYb3HdF6gJc"): REDACTED,  # random-looking
        ("--auth-type", "Bearer abcdefgh12345678"): REDACTED,  # a credential's shape
        ("--auth", "admin:hunter2"): REDACTED,  # not a mode word
        ("-a", "foobared"): REDACTED,  # redis-cli's password: a short word, but no mode
        ("--password", "basic"): REDACTED,  # the option names the credential itself
        ("--token", "none"): REDACTED,
        ("--api-key", "oauth"): REDACTED,
        ("--auth-token", "basic"): REDACTED,
        ("--secret-provider-token", "abc"): REDACTED,  # names a token, not a kind
    }
    assert {key: redact_args(key)[1] for key in cases} == cases
    assert redact_args(["--auth-type=Bearer abcdefgh12345678"]) == [f"--auth-type={REDACTED}"]
    assert redact_mapping({"AUTH_TOKEN": "oauth", "API_KEY": "basic", "AUTH": "s3cr3t-value",
                           "DB_PASSWORD": "none", "AUTH_TYPE": TOKEN}) == {
        "AUTH_TOKEN": REDACTED, "API_KEY": REDACTED, "AUTH": REDACTED, "DB_PASSWORD": REDACTED,
        "AUTH_TYPE": REDACTED}
