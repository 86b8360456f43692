"""ArtSee through Discord as players use it: raw interactions in, what each player sees out.

The real bot (``cogs.app.create_bot``) runs through discord.py's real dispatch with the HTTP layer
recorded (tests/harness); at teardown every recorded payload is checked against Discord's limits
and its OpenAPI spec. Two humans play a whole game by slash commands and by the buttons and
selects of their private panels; one of them is asked about visitors and answers there too.
"""

from __future__ import annotations

import random
from pathlib import Path

from cogs.app import create_bot
from rules.artsee.data import EXHIBITS, MASTERPIECES
from tests.harness import Channel, FakeDiscord, Harness, Response, SeenMessage, User

pytest_plugins = ["tests.harness.fixtures"]

ANA = User(id=1001, name="ana", global_name="Ana")
BO = User(id=1002, name="bo", global_name="Bo")
CY = User(id=1003, name="cy", global_name="Cy")
EVERYONE = [ANA, BO, CY]
BY_ID = {user.id: user for user in EVERYONE}
TABLE = Channel(id=2002, name="artsee")
GUILD = 3002


async def table(harness_factory, tmp_path: Path) -> Harness:
    bot = create_bot(database_url=f"sqlite:///{tmp_path / 'games.db'}", discord_token="")
    h = await harness_factory(
        bot, FakeDiscord(), guild_id=GUILD, channels=[TABLE], members=EVERYONE
    )
    seeds = (f"artsee-discord-{n}" for n in range(1000))
    h.bot.service.seed_factory = lambda: next(seeds)
    return h


async def start_two_player_game(h: Harness) -> SeenMessage:
    lobby = (await h.slash(ANA, "game new", game="artsee")).message
    assert "2–5 players" in lobby.text()
    await h.click(BO, h.message(lobby), label="Join")
    board = (await h.click(ANA, h.message(lobby), label="Start")).public_messages[-1]
    assert_is_board(board)
    return board


async def game_and_mover(harness_factory, tmp_path: Path) -> tuple[Harness, SeenMessage, User]:
    """A fresh two-player game: the harness, the first board, and the player it mentions."""
    h = await table(harness_factory, tmp_path)
    board = await start_two_player_game(h)
    (mover_id,) = board.mentions
    return h, board, BY_ID[mover_id]


def assert_is_board(post: SeenMessage) -> None:
    assert not post.ephemeral
    png = post.image()
    assert png is not None and png == post.files["board.png"]
    labels = [b.label for b in post.buttons]
    assert "Board" in labels and "Rules" in labels
    assert "Your hand" not in post.text()


def board_of(response: Response) -> SeenMessage | None:
    # The game's own boards, in its thread (not the result post in the channel).
    boards = [
        m for m in response.public_messages if m.files.get("board.png") and m.channel_id != TABLE.id
    ]
    return boards[-1] if boards else None


async def my_view(h: Harness, user: User) -> dict:
    """What ``user`` may see (for choosing test inputs; every move goes through Discord)."""
    service = h.bot.service
    record = await service.resolve(str(GUILD), str(TABLE.id), str(user.id))
    return service.view(record, str(user.id))


class Tally:
    """What the whole game went through, so the test can check every path was taken."""

    def __init__(self) -> None:
        self.slash: list[str] = []
        self.panel: list[str] = []
        self.refusals: list[str] = []
        self.questions = 0
        self.resumed = 0


async def finish_on_panel(
    h: Harness, player: User, response: Response, rng: random.Random, tally: Tally, slash: bool
) -> SeenMessage:
    """Take the rest of a turn from the private panel (or its slash commands) until a board is
    posted; returns that board."""
    for _ in range(30):
        posted = board_of(response)
        if posted is not None:
            return posted
        panel = response.ephemeral_messages[-1]
        assert panel.visible_to == player.id
        buttons = [b for b in panel.buttons if b.label != "↩ Choose again"]
        labels = [b.label or "" for b in buttons] + [
            o["label"] for s in panel.selects for o in s.options
        ]
        if slash and any(label.startswith("Draw from pile") for label in labels):
            pile = rng.choice([1, 2])
            tally.slash.append("draw")
            response = await h.slash(player, "artsee draw", pile=pile)
        elif slash and any(label.startswith("Claim ") for label in labels):
            choices = await h.autocomplete(player, "artsee claim", focused="token")
            tally.slash.append("claim")
            response = await h.slash(player, "artsee claim", token=rng.choice(choices)["value"])
        elif buttons:
            button = rng.choice(buttons)
            tally.panel.append(button.label or "")
            response = await h.click(player, panel, button.custom_id)
        else:
            select = panel.selects[0]
            options = [o for o in select.options if o["label"] != "↩ Choose again"]
            option = rng.choice(options)
            tally.panel.append(option["label"])
            response = await h.select(player, panel, select.custom_id, [option["value"]])
    raise AssertionError("a turn never ended")


async def try_bad_claim(h: Harness, player: User, tally: Tally) -> None:
    """Mid-turn, claim a masterpiece of another category than the card played: the rules'
    reason comes back privately with the pending choice, and nothing changes."""
    view = await my_view(h, player)
    played = EXHIBITS[view["played"]].featured
    wrong = next(t for t in MASTERPIECES if MASTERPIECES[t].category != played)
    response = await h.slash(player, "artsee claim", token=wrong)
    text = response.ephemeral_text()
    assert "so you may only claim" in text and "Finish your turn first" in text, text
    assert response.public_messages == []
    assert await my_view(h, player) == view, "the game is unchanged"
    tally.refusals.append("claim")


async def play_turn(
    h: Harness, board: SeenMessage, rng: random.Random, tally: Tally, slash: bool
) -> SeenMessage:
    (player_id,) = board.mentions
    player = BY_ID[player_id]
    view = await my_view(h, player)
    if view["phase"] == "welcome":
        return await answer_visitors(h, board, player, view, rng, tally, slash)
    if view["phase"] != "card":  # the turn goes on once the asked opponents welcomed (step 2)
        tally.resumed += 1
        response = await h.click(player, board, label="My hand")
        return await finish_on_panel(h, player, response, rng, tally, slash)
    if not any(p["size"] for p in view["piles"]) and "draw" not in tally.refusals:
        empty = await h.slash(player, "artsee draw", pile=1)
        assert "Draw pile 1 is empty, and so is pile 2" in empty.ephemeral_text()
        assert empty.public_messages == []
        tally.refusals.append("draw")
    if slash:
        cards = await h.autocomplete(player, "artsee play", focused="card")
        assert len(cards) == len(view["hand_cards"]) > 0
        card = rng.choice(cards)["value"]
        columns = await h.autocomplete(player, "artsee play", focused="column", card=card)
        arrow = "←" if EXHIBITS[card].arrow == "L" else "→"
        assert all(arrow in c["name"] for c in columns), "the column list knows the card"
        column = rng.choice(columns)["value"]
        tally.slash.append("play")
        response = await h.slash(player, "artsee play", card=card, column=column)
        if board_of(response) is None and "claim" not in tally.refusals:
            await try_bad_claim(h, player, tally)
    else:
        panel = (await h.click(player, board, label="My hand")).message
        # The exhibits are drawn, not listed beside their picture: each fact once.
        assert panel.ephemeral and "Visitors in your supply" in panel.content
        assert "Your hand:" not in panel.content and panel.attachment_names
        # Three cards are three buttons: a tap each, no select to open.
        assert not panel.selects and all(b.label.startswith("Play ") for b in panel.buttons[:3])
        response = await choose(h, player, panel, rng, tally)
    return await finish_on_panel(h, player, response, rng, tally, slash)


async def choose(
    h: Harness, player: User, panel: SeenMessage, rng: random.Random, tally: Tally
) -> Response:
    """A choice on a panel: one of its buttons (bar the web link), else an option of its
    select."""
    buttons = [b for b in panel.buttons if b.custom_id]
    if buttons:
        button = rng.choice(buttons)
        tally.panel.append(button.label or "")
        return await h.click(player, panel, button.custom_id)
    select = panel.selects[0]
    option = rng.choice(select.options)
    tally.panel.append(option["label"])
    return await h.select(player, panel, select.custom_id, [option["value"]])


async def answer_visitors(
    h: Harness,
    board: SeenMessage,
    player: User,
    view: dict,
    rng: random.Random,
    tally: Tally,
    slash: bool,
) -> SeenMessage:
    """The asked player: first a card that does not match (refused in words), then real
    answers by command or by the panel the board's "Welcome visitors?" button opens."""
    labels = [b.label for b in board.buttons]
    assert labels[0] == "Welcome visitors?" and "My hand" in labels, labels
    assert player.id in board.mentions
    played = EXHIBITS[view["played"]].featured
    me = next(p for p in view["players"] if p["id"] == str(player.id))
    other = [n for n, col in enumerate(me["columns"], 1) if EXHIBITS[col[-1]].featured != played]
    if other and "welcome" not in tally.refusals:
        bad = await h.slash(player, "artsee welcome", column=str(other[0]))
        assert "visitors may only go on" in bad.ephemeral_text()
        assert bad.public_messages == [] and await my_view(h, player) == view
        tally.refusals.append("welcome")
    if slash:
        choices = await h.autocomplete(player, "artsee welcome", focused="column")
        assert choices[-1]["value"] == "none"
        tally.slash.append("welcome")
        response = await h.slash(player, "artsee welcome", column=rng.choice(choices)["value"])
        return await finish_on_panel(h, player, response, rng, tally, slash)
    panel = (await h.click(player, board, label="Welcome visitors?")).message
    assert panel.ephemeral and "you may welcome a visitor on column" in panel.content
    response = await choose(h, player, panel, rng, tally)
    return await finish_on_panel(h, player, response, rng, tally, slash)


# -- the whole game -------------------------------------------------------------------------------


async def test_a_whole_two_player_game_by_commands_and_buttons(
    harness_factory, tmp_path: Path
) -> None:
    h = await table(harness_factory, tmp_path)
    board = await start_two_player_game(h)
    asked = await h.slash(BO, "artsee visitors", policy="ask")
    assert "**Bo** will now be asked about visitors" in asked.ephemeral_text()
    assert asked.public_messages == [], "a standing order posts no board"

    rng = random.Random(3)
    tally = Tally()
    boards = 1
    while "Game over" not in board.text():
        board = await play_turn(h, board, rng, tally, slash=boards % 2 == 0)
        assert_is_board(board)
        if "Welcome visitors?" in [b.label for b in board.buttons]:
            assert board.mentions == [BO.id], "only a question to Bo brings the button"
            tally.questions += 1
        boards += 1
        assert boards < 300, "the game never ended"
    # The winners said once: by the game's own "Game over" line, then the scores alone.
    assert "Final scores" in board.text() and "Winner" not in board.text()
    assert board.text().count("Game over") == 1
    # "The final post. It says "Game over" twice, and its footer still points to the hand."
    assert board.text().count("Game over") == 1 and "/game hand" not in board.text()
    assert board.mentions == []
    assert {"play", "draw", "welcome"} <= set(tally.slash)
    assert any(label.startswith("Play ") for label in tally.panel)
    assert any(label.startswith("Onto ") for label in tally.panel)
    assert any(label.startswith("Welcome a visitor") for label in tally.panel)
    assert set(tally.refusals) == {"claim", "draw", "welcome"}
    assert tally.questions > 0
    assert tally.resumed > 0, "a turn went on after the visitors were welcomed"
    public_text = "\n".join(m.text() for m in h.channel_messages(h.thread(TABLE)))
    assert "Your hand" not in public_text
    assert "welcomed" in public_text and "played" in public_text


# -- bad input: an ephemeral sentence, nothing changed ---------------------------------------------


async def test_bad_moves_get_a_private_sentence_and_change_nothing(
    harness_factory, tmp_path: Path
) -> None:
    h, _board, mover = await game_and_mover(harness_factory, tmp_path)
    waiting = BO if mover == ANA else ANA
    before = await my_view(h, mover)
    card = before["hand_cards"][0]

    nowhere = await h.slash(mover, "artsee play", card=card, column="9")
    assert "Your gallery has columns 1 to 2: choose one of them, or left or right" in (
        nowhere.ephemeral_text()
    )
    typo = await h.slash(mover, "artsee play", card=card, column="middle")
    assert "“middle” is not a column number" in typo.ephemeral_text()
    not_held = next(c for c in sorted(EXHIBITS) if c not in before["hand_cards"])
    missing = await h.slash(mover, "artsee play", card=not_held, column="1")
    assert "You do not hold that exhibit" in missing.ephemeral_text()
    early = await h.slash(mover, "artsee claim", token="PO-5")
    assert "Play a card first" in early.ephemeral_text()
    out_of_turn = await h.slash(waiting, "artsee play", card=card, column="1")
    assert f"It is {mover.global_name}'s turn" in out_of_turn.ephemeral_text()
    not_asked = await h.slash(waiting, "artsee welcome", column="1")
    assert f"It is {mover.global_name}'s turn" in not_asked.ephemeral_text()
    stranger = await h.slash(CY, "artsee draw", pile=1)
    assert "not in a game in this channel" in stranger.ephemeral_text()
    for response in (nowhere, typo, missing, early, out_of_turn, not_asked, stranger):
        assert response.public_messages == [] and response.ephemeral_messages
    assert await my_view(h, mover) == before, "nothing above changed the game"

    # A standing order out of turn is taken, privately, and the turn goes on.
    policy = await h.slash(waiting, "artsee visitors", policy="never")
    assert "will now never welcome visitors" in policy.ephemeral_text()
    assert policy.public_messages == []
    status = await h.slash(mover, "game status")
    assert f"It is {mover.global_name}'s turn" in status.ephemeral_text()


async def test_a_card_chosen_on_the_panel_then_a_slash_play_finishes_the_choice(
    harness_factory, tmp_path: Path
) -> None:
    """Mid-turn, a command that continues the turn is applied (here: the card and column)."""
    h, board, mover = await game_and_mover(harness_factory, tmp_path)
    panel = (await h.click(mover, board, label="My hand")).message
    chosen = await h.click(mover, panel, panel.buttons[0].custom_id)
    assert "now pick its column" in chosen.ephemeral_text()
    card = (await my_view(h, mover))["chosen"]
    response = await h.slash(mover, "artsee play", card=card, column="right")
    assert "Finish your turn first" not in response.ephemeral_text()
    assert (await my_view(h, mover))["played"] == card
    rules = await h.click(mover, board, label="Rules")
    assert "ArtSee" in rules.message.text() and "/artsee play" in rules.message.text()
