"""`/kings ...`: Street Kings' own commands; every other step of a turn runs on shared components.

Each command is one small decision sent through ``flows.play``; the rules judge it, so a refusal
is the rules' own sentence. Autocomplete offers the caller's legal moves, labelled by
``bot.words.street_kings``; a typed value may be an id or a component's name.
"""

from __future__ import annotations

from typing import Any

import discord
from discord import app_commands
from discord.ext import commands

from bot.errors import ServiceError
from bot.i18n import N_, _
from bot.options import parse_int
from bot.read_model import ReadModel
from bot.words import street_kings as words
from cogs import flows
from cogs.typed import Text
from rules.street_kings.data import CARS, CUSTOM_FINISH_SPACES, LANES, LOCATIONS, UPGRADES
from rules.street_kings.table import noz_policies

GAME_ID = "street-kings"
DONE = "done"
NOTHING = "nothing"
#: What each command's argument is called in the rules' actions.
ARGUMENTS = {
    "class": "class",
    "finish_line": "space",
    "sell": "card",
    "buy": "card",
    "sell_car": "car",
    "buy_car": "car",
    "show": "car",
    "place": "card",
    "qualify": "lane",
    "race": "car",
    "noz_policy": "policy",
}
NOZ_ANSWERS = {"fire": True, "keep": False}
#: Joins an upgrade and its car in one autocomplete value: ``engine1-3@D05``.
FOR_CAR = "@"
LANE_REFUSAL = N_("Choose a lane by its number, from {low} to {high}.")
#: What a typed name may be, in the sentence that says it names nothing.
NOT_FOUND = {
    "car": N_("There is no car called “{typed}” — pick one from the list."),
    "location": N_("There is no location called “{typed}” — pick one from the list."),
    "upgrade": N_("There is no upgrade called “{typed}” — pick one from the list."),
}


async def my_moves(interaction: discord.Interaction) -> list[dict[str, Any]]:
    """The caller's legal moves now (none without a Street Kings game here)."""
    try:
        read = await flows.my_game(interaction, GAME_ID)
    except ServiceError:
        return []
    user = flows.where(interaction)[2]
    return read.legal(user)


def value_of(move: dict[str, Any]) -> str:
    """What a slash command's argument says for ``move`` (the inverse of reading it)."""
    kind = move["type"]
    if kind == "noz":
        return "fire" if move["use"] else "keep"
    if kind in WORDS_FOR:
        return WORDS_FOR[kind]
    if kind == "buy" and move.get("car"):  # one choice says both the upgrade and its car
        return f"{move['card']}{FOR_CAR}{move['car']}"
    return str(move[ARGUMENTS[kind]])


WORDS_FOR = {"done_selling": DONE, "buy_nothing": NOTHING}


def choices_of(
    moves: list[dict[str, Any]], kinds: tuple[str, ...], current: str
) -> list[app_commands.Choice[str]]:
    """Autocomplete choices: the caller's legal moves of ``kinds`` that match what is typed."""
    text = current.lower()
    choices = []
    for move in moves:
        if move["type"] not in kinds:
            continue
        value, label = value_of(move), words.action_label(move, {})
        if text in label.lower() or text == value.lower():
            choices.append(app_commands.Choice(name=label[:100], value=value[:100]))
    return choices[:25]


def autocomplete(*kinds: str) -> Any:
    async def complete(
        interaction: discord.Interaction, current: str
    ) -> list[app_commands.Choice[str]]:
        return choices_of(await my_moves(interaction), kinds, current)

    return complete


async def noz_choices(
    interaction: discord.Interaction, current: str
) -> list[app_commands.Choice[str]]:
    """fire/keep when a race is asking the caller, and every other NOZ policy: a standing
    order, settable at any time, not only on one's turn."""
    try:
        read = await flows.my_game(interaction, GAME_ID)
    except ServiceError:
        return []
    user = flows.where(interaction)[2]
    view = read.view(user)
    me = next((p for p in view["players"] if p["id"] == view["viewer"]), None)
    if me is None:
        return []
    answers = [m for m in read.legal(user) if m["type"] == "noz"]
    policies = [
        {"type": "noz_policy", "policy": policy}
        for policy in noz_policies(view["options"])
        if policy != me["noz_policy"]
    ]
    return choices_of([*answers, *policies], ("noz", "noz_policy"), current)


async def car_for_upgrade(
    interaction: discord.Interaction, current: str
) -> list[app_commands.Choice[str]]:
    """The cars the upgrade already typed in ``buy`` may go on."""
    card = str(getattr(interaction.namespace, "buy", "") or "").partition(FOR_CAR)[0]
    moves = [m for m in await my_moves(interaction) if m["type"] == "buy" and m.get("car")]
    text = current.lower()
    cars = {m["car"] for m in moves if not card or m["card"] == card}
    choices = [app_commands.Choice(name=words.car_label(car), value=car) for car in sorted(cars)]
    return [c for c in choices if text in c.name.lower()][:25]


# -- reading what was typed ---------------------------------------------------------------------


def by_id_or_name(typed: str, names: dict[str, str], what: str) -> str:
    """An id from its id or its name as typed; a sentence if it names nothing."""
    key = typed.strip()
    if key in names:
        return key
    found = {name.lower(): ident for ident, name in names.items()}.get(key.lower())
    if found is None:
        raise ServiceError(_(NOT_FOUND[what]).format(typed=typed[:50]))
    return found


def car_id(typed: str) -> str:
    return by_id_or_name(typed, {c.id: c.name for c in CARS.values()}, "car")


def location_id(typed: str) -> str:
    return by_id_or_name(typed, {loc.id: loc.name for loc in LOCATIONS.values()}, "location")


def upgrade_card(typed: str, candidates: list[str]) -> str:
    """An upgrade card (``engine1-3``) from its id, or from its name among ``candidates`` (the
    cards it could mean: the shop's, or the caller's own)."""
    key = typed.strip()
    if "-" in key and key.rsplit("-", 1)[0] in UPGRADES:
        return key
    kind = by_id_or_name(key, {u.id: u.name for u in UPGRADES.values()}, "upgrade")
    return next((c for c in candidates if c.rsplit("-", 1)[0] == kind), f"{kind}-1")


def my_cards(view: dict[str, Any]) -> list[str]:
    me = next((p for p in view["players"] if p["id"] == view["viewer"]), None)
    if me is None:
        return []
    return [*(c for car in me["cars"] for c in car["upgrades"] or []), *me["crew"]]


# -- playing ----------------------------------------------------------------------------------


async def act(
    interaction: discord.Interaction, action: dict[str, Any], read: ReadModel | None = None
) -> None:
    """Send ``action`` to the caller's Street Kings game (``read``, if already read); the
    rules judge it."""
    await flows.play(interaction, read or await flows.my_game(interaction, GAME_ID), action)


def class_action(choice: str) -> dict[str, Any]:
    """A race class letter, or (with custom_finish_line) a finish-line space: whatever looks
    like a number is read as a space, strictly, so ``²`` or ``--3`` is a sentence too."""
    typed = choice.strip().upper()
    if any(ch.isdigit() or ch in "+-" for ch in typed):
        low, high = CUSTOM_FINISH_SPACES[0], CUSTOM_FINISH_SPACES[-1]
        space = parse_int(typed, low, high, _("A finish line space"))
        return {"type": "finish_line", "space": space}
    return {"type": "class", "class": typed}


def my_view(interaction: discord.Interaction, read: ReadModel) -> dict[str, Any]:
    user = flows.where(interaction)[2]
    return read.view(user)


class StreetKings(commands.Cog):
    """Street Kings: the action phase, the race and the NOZ policy."""

    kings = app_commands.Group(name="kings", description="Street Kings moves", guild_only=True)

    def __init__(self, bot: commands.Bot) -> None:
        self.bot = bot

    @kings.command(name="class")
    @app_commands.rename(choice="class")
    @app_commands.describe(choice="D, C, B or A (with custom_finish_line: a space 1–24)")
    @app_commands.autocomplete(choice=autocomplete("class", "finish_line"))
    async def race_class(self, interaction: discord.Interaction, choice: Text) -> None:
        """Choose this round's race class (first player)."""
        await act(interaction, class_action(choice))

    @kings.command(name="shop")
    @app_commands.describe(
        sell="At the shop: an upgrade or crew card to sell, or “done”",
        buy="At the shop: the upgrade to buy, or “nothing”",
        car="The car that gets the upgrade",
    )
    @app_commands.autocomplete(
        sell=autocomplete("sell", "done_selling"),
        buy=autocomplete("buy", "buy_nothing"),
        car=car_for_upgrade,
    )
    async def shop(
        self,
        interaction: discord.Interaction,
        sell: Text | None = None,
        buy: Text | None = None,
        car: Text | None = None,
    ) -> None:
        """Go to the shop; then sell upgrades and buy one (or use the panel it shows)."""
        read = await flows.my_game(interaction, GAME_ID)
        action: dict[str, Any] = {"type": "shop"}
        if sell is not None:
            done = sell.strip().lower() == DONE
            action = {"type": "done_selling"}
            if not done:
                action = {
                    "type": "sell",
                    "card": upgrade_card(sell, my_cards(my_view(interaction, read))),
                }
        elif buy is not None and buy.strip().lower() == NOTHING:
            action = {"type": "buy_nothing"}
        elif buy is not None:
            typed, _for, for_car = buy.partition(FOR_CAR)
            card = upgrade_card(typed, my_view(interaction, read)["shop"])
            target = car or for_car
            action = {"type": "buy", "card": card, "car": car_id(target) if target else None}
        await act(interaction, action, read)

    @kings.command(name="dealer")
    @app_commands.describe(
        sell="At the dealership: a car to sell with its upgrades, or “done”",
        buy="At the dealership: a car to buy, or “nothing”",
    )
    @app_commands.autocomplete(
        sell=autocomplete("sell_car", "done_selling"),
        buy=autocomplete("buy_car", "buy_nothing"),
    )
    async def dealer(
        self, interaction: discord.Interaction, sell: Text | None = None, buy: Text | None = None
    ) -> None:
        """Go to the dealership; then sell a car and buy one (or use the panel it shows)."""

        action: dict[str, Any] = {"type": "dealer"}
        if sell is not None:
            done = sell.strip().lower() == DONE
            action = {"type": "done_selling"} if done else {"type": "sell_car", "car": car_id(sell)}
        elif buy is not None:
            nothing = buy.strip().lower() == NOTHING
            action = {"type": "buy_nothing"} if nothing else {"type": "buy_car", "car": car_id(buy)}
        await act(interaction, action)

    @kings.command(name="show")
    @app_commands.describe(car="The car to park at the car show for its beauty in credits")
    @app_commands.autocomplete(car=autocomplete("show"))
    async def show(self, interaction: discord.Interaction, car: Text) -> None:
        """Send a car to the car show: earn its beauty; it sits out this round."""
        await act(interaction, {"type": "show", "car": car_id(car)})

    @kings.command(name="location")
    @app_commands.describe(
        card="After drawing: the location card to place face down", spot="Location spot 1 or 2"
    )
    @app_commands.autocomplete(card=autocomplete("place"))
    async def location(
        self,
        interaction: discord.Interaction,
        card: Text | None = None,
        spot: app_commands.Range[int, 1, 2] | None = None,
    ) -> None:
        """Draw a location card, then place one of yours face down on an empty spot."""

        def action() -> dict[str, Any]:
            if card is None:
                return {"type": "location"}
            if spot is None:
                raise ServiceError(_("Say where to place it too: `spot:1` or `spot:2`."))
            return {"type": "place", "card": location_id(card), "spot": spot}

        await act(interaction, action())

    @kings.command(name="qualify")
    @app_commands.describe(lane="A free lane on the starting grid (1 moves first)")
    @app_commands.autocomplete(lane=autocomplete("qualify"))
    async def qualify(self, interaction: discord.Interaction, lane: Text) -> None:
        """Qualify for the race in a free lane; you keep taking actions."""

        def action() -> dict[str, Any]:
            return {
                "type": "qualify",
                "lane": parse_int(
                    lane,
                    LANES[0],
                    LANES[-1],
                    _("A lane"),
                    _(LANE_REFUSAL).format(low=LANES[0], high=LANES[-1]),
                ),
            }

        await act(interaction, action())

    @kings.command(name="pass")
    async def pass_turn(self, interaction: discord.Interaction) -> None:
        """Pass: you take no more actions this round (you race if you qualified)."""
        await act(interaction, {"type": "pass"})

    @kings.command(name="race")
    @app_commands.describe(car="The car you race this round (the race class or one below)")
    @app_commands.autocomplete(car=autocomplete("race"))
    async def race(self, interaction: discord.Interaction, car: Text) -> None:
        """Choose the car you race; your crew join it."""
        await act(interaction, {"type": "race", "car": car_id(car)})

    @kings.command(name="noz")
    @app_commands.describe(policy="ask, first chance or never; when asked in a race: fire or keep")
    @app_commands.autocomplete(policy=noz_choices)
    async def noz(self, interaction: discord.Interaction, policy: Text) -> None:
        """Set your NOZ policy, or answer the NOZ question of a race."""

        def action() -> dict[str, Any]:
            typed = policy.strip().lower()
            if typed in NOZ_ANSWERS:
                return {"type": "noz", "use": NOZ_ANSWERS[typed]}
            return {"type": "noz_policy", "policy": typed}

        await act(interaction, action())


async def setup(bot: commands.Bot) -> None:
    await bot.add_cog(StreetKings(bot))
