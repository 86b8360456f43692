"""The invite asks for what the bot uses: the threads' permissions included, nothing extra."""

from __future__ import annotations

import re
from pathlib import Path

from cogs import threads
from cogs.invite import PERMISSIONS, invite_url

ROOT = Path(__file__).resolve().parents[2]


def test_the_readme_invites_with_exactly_these_permissions() -> None:
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    integers = set(re.findall(r"permissions=(\d+)", readme))
    assert integers == {str(PERMISSIONS.value)}
    assert f"`{PERMISSIONS.value}`" in readme


def test_a_games_thread_needs_nothing_the_invite_leaves_out() -> None:
    for name, _label in threads.NEEDED:
        assert getattr(PERMISSIONS, name), f"the invite leaves out {name}"


def test_nothing_extra_is_asked() -> None:
    assert not PERMISSIONS.administrator and not PERMISSIONS.manage_messages
    assert not PERMISSIONS.manage_threads and not PERMISSIONS.mention_everyone
    assert PERMISSIONS.value.bit_count() == 7


def test_the_url_names_both_scopes_and_the_integer() -> None:
    url = invite_url(1234)
    assert "client_id=1234" in url and f"permissions={PERMISSIONS.value}" in url
    assert "scope=bot+applications.commands" in url
