"""`python -m bot play`: a newcomer's first table, against AI seats, on a local web page."""

from __future__ import annotations

import re
import signal
import subprocess
import sys
import urllib.request
from pathlib import Path

from tests.web.test_web_process import cli, free_port


def test_play_serves_a_table_and_prints_its_link_then_stops_on_ctrl_c(tmp_path: Path) -> None:
    port = free_port()
    env = cli(tmp_path, WEB_PORT=str(port), DEMO_DIR=str(tmp_path / "out"))
    env.pop("WEB_SECRET")
    process = subprocess.Popen(
        [sys.executable, "-m", "bot", "play", "--game", "artsee"],
        cwd=tmp_path,
        env=env,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )
    try:
        assert process.stdout is not None
        printed = [process.stdout.readline() for _line in range(2)]
        link = re.search(rf"(http://127\.0\.0\.1:{port}/h/\S+)", printed[1])
        assert link is not None, printed
        with urllib.request.urlopen(link.group(1), timeout=30) as page:
            text = page.read().decode()
        assert page.status == 200 and 'class="target lit' in text and "Your turn." in text
        assert (tmp_path / "out" / "play.db").is_file()  # its own file, not DATABASE_URL's
        assert not (tmp_path / "games.db").exists()
    finally:
        process.send_signal(signal.SIGINT)
        assert process.wait(timeout=30) == 0


def test_play_refuses_a_bad_seat_count_in_one_line(tmp_path: Path) -> None:
    done = subprocess.run(
        [sys.executable, "-m", "bot", "play", "--game", "street-kings", "--players", "9"],
        cwd=tmp_path,
        env=cli(tmp_path),
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert done.returncode != 0 and "Traceback" not in done.stderr
    assert "--players must be from 2 to 4" in done.stderr
