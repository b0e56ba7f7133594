"""Requests for a missing service in users' own words: the real-server halves' requests
(benchmarks/data/real-servers), each asked of another half's catalog none of whose servers
offers the product or service it needs.

Each half's ~70 requests were written for its own servers and labeled with the tools that serve
them. Asked of another half, a request is one for a missing service when no server of that
half is one of the servers of its labeled tools, nor of the same service (SERVICES: chat,
repositories, project boards, monitoring, ...; decided by the servers' names, never by a
score), so that "what did people write in the general channel today" (Slack) is never asked
of a catalog with Zulip. The same requests against their own half's catalog need a tool.

Only the halves a choice may look at are read (ALLOWED); heldout, fresh7 and fresh8 never.
"""

from __future__ import annotations

import json
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
DATA = ROOT / "benchmarks" / "data" / "real-servers"
# the halves whose requests may be trained or chosen on (never heldout, fresh7, fresh8)
ALLOWED = ("dev", "fresh", "fresh2", "fresh3", "fresh4", "fresh5", "fresh6", "fresh9",
           "fresh10", "fresh11")
# fixed before any fit: the halves fitted on, and those the choice is measured on
FITTED = ("dev", "fresh", "fresh2", "fresh3", "fresh4", "fresh5", "fresh6")
CHOSEN_ON = ("fresh9", "fresh10", "fresh11")

# servers of the allowed halves that offer one service (a server may offer several): a request
# one of them serves is never asked of a catalog with another of them
SERVICES = {
    "chat": {"slack", "zulip", "discord", "lark", "teams", "line", "mattermost"},
    "repositories": {"github", "gitlab", "bitbucket", "git", "azure-devops", "yunxiao"},
    "project boards": {"azure-devops", "shortcut", "asana", "monday", "todoist", "trello",
                       "plane", "backlog", "linear", "yunxiao", "lark"},
    "the web": {"duckduckgo", "brave-search", "tavily", "perplexity", "searxng", "serper",
                "webresearch", "fetch", "fetcher", "firecrawl", "puppeteer", "browser-tools",
                "selenium", "playwright", "browserbase", "browserstack", "browsermcp"},
    "library docs": {"context7", "deepwiki"},
    "monitoring": {"datadog", "sentry", "grafana", "zabbix", "alertmanager", "cloudwatch",
                   "rootly", "gcp-observability", "splunk"},
    "infrastructure": {"kubernetes", "eks", "argocd", "terraform", "digitalocean", "azure",
                       "netlify", "coolify", "hostinger", "proxmox", "cloudbase",
                       "aws-dataprocessing"},
    "builds": {"jenkins", "azure-devops", "currents", "argocd", "xcodebuild"},
    "databases": {"postgres", "postgres-admin", "neon", "clickhouse", "memcached", "valkey",
                  "airtable", "pinecone", "instantdb", "opensearch", "meilisearch"},
    "files and commands": {"filesystem", "desktop-commander", "pdf-reader", "code-runner",
                           "nextcloud"},
    "mail and calendars": {"google-calendar", "caldav", "google-workspace", "ms-365", "email",
                           "gmail", "resend"},
    "documents": {"obsidian", "word", "excel", "google-workspace", "ms-365", "memory",
                  "airtable", "lark", "nextcloud"},
    "help desks": {"servicenow", "freshdesk", "zammad"},
    "payments and accounting": {"creem", "paddle", "xero", "quickbooks", "freee",
                                "zam-hesap"},
    "code quality": {"sonarqube", "codacy", "eslint"},
    "workflows": {"airflow", "n8n"},
    "passwords": {"1password", "bitwarden", "infisical"},
    "mobile devices": {"mobile", "ios-simulator"},
}


def related(server: str) -> set[str]:
    """`server` and every server that offers a service it offers."""
    found = {server}
    for servers in SERVICES.values():
        if server in servers:
            found |= servers
    return found


def catalog_servers(half: str) -> set[str]:
    """The servers of a half's catalog."""
    if half not in ALLOWED:
        raise ValueError(f"{half} is held out")
    data = json.loads((DATA / f"{half}-catalog.json").read_text(encoding="utf-8"))
    return {str(t.get("server") or "") for t in data["tools"]}


def needed_servers(half: str) -> list[tuple[str, set[str]]]:
    """Each request of `half` and the servers of the tools labeled as serving it."""
    if half not in ALLOWED:
        raise ValueError(f"{half} is held out")
    data = json.loads((DATA / f"{half}-catalog.json").read_text(encoding="utf-8"))
    server = {}
    for tool in data["tools"]:
        server.setdefault(tool["name"], set()).add(str(tool.get("server") or ""))
        server[f"{tool.get('server')}:{tool['name']}"] = {str(tool.get("server") or "")}
    found = []
    for line in (DATA / f"{half}-queries.jsonl").read_text(encoding="utf-8").splitlines():
        if line.strip():
            row = json.loads(line)
            labels = [*row.get("relevant", []),
                      *(n for group in row.get("relevant_groups", []) for n in group)]
            servers = set().union(*(server.get(n, set()) for n in labels))
            if servers:
                found.append((row["query"], servers))
    return found


def missing_in(request_servers: set[str], other: set[str]) -> bool:
    """Whether a catalog of servers `other` offers none of the product or service of
    `request_servers`."""
    return not any(related(s) & other for s in request_servers)
