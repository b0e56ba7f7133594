"""Recognise values that look like secrets, so launch settings can be written into a catalog
without the credentials they carry.

The test leans towards redacting: a non-secret shown as `<redacted>` costs a reader little, a
token committed with a catalog costs its owner a rotation.
"""

from __future__ import annotations

import math
import re
from collections import Counter
from collections.abc import Mapping, Sequence
from urllib.parse import parse_qsl, urlencode, urlunsplit

from toolcat.urls import split_url

REDACTED = "<redacted>"

# Words of a variable, header or option name that mark its value as a credential.
SECRET_WORDS = frozenset({
    "token", "tokens", "secret", "secrets", "password", "passwd", "pwd", "passphrase", "pass",
    "key", "apikey", "auth", "authorization", "credential", "credentials", "cookie", "session",
    "signature", "private", "bearer", "pat", "dsn",
})

# Shapes of well-known credentials, wherever they appear.
SECRET_VALUE = re.compile(
    r"""
      \b(?:sk|rk|pk)[-_](?:live|test|proj|ant|or)?[-_]?[A-Za-z0-9_-]{16,}   # OpenAI, Stripe
    | \bgh[pousr]_[A-Za-z0-9]{20,}                                       # GitHub tokens
    | \bgithub_pat_[A-Za-z0-9_]{20,}
    | \bglpat-[A-Za-z0-9_-]{16,}                                         # GitLab
    | \bxox[abposr]-[A-Za-z0-9-]{10,}                                    # Slack
    | \b(?:AKIA|ASIA)[0-9A-Z]{16}\b                                      # AWS access key id
    | \bAIza[0-9A-Za-z_-]{30,}                                           # Google API key
    | \beyJ[A-Za-z0-9_-]{8,}\.[A-Za-z0-9_-]{8,}\.                        # a JWT
    | -----BEGIN[ A-Z]*PRIVATE\ KEY-----
    | \b(?:Bearer|Basic|Token)\s+\S{8,}
    | ://[^/\s:@]+:[^/\s@]+@                                             # password in a URL
    """,
    re.VERBOSE,
)
# `${VAR}`, `${input:name}`, `$VAR`, `{{VAR}}`: a reference to a secret, not the secret.
REFERENCE = re.compile(r"^(?:\$\{[^}]+\}|\$[A-Za-z_][A-Za-z0-9_]*|\{\{[^}]+\}\})$")
_WORD = re.compile(r"[A-Z]?[a-z]+|[A-Z]+(?![a-z])|[0-9]+")


def name_words(name: str) -> list[str]:
    """`GITHUB_PERSONAL_ACCESS_TOKEN` -> [github, personal, access, token]; camelCase too."""
    return [w.lower() for w in _WORD.findall(name)]


# Secret words written fused with another, as an all-caps name often is (Tencent Cloud's
# `TENCENTCLOUD_SECRETKEY`, `SECRETID`; `ACCESSTOKEN`): a word that starts with one of the first
# or ends with one of the second. Narrower than SECRET_WORDS, so that `TOKENIZERS_PARALLELISM`,
# `BYPASS_CACHE` or `KEYWORDS` stay readable.
FUSED_STARTS = ("secret", "password", "passwd", "passphrase", "credential", "apikey", "privatekey")
FUSED_ENDS = ("token", "tokens", "secret", "password", "passwd", "pwd", "credentials")
# Many words end in "key" without holding one (Valkey's `VALKEY_HOST`, `HOTKEY`, `MONKEY`): a
# fused "...key" is a credential only when its front says which kind of key.
KEY_KINDS = frozenset({
    "api", "access", "secret", "private", "auth", "master", "signing", "sign", "encryption",
    "encrypt", "crypt", "license", "licence", "session", "app", "dev", "client", "user",
    "service", "account", "admin", "ssh", "gpg", "pgp", "hmac", "jwt", "webhook",
    "subscription", "consumer", "pass", "root", "server", "partner", "merchant", "cipher",
})
# A last word that says what describes a credential rather than holding it: its name
# (Proxmox's `PROXMOX_TOKEN_NAME`), where it is (`TOKEN_URL`, `KEY_FILE`) or the service that
# checks it is (OpenStack's `OS_AUTH_HOST`), how long it lives.
DESCRIBING_WORDS = frozenset({"name", "url", "uri", "endpoint", "file", "path", "dir", "ttl",
                              "expiry", "lifetime", "timeout", "host", "hostname", "port",
                              "domain", "region"})
# Who an id names, where the id is an OAuth client's or a tenant's public identifier
# (Infisical's `INFISICAL_UNIVERSAL_AUTH_CLIENT_ID`): not a credential, unless its value looks
# like one. A session's id is (a bearer of the session), so `session` is not among them.
IDENTIFIED = frozenset({"client", "tenant", "account", "project", "app", "application", "org",
                        "organization", "workspace", "user"})


def _fused_secret(word: str) -> bool:
    if word in SECRET_WORDS:
        return False
    return (word.startswith(FUSED_STARTS) or word.endswith(FUSED_ENDS)
            or (word.endswith("key") and word[:-3] in KEY_KINDS))


def secret_name(name: str) -> bool:
    """Whether a variable, header or option called `name` holds a credential."""
    words = name_words(name)
    if len(words) > 1 and words[-1] in DESCRIBING_WORDS:
        return False
    if len(words) > 2 and words[-1] == "id" and words[-2] in IDENTIFIED:
        return False
    return (any(w in SECRET_WORDS or _fused_secret(w) for w in words)
            or "apikey" in "".join(words))


def random_looking(value: str) -> bool:
    """A long token without spaces or path separators that mixes letters and digits with
    high character entropy: the look of a generated key."""
    if len(value) < 24 or any(c.isspace() for c in value) or "/" in value or "\\" in value:
        return False
    if not (any(c.isdigit() for c in value) and any(c.isalpha() for c in value)):
        return False
    counts = Counter(value)
    entropy = -sum(n / len(value) * math.log2(n / len(value)) for n in counts.values())
    return entropy >= 3.5


def secret_value(value: str) -> bool:
    """Whether `value` itself looks like a credential, whatever it is called."""
    return bool(SECRET_VALUE.search(value)) or random_looking(value)


# A name that ends in one of these says which kind of credential or authentication is used
# (`--auth-type`, `TOKEN_TYPE`, `AUTH_METHOD`), not the credential itself.
MODE_WORDS = frozenset({"type", "method", "mode", "kind", "scheme", "strategy", "flow",
                        "mechanism", "provider"})
# Names that say auth but may hold either a credential (`--auth user:pass`, redis-cli's
# `-a PASSWORD`) or how to authenticate (`--auth oauth`, Azure DevOps' `-a envvar`): their
# value is kept only when it is one of these mode words.
AMBIGUOUS_WORDS = frozenset({"auth", "authorization"})
AUTH_MODES = frozenset({
    "none", "anonymous", "basic", "digest", "bearer", "token", "oauth", "oauth2", "oidc", "jwt",
    "saml", "sso", "pat", "apikey", "api-key", "api_key", "envvar", "env", "interactive",
    "device", "devicecode", "device-code", "azcli", "cli", "msi", "managed-identity",
    "default", "ntlm", "kerberos", "negotiate", "password", "cert", "certificate",
    "client-credentials", "client_credentials", "service-principal", "keychain", "keyring",
    "browser",
})
_MODE_SHAPE = re.compile(r"^[a-z][a-z0-9]*(?:[-_][a-z0-9]+)*$")
MAX_MODE = 24


def mode_value(name: str, value: str) -> bool:
    """Whether `value`, set under a name that sounds like a credential, says how to
    authenticate instead: a short lowercase word under a name that ends in a kind
    (`--auth-type basic`), or a known mode word under a name that only says auth or under
    `-a`/`-p` (`-a envvar`). A value with a credential's look is never one."""
    if secret_value(value):
        return False
    words = name_words(name)
    if words and words[-1] in MODE_WORDS:
        return len(value) <= MAX_MODE and bool(_MODE_SHAPE.match(value))
    ambiguous = name in SECRET_SHORT_OPTIONS or AMBIGUOUS_WORDS.issuperset(
        w for w in words if w in SECRET_WORDS)
    return ambiguous and value in AUTH_MODES


def is_secret(name: str, value: str) -> bool:
    """Whether the setting `name=value` should stay out of a catalog."""
    if REFERENCE.match(value.strip()):
        return False
    return secret_value(value) or (secret_name(name) and not mode_value(name, value))


def redact_mapping(values: Mapping[str, str]) -> dict[str, str]:
    """Environment variables or headers, with every secret-looking value replaced."""
    return {k: _redacted(k, str(v)) for k, v in values.items()}


def _redacted(name: str, value: str) -> str:
    """`value` without its secret: a URL under a name that is not a secret's loses only its
    password (Cloudinary's `CLOUDINARY_URL` keeps the cloud it names), anything else whole."""
    if not is_secret(name, value):
        return value
    if "://" in value and not secret_name(name):
        kept = redact_url(value)
        if kept != value and not secret_value(kept.replace(REDACTED, "")):
            return kept
    return REDACTED


# Short options that take a password in common clients (mysql -p, redis-cli -a, sshpass -p);
# the same letters mean a package or a port elsewhere, so values of those shapes are kept.
SECRET_SHORT_OPTIONS = frozenset({"-p", "-a"})
_NOT_A_PASSWORD = re.compile(
    r"""^(?: @?[\w.-]+/[\w./-]+(?:@[\w.^~-]+)?   # a package (@scope/name, owner/repo) or path
           | \d[\d.:]*(?:/(?:tcp|udp))?               # a port, a port mapping, a version
           | [a-z][a-z0-9]*(?:-[a-z0-9]+)*@[\w.^~-]+  # an npm package with a version
         )$""", re.VERBOSE)
_SETTING = re.compile(r"^([A-Za-z_][A-Za-z0-9_]*)=(.*)$", re.S)  # NAME=value (docker -e)


def _secret_option(arg: str) -> bool:
    return arg in SECRET_SHORT_OPTIONS or (arg.startswith("--") and secret_name(arg))


def redact_args(args: Sequence[str]) -> list[str]:
    """Command-line arguments with secrets replaced: secret-looking values, the value of
    `--api-key=VALUE` or `NAME=VALUE` with a secret name, and the argument after a
    secret-named option such as `--token` or `--password`, or after `-p`/`-a` (a password
    in mysql, redis-cli, sshpass) unless it has the shape of a package, path, port or version,
    or names how to authenticate (`--auth-type basic`, `-a envvar`: `mode_value`).
    """
    out: list[str] = []
    after: str | None = None  # the secret option whose value comes next
    for arg in args:
        if after is not None:
            option, after = after, None
            short = option in SECRET_SHORT_OPTIONS
            if not (short and _NOT_A_PASSWORD.match(arg)) and (short or not arg.startswith("-")):
                out.append(arg if mode_value(option, arg) else REDACTED)
                continue
        option, eq, value = arg.partition("=")
        setting = _SETTING.match(arg)
        if arg.startswith("-") and eq:
            out.append(f"{option}={redact_url(value) if '://' in value else value}"
                       if not is_secret(option, value) else f"{option}={REDACTED}")
        elif _secret_option(arg) or (arg.startswith("-") and secret_name(arg)):
            out.append(arg)
            after = arg
        elif arg.startswith("-p") and len(arg) > 2 and arg[2] != "-" and not (
                _NOT_A_PASSWORD.match(arg[2:])):
            out.append(f"-p{REDACTED}")  # mysql's -pPASSWORD
        elif setting and is_secret(setting.group(1), setting.group(2)):
            out.append(f"{setting.group(1)}={REDACTED}")
        elif "://" in arg:
            out.append(redact_url(arg))
        else:
            out.append(REDACTED if secret_value(arg) else arg)
    return out


def redact_url(url: str) -> str:
    """A URL without its password and without secret-looking query parameters."""
    parts = split_url(url)
    if parts is None:  # unreadable, so no part of it is known to be safe to show
        return REDACTED
    netloc = parts.netloc
    if "@" in netloc:
        userinfo, _, host = netloc.rpartition("@")
        user = userinfo.split(":", 1)[0]
        netloc = f"{user}:{REDACTED}@{host}" if ":" in userinfo else f"{REDACTED}@{host}"
    query = parts.query
    if query:
        pairs = parse_qsl(query, keep_blank_values=True)
        if any(is_secret(k, v) for k, v in pairs):
            query = urlencode([(k, REDACTED if is_secret(k, v) else v) for k, v in pairs],
                              safe="<>")
    return urlunsplit((parts.scheme, netloc, parts.path, query, parts.fragment))
