"""The layers (docs/architecture.md, "Four layers, one direction"): imports point one way, down.

rules/ stays pure: no module under it imports discord, aiosqlite, PIL or aiohttp, directly or
through anything it imports. Of our own packages rules imports nothing, images imports rules
only, bot imports rules and images (and not discord, cogs or web: the front doors are above
it), web imports bot and below (and not discord or cogs), and cogs may import anything.
Every module found under each package is read, function-local imports included, so a new
module is covered the day it is added."""

from __future__ import annotations

import ast
import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
RULES = ROOT / "rules"
BANNED = ("discord", "aiosqlite", "PIL", "aiohttp")

#: Runs in a fresh interpreter: a meta-path hook records every attempt to import a banned
#: package (even one caught by ``try``), then every module under rules/ is imported.
PROBE = f"""
import importlib, json, pkgutil, sys

BANNED = {BANNED!r}
attempted = []

class Guard:
    def find_spec(self, name, path=None, target=None):
        if name.split(".")[0] in BANNED:
            attempted.append(name)
        return None

sys.meta_path.insert(0, Guard())
import rules

modules = ["rules"]
for info in pkgutil.walk_packages(rules.__path__, "rules."):
    importlib.import_module(info.name)
    modules.append(info.name)
loaded = sorted(name for name in sys.modules if name.split(".")[0] in BANNED)
print(json.dumps({{"modules": modules, "attempted": attempted, "loaded": loaded}}))
"""


def rule_files() -> list[Path]:
    return sorted(RULES.rglob("*.py"))


def test_importing_every_rules_module_pulls_in_no_io_library():
    env = {
        **os.environ,
        "PYTHONPATH": os.pathsep.join([str(ROOT), os.environ.get("PYTHONPATH", "")]),
    }
    result = subprocess.run(
        [sys.executable, "-c", PROBE],
        cwd=ROOT,
        env=env,
        capture_output=True,
        text=True,
        timeout=60,
        check=False,
    )
    assert result.returncode == 0, result.stderr
    report = json.loads(result.stdout.strip().splitlines()[-1])
    expected = {
        ".".join(path.relative_to(ROOT).with_suffix("").parts).removesuffix(".__init__")
        for path in rule_files()
    }
    assert expected <= set(report["modules"]), "every module under rules/ was imported"
    assert report["attempted"] == []
    assert report["loaded"] == []


def imported_names(tree: ast.AST) -> list[str]:
    """Every module an ``import``, ``from ... import`` or ``import_module("...")`` names."""
    names: list[str] = []
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            names.extend(alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom) and node.level == 0 and node.module:
            names.append(node.module)
        elif isinstance(node, ast.Call) and node.args:
            func = node.func
            called = func.attr if isinstance(func, ast.Attribute) else getattr(func, "id", "")
            first = node.args[0]
            if called in ("import_module", "__import__") and isinstance(first, ast.Constant):
                names.append(str(first.value))
    return names


def test_there_are_rules_modules_to_check():
    assert any(path.name == "protocol.py" for path in rule_files())


@pytest.mark.parametrize("path", rule_files(), ids=lambda path: str(path.relative_to(ROOT)))
def test_no_rules_module_names_an_io_library(path: Path):
    tree = ast.parse(path.read_text(encoding="utf-8"), filename=str(path))
    banned = [name for name in imported_names(tree) if name.split(".")[0] in BANNED]
    assert banned == [], f"{path.relative_to(ROOT)} imports {banned}"


#: Our packages from the bottom layer up, with the packages of ours each may import and the
#: outside packages it may not (rules' are ``BANNED``, checked above, through imports too).
#: ``locales`` (the message catalogs) sits beside rules at the bottom: it imports nothing of
#: ours, so images (in their worker processes) and bot translate through the same catalogs.
LAYERS: dict[str, tuple[set[str], set[str]]] = {
    "rules": ({"rules"}, set()),
    "locales": ({"locales"}, {"discord", "aiosqlite", "PIL"}),
    "images": ({"rules", "locales", "images"}, {"discord", "aiosqlite"}),
    "bot": ({"rules", "locales", "images", "bot"}, {"discord"}),
    # The web table: a second front door beside cogs, over the same service (issue 26). It
    # knows no Discord, and neither front door knows the other's handlers (cogs may start the
    # web server and hand out its links; the web never reaches into cogs).
    "web": ({"rules", "locales", "images", "bot", "web"}, {"discord"}),
    "cogs": ({"rules", "locales", "images", "bot", "web", "cogs"}, set()),
}


def upward_imports(path: Path, layer: str) -> list[str]:
    """The imports of ``path`` (a module of ``layer``) that its layer may not make."""
    ours, banned = LAYERS[layer]
    tree = ast.parse(path.read_text(encoding="utf-8"), filename=str(path))
    tops = [(name, name.split(".")[0]) for name in imported_names(tree)]
    return [name for name, top in tops if (top in LAYERS and top not in ours) or top in banned]


def layer_report(layer: str) -> dict[str, list[str]]:
    """Each module of ``layer`` that imports upward, with those imports."""
    report = {}
    for path in sorted((ROOT / layer).rglob("*.py")):
        found = upward_imports(path, layer)
        if found:
            report[str(path.relative_to(ROOT))] = found
    return report


@pytest.mark.parametrize("layer", list(LAYERS))
def test_each_layer_imports_only_the_layers_below_it(layer: str):
    assert (ROOT / layer).is_dir()
    assert layer_report(layer) == {}


def hidden_imports(path: Path) -> list[str]:
    """Imports inside a function: the old way to break an import cycle, which hides it."""
    tree = ast.parse(path.read_text(encoding="utf-8"), filename=str(path))
    return [
        f"line {inner.lineno}"
        for node in ast.walk(tree)
        if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef)
        for inner in ast.walk(node)
        if isinstance(inner, ast.Import | ast.ImportFrom)
    ]


@pytest.mark.parametrize("layer", list(LAYERS))
def test_no_module_hides_an_import_inside_a_function(layer: str):
    hidden = {str(p.relative_to(ROOT)): hidden_imports(p) for p in (ROOT / layer).rglob("*.py")}
    assert {name: lines for name, lines in hidden.items() if lines} == {}


def test_the_layer_check_sees_an_import_that_points_up(tmp_path: Path):
    module = tmp_path / "m.py"
    module.write_text("import os\nfrom images.kit import x\n\ndef f():\n    import cogs.items\n")
    assert upward_imports(module, "rules") == ["images.kit", "cogs.items"]
    assert upward_imports(module, "bot") == ["cogs.items"]
    assert upward_imports(module, "cogs") == []
    assert upward_imports(module, "web") == ["cogs.items"]
    module.write_text("import discord\nimport web.app\n")
    assert upward_imports(module, "web") == ["discord"]
    assert upward_imports(module, "bot") == ["discord", "web.app"]


def test_undo_needs_only_the_services_narrow_protocol() -> None:
    """bot/undo.py names what it needs of the service (``undo.Table``): it imports no
    bot.service, and touches no private part of it; the service satisfies the protocol."""
    from bot.service import GameService
    from bot.undo import Table

    source = (ROOT / "bot" / "undo.py").read_text(encoding="utf-8")
    assert "bot.service" not in source and "table._" not in source
    members = [name for name in vars(Table) if not name.startswith("_")]
    assert all(hasattr(GameService, name) or name in ("store", "games") for name in members)
