"""The repository carries everything its users need: no file points outside it, every relative
markdown link (and its #heading) resolves, and every game has its rules page."""

from __future__ import annotations

import re
import subprocess
from pathlib import Path

import pytest

from rules import GAMES

ROOT = Path(__file__).resolve().parents[1]
#: ``[text](target)`` outside code; a target may carry a ``#fragment`` or a ``"title"``.
LINK = re.compile(r"\[[^\]]*\]\(\s*<?([^)\s>]+)>?(?:\s+\"[^\"]*\")?\s*\)")
EXTERNAL = re.compile(r"^[a-z][a-z0-9+.-]*:", re.IGNORECASE)  # https:, mailto:, ...
FENCE = re.compile(r"^(```|~~~).*?^\1", re.MULTILINE | re.DOTALL)


def tracked() -> list[Path]:
    try:
        listed = subprocess.run(
            ["git", "ls-files", "-z"], cwd=ROOT, capture_output=True, check=True, text=True
        ).stdout
    except (OSError, subprocess.CalledProcessError):
        pytest.skip("not a git checkout")
    return [ROOT / name for name in listed.split("\0") if name]


def text_of(path: Path) -> str | None:
    try:
        return path.read_text(encoding="utf-8")
    except (UnicodeDecodeError, FileNotFoundError, IsADirectoryError):
        return None  # a font, a picture, a file deleted but not yet committed


def slug(heading: str) -> str:
    """A heading's anchor as GitHub makes it."""
    text = re.sub(r"[`*_]", "", heading.strip().lower())
    return re.sub(r"[^\w\- ]", "", text).replace(" ", "-")


def anchors(markdown: str) -> set[str]:
    prose = FENCE.sub("", markdown)
    return {slug(m.group(1)) for m in re.finditer(r"^#{1,6}\s+(.+?)\s*#*$", prose, re.MULTILINE)}


def links(markdown: str) -> list[str]:
    prose = re.sub(r"`[^`\n]*`", "", FENCE.sub("", markdown))
    return [m.group(1) for m in LINK.finditer(prose)]


def test_no_tracked_file_outside_tests_mentions_the_shared_folder() -> None:
    offenders = [
        str(path.relative_to(ROOT))
        for path in tracked()
        if path.relative_to(ROOT).parts[0] != "tests" and "../shared" in (text_of(path) or "")
    ]
    assert offenders == []


def test_every_relative_markdown_link_resolves_inside_the_repository() -> None:
    broken = []
    for page in (p for p in tracked() if p.suffix == ".md"):
        markdown = text_of(page)
        if markdown is None:
            continue
        for target in links(markdown):
            if EXTERNAL.match(target):
                continue
            path_part, _, fragment = target.partition("#")
            goal = (page.parent / path_part).resolve() if path_part else page
            where = f"{page.relative_to(ROOT)}: {target}"
            if path_part.startswith("/") or not goal.is_relative_to(ROOT):
                broken.append(f"{where} (outside the repository)")
            elif not goal.exists():
                broken.append(f"{where} (no such file)")
            elif fragment and goal.suffix == ".md" and fragment not in anchors(goal.read_text()):
                broken.append(f"{where} (no such heading)")
    assert broken == []


def test_the_link_checker_sees_a_broken_link() -> None:
    page = "[ok](docs/architecture.md) [gone](docs/nothing.md) `[code](x.md)` [web](https://x.y)"
    assert links(page) == ["docs/architecture.md", "docs/nothing.md", "https://x.y"]
    assert slug("Readings we chose") == "readings-we-chose"
    assert "backups" in anchors((ROOT / "README.md").read_text(encoding="utf-8"))


@pytest.mark.parametrize("game_id", sorted(GAMES))
def test_every_game_has_a_rules_page_naming_its_readings_and_reconstructions(game_id: str) -> None:
    page = (ROOT / "docs" / "rules" / f"{game_id}.md").read_text(encoding="utf-8")
    assert page.startswith(f"# {GAMES[game_id].title}\n")
    assert "## Readings we chose" in page and "reconstruction" in page.lower()
    assert f"{game_id}.md" in (ROOT / "docs" / "rules" / "README.md").read_text(encoding="utf-8")


#: A repository path named in prose or a docstring (``bot/service.py``, ``docs/deploy.md``),
#: not the tail of a longer path or URL, nor a markdown link's target (relative to its page:
#: the link test checks those).
NAMED_PATH = re.compile(
    r"(?<![\w./:-])(?<!\]\()((?:bot|cogs|web|rules|images|tests|docs|deploy|bench|locales|\.ci)"
    r"/[\w./-]+\.(?:py|md|service|timer|toml|yaml|json|js|css))\b"
)


def test_every_file_a_doc_or_docstring_names_exists() -> None:
    """Docstrings and pages point to files that exist (a moved module leaves no stale name,
    as DESIGN.md, bot/app.py and tests/test_rules_purity.py once did)."""
    missing = set()
    for path in tracked():
        text = text_of(path)
        if text is None or path.name == "test_docs.py":
            continue
        for name in NAMED_PATH.findall(text):
            if not (ROOT / name).exists():
                missing.add(f"{path.relative_to(ROOT)}: {name}")
        if "DESIGN.md" in text:
            missing.add(f"{path.relative_to(ROOT)}: DESIGN.md")
    assert sorted(missing) == []
