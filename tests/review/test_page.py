"""The review page in a real headless browser (Debian's chromium driven by playwright): it
loads offline with no console error, lists every request, marks the changed ones most affected
first, shows a request's trace and changes, and runs nothing a catalog wrote.

Skipped, saying why, when playwright or /usr/bin/chromium is missing (`pip install playwright`,
the test extra has it; `apt-get install chromium`): playwright's own browser download is not
used."""

from __future__ import annotations

import json
import os
import shutil
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from tests.review.helpers import AFTER, setup_project, write_catalog

CHROMIUM = shutil.which("chromium") or "/usr/bin/chromium"
HOSTILE = ('Read a text file. <script>window.__pwned = 1</script>'
           '<img src="x" onerror="window.__pwned = 2">')

if not Path(CHROMIUM).exists():
    pytest.skip("no chromium at /usr/bin/chromium (apt-get install chromium)",
                allow_module_level=True)
sync_api = pytest.importorskip("playwright.sync_api",
                               reason="playwright is not installed (the test extra has it)")


@pytest.fixture(scope="module")
def browser() -> Iterator[Any]:
    with sync_api.sync_playwright() as driver:
        launched = driver.chromium.launch(executable_path=CHROMIUM)
        yield launched
        launched.close()


@pytest.fixture
def page_file(run, isolated: Path) -> Path:
    """A review of the upgraded catalog against the old one, with a hostile description and
    a hostile request, and one request the baseline did not have."""
    project = setup_project(isolated)
    assert run("review", "-c", str(project["before"]), "-q", str(project["requests"]), "-p",
               str(project["profile"]), "-o", "old").exit_code == 0
    hostile = [dict(AFTER[0], description=HOSTILE), *AFTER[1:]]
    write_catalog(project["after"].parent, hostile)
    with project["requests"].open("a") as handle:
        handle.write(json.dumps({"id": "q6<b>", "query": '<img src=x onerror="window.__pwned=3">',
                                 "relevant": []}) + "\n")
    result = run("review", "-c", str(project["after"]), "-q", str(project["requests"]), "-p",
                 str(project["profile"]), "--baseline", "old", "-o", "new")
    assert result.exit_code == 0, result.output
    return isolated / "new" / "index.html"


def open_page(browser: Any, path: Path) -> tuple[Any, list[str], list[str]]:
    """The page, with every console error and every request it made besides itself."""
    page = browser.new_page(viewport={"width": 1280, "height": 800})
    errors: list[str] = []
    fetched: list[str] = []
    page.on("console", lambda m: errors.append(m.text) if m.type == "error" else None)
    page.on("pageerror", lambda e: errors.append(str(e)))
    page.on("request", lambda r: fetched.append(r.url) if r.url != path.as_uri() else None)
    page.goto(path.as_uri())
    page.wait_for_selector("#detail h2")
    return page, errors, fetched


def test_the_page_loads_offline_without_errors_and_lists_every_request(browser, page_file):
    page, errors, fetched = open_page(browser, page_file)
    assert errors == [] and fetched == []
    ids = page.locator("#list li .id").all_text_contents()
    assert sorted(ids) == ["q1", "q2", "q3", "q4", "q5", "q6<b>"]
    assert page.locator("#summary").text_content() == "6 requests · 5 changed, 1 new against ../old"


def test_changed_requests_are_marked_and_come_first(browser, page_file):
    page, _, _ = open_page(browser, page_file)
    marks = page.locator("#list li").evaluate_all(
        "items => items.map(i => i.classList.contains('new') ? 'new' : "
        "i.classList.contains('changed') ? 'changed' : '')")
    assert marks == ["changed"] * 5 + ["new"]
    badge = page.locator("#list li").first.locator(".badge").text_content()
    assert badge.startswith("changed: 2 moved, 1 redefined, +")


def test_a_request_shows_its_tools_trace_and_what_changed(browser, page_file):
    page, errors, _ = open_page(browser, page_file)
    page.locator("#list li a").nth(2).click()
    detail = page.locator("#detail")
    assert detail.locator("h2").text_content() == "q3 · reviewer"
    changes = detail.locator(".chg").inner_text()
    assert "+ read_graph joined" in changes and "− move_file left" in changes
    assert "now: not in the catalog" in changes and "tokens (prompt):" in changes
    rows = detail.locator("table").nth(1).locator("tr")
    assert rows.count() == 1 + 3  # header, read_file, write_file, read_graph
    assert "delete_file → excluded [unsafe]" in detail.locator("pre").nth(1).inner_text()
    assert errors == []


def test_nothing_from_the_catalog_or_the_requests_runs(browser, page_file):
    page, errors, fetched = open_page(browser, page_file)
    for i in range(page.locator("#list li").count()):
        page.locator("#list li a").nth(i).click()
    assert page.evaluate("window.__pwned") is None
    assert errors == [] and fetched == []
    page.locator("#list li a").first.click()
    shown = page.locator(".chg").inner_text()  # the description's word diff, as text
    assert "<script>window." in shown and '<img src="x" onerror="window' in shown
    assert page.locator("#list li.new .q").text_content() == \
        '<img src=x onerror="window.__pwned=3">'


def test_the_filter_narrows_the_list(browser, page_file):
    page, _, _ = open_page(browser, page_file)
    page.fill("#filter", "archive")
    visible = page.locator("#list li:visible .id").all_text_contents()
    assert visible == ["q3"]


@pytest.mark.slow
def test_screenshot_of_a_changed_request(browser, page_file, tmp_path):
    """A picture to look at (REVIEW_SCREENSHOT=path keeps a copy): the list, the marks, a
    request's changes, tokens and tools."""
    page, errors, _ = open_page(browser, page_file)
    page.locator("#list li a").first.click()
    shot = tmp_path / "review.png"
    page.screenshot(path=str(shot), full_page=False)
    assert errors == [] and shot.stat().st_size > 20_000
    if os.environ.get("REVIEW_SCREENSHOT"):
        shutil.copy(shot, os.environ["REVIEW_SCREENSHOT"])
