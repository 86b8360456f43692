"""Reproducible installs: ``make`` installs with constraints.txt, which pins every dependency
pyproject.toml names (the dev extra too) to one version its range allows, so a fresh clone
gets the versions the suite passed with whatever is released meanwhile."""

from __future__ import annotations

import re
import tomllib
from pathlib import Path

from packaging.requirements import Requirement
from packaging.utils import canonicalize_name
from packaging.version import Version

ROOT = Path(__file__).resolve().parents[1]


def pins() -> dict[str, Version]:
    found: dict[str, Version] = {}
    for line in (ROOT / "constraints.txt").read_text(encoding="utf-8").splitlines():
        line = line.split("#", 1)[0].strip()
        if line:
            name, _, version = line.partition("==")
            assert version, f"constraints.txt: {line!r} is not pinned with =="
            found[canonicalize_name(name)] = Version(version)
    return found


def test_every_dependency_is_pinned_within_its_range() -> None:
    project = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))["project"]
    named = [*project["dependencies"], *project["optional-dependencies"]["dev"]]
    pinned = pins()
    for text in named:
        requirement = Requirement(text)
        name = canonicalize_name(requirement.name)
        assert name in pinned, f"{requirement.name} is not pinned in constraints.txt"
        assert requirement.specifier.contains(pinned[name], prereleases=True), (
            f"constraints.txt pins {name} {pinned[name]}, outside {requirement.specifier}"
        )


def test_make_installs_with_the_constraints() -> None:
    makefile = (ROOT / "Makefile").read_text(encoding="utf-8")
    installs = re.findall(r"pip install .*-e '\.\[dev\]'", makefile)
    assert installs and all("-c constraints.txt" in line for line in installs)


def locked() -> dict[str, tuple[Version, int]]:
    """requirements.lock: each package's version and how many hashes it carries."""
    found: dict[str, tuple[Version, int]] = {}
    text = (ROOT / "requirements.lock").read_text(encoding="utf-8")
    for entry in re.split(r"\n(?=[A-Za-z])", text.split("\n", 2)[2]):
        head = entry.split(";", 1)[0].split("\\", 1)[0].strip()
        name, _, version = head.partition("==")
        found[canonicalize_name(name)] = (Version(version), entry.count("--hash=sha256:"))
    return found


def test_the_lock_pins_what_was_tested_with_hashes() -> None:
    """Production installs (Containerfile, docs/deploy.md) use requirements.lock with
    --require-hashes: it names every runtime dependency at constraints.txt's version."""
    project = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))["project"]
    lock, pinned = locked(), pins()
    for text in project["dependencies"]:
        assert canonicalize_name(Requirement(text).name) in lock, f"{text} is not locked"
    for name, (version, hashes) in lock.items():
        assert hashes, f"requirements.lock: {name} has no hash"
        if name in pinned:
            assert version == pinned[name], (
                f"requirements.lock: {name} {version}, tested {pinned[name]}"
            )


def test_the_lock_holds_every_package_the_bot_imports() -> None:
    """A production install has requirements.lock alone (no test tools): every third-party
    module bot/, cogs/, web/, rules/, images/ and locales/ import at module level comes from a
    locked package (Babel once came only with the dev extra, and `run` failed in the image)."""
    import ast
    import sys
    from importlib.metadata import packages_distributions

    ours = {"bot", "cogs", "web", "rules", "images", "locales", "tests", "bench"}
    dists = packages_distributions()
    lock = locked()
    missing = set()
    for package in ("bot", "cogs", "web", "rules", "images", "locales"):
        for path in (ROOT / package).rglob("*.py"):
            for node in ast.parse(path.read_text(encoding="utf-8")).body:
                if isinstance(node, ast.Import):
                    names = [alias.name for alias in node.names]
                elif isinstance(node, ast.ImportFrom) and node.level == 0 and node.module:
                    names = [node.module]
                else:
                    continue
                for name in names:
                    top = name.split(".")[0]
                    if top in ours or top in sys.stdlib_module_names or top == "__future__":
                        continue
                    for dist in dists.get(top, [top]):
                        if canonicalize_name(dist) not in lock:
                            missing.add(f"{path.relative_to(ROOT)}: {top} ({dist})")
    assert sorted(missing) == []
