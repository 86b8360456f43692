"""Imports point one way (issue 11): bot/ names neither discord nor the cogs, and no module in
bot/ or cogs/ hides an import inside a function (the old way to break a cycle)."""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
MODULES = sorted([*(ROOT / "bot").rglob("*.py"), *(ROOT / "cogs").rglob("*.py")])


def parsed(path: Path) -> ast.Module:
    return ast.parse(path.read_text(encoding="utf-8"), filename=str(path))


def top_names(node: ast.Import | ast.ImportFrom) -> list[str]:
    if isinstance(node, ast.ImportFrom):
        return [node.module or ""] if node.level == 0 else []
    return [alias.name for alias in node.names]


@pytest.mark.parametrize("path", MODULES, ids=lambda p: str(p.relative_to(ROOT)))
def test_no_import_is_hidden_inside_a_function(path: Path) -> None:
    hidden = [
        f"line {inner.lineno}"
        for node in ast.walk(parsed(path))
        if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef)
        for inner in ast.walk(node)
        if isinstance(inner, ast.Import | ast.ImportFrom)
    ]
    assert hidden == []


@pytest.mark.parametrize(
    "path", [p for p in MODULES if p.is_relative_to(ROOT / "bot")], ids=lambda p: p.name
)
def test_the_application_layer_imports_neither_discord_nor_cogs(path: Path) -> None:
    names = [
        name
        for node in ast.walk(parsed(path))
        if isinstance(node, ast.Import | ast.ImportFrom)
        for name in top_names(node)
    ]
    assert [n for n in names if n.split(".")[0] in ("discord", "cogs")] == []
