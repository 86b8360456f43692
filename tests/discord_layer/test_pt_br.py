"""Português do Brasil through Discord: a pt-BR server plays each game to its end and reads no
English sentence, in any public post or private answer; the synced commands carry their pt-BR
names; each message is in one language, the player's own for a private answer and the server's
for a public post.

"English" is judged against the English catalog itself (messages.pot): every piece of an
English message id whose translation differs, two words or longer, that appears in no
Portuguese translation (so proper names and option values the translations keep are not
counted), and every one-word message shown whole (a button, a field name, a line).
"""

from __future__ import annotations

import random
import re
from collections.abc import Iterable, Mapping
from functools import cache
from pathlib import Path
from typing import Any

import discord
import pytest
from babel.messages.pofile import read_po

from bot.i18n import _, use
from cogs.app import create_bot
from locales import catalog
from locales.extract import POT
from tests.harness import Channel, Harness, Response, SeenMessage, User
from tests.harness.steps import take_move

pytest_plugins = ["tests.harness.fixtures"]

PT = "pt-BR"
ANA = User(id=1101, name="ana", global_name="Ana", locale=PT)
BO = User(id=1102, name="bo", global_name="Bo", locale=PT)
CY = User(id=1103, name="cy", global_name="Cy", locale=PT)
ED = User(id=1104, name="ed", global_name="Ed")  # an English client
MOD = User(
    id=1105,
    name="mod",
    global_name="Mod",
    permissions=discord.Permissions(manage_guild=True),
    locale=PT,
)
EVERYONE = [ANA, BO, CY, ED, MOD]
BY_ID = {user.id: user for user in EVERYONE}
TABLE = Channel(id=2101, name="mesa")
GUILD = 3101


# -- what counts as English ----------------------------------------------------------------------


@cache
def english() -> tuple[frozenset[str], frozenset[str]]:
    """(pieces of two words or more, whole one-word messages) of the English catalog that a
    Portuguese text must not contain."""
    with POT.open("rb") as f:
        template = [m for m in read_po(f) if m.id]
    pt = catalog("pt_BR")
    translations: list[str] = []
    ids: list[tuple[str, str]] = []
    for message in template:
        if isinstance(message.id, str):
            pairs = [(message.id, pt.gettext(message.id))]
        else:
            singular, plural = message.id
            pairs = [(singular, pt.ngettext(singular, plural, 1))]
            pairs.append((plural, pt.ngettext(singular, plural, 2)))
        translations += [local for _, local in pairs]
        ids += [(msgid, local) for msgid, local in pairs if local != msgid]
    portuguese = "\n".join(translations)
    pieces, words = set(), set()
    for msgid, _local in ids:
        for line in re.split(r"\{[^}]*\}|\n", msgid):
            piece = line.strip(" .,:;!?—–-()*`•\"'“”")
            if len(re.findall(r"[A-Za-z]{2,}", piece)) >= 2 and piece not in portuguese:
                pieces.add(piece)
        if re.fullmatch(r"[^\s{}]*[A-Za-z]{2,}[^\s{}]*", msgid) and msgid not in portuguese:
            words.add(msgid)
    return frozenset(pieces), frozenset(words)


def english_in(texts: Iterable[str]) -> list[str]:
    """The English pieces found in ``texts``, with where."""
    pieces, words = english()
    found = []
    for text in texts:
        found += [f"{piece!r} in {text[:80]!r}" for piece in pieces if piece in text]
        lines = {line.strip(" *") for line in text.splitlines()}
        found += [f"{word!r} alone in {text[:80]!r}" for word in words if word in lines]
    return found


def words_of(components: Iterable[Mapping[str, Any]]) -> list[str]:
    """Every word a component tree shows: labels, placeholders, options, alt text."""
    out: list[str] = []
    for item in components:
        for key in ("label", "placeholder", "description"):
            if item.get(key):
                out.append(str(item[key]))
        for option in item.get("options") or ():
            out += [str(option.get(k)) for k in ("label", "description") if option.get(k)]
        for entry in item.get("items") or ():
            if entry.get("description"):
                out.append(str(entry["description"]))
        out += words_of(item.get("components") or ())
        if item.get("accessory"):
            out += words_of([item["accessory"]])
    return out


class Seen:
    """Everything the players read, public and private."""

    def __init__(self) -> None:
        self.texts: list[str] = []
        self.public = self.private = 0

    def add(self, response: Response) -> Response:
        for message in response.messages:
            self.texts += [message.text(), *words_of(message.components)]
            if message.ephemeral:
                self.private += 1
            else:
                self.public += 1
        self.texts += [str(c.get("name")) for c in response.choices or ()]
        return response


# -- the table -----------------------------------------------------------------------------------


def new_bot(tmp_path: Path) -> discord.Client:
    return create_bot(database_url=f"sqlite:///{tmp_path / 'games.db'}", discord_token="")


async def table(harness_factory, tmp_path: Path, guild_locale: str = PT) -> Harness:
    h = await harness_factory(
        new_bot(tmp_path),
        guild_id=GUILD,
        channels=[TABLE],
        members=EVERYONE,
        guild_locale=guild_locale,
    )
    seeds = (f"pt-br-{n}" for n in range(1000))
    h.bot.service.seed_factory = lambda: next(seeds)
    return h


def verb(message: SeenMessage, name: str) -> str:
    """The custom id of the message's button for ``name`` (labels are in Portuguese)."""
    found = [b.custom_id for b in message.buttons if re.search(rf":{name}:\d+$", b.custom_id or "")]
    assert found, (name, [b.custom_id for b in message.buttons])
    return str(found[0])


def board_of(response: Response) -> SeenMessage | None:
    boards = [m for m in response.public_messages if m.files.get("board.png")]
    return boards[-1] if boards else None


#: How likely each kind of move is picked: never back, paint when one can, rarely pass a round
#: (Mural) or flip a standing order, so a random player still finishes a game.
WEIGHTS = {
    "street-art-mural": {"back": 0.0, "paint": 8.0, "pass": 0.1},
    "street-kings": {"noz_policy": 0.2},
}
GAMES = {
    "street-art": ([ANA, BO, CY], ""),
    "artsee": ([ANA, BO], ""),
    "street-art-mural": ([ANA, BO], ""),
    "street-kings": ([ANA, BO], "shorter_game=true"),
}
FIRST_MOVES = {  # a command whose autocomplete the first mover reads
    "street-art": ("streetart play", "card"),
    "artsee": ("artsee play", "card"),
    "street-art-mural": ("mural rotate", "kind"),
    "street-kings": ("kings class", "class"),
}


async def on_panel(h: Harness, user: User, board: SeenMessage, index: int, seen: Seen) -> Response:
    """Open the hand panel from the board and take the move at ``index`` of ``legal()``; a
    choice that asks first (a Mural pass) is confirmed."""
    panel = seen.add(await h.click(user, h.message(board), verb(board, "hand"))).message
    assert panel.ephemeral and panel.visible_to == user.id
    responses = await take_move(h, user, panel, index)
    for response in responses:
        seen.add(response)
    return responses[-1]


async def play_to_the_end(h: Harness, game: str, seen: Seen) -> SeenMessage:
    players, options = GAMES[game]
    host = players[0]
    chosen = {"game": game, **({"options": options} if options else {})}
    lobby = seen.add(await h.slash(host, "game new", options=chosen)).message
    for player in players[1:]:
        seen.add(await h.click(player, h.message(lobby), verb(h.message(lobby), "join")))
    started = seen.add(await h.click(host, h.message(lobby), verb(h.message(lobby), "start")))
    board = board_of(started)
    assert board is not None
    for user in (host, players[1]):  # what a player looks up, privately
        for command in ("game rules", "game status", "game board", "game mine"):
            seen.add(await h.slash(user, command))
    seen.add(await h.click(players[1], board, verb(board, "rules")))
    service = h.bot.service
    (record,) = await service.channel_games(str(GUILD), str(TABLE.id))
    first = BY_ID[int(service.to_move(record)[0])]
    command, option = FIRST_MOVES[game]
    await h.autocomplete(first, command, focused=option)
    seen.add(h.last_response)  # type: ignore[arg-type]
    rng, weights = random.Random(17), WEIGHTS.get(game, {})
    for _move in range(3000):
        record = await service.get(record.id)
        if record.status != "active":
            break
        mover = service.to_move(record)[0]
        legal = service.legal(record, mover)
        index = rng.choices(range(len(legal)), [weights.get(a["type"], 1.0) for a in legal])[0]
        response = await on_panel(h, BY_ID[int(mover)], board, index, seen)
        assert (await service.get(record.id)).version > record.version, response.text()
        board = board_of(response) or board
    else:
        raise AssertionError("the game never ended")
    assert record.status == "finished"
    seen.add(await h.slash(host, "game replay", view="story", game=record.id))
    seen.add(await h.slash(host, "game list"))
    return board


#: The game ``make test`` plays whole in Portuguese (the one whose rulebook is Portuguese);
#: the other three are the slow tier's (``pytest -m slow``): the catalogs test already holds
#: every marked sentence to a translation, and a whole game through the dispatch is slow.
IN_MAKE_TEST = "street-art-mural"


@pytest.mark.parametrize(
    "game",
    [pytest.param(game, marks=() if game == IN_MAKE_TEST else pytest.mark.slow) for game in GAMES],
)
async def test_a_whole_game_in_portuguese_shows_no_english_sentence(
    harness_factory, tmp_path: Path, game: str
) -> None:
    h = await table(harness_factory, tmp_path)
    seen = Seen()
    final = await play_to_the_end(h, game, seen)
    assert "Fim de jogo" in final.text() and "Pontuação final" in final.text()
    assert seen.public > 10 and seen.private > 10
    assert english_in(seen.texts) == []


# -- the commands ----------------------------------------------------------------------------------


def nodes(commands: list[dict[str, Any]]) -> Iterable[tuple[str, dict[str, Any]]]:
    """Every command, subcommand and option of the synced payload, with its path."""
    stack = [(f"/{c['name']}", c) for c in commands]
    while stack:
        path, node = stack.pop()
        yield path, node
        for option in node.get("options") or ():
            stack.append((f"{path} {option['name']}", option))


async def test_the_synced_commands_carry_their_portuguese_names(
    harness_factory, tmp_path: Path
) -> None:
    h = await table(harness_factory, tmp_path)
    name = re.compile(r"^[-_\w]{1,32}$")
    with use("pt_BR"):
        for path, node in nodes(h.catalogue):
            local = _(node["name"])
            if local != node["name"]:
                assert node["name_localizations"][PT] == local, path
            for text in node.get("name_localizations", {}).values():
                assert name.match(text) and text == text.lower(), (path, text)
            described = node.get("description_localizations", {}).get(PT)
            assert (
                described == _(node["description"]) or _(node["description"]) == node["description"]
            ), path
            assert described is None or 1 <= len(described) <= 100, path
            siblings = [
                o.get("name_localizations", {}).get(PT, o["name"])
                for o in node.get("options") or ()
            ]
            assert len(siblings) == len(set(siblings)), (path, siblings)
            for choice in node.get("choices") or ():
                local = _(choice["name"])
                if local != choice["name"]:
                    assert choice["name_localizations"][PT] == local, (path, choice)
    game = next(c for c in h.catalogue if c["name"] == "game")
    assert game["name_localizations"][PT] == "jogo"
    new = next(o for o in game["options"] if o["name"] == "new")
    assert new["name_localizations"][PT] == "novo"
    assert new["description_localizations"][PT].startswith("Abra um jogo neste canal")


# -- one language per message -------------------------------------------------------------------


async def test_private_answers_follow_the_player_and_public_posts_the_server(
    harness_factory, tmp_path: Path
) -> None:
    h = await table(harness_factory, tmp_path, guild_locale="en-US")
    lobby = await h.slash(ANA, "game new", game="artsee")  # a pt-BR player, an English server
    assert "Waiting for players" in lobby.message.text()
    assert [b.label for b in lobby.message.buttons] == ["Join", "Leave", "Add AI", "Start"]
    rules = await h.slash(ANA, "game rules")
    assert rules.message.ephemeral and "Monte a galeria de maior prestígio" in rules.message.text()
    refused = await h.click(ED, h.message(lobby.message), verb(lobby.message, "start"))
    assert "Only the host (Ana) can start it." in refused.ephemeral_text()

    config = await h.slash(MOD, "game config", language="pt_BR")
    assert config.message.ephemeral and "idioma: **Português do Brasil**" in config.message.text()
    joined = await h.click(ED, h.message(lobby.message), verb(h.message(lobby.message), "join"))
    assert "Ed entrou." in joined.text()  # the lobby is public: the server's language now
    started = await h.click(ANA, h.message(lobby.message), verb(h.message(lobby.message), "start"))
    board = board_of(started)
    assert board is not None and "começa" in board.text()
    assert [b.label for b in board.buttons] == ["Minha mão", "Tabuleiro", "Regras"]
    private = await h.slash(ED, "game board")  # an English client reads its copy in English
    assert private.message.ephemeral and [b.label for b in private.message.buttons] == [
        "My hand",
        "Board",
        "Rules",
    ]
    hand = await h.click(ED, board, verb(board, "hand"))
    assert "Visitors in your supply:" in hand.ephemeral_text()  # the hand itself is drawn


async def test_a_server_that_never_chose_speaks_its_own_locale(
    harness_factory, tmp_path: Path
) -> None:
    h = await table(harness_factory, tmp_path, guild_locale=PT)
    lobby = await h.slash(ED, "game new", game="street-art")
    assert "Esperando jogadores" in lobby.message.text()
    shown = await h.slash(MOD, "game config")
    assert "o do próprio servidor" in shown.message.text()


async def test_a_refusal_of_the_rules_is_said_in_the_players_language(
    harness_factory, tmp_path: Path
) -> None:
    h = await table(harness_factory, tmp_path, guild_locale="en-US")
    lobby = (await h.slash(ANA, "game new", game="street-art-mural")).message
    await h.click(BO, h.message(lobby), verb(h.message(lobby), "join"))
    await h.click(ANA, h.message(lobby), verb(h.message(lobby), "start"))
    (record,) = await h.bot.service.channel_games(str(GUILD), str(TABLE.id))
    mover = BY_ID[int(h.bot.service.to_move(record)[0])]
    refused = await h.slash(mover, "mural mix", paints="R+Y")  # an empty backpack
    assert refused.public_messages == []
    assert refused.ephemeral_text() == (
        "A Mistura de Tintas precisa de duas tintas básicas na mochila; você tem 0."
    )
    waiting = next(user for user in (ANA, BO) if user is not mover)
    early = await h.slash(waiting, "mural mix", paints="R+Y")
    assert early.ephemeral_text() == f"É a vez de {mover.global_name}."
