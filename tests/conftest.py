"""Shared fixtures: a CLI runner that never swallows exceptions, an isolated environment."""

from __future__ import annotations

import os
import shutil
import signal
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable, Iterable, Iterator
from pathlib import Path
from typing import Any, NoReturn

import pytest
from typer.testing import CliRunner, Result

from toolcat.cli.app import app

REPO = Path(__file__).resolve().parent.parent
DATA = Path(__file__).resolve().parent / "data"
# the labeled sets beside the checkout (../shared/benchdata); a worktree may sit deeper
BENCHDATA = next((folder / "shared" / "benchdata" for folder in REPO.parents
                  if (folder / "shared" / "benchdata").is_dir()),
                 REPO.parent / "shared" / "benchdata")
CATALOGS = REPO / "catalogs"


def pytest_configure(config: pytest.Config) -> None:
    """The Python processes the tests start (`python -m toolcat`, servers, checkers) keep the
    bytecode they compile in one folder of this session, outside the checkout, so each later
    one reads it instead of compiling every module again (with PYTHONDONTWRITEBYTECODE set,
    as on the test machines, every process compiled all of toolcat); this process's own
    import settings stay as they were."""
    if not hasattr(config, "workerinput") and CHECKS_FOLDER not in os.environ:
        checks = tempfile.mkdtemp(prefix="toolcat-tests-checks-")
        config.add_cleanup(lambda: shutil.rmtree(checks, ignore_errors=True))
        os.environ[CHECKS_FOLDER] = checks  # the workers pytest-xdist starts inherit it
    if not hasattr(config, "workerinput") and SESSION_FOLDER not in os.environ:
        shared = tempfile.mkdtemp(prefix="toolcat-tests-session-")  # mode 0700
        config.add_cleanup(lambda: shutil.rmtree(shared, ignore_errors=True))
        os.environ[SESSION_FOLDER] = shared
    if not hasattr(config, "workerinput") and (config.getoption("numprocesses", 0) or 0) > 1:
        # each worker's torch would encode on every core: two catalogs encoded at once took
        # 24 s each on two threads, 21 s on one (200 tools on CI's two cores); the workers
        # and the processes they start inherit it
        os.environ.setdefault("OMP_NUM_THREADS", "1")
    if hasattr(config, "workerinput") or "PYTHONPYCACHEPREFIX" in os.environ:
        return
    folder = tempfile.mkdtemp(prefix="toolcat-tests-pyc-")
    config.add_cleanup(lambda: shutil.rmtree(folder, ignore_errors=True))
    os.environ["PYTHONPYCACHEPREFIX"] = folder
    os.environ.pop("PYTHONDONTWRITEBYTECODE", None)


# The environment variable naming a folder of the whole session, made by the controlling
# process: pytest-xdist's workers share what is kept there (the cache key, the embedding cache)
SESSION_FOLDER = "PYTEST_TOOLCAT_SESSION"


def session_folder(name: str) -> Path:
    """The folder `name` of the session's folder, the same in every pytest-xdist worker."""
    folder = Path(os.environ[SESSION_FOLDER]) / name
    folder.mkdir(mode=0o700, exist_ok=True)
    return folder


@pytest.fixture(scope="session")
def user_config() -> Path:
    """$XDG_CONFIG_HOME for the session: the key that seals cache entries lives there, one
    for the whole session and all its workers (as one user has one), never the user's own."""
    return session_folder("config")


@pytest.fixture(autouse=True)
def isolated(tmp_path: Path, monkeypatch: pytest.MonkeyPatch, user_config: Path) -> Path:
    """Run every test in an empty folder with no catalog settings, a private cache and the
    session's cache key."""
    work = tmp_path / "work"
    work.mkdir()
    monkeypatch.chdir(work)
    monkeypatch.delenv("TOOLCAT_CATALOG", raising=False)
    monkeypatch.delenv("TOOLCAT_TRACEBACK", raising=False)
    monkeypatch.setenv("TOOLCAT_CACHE_DIR", str(tmp_path / "cache"))
    monkeypatch.setenv("XDG_CONFIG_HOME", str(user_config))
    monkeypatch.setenv("COLUMNS", "200")
    return work


def servers_of(catalog: Path, servers: Iterable[str], folder: Path) -> Path:
    """The tools of `servers` in the real-server half `catalog`, as a catalog file in
    `folder`: a test about a few servers has the model encode their tools, not the half's
    700 (a whole half took 50 to 100 s of a CI worker)."""
    import json

    kept = set(servers)
    whole = json.loads(catalog.read_text(encoding="utf-8"))
    part = folder / f"{catalog.stem}-{len(kept)}-servers.json"
    part.write_text(json.dumps({"tools": [t for t in whole["tools"] if t.get("server") in kept]}),
                    encoding="utf-8")
    return part


# The part of a real-server half its ranking tests are about: the servers they name, beside
# the neighbours that competed with them (one part a half, so that the session's cache encodes
# its tools once for all those tests; a whole half is 50 to 100 s of CPU to encode).
REAL_SERVERS = REPO / "benchmarks" / "data" / "real-servers"
REAL_PARTS = {
    # Postman's monitors and its Stripe API, Freshdesk's tickets; Backlog's issues beside them
    "fresh5": ("postman", "freshdesk", "backlog", "codacy", "caldav", "searxng", "pdf-reader"),
    # Splunk's searches and users, Mattermost's accounts; Zammad's users and tickets, a code
    # runner and the small servers beside them (no Slack, no Datadog in any of its servers)
    "fresh11": ("splunk", "mattermost", "zammad", "valkey", "permisapi", "ios-simulator",
                "code-runner", "fetcher", "serper"),
}


def real_part(half: str, folder: Path) -> Path:
    """REAL_PARTS' servers of the real-server half `half`, as a catalog file in `folder`."""
    return servers_of(REAL_SERVERS / f"{half}-catalog.json", REAL_PARTS[half], folder)


@pytest.fixture
def run() -> Callable[..., Result]:
    """Invoke the real CLI; exceptions that are not ToolcatErrors propagate to the test."""
    runner = CliRunner()

    def invoke(*args: str, input: str | None = None) -> Result:
        return runner.invoke(app, list(args), input=input, catch_exceptions=False)

    return invoke


@pytest.fixture
def data() -> Path:
    return DATA


@pytest.fixture(scope="session")
def benchdata() -> Path:
    """The labeled sets of ../shared/benchdata; a test that reads them is skipped where they
    are not beside the checkout (a fresh clone), as CI's copy is."""
    if not BENCHDATA.is_dir():
        pytest.skip("../shared/benchdata is not beside the checkout")
    return BENCHDATA


@pytest.fixture
def pymodule(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> Iterator[Callable[[str, str], Path]]:
    """Write Python files under a temporary folder on sys.path; `pymodule("pkg/tools.py",
    text)` returns the file. Modules imported from there are forgotten after the test."""
    import importlib
    import sys
    import textwrap

    root = tmp_path / "code"
    root.mkdir()
    monkeypatch.syspath_prepend(str(root))

    def write(relative: str, text: str) -> Path:
        path = root / relative
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(textwrap.dedent(text), encoding="utf-8")
        importlib.invalidate_caches()
        return path

    yield write
    for name, module in list(sys.modules.items()):
        file = getattr(module, "__file__", None) or ""
        if file.startswith(str(tmp_path)) or name.startswith("_toolcat_"):
            del sys.modules[name]


@pytest.fixture(scope="session")
def embedder() -> object:
    """The default embedding model (minilm-tools: the offline all-MiniLM-L6-v2 with toolcat's
    query-side update), loaded once per session (later loads reuse it)."""
    from toolcat.search.embeddings import load_embedder, semantic_available

    if not semantic_available():
        pytest.skip("needs the semantic extra")
    return load_embedder()


@pytest.fixture(scope="session")
def embedding_cache() -> Path:
    """An embedding cache folder shared by the whole session, its pytest-xdist workers
    included (never the user's): a catalog one worker encoded, the other reads. The cache is
    made for processes that share it (shards written whole and never changed, a merge that
    another process's reads survive: toolcat.search.embeddings)."""
    return session_folder("toolcat-cache")


@pytest.fixture
def shared_cache(embedding_cache: Path, embedder: object,
                 monkeypatch: pytest.MonkeyPatch) -> Path:
    """TOOLCAT_CACHE_DIR at the session's cache: a catalog's tools are encoded once a session."""
    monkeypatch.setenv("TOOLCAT_CACHE_DIR", str(embedding_cache))
    return embedding_cache


# Whole modules that are slow by what they do: lint and type-check the package, fuzz, start
# the CLI as a subprocess many times, drive a browser, or run the README's own commands.
SLOW_MODULES = frozenset({
    "test_style.py", "test_fuzz.py", "test_no_silent_demo.py", "test_adding_a_provider.py",
    "test_output.py", "test_remembered.py", "test_stdin.py", "test_config_trust.py",
    "test_text.py", "test_page.py", "test_check_offered.py", "test_cache_attacks.py",
})
# Fixtures that load the embedding model or start servers.
SLOW_FIXTURES = frozenset({"embedder", "shared_cache"})


@pytest.fixture(autouse=True)
def model_free(request: pytest.FixtureRequest, monkeypatch: pytest.MonkeyPatch) -> None:
    """A test not marked `slow` that loads the embedding model, torch's or its ONNX export,
    fails, naming the marker: the fast loop stays model-free by construction, not by
    remembering. It also starts with no model loaded, so a model another test left loaded
    in this process does not hide the load."""
    if request.node.get_closest_marker("slow"):
        return
    from toolcat.search import embeddings, onnx_encoder

    def refuse(*_args: object, **_kwargs: object) -> NoReturn:
        pytest.fail(f"{request.node.nodeid} loads the embedding model but is not marked "
                    "slow: mark it @pytest.mark.slow (or take the embedder or shared_cache "
                    "fixture), or use --scorer bm25 where the model is not what it tests",
                    pytrace=False)

    monkeypatch.setattr(embeddings, "_models", {})
    monkeypatch.setattr(embeddings, "_load", refuse)
    monkeypatch.setattr(onnx_encoder.OnnxEncoder, "__init__", refuse)


def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    """Mark as `slow` what loads the model, starts MCP servers, or explores with hypothesis,
    so `pytest -m "not slow"` is the fast inner loop (docs/development.md); the default run
    still runs everything."""
    for item in items:
        if (item.path.name in SLOW_MODULES
                or item.get_closest_marker("semantic") or item.get_closest_marker("mcp")
                or SLOW_FIXTURES.intersection(getattr(item, "fixturenames", ()))
                or getattr(getattr(item, "obj", None), "is_hypothesis_test", False)):
            item.add_marker(pytest.mark.slow)


# The checkers tests/test_style.py runs on the checkout, by test name. They read files no test
# writes and use one core each (mypy about a minute from the cold cache CI starts with), so
# they start as soon as the tests are collected and run beside the others; the test waits for
# its checker's result and asserts on it as if it had started it itself. Under pytest-xdist
# the controlling process starts them once the first worker has collected, and the worker that
# runs test_style.py reads their results from the session's folder (CHECKS_FOLDER).
STYLE_CHECKS = {
    "test_ruff_finds_nothing": [sys.executable, "-m", "ruff", "check", "--no-cache", str(REPO)],
    "test_mypy_finds_nothing": [sys.executable, "-m", "mypy", "--config-file",
                                str(REPO / "pyproject.toml")],
}
CHECKS_FOLDER = "PYTEST_TOOLCAT_CHECKS"  # the environment variable that names the folder
_started = pytest.StashKey[list["Started"]]()
# run by a checker's own interpreter: the checker's output to files, then its exit status to
# a file of its own, written whole, which says the result is there
_RUN = """\
import os, subprocess, sys
status, out, err, *argv = sys.argv[1:]
with open(out, "w") as stdout, open(err, "w") as stderr:
    code = subprocess.run(argv, stdout=stdout, stderr=stderr, stdin=subprocess.DEVNULL).returncode
with open(status + ".part", "w") as file:
    file.write(str(code))
os.replace(status + ".part", status)
"""


def _files(name: str) -> tuple[Path, Path, Path, Path]:
    """The checker's marker (made when it starts), exit status, stdout and stderr files."""
    started, status, out, err = (Path(os.environ[CHECKS_FOLDER]) / f"{name}.{part}"
                                 for part in ("started", "status", "out", "err"))
    return started, status, out, err


class Started:
    """A checker started in the background, its output going to files of the session's folder,
    so it never blocks on a full pipe and any process of the session can read its result."""

    def __init__(self, name: str) -> None:
        started, status, out, err = _files(name)
        started.touch()
        self.process = subprocess.Popen([sys.executable, "-c", _RUN, str(status), str(out),
                                         str(err), *STYLE_CHECKS[name]], cwd=REPO,
                                        stdin=subprocess.DEVNULL, start_new_session=True)

    def stop(self) -> None:
        if self.process.poll() is None:
            os.killpg(self.process.pid, signal.SIGKILL)  # the checker with its runner
        self.process.wait()


def result(name: str) -> subprocess.CompletedProcess[str]:
    """The finished run of the checker `name`, once its status file is there."""
    _, status, out, err = _files(name)
    while not status.exists():
        time.sleep(0.2)
    return subprocess.CompletedProcess(STYLE_CHECKS[name], int(status.read_text()),
                                       out.read_text(), err.read_text())


def start_style_checks(config: pytest.Config, names: Iterable[str]) -> None:
    """Start the checkers of these test_style.py tests that no process of the session has."""
    wanted = set(names)
    config.stash.setdefault(_started, []).extend(
        Started(name) for name in STYLE_CHECKS if name in wanted and not _files(name)[0].exists())


def pytest_collection_finish(session: pytest.Session) -> None:
    if not hasattr(session.config, "workerinput"):  # under pytest-xdist: the controller, below
        start_style_checks(session.config, [item.name for item in session.items
                                            if item.path.name == "test_style.py"])


@pytest.hookimpl(optionalhook=True)
def pytest_xdist_node_collection_finished(node: Any, ids: list[str]) -> None:
    """pytest-xdist's controller: a worker has collected (every worker collects all)."""
    start_style_checks(node.config, [i.rsplit("::", 1)[-1] for i in ids
                                     if i.split("::", 1)[0].endswith("test_style.py")])


def pytest_unconfigure(config: pytest.Config) -> None:
    for check in config.stash.get(_started, []):
        check.stop()  # a session cut short (-x, Ctrl-C) leaves no checker running


@pytest.fixture
def style_check(request: pytest.FixtureRequest) -> subprocess.CompletedProcess[str]:
    """The result of this test's checker (STYLE_CHECKS), started when collection ended, or
    now if it was not."""
    name = request.node.originalname
    if not _files(name)[0].exists():
        start_style_checks(request.config, [name])
    return result(name)
