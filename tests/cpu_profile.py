"""Where the test suite's CPU goes: an opt-in pytest plugin, never loaded by default.

    nice -n 10 python -m pytest -n 0 -p tests.cpu_profile tests/search
    nice -n 10 python -m pytest -n 0 -p tests.cpu_profile --cpu-json cpu.json tests/serve

It records the CPU time (user + system, of the test process and of the child processes it
has waited for: `resource.getrusage` RUSAGE_SELF + RUSAGE_CHILDREN) around each test's setup,
call and teardown, and of each fixture's setup, and prints the heaviest tests, modules and
fixtures at the end. CPU, not wall time: on a machine other work shares, a test's wall time
is mostly the machine's. A fixture's figure is its own setup, less the fixtures it requested
(made inside it); a session or module fixture is charged to the test that made it. Under
pytest-xdist the figures travel with each test's report to the controlling process, so `-n 2`
works too, but each worker pays its own session fixtures.
"""

from __future__ import annotations

import json
import resource
from collections import defaultdict
from collections.abc import Generator
from pathlib import Path
from typing import Any

import pytest

HEAVIEST_TESTS = 40
HEAVIEST_MODULES = 25
HEAVIEST_FIXTURES = 25
_PHASES = ("setup", "call", "teardown")
_KEY = "cpu_profile"  # the user property that carries one phase's figures to the controller


def cpu_seconds() -> float:
    """User and system CPU of this process and of the children it has waited for."""
    own, children = resource.getrusage(resource.RUSAGE_SELF), resource.getrusage(
        resource.RUSAGE_CHILDREN)
    return own.ru_utime + own.ru_stime + children.ru_utime + children.ru_stime


class CpuProfile:
    """The figures of one session: per test and phase, and per fixture (exclusive)."""

    def __init__(self, json_path: str | None) -> None:
        self.json_path = json_path
        self.tests: dict[str, dict[str, float]] = defaultdict(dict)
        self.fixtures: dict[str, list[float]] = defaultdict(list)
        self.started = cpu_seconds()
        # in the process that runs the tests: the fixtures being made, innermost last, each
        # with the CPU of the fixtures it requested; and those the current phase made
        self._making: list[float] = []
        self._made: dict[str, float] = {}

    # --- in the process that runs the tests (the only one with -n 0) ---

    @pytest.hookimpl(hookwrapper=True)
    def pytest_fixture_setup(self, fixturedef: pytest.FixtureDef[Any]
                             ) -> Generator[None, None, None]:
        start = cpu_seconds()
        self._making.append(0.0)
        yield
        inner = self._making.pop()
        spent = cpu_seconds() - start
        if self._making:
            self._making[-1] += spent
        name = f"{fixturedef.argname} ({fixturedef.scope})"
        self._made[name] = self._made.get(name, 0.0) + spent - inner

    @pytest.hookimpl(hookwrapper=True)
    def pytest_runtest_makereport(self, item: pytest.Item,
                                  call: pytest.CallInfo[None]) -> Generator[None, Any, None]:
        outcome = yield
        report: pytest.TestReport = outcome.get_result()
        spent = cpu_seconds() - item.stash[_phase_start]
        report.user_properties.append((_KEY, {"cpu": spent, "fixtures": self._made}))
        self._made = {}

    @pytest.hookimpl(hookwrapper=True)
    def pytest_runtest_setup(self, item: pytest.Item) -> Generator[None, None, None]:
        item.stash[_phase_start] = cpu_seconds()
        yield

    @pytest.hookimpl(hookwrapper=True)
    def pytest_runtest_call(self, item: pytest.Item) -> Generator[None, None, None]:
        item.stash[_phase_start] = cpu_seconds()
        yield

    @pytest.hookimpl(hookwrapper=True)
    def pytest_runtest_teardown(self, item: pytest.Item) -> Generator[None, None, None]:
        item.stash[_phase_start] = cpu_seconds()
        yield

    # --- in the process that reports (the controller under pytest-xdist) ---

    def pytest_runtest_logreport(self, report: pytest.TestReport) -> None:
        for key, value in report.user_properties:
            if key != _KEY or not isinstance(value, dict):
                continue
            self.tests[report.nodeid][report.when] = float(value["cpu"])
            for name, spent in value["fixtures"].items():
                self.fixtures[name].append(float(spent))

    def pytest_terminal_summary(self, terminalreporter: Any) -> None:
        write = terminalreporter.write_line
        totals = {test: sum(phases.values()) for test, phases in self.tests.items()}
        modules: dict[str, float] = defaultdict(float)
        for test, spent in totals.items():
            modules[test.split("::", 1)[0]] += spent
        session = cpu_seconds() - self.started
        terminalreporter.section("CPU seconds (user + system, children included)")
        write(f"{len(totals)} tests {sum(totals.values()):.1f} s; this process and its "
              f"children since configure {session:.1f} s (with -n 0: the whole run)")
        write(f"the {HEAVIEST_TESTS} heaviest tests (setup / call / teardown):")
        for test, spent in sorted(totals.items(), key=lambda t: -t[1])[:HEAVIEST_TESTS]:
            phases = " / ".join(f"{self.tests[test].get(p, 0.0):.1f}" for p in _PHASES)
            write(f"  {spent:8.1f}  ({phases})  {test}")
        write(f"the {HEAVIEST_MODULES} heaviest modules:")
        for module, spent in sorted(modules.items(), key=lambda m: -m[1])[:HEAVIEST_MODULES]:
            write(f"  {spent:8.1f}  {module}")
        write(f"the {HEAVIEST_FIXTURES} heaviest fixtures (own setup, less those it requested; "
              "times made):")
        fixtures = {name: (sum(spent), len(spent)) for name, spent in self.fixtures.items()}
        for name, (spent, times) in sorted(fixtures.items(),
                                           key=lambda f: -f[1][0])[:HEAVIEST_FIXTURES]:
            write(f"  {spent:8.1f}  {times:5d}x  {name}")
        if self.json_path:
            Path(self.json_path).write_text(json.dumps(
                {"session": session, "tests": self.tests, "modules": modules,
                 "fixtures": fixtures}, indent=1), encoding="utf-8")
            write(f"wrote {self.json_path}")


_phase_start = pytest.StashKey[float]()


def pytest_addoption(parser: pytest.Parser) -> None:
    parser.addoption("--cpu-json", metavar="FILE", default=None,
                     help="tests.cpu_profile: also write every test's, module's and "
                          "fixture's CPU seconds to FILE as JSON")


def pytest_configure(config: pytest.Config) -> None:
    config.pluginmanager.register(CpuProfile(config.getoption("--cpu-json")), "cpu_profile")
