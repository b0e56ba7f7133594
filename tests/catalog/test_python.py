"""Python modules and `.py` files as catalogs, alone and mixed with YAML."""

from __future__ import annotations

import sys

import pytest

import toolcat
from toolcat.errors import CatalogError, DefinitionError

TOOLS = '''
import toolcat


@toolcat.tool(name="get_weather", description="Current weather.", tags=["weather"],
              parameters={"type": "object", "properties": {"city": {"type": "string"}},
                          "required": ["city"]})
class GetWeather:
    def run(self):
        return self.args["city"]


@toolcat.tool(server="clock", parameters={"type": "object", "properties": {}})
def get_time():
    """The time."""
    return "noon"
'''

YAML = """\
servers:
  - name: calendar
tools:
  - name: list_events
    description: List calendar events.
    parameters: {type: object, properties: {}}
"""


@pytest.fixture
def agent(pymodule):
    pymodule("my_agent/__init__.py", "")
    return pymodule("my_agent/tools.py", TOOLS)


def test_a_module_name_is_a_catalog_of_its_decorated_tools(agent):
    catalog = toolcat.load_catalog("my_agent.tools")
    assert [(t.name, t.server) for t in catalog] == [("get_weather", "tools"),
                                                      ("get_time", "clock")]
    assert catalog.sources == (str(agent),)
    origin = catalog.get("get_weather").origin
    assert (origin.file, origin.line, origin.column) == (str(agent), 5, 1)


def test_a_py_file_in_a_package_is_the_same_module_as_its_dotted_name(agent):
    by_path = toolcat.load_catalog(agent)
    by_name = toolcat.load_catalog("my_agent.tools")
    assert by_path.tools == by_name.tools
    assert sys.modules["my_agent.tools"].__file__ == str(agent)


def test_a_py_file_may_use_relative_imports_inside_its_package(pymodule):
    pymodule("shop/__init__.py", "")
    pymodule("shop/schemas.py", 'ORDER = {"type": "object", "properties": {}}\n')
    tools = pymodule("shop/tools.py", """
        import toolcat
        from .schemas import ORDER

        @toolcat.tool(name="place_order", parameters=ORDER)
        def place_order(): ...
    """)
    assert [t.name for t in toolcat.load_catalog(tools)] == ["place_order"]


def test_a_single_py_file_joins_under_its_own_name_with_its_folder_importable(pymodule):
    pymodule("helpers/shared_schema.py", 'SCHEMA = {"type": "object", "properties": {}}\n')
    tools = pymodule("helpers/standalone.py", """
        import toolcat
        from shared_schema import SCHEMA

        @toolcat.tool(name="ping", parameters=SCHEMA)
        def ping(): ...
    """)
    catalog = toolcat.load_catalog(str(tools))
    assert catalog.get("ping").server == "standalone"
    assert sys.modules["standalone"].__file__ == str(tools)


def test_a_py_file_named_like_a_standard_module_does_not_shadow_it(pymodule):
    assert "tabnanny" not in sys.modules
    tools = pymodule("own/tabnanny.py", TOOLS)
    catalog = toolcat.load_catalog(tools)
    module = catalog.get("get_weather").implementation["module"]
    assert module.startswith("_toolcat_tabnanny_")
    import tabnanny

    assert tabnanny.__file__ != str(tools)


def test_tools_imported_into_a_module_and_its_catalog_list_join_once(agent, pymodule):
    pymodule("bundle.py", """
        import toolcat
        from my_agent.tools import GetWeather, get_time

        EXTRA = toolcat.Tool(name="send_mail", description="Send a mail.",
                             parameters={"type": "object"})
        catalog = [GetWeather, EXTRA]
    """)
    catalog = toolcat.load_catalog("bundle")
    assert [(t.name, t.server) for t in catalog] == [
        ("get_weather", "bundle"), ("get_time", "clock"), ("send_mail", "bundle")]


def test_an_exported_catalog_object_brings_its_yaml_tools_and_servers(pymodule, tmp_path):
    (tmp_path / "calendar.yaml").write_text(YAML)
    pymodule("with_yaml.py", f"""
        import toolcat

        catalog = toolcat.load_catalog({str(tmp_path / "calendar.yaml")!r})

        @toolcat.tool(parameters={{"type": "object", "properties": {{}}}})
        def ping(): ...
    """)
    catalog = toolcat.load_catalog("with_yaml")
    assert [t.name for t in catalog] == ["ping", "list_events"]
    assert catalog.server("calendar") is not None
    assert str(tmp_path / "calendar.yaml") in catalog.sources


def test_a_catalog_mixes_yaml_files_and_python_modules(agent, tmp_path):
    (tmp_path / "calendar.yaml").write_text(YAML)
    catalog = toolcat.load_catalog([tmp_path / "calendar.yaml", "my_agent.tools"])
    assert [t.qualified_name for t in catalog] == [
        "calendar:list_events", "tools:get_weather", "clock:get_time"]
    assert catalog.get("list_events").origin.line == 4
    assert catalog.get("get_time").origin.line == 13


def test_the_same_tool_in_yaml_and_python_is_a_duplicate_naming_both_places(agent, tmp_path):
    (tmp_path / "tools.yaml").write_text(
        "tools:\n  - name: get_weather\n    parameters: {type: object}\n")
    with pytest.raises(CatalogError, match=r"defined twice on server 'tools'.*tools\.py:5:1"):
        toolcat.load_catalog([str(agent), tmp_path / "tools.yaml"])


def test_a_module_without_tools_is_an_error(pymodule):
    pymodule("empty_tools.py", "X = 1\n")
    with pytest.raises(CatalogError, match="no tools found in Python module empty_tools"):
        toolcat.load_catalog("empty_tools")


def test_a_catalog_export_that_is_not_a_list_of_tools_is_an_error(pymodule):
    pymodule("odd_catalog.py", "catalog = [1, 2]\n")
    with pytest.raises(CatalogError, match="item 0 of 'catalog' is not a tool"):
        toolcat.load_catalog("odd_catalog")


def test_a_missing_module_says_no_file_or_module():
    with pytest.raises(CatalogError, match=r"no file, folder or Python module named 'nowhere\."):
        toolcat.load_catalog("nowhere.tools")


def test_a_missing_yaml_file_stays_a_missing_file():
    with pytest.raises(CatalogError, match="no such file"):
        toolcat.load_catalog("nowhere.yaml")


@pytest.mark.parametrize(("source", "message", "line"), [
    ("import toolcat\n\nvalue = 1 / 0\n",
     "cannot import failing: ZeroDivisionError: division by zero", 3),
    ("import toolcat\nimport not_installed_anywhere\n",
     "cannot import failing: ModuleNotFoundError: No module named 'not_installed_anywhere'", 2),
    ("def broken(:\n", "cannot import failing: invalid Python", 1),
    ("import sys\nsys.exit(3)\n", "cannot import failing: SystemExit: 3", 2),
])
def test_an_import_error_is_one_message_at_the_line_of_the_module(pymodule, source, message,
                                                                  line):
    path = pymodule("failing.py", source)
    with pytest.raises(CatalogError) as caught:
        toolcat.load_catalog("failing")
    assert message in caught.value.message
    assert (caught.value.where.file, caught.value.where.line) == (str(path), line)
    assert caught.value.__cause__ is not None  # the module's own traceback, for --traceback
    assert "failing" not in sys.modules


def test_a_broken_definition_in_a_module_is_reported_at_its_decorator(pymodule):
    path = pymodule("no_schema.py", "import toolcat\n\n@toolcat.tool(name='x')\ndef x(): ...\n")
    with pytest.raises(DefinitionError) as caught:
        toolcat.load_catalog(str(path))
    assert (caught.value.where.file, caught.value.where.line) == (str(path), 3)
