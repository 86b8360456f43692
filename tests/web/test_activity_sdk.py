"""The vendored Embedded App SDK is the file its record names (web/sdk/record.json, written by
``make activity-sdk``): a hand edit or a half-done refresh of web/static/discord-sdk.js fails."""

from __future__ import annotations

import hashlib
import json
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
RECORD = json.loads((ROOT / "web" / "sdk" / "record.json").read_text())


def test_the_vendored_sdk_is_the_recorded_bundle() -> None:
    vendored = (ROOT / RECORD["vendored"]).read_bytes()
    assert hashlib.sha256(vendored).hexdigest() == RECORD["vendored_sha256"]
    assert f"@discord/embedded-app-sdk {RECORD['version']} " in vendored[:300].decode()


def test_the_record_names_the_pinned_version_from_the_registry() -> None:
    pinned = json.loads((ROOT / "web" / "sdk" / "package.json").read_text())["dependencies"]
    assert pinned == {RECORD["package"]: RECORD["version"]}
    assert RECORD["source"] == (
        "https://registry.npmjs.org/@discord/embedded-app-sdk/-/"
        f"embedded-app-sdk-{RECORD['version']}.tgz"
    )
    assert len(RECORD["tarball_sha256"]) == 64
