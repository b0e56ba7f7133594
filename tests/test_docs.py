"""The documentation stays true: its links lead somewhere, every command, setting and public
name is documented, the README's set-up matches CI, and the README's tour runs as it says."""

from __future__ import annotations

import re
import shlex
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from pathlib import Path

import pytest
import typer
from typer.testing import Result

import toolcat
from tests.conftest import REPO
from toolcat.cli.app import app
from toolcat.config import SECTIONS
from toolcat.lint.settings import KEYS as LINT_KEYS

DOCS = REPO / "docs"
README = REPO / "README.md"
PAGES = [README, *sorted(DOCS.glob("*.md")), *sorted(DOCS.glob("history/*.md"))]

LINK = re.compile(r"\]\(([^)\s]+)\)")
FENCE = re.compile(r"^(```|~~~)")


def prose(text: str) -> Iterator[str]:
    """The lines of a Markdown text outside fenced code blocks."""
    fenced = False
    for line in text.splitlines():
        if FENCE.match(line.lstrip()):
            fenced = not fenced
            continue
        if not fenced:
            yield line


def anchors(page: Path) -> set[str]:
    """The anchors GitHub gives the headings of a page (repeats get -1, -2, ...)."""
    found: set[str] = set()
    for line in prose(page.read_text(encoding="utf-8")):
        heading = re.match(r"#{1,6} (.*)", line)
        if not heading:
            continue
        text = re.sub(r"\[([^]]*)\]\([^)]*\)", r"\1", heading.group(1)).strip().lower()
        slug = re.sub(r"[^\w\- ]", "", text).replace(" ", "-")
        unique, n = slug, 0
        while unique in found:
            n += 1
            unique = f"{slug}-{n}"
        found.add(unique)
    return found


def local_links(page: Path) -> Iterator[tuple[str, Path, str]]:
    for line in prose(page.read_text(encoding="utf-8")):
        for target in LINK.findall(line):
            if re.match(r"[a-z][a-z0-9+.-]*:", target):  # http:, https:, mailto:
                continue
            path, _, anchor = target.partition("#")
            yield target, (page.parent / path).resolve() if path else page, anchor


@pytest.mark.parametrize("page", PAGES, ids=lambda p: p.relative_to(REPO).as_posix())
def test_every_relative_link_leads_to_a_file_and_heading_that_exist(page):
    broken = []
    for target, path, anchor in local_links(page):
        if not path.exists():
            broken.append(f"{target}: no such file")
        elif anchor and path.suffix == ".md" and anchor not in anchors(path):
            broken.append(f"{target}: no heading with that anchor in {path.name}")
    assert broken == []


def test_the_link_check_sees_broken_links_and_anchors(tmp_path):
    page = tmp_path / "page.md"
    page.write_text("# Title\n\n## `toolcat lint --locked`\n\n"
                    "[a](#title) [b](#toolcat-lint---locked) [c](missing.md) [d](#nowhere) [e](https://example.com)\n"
                    "```\n[f](also-missing.md)\n```\n")
    found = {target: (path.exists(), not anchor or anchor in anchors(path))
             for target, path, anchor in local_links(page)}
    assert found == {"#title": (True, True), "#toolcat-lint---locked": (True, True),
                     "missing.md": (False, True), "#nowhere": (True, False)}


def test_every_page_of_docs_is_listed_in_the_index():
    index = (DOCS / "index.md").read_text(encoding="utf-8")
    listed = {path for _, path, _ in local_links(DOCS / "index.md")}
    pages = [*DOCS.glob("*.md"), *DOCS.glob("history/*.md")]
    assert {p.resolve() for p in pages if p.name != "index.md"} <= listed, index


def _commands() -> list[str]:
    """Every command the CLI registers; a group's commands as `group command`."""
    group = typer.main.get_command(app)
    ctx = typer.Context(group)
    names = []
    for name in group.list_commands(ctx):  # type: ignore[attr-defined]
        command = group.get_command(ctx, name)  # type: ignore[attr-defined]
        if hasattr(command, "list_commands"):
            names += [f"{name} {sub}" for sub in command.list_commands(typer.Context(command))]
        else:
            names.append(name)
    return names


def test_every_command_is_in_the_command_table_and_nothing_else_is():
    text = (DOCS / "commands.md").read_text(encoding="utf-8")
    table = re.findall(r"^\| `toolcat ([a-z][a-z -]*?)(?: [A-Z\[].*?)?` \|", text, re.M)
    assert sorted(table) == sorted(_commands())


def test_every_toolcat_yaml_key_is_documented():
    configuration = (DOCS / "configuration.md").read_text(encoding="utf-8")
    assert [key for key in SECTIONS if f"| `{key}` |" not in configuration] == []
    lint = (DOCS / "lint.md").read_text(encoding="utf-8")
    assert [key for key in LINT_KEYS if not re.search(rf"^  {key}:", lint, re.M)] == []


def test_every_public_name_of_the_python_api_is_documented():
    api = (DOCS / "api.md").read_text(encoding="utf-8")
    assert [name for name in toolcat.__all__ if not re.search(rf"`{name}[`(]", api)] == []


def test_the_readme_is_a_front_door():
    assert len(README.read_text(encoding="utf-8").splitlines()) <= 200


def _bash_blocks(text: str) -> list[str]:
    return re.findall(r"```bash\n(.*?)```", text, re.S)


def test_ci_runs_exactly_the_readme_test_command():
    setup = README.read_text(encoding="utf-8").split("## Set-up", 1)[1]
    test_command = _bash_blocks(setup)[1].strip()
    assert test_command.endswith("python -m pytest")
    ci = [line for line in (REPO / ".ci" / "run").read_text().splitlines()
          if line and not line.startswith("#")]
    assert ci[-1] == test_command


@dataclass(frozen=True)
class Step:
    """One step of the README tour: a file the reader writes, or a command and its exit code."""

    argv: tuple[str, ...] = ()
    code: int = 0
    writes: tuple[str, str] | None = None  # (file name, content)


def tour() -> list[Step]:
    """The bash blocks of the README's tour as steps."""
    text = README.read_text(encoding="utf-8")
    section = text.split("## A five-minute tour", 1)[1].split("\n## ", 1)[0]
    steps: list[Step] = []
    for block in _bash_blocks(section):
        lines = iter(block.splitlines())
        for line in lines:
            heredoc = re.fullmatch(r"cat > (\S+) <<'EOF'", line)
            if heredoc:
                body = []
                for more in lines:
                    if more == "EOF":
                        break
                    body.append(more)
                steps.append(Step(writes=(heredoc.group(1), "\n".join(body) + "\n")))
                continue
            exits = re.search(r"# exits (\d)", line)
            argv = shlex.split(line, comments=True)
            assert argv[0] == "toolcat", line
            steps.append(Step(tuple(argv[1:]), int(exits.group(1)) if exits else 0))
    return steps


# what the README's prose says each tour command shows, checked on its output
SAYS = {
    "lint -c demo": ["0 errors, 0 warnings, 0 info in 72 tools"],
    "lint -c demo --target gemini": ["TC402", "0 errors, 108 warnings"],
    "search -c demo wether": ["get_weather", "weather_forecast"],  # into a pipe: plain lines
    "pick -c demo open a pull request for my branch --explain":
        ["1. github:create_pull_request", "list_pull_requests", "merge_pull_request"],
    "pick -c demo drop the users table": ["no safe tool fits: the best fit, database:drop_table"],
    "pick -c demo drop the users table --allow-unsafe": ["1. database:drop_table"],
    "resolve -c demo will it rain in Lisbon tomorrow --profile small-model":
        ["pythonic (fallback)", "cap      2", "visible (4)", "deferred (60)", "excluded (20)",
         "get_weather → visible", "weather_forecast → visible"],
    "tokens -c demo will it rain in Lisbon tomorrow --profile small-model": ["(95."],
    "check-call reply.json -c demo --provider openai": ["refused", "/units"],
    "bench -c demo -q catalogs/demo-queries.jsonl --scorer bm25,hybrid": ["109 queries"],
}


@pytest.mark.slow
def test_every_command_of_the_readme_tour_runs_as_the_readme_says(
        run: Callable[..., Result], isolated: Path, shared_cache: Path) -> None:
    (isolated / "catalogs").symlink_to(REPO / "catalogs")  # the tour runs from a checkout
    steps = tour()
    commands = [" ".join(step.argv) for step in steps if step.argv]
    assert len(commands) >= 10 and set(SAYS) <= set(commands)
    for step in steps:
        if step.writes is not None:
            name, content = step.writes
            (isolated / name).write_text(content)
            continue
        result = run(*step.argv)
        assert result.exit_code == step.code, (step.argv, result.stdout[-2000:], result.stderr)
        for text in SAYS.get(" ".join(step.argv), []):
            assert text in result.stdout, (step.argv, text)
        if step.argv[0] == "pick" and "--allow-unsafe" not in step.argv:  # listed as left out
            assert not re.search(r"^\d+\. \S*drop_table", result.stdout, re.M)
    assert (isolated / "request.json").exists()
