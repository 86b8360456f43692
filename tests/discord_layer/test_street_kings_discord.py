"""Street Kings through Discord as players use it: `/kings` commands, autocompletes and the My
hand panel, driven through the offline harness (tests/harness), which checks every payload
against Discord's limits and its OpenAPI spec at teardown.

The board renderer is merged separately (images/street_kings.py): here a fixture stands in a
small valid PNG for it, so these tests check the Discord layer only.
"""

from __future__ import annotations

import io
import random
from pathlib import Path
from typing import Any

from PIL import Image

from cogs.app import create_bot
from cogs.street_kings import value_of
from tests.harness import Channel, FakeDiscord, Harness, Response, SeenMessage, User

pytest_plugins = ["tests.harness.fixtures"]

ANA = User(id=1001, name="ana", global_name="Ana")
BO = User(id=1002, name="bo", global_name="Bo")
BY_ID = {str(user.id): user for user in (ANA, BO)}
TABLE = Channel(id=2101, name="street-kings")
GUILD = 3101
GAME = "street-kings"

#: Which `/kings` command (and argument) carries each kind of move.
COMMANDS = {
    "class": ("kings class", "class"),
    "finish_line": ("kings class", "class"),
    "shop": ("kings shop", None),
    "sell": ("kings shop", "sell"),
    "buy": ("kings shop", "buy"),
    "dealer": ("kings dealer", None),
    "sell_car": ("kings dealer", "sell"),
    "buy_car": ("kings dealer", "buy"),
    "show": ("kings show", "car"),
    "location": ("kings location", None),
    "qualify": ("kings qualify", "lane"),
    "pass": ("kings pass", None),
    "race": ("kings race", "car"),
    "noz": ("kings noz", "policy"),
    "noz_policy": ("kings noz", "policy"),
}


async def table(harness_factory, tmp_path: Path, seed: int) -> Harness:
    bot = create_bot(database_url=f"sqlite:///{tmp_path / 'games.db'}", discord_token="")
    h = await harness_factory(
        bot, FakeDiscord(), guild_id=GUILD, channels=[TABLE], members=[ANA, BO]
    )
    h.bot.service.seed_factory = lambda: f"kings-test-{seed}"
    return h


async def start_shorter_game(h: Harness) -> SeenMessage:
    lobby = (
        await h.slash(ANA, "game new", options={"game": GAME, "options": "shorter_game=true"})
    ).message
    await h.click(BO, h.message(lobby), label="Join")
    response = await h.click(ANA, h.message(lobby), label="Start")
    board = response.public_messages[-1]
    assert board.files.get("board.png") and "begins" in board.text()
    return board


async def the_game(h: Harness) -> Any:
    """The table's game record, finished or not."""
    games = await h.bot.service.channel_games(str(GUILD), str(TABLE.id))
    if games:
        h.game_id = games[0].id  # type: ignore[attr-defined]
    return await h.bot.service.get(h.game_id)  # type: ignore[attr-defined]


def board_of(response: Response) -> SeenMessage | None:
    # The game's own boards, in its thread (not the result post in the channel).
    boards = [
        m for m in response.public_messages if m.files.get("board.png") and m.channel_id != TABLE.id
    ]
    return boards[-1] if boards else None


async def by_command(
    h: Harness, user: User, move: dict[str, Any], phase: str, rng: random.Random
) -> Response:
    """The move as its `/kings` command, its value checked against the autocomplete."""
    if move["type"] in ("done_selling", "buy_nothing"):
        command = "kings dealer" if phase.startswith("dealer") else "kings shop"
        argument: str | None = "sell" if move["type"] == "done_selling" else "buy"
    else:
        command, argument = COMMANDS.get(move["type"], ("kings location", None))
    options: dict[str, Any] = {}
    if move["type"] == "place":
        command, options = "kings location", {"card": move["card"], "spot": move["spot"]}
    elif move["type"] == "buy" and move.get("car") and rng.random() < 0.5:
        options = {"buy": move["card"], "car": move["car"]}  # the two options typed apart
    elif argument is not None:
        offered = await h.autocomplete(user, command, focused=argument, value="")
        assert value_of(move) in [c["value"] for c in offered], (move, offered)
        options = {argument: value_of(move)}
    return await h.slash(user, command, **options)


async def by_panel(h: Harness, user: User, index: int, board: SeenMessage | None) -> Response:
    """The move picked on the My hand panel (a select, or buttons mid-turn), opened with the
    last board's My hand button or with `/game hand`."""
    if board is not None and any(b.label == "My hand" for b in board.buttons):
        panel = (await h.click(user, h.message(board), label="My hand")).message
    else:
        panel = (await h.slash(user, "game hand")).message
    # The credits, cards and cars are drawn, not listed above their picture: each fact once.
    assert panel.ephemeral and "**Credits:**" not in panel.content and panel.files
    assert "**Trophies:**" in panel.content and "**NOZ policy:**" in panel.content
    if panel.selects:
        return await h.select(user, panel, panel.selects[0].custom_id, [str(index)])
    button = next(b for b in panel.buttons if f":act:{index}:" in (b.custom_id or ""))
    return await h.click(user, panel, button.custom_id)


async def test_a_whole_shorter_game_by_kings_commands_and_the_hand_panel(
    harness_factory, tmp_path: Path
) -> None:
    h = await table(harness_factory, tmp_path, seed=5)
    await start_shorter_game(h)
    service = h.bot.service
    rng = random.Random(11)
    used = {"command": 0, "panel": 0}
    kinds: set[str] = set()
    last_board: SeenMessage | None = None
    for _ in range(400):
        record = await the_game(h)
        if record.status != "active":
            break
        (mover,) = service.to_move(record)
        user = BY_ID[mover]
        legal = service.legal(record, mover)
        # A player rarely flips their NOZ policy: it would only make the game longer.
        weights = [0.2 if move["type"] == "noz_policy" else 1.0 for move in legal]
        move = rng.choices(legal, weights)[0]
        kinds.add(move["type"])
        phase = service.state(record)["phase"]
        if rng.random() < 0.5:
            response = await by_command(h, user, move, phase, rng)
            used["command"] += 1
        else:
            response = await by_panel(h, user, legal.index(move), last_board)
            used["panel"] += 1
        assert (await the_game(h)).version > record.version, response.text()
        last_board = board_of(response) or last_board
    record = await the_game(h)
    assert record.status == "finished", "the game never ended"
    assert last_board is not None and last_board.text().count("Game over") == 1
    assert "/game hand" not in last_board.text()  # a finished game has no hand to point to
    assert "Street King" in last_board.text()
    assert used["command"] > 20 and used["panel"] > 20
    assert {"class", "qualify", "race", "noz", "pass", "shop", "buy", "buy_car"} <= kinds
    public = "\n".join(m.text() for m in h.channel_messages(h.thread(TABLE)))
    assert "Location cards" not in public and "Your move" not in public
    # Races are told, each racer's place once: by the prizes (or one line across the line).
    assert "Prizes of" in public and "1st **" in public and "crosses the line" not in public
    raced = [m for m in h.channel_messages(h.thread(TABLE)) if "Prizes of" in m.text()]
    for post in raced:  # and replayed: the race as an animation beside the board (market inside)
        assert list(post.files) == ["board.png", "race.gif"]
        assert post.gallery == list(post.files)  # each shown, in that order, in the post
        with Image.open(io.BytesIO(post.files["race.gif"])) as gif:
            assert gif.format == "GIF" and gif.n_frames > 2
    quiet = [m for m in h.channel_messages(h.thread(TABLE)) if m.files and m not in raced]
    # One picture a post: the market is the board's (drawn into it), never a picture of its own.
    assert quiet and all(list(m.files) == ["board.png"] for m in quiet)


# -- bad input: an ephemeral sentence, nothing changed ---------------------------------------------


def bo_first_car(state: dict[str, Any]) -> str:
    return state["seats"][state["players"].index("1002")]["cars"][0]["id"]


async def refused(h: Harness, user: User, command: str, says: str, **options: Any) -> None:
    """``/command`` is answered privately with a sentence containing ``says``; the game did not
    move."""
    before = (await the_game(h)).version
    response = await h.slash(user, command, **options)
    assert response.public_messages == []
    assert says in response.ephemeral_text(), response.ephemeral_text()
    assert (await the_game(h)).version == before


async def test_each_bad_input_is_answered_privately_and_changes_nothing(
    harness_factory, tmp_path: Path
) -> None:
    # This seed: Ana is first; she owns a D car with a NOZ and a C car with a red Engine Tune
    # III; the shop holds a NOZ (3k), an Engine Tune I (2k) and a Turbo Kit II (4k); she has 2k.
    h = await table(harness_factory, tmp_path, seed=1)
    await start_shorter_game(h)
    state = h.bot.service.state(await the_game(h))
    ana = state["seats"][state["players"].index("1001")]
    d_car, c_car = (car["id"] for car in ana["cars"])

    await refused(h, ANA, "kings class", "You own no B car", **{"class": "B"})
    await refused(h, BO, "kings class", "It is Ana's turn", **{"class": "D"})
    offered = await h.autocomplete(ANA, "kings class", focused="class", value="")
    assert [c["value"] for c in offered] == ["D", "C"]
    await h.slash(ANA, "kings class", **{"class": "D"})

    # The NOZ policy is a standing order: Bo sets his on Ana's turn, privately, and it is still
    # Ana's turn; Ana owns a NOZ and sets hers on her turn.
    before = await the_game(h)
    standing = await h.slash(BO, "kings noz", policy="never")
    assert standing.public_messages == [] and "NOZ policy" in standing.ephemeral_text()
    after = await the_game(h)
    assert h.bot.service.to_move(after) == h.bot.service.to_move(before) == ["1001"]
    assert h.bot.service.state(after)["seats"][1]["noz_policy"] == "never"
    await refused(h, BO, "kings noz", "Your NOZ policy is already never", policy="never")
    await refused(h, BO, "kings race", "It is Ana's turn", car=bo_first_car(state))
    await refused(
        h, ANA, "kings noz", "Choose a NOZ policy: ask, first chance or never", policy="x"
    )
    policies = await h.autocomplete(ANA, "kings noz", focused="policy", value="")
    assert [c["value"] for c in policies] == ["first chance", "never"]
    set_policy = await h.slash(ANA, "kings noz", policy="first chance")
    assert "**NOZ policy:** first chance" in set_policy.ephemeral_text()
    # Ana (still her turn) qualifies in lane 1; Bo then tries the taken lane.
    await h.slash(ANA, "kings qualify", lane="1")
    await refused(h, BO, "kings qualify", "Lane 1 is taken: choose a free lane (2, 3, 4)", lane="1")
    await refused(h, BO, "kings qualify", "Choose a lane by its number", lane="one")
    # Bo parks his only D car at the car show: in a D race he has nothing left to qualify with.
    bo = state["seats"][state["players"].index("1002")]
    await h.slash(BO, "kings show", car=bo["cars"][0]["id"])

    # Ana at the shop: sells nothing, then tries what she cannot buy.
    await h.slash(ANA, "kings shop")
    done = await h.slash(ANA, "kings shop", sell="done")
    assert "Your move continues" in done.ephemeral_text()
    await refused(
        h, ANA, "kings shop", "costs 3,000 credits and you have 2,000", buy="noz-6", car=d_car
    )
    await refused(h, ANA, "kings shop", "already has a red upgrade", buy="engine1-1", car=c_car)
    await refused(h, ANA, "kings shop", "no upgrade called", buy="rocket", car=c_car)
    cars = await h.autocomplete(ANA, "kings shop", focused="car", value="", buy="engine1-1")
    assert [c["value"] for c in cars] == [d_car]  # the C car has its red upgrade already
    await h.slash(ANA, "kings shop", buy="nothing")

    await refused(h, BO, "kings qualify", "You have no D car free to race", lane="2")
    await h.slash(BO, "kings location")
    await refused(h, BO, "kings location", "Say where to place it", card="L01")
    hand = h.bot.service.view(await the_game(h), "1002")["hand"]
    await h.slash(BO, "kings location", card=hand[0], spot=1)

    await h.slash(ANA, "kings location")
    ana_hand = h.bot.service.view(await the_game(h), "1001")["hand"]
    await refused(
        h,
        ANA,
        "kings location",
        "Location spot 1 already holds a card: place yours on spot 2",
        card=ana_hand[0],
        spot=1,
    )
    await h.slash(ANA, "kings location", card=ana_hand[0], spot=2)
    await refused(h, BO, "kings location", "Both location spots already hold a card")

    # A car two classes up: A cars are not even on display while nobody owns a B car.
    await h.slash(BO, "kings dealer")
    await refused(h, BO, "kings dealer", "sell a car or finish selling", buy="A01")
    # Selling his upgraded C car pays for a new C car, so he stays to buy.
    await h.slash(BO, "kings dealer", sell=bo["cars"][1]["id"])
    await refused(h, BO, "kings dealer", "not at the dealership", buy="A01")
    await refused(h, BO, "kings dealer", "no car called", buy="Flying Carpet")
    offered = await h.autocomplete(BO, "kings dealer", focused="buy", value="")
    assert offered[-1]["value"] == "nothing" and all(c["name"].startswith("Buy") for c in offered)
    bought = await h.slash(BO, "kings dealer", buy=offered[0]["value"])
    assert board_of(bought) is not None and "went to the dealership: sold" in bought.public_text()


async def test_a_car_two_classes_up_is_refused_with_the_class_rule(
    harness_factory, tmp_path: Path
) -> None:
    """Elite Class shows every class at the dealership; a player who sold their B car may not
    buy an A car (two classes above their C car)."""
    h = await table(harness_factory, tmp_path, seed=1)
    lobby = await h.slash(ANA, "game new", options={"game": GAME, "options": "elite_class=true"})
    await h.click(BO, h.message(lobby.message), label="Join")
    await h.click(ANA, h.message(lobby.message), label="Start")
    state = h.bot.service.state(await the_game(h))
    first = BY_ID[state["players"][state["first"]]]
    other = ANA if first is BO else BO
    seat = state["seats"][state["first"]]
    b_car = next(car["id"] for car in seat["cars"] if car["id"].startswith("B"))

    await h.slash(first, "kings dealer")
    await h.slash(first, "kings dealer", sell=b_car)
    await h.slash(first, "kings dealer", buy="nothing")
    await h.slash(other, "kings pass")
    await h.slash(first, "kings dealer")
    await h.slash(first, "kings dealer", sell="done")
    a_car = h.bot.service.view(await the_game(h), None)["dealership"]["A"][0]
    await refused(
        h, first, "kings dealer", "You can only buy a car one class above a car you own", buy=a_car
    )
