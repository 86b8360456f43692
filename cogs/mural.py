"""`/mural ...`: Street Art: Mural's own commands; the rest of a turn runs on shared components.

A command may name several small decisions at once (``/mural paint card:G05 cell:B2``): they
are checked together on a copy of the game, so a bad one changes nothing, then applied in
order; whatever the command leaves open continues on the ephemeral panel. Every autocomplete
lists the legal moves after the decisions named before it.
"""

from __future__ import annotations

from typing import Any

import discord
from discord import app_commands
from discord.ext import commands

from bot.errors import ServiceError
from bot.i18n import _, say
from bot.options import echo, parse_int
from bot.read_model import ReadModel
from bot.words import WORDS
from cogs import flows
from cogs.typed import Text
from rules import IllegalAction
from rules.mural.data import CARDS, DISCS, MURALS, PAINTS, SLOTS, TECHNIQUES

GAME_ID = "street-art-mural"
COLUMNS = "ABCDE"

Action = dict[str, Any]


def after(read: ReadModel, user: str, steps: list[Action]) -> list[Action]:
    """The caller's legal moves once ``steps`` are played (raises IllegalAction if one is not
    legal), computed on a copy: nothing is stored."""
    game, state = read.engine, read.load()
    for step in steps:
        state = game.play(state, user, step)[0]
    return game.legal(state, user)


# -- what a player types, as actions -------------------------------------------------------------


def parse_discs(text: str) -> list[int]:
    """ "2" or "2+3" (discs numbered 1-4 from the left)."""
    refusal = _("Name a disc 1-{n}, or two adjacent ones like 2+3 — pick from the list.").format(
        n=DISCS
    )
    return [parse_int(part, 1, DISCS, _("A disc"), refusal) - 1 for part in text.split("+")]


def parse_steps(text: str) -> list[int]:
    """ "+1", "-3" or "+1,-2": steps per disc, + clockwise."""
    refusal = _("Say how far to turn, like +1 (clockwise) or -2 — pick from the list.")
    return [parse_int(part, -SLOTS, SLOTS, _("A turn"), refusal) for part in text.split(",")]


def parse_card(text: str) -> str:
    card = text.strip().upper().split(" ")[0]
    if card not in CARDS:
        raise ServiceError(
            _("There is no Graffiti card “{card}” — pick one from the list.").format(card=text[:40])
        )
    return card


def parse_cell(text: str) -> tuple[int, int]:
    """ "B2": column letter, row number (as the board labels them)."""
    cell = text.strip().upper()
    rows = max(layout.rows for layout in MURALS.values())
    refusal = _("“{text}” is not a mural cell; cells look like B2.").format(text=echo(text))
    if len(cell) < 2 or cell[0] not in COLUMNS:
        raise ServiceError(refusal)
    return parse_int(cell[1:], 1, rows, _("A mural row"), refusal) - 1, COLUMNS.index(cell[0])


def parse_paints(text: str) -> list[str]:
    paints = [p for p in text.upper().replace(" ", "").split("+") if p]
    if len(paints) != 2 or any(p not in PAINTS for p in paints):
        raise ServiceError(_("Mix two basic paints, like R+Y — pick from the list."))
    return paints


def parse_technique(text: str) -> str:
    wanted = text.strip().lower()
    for tile in TECHNIQUES.values():
        if wanted in (tile.id.lower(), tile.name.lower(), tile.portuguese.lower()):
            return tile.id
    raise ServiceError(
        _("There is no technique “{text}” — pick one from the list.").format(text=text[:40])
    )


def encode(action: Action) -> str:
    """The slash-option value of a legal action (the inverse of the parsers above)."""
    kind = action["type"]
    if kind == "rotate":
        return action["kind"]
    if kind == "disc":
        return "+".join(str(d + 1) for d in action["discs"])
    if kind == "turn":
        return ",".join(f"{s:+d}" for s in action["steps"])
    if kind == "paint":
        return action["card"]
    if kind == "cell":
        return f"{COLUMNS[action['col']]}{action['row'] + 1}"
    if kind == "mix":
        return "+".join(action["paints"])
    return action["tile"]


def rotation_steps(kind: str, disc: str | None, turn: str | None) -> list[Action]:
    steps: list[Action] = [{"type": "rotate", "kind": kind.strip().lower()}]
    if disc:
        discs = parse_discs(disc)
        steps.append({"type": "disc", "discs": discs})
        if turn:
            steps.append({"type": "turn", "discs": discs, "steps": parse_steps(turn)})
    return steps


def painting_steps(card: str, cell: str | None) -> list[Action]:
    steps: list[Action] = [{"type": "paint", "card": parse_card(card)}]
    if cell:
        row, col = parse_cell(cell)
        steps.append({"type": "cell", "row": row, "col": col})
    return steps


# -- autocomplete ---------------------------------------------------------------------------------


async def choices_after(
    interaction: discord.Interaction, current: str, kind: str, steps: list[Action]
) -> list[app_commands.Choice[str]]:
    """The legal ``kind`` moves after ``steps``, labelled as on the panel."""
    try:
        read = await flows.my_game(interaction, GAME_ID)
        user = flows.where(interaction)[2]
        legal = after(read, user, steps)
    except (ServiceError, IllegalAction):
        return []
    names = read.names
    words = WORDS[GAME_ID]
    out = []
    for action in legal:
        if action["type"] != kind:
            continue
        label = words.action_label(action, names)
        if current.lower() in label.lower() or current.lower() in encode(action).lower():
            out.append(app_commands.Choice(name=label[:100], value=encode(action)))
    return out[:25]


async def kind_autocomplete(interaction: discord.Interaction, current: str):
    return await choices_after(interaction, current, "rotate", [])


async def disc_autocomplete(interaction: discord.Interaction, current: str):
    kind = interaction.namespace.kind or ""
    return await choices_after(interaction, current, "disc", [{"type": "rotate", "kind": kind}])


async def turn_autocomplete(interaction: discord.Interaction, current: str):
    namespace = interaction.namespace
    try:
        steps = rotation_steps(namespace.kind or "", namespace.disc or "", None)
    except ServiceError:
        return []
    return await choices_after(interaction, current, "turn", steps)


async def card_autocomplete(interaction: discord.Interaction, current: str):
    return await choices_after(interaction, current, "paint", [])


async def cell_autocomplete(interaction: discord.Interaction, current: str):
    try:
        steps = painting_steps(interaction.namespace.card or "", None)
    except ServiceError:
        return []
    return await choices_after(interaction, current, "cell", steps)


async def mix_autocomplete(interaction: discord.Interaction, current: str):
    return await choices_after(interaction, current, "mix", [])


async def technique_autocomplete(interaction: discord.Interaction, current: str):
    return await choices_after(interaction, current, "technique", [])


# -- applying -------------------------------------------------------------------------------------


async def play_steps(interaction: discord.Interaction, steps: list[Action]) -> None:
    """Check every step on a copy (a refusal changes nothing), then apply them in order; the
    last goes through the shared flow, which posts the board or shows the next choice."""
    service = flows.service_of(interaction)
    guild, channel, user = flows.where(interaction)
    read = await flows.my_game(interaction, GAME_ID)
    if user in read.to_move:
        try:
            after(read, user, steps)
        except IllegalAction as error:
            raise ServiceError(say(error.reason)) from error
    await flows.acknowledge(interaction)
    for step in steps[:-1]:
        read = (await service.move(guild, channel, user, step, ref=read.record.id)).read
    await flows.play(interaction, read, steps[-1])


class Mural(commands.Cog):
    """Street Art: Mural: rotate, paint, mix, use techniques, pass, end your turn."""

    mural = app_commands.Group(name="mural", description="Street Art: Mural moves", guild_only=True)

    def __init__(self, bot: commands.Bot) -> None:
        self.bot = bot

    @mural.command(name="rotate")
    @app_commands.describe(
        kind="simple, big or double",
        disc="Which disc (1-4 from the left), or two adjacent ones",
        turn="How far: + clockwise, - counter-clockwise",
    )
    @app_commands.autocomplete(
        kind=kind_autocomplete, disc=disc_autocomplete, turn=turn_autocomplete
    )
    async def rotate(
        self,
        interaction: discord.Interaction,
        kind: Text,
        disc: Text | None = None,
        turn: Text | None = None,
    ) -> None:
        """Turn a paint disc to align two segments of one colour, then collect a paint."""

        await play_steps(interaction, rotation_steps(kind, disc, turn))

    @mural.command(name="paint")
    @app_commands.describe(card="A card of the display", cell="A free mural cell, like B2")
    @app_commands.autocomplete(card=card_autocomplete, cell=cell_autocomplete)
    async def paint(
        self, interaction: discord.Interaction, card: Text, cell: Text | None = None
    ) -> None:
        """Paint a Graffiti card of the display onto the mural."""

        await play_steps(interaction, painting_steps(card, cell))

    @mural.command(name="mix")
    @app_commands.describe(paints="Two basic paints, like R+Y")
    @app_commands.autocomplete(paints=mix_autocomplete)
    async def mix(self, interaction: discord.Interaction, paints: Text) -> None:
        """Mix two basic paints into one advanced paint (a free action)."""

        await play_steps(interaction, [{"type": "mix", "paints": parse_paints(paints)}])

    @mural.command(name="technique")
    @app_commands.describe(tile="A revealed Basquiat technique")
    @app_commands.autocomplete(tile=technique_autocomplete)
    async def technique(self, interaction: discord.Interaction, tile: Text) -> None:
        """Use a Basquiat technique (1 grafiteiro, once per round)."""

        await play_steps(interaction, [{"type": "technique", "tile": parse_technique(tile)}])

    @mural.command(name="pass")
    async def pass_(self, interaction: discord.Interaction) -> None:
        """Pass: leave this round (not after a free action)."""
        await play_steps(interaction, [{"type": "pass"}])

    @mural.command(name="end-turn")
    async def end_turn(self, interaction: discord.Interaction) -> None:
        """End your turn after your main action."""
        await play_steps(interaction, [{"type": "end_turn"}])


async def setup(bot: commands.Bot) -> None:
    await bot.add_cog(Mural(bot))
