"""The demo and the pictures in another language: the language is a parameter all the way to the
worker that draws, and a picture is cached per language."""

from __future__ import annotations

import pickle
from pathlib import Path

from bot.demo import run_demo
from bot.i18n import say, use
from bot.pictures import Pictures
from bot.pool import WorkerPool
from rules import GAMES
from rules.protocol import Refusal
from tests.bot.test_cli import one_line, run_cli


async def test_the_demo_in_portuguese_writes_its_log_in_portuguese(tmp_path: Path) -> None:
    url = f"sqlite:///{tmp_path / 'demo.db'}"
    result = await run_demo("street-art", url, tmp_path / "out", lang="pt_BR")
    log = result.log_path.read_text(encoding="utf-8")
    assert "Fim de jogo" in log and "Pontuação final" in log and "jogou" in log
    assert "Game over" not in log and "Final scores" not in log and " played " not in log


def test_the_demo_takes_a_language_and_names_the_ones_it_has(tmp_path: Path) -> None:
    env = {"DATABASE_URL": f"sqlite:///{tmp_path / 'demo.db'}", "DEMO_DIR": str(tmp_path / "o")}
    done = run_cli("demo", "--lang", "pt-BR", cwd=tmp_path, **env)
    assert done.returncode == 0, done.stderr
    assert "Pontuação final" in (tmp_path / "o" / "log.txt").read_text(encoding="utf-8")
    assert "en, pt_BR" in one_line(run_cli("demo", "--lang", "xx", cwd=tmp_path, **env))


async def test_a_picture_is_drawn_and_cached_once_per_language() -> None:
    game = GAMES["street-art"]
    state = game.start(["a", "b", "c"], "lang-seed", dict(game.default_options))
    view = game.view(state, None)
    pictures = Pictures(WorkerPool(inline=True))
    english = await pictures.board("g1", 1, "street-art", view, {}, lang="en")
    portuguese = await pictures.board("g1", 1, "street-art", view, {}, lang="pt_BR")
    assert await pictures.board("g1", 1, "street-art", view, {}, lang="pt_BR") == portuguese
    assert pictures.cache.renders == 2 and english != portuguese


def test_a_refusal_reads_as_its_english_and_is_said_in_the_current_language() -> None:
    refusal = Refusal("Lane {lane} is taken: choose a free lane ({lanes}).", lane=2, lanes="3, 4")
    assert refusal == "Lane 2 is taken: choose a free lane (3, 4)."
    again = pickle.loads(pickle.dumps(refusal))  # as it comes back from a worker process
    assert (
        again == refusal
        and again.template == refusal.template
        and again.fields
        == {
            "lane": 2,
            "lanes": "3, 4",
        }
    )
    with use("pt_BR"):
        assert say(again) == "A pista 2 está ocupada: escolha uma pista livre (3, 4)."
        nested = Refusal("First {hint}.", hint=Refusal("choose the column for your card"))
        assert say(nested) == "Primeiro escolha a coluna para sua carta."
        assert say("It is not your turn.") == "Não é a sua vez."
    assert say(refusal) == refusal
