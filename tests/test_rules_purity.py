"""rules/ stays pure (DESIGN.md, "Layers and folders"): no module under it imports discord,
aiosqlite, PIL or aiohttp, directly or through anything it imports. Every module found under
rules/ is checked, so a new game is covered the day it is added."""

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
