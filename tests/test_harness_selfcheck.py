"""Proves the offline Discord harness on a throwaway bot: every verb, the validator, a restart."""

from __future__ import annotations

import asyncio
import io
import re
import struct
import zlib

import discord
import pytest
from discord import app_commands
from discord.ext import commands

from tests.harness import (
    BotError,
    Channel,
    FakeDiscord,
    HarnessFactory,
    PayloadError,
    RecordedRequest,
    User,
    find_button,
    make_harness,
    validate,
)

pytest_plugins = ["tests.harness.fixtures"]  # the harness_factory fixture

CARDS = ["juggler", "jester", "mime", "magician", "fire-eater"]
ALICE = User(id=4001, name="alice", global_name="Alice")
BOB = User(id=4002, name="bob", global_name="Bob")
MOD = User(id=4003, name="mod", permissions=discord.Permissions(manage_guild=True))
GAMES = Channel(id=5001, name="games")
GUILD_ID = 6001


def tiny_png(shade: int = 0) -> bytes:
    """A valid 2x2 grey PNG, built by hand so the test needs no imaging library."""

    def chunk(kind: bytes, data: bytes) -> bytes:
        body = kind + data
        return struct.pack(">I", len(data)) + body + struct.pack(">I", zlib.crc32(body))

    rows = b"".join(b"\x00" + bytes([shade, shade]) for _ in range(2))
    header = struct.pack(">IIBBBBB", 2, 2, 8, 0, 0, 0, 0)
    return (
        b"\x89PNG\r\n\x1a\n"
        + chunk(b"IHDR", header)
        + chunk(b"IDAT", zlib.compress(rows))
        + chunk(b"IEND", b"")
    )


class Counter(discord.ui.DynamicItem[discord.ui.Button], template=r"toy:(?P<n>[0-9]+)"):
    """A persistent button whose state (the count) lives in its custom id."""

    def __init__(self, n: int) -> None:
        super().__init__(
            discord.ui.Button(
                label=f"Count {n}", custom_id=f"toy:{n}", style=discord.ButtonStyle.primary
            )
        )
        self.n = n

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction, item: discord.ui.Button, match: re.Match[str]
    ) -> Counter:
        return cls(int(match["n"]))

    async def callback(self, interaction: discord.Interaction) -> None:
        await interaction.response.send_message(f"You clicked {self.n}", ephemeral=True)
        assert interaction.message is not None
        await interaction.message.edit(content=f"count {self.n + 1}", view=counter_view(self.n + 1))


def counter_view(n: int) -> discord.ui.View:
    view = discord.ui.View(timeout=None)
    view.add_item(Counter(n))
    return view


class Pick(discord.ui.View):
    """A string select that rewrites its own message (callback type 7)."""

    @discord.ui.select(custom_id="toy:pick", options=[discord.SelectOption(label=c) for c in CARDS])
    async def pick(self, interaction: discord.Interaction, select: discord.ui.Select) -> None:
        await interaction.response.edit_message(content=f"picked {select.values[0]}", view=None)


class Rename(discord.ui.Modal, title="Rename the toy"):
    name = discord.ui.TextInput(label="New name", custom_id="toy:name", max_length=30)

    async def on_submit(self, interaction: discord.Interaction) -> None:
        await interaction.response.send_message(f"renamed to {self.name.value}", ephemeral=True)


class Toy(commands.GroupCog, group_name="toy"):
    """Toy commands."""

    deck = app_commands.Group(name="deck", description="Deck commands")

    def __init__(self, bot: commands.Bot) -> None:
        self.bot = bot

    @app_commands.command()
    async def ping(self, interaction: discord.Interaction) -> None:
        """Answer only the caller."""
        await interaction.response.send_message("pong", ephemeral=True)

    @app_commands.command()
    @app_commands.describe(card="The card to show")
    async def post(self, interaction: discord.Interaction, card: str) -> None:
        """Post a card publicly with its picture and a counter."""
        embed = discord.Embed(title=f"Card: {card}", description="A public post")
        embed.set_image(url="attachment://board.png")
        file = discord.File(io.BytesIO(tiny_png(200)), filename="board.png")
        await interaction.response.send_message(
            content=f"{interaction.user.mention} posted",
            embed=embed,
            file=file,
            view=counter_view(0),
        )

    @post.autocomplete("card")
    async def card_names(
        self, interaction: discord.Interaction, current: str
    ) -> list[app_commands.Choice[str]]:
        return [app_commands.Choice(name=c, value=c) for c in CARDS if current in c][:25]

    @app_commands.command()
    async def slow(self, interaction: discord.Interaction) -> None:
        """Think first, render in a thread, then follow up."""
        await interaction.response.defer(ephemeral=True, thinking=True)
        png = await asyncio.to_thread(tiny_png, 90)
        await interaction.followup.send(
            "rendered", file=discord.File(io.BytesIO(png), filename="hand.png"), ephemeral=True
        )

    @app_commands.command()
    async def shout(self, interaction: discord.Interaction, length: int) -> None:
        """Say a lot of x."""
        await interaction.response.send_message("x" * length)

    @app_commands.command()
    async def mute(self, interaction: discord.Interaction) -> None:
        """Never answer (a bug the harness must catch)."""

    @app_commands.command()
    async def menu(self, interaction: discord.Interaction) -> None:
        """Offer a select menu."""
        await interaction.response.send_message("pick one", view=Pick(timeout=None))

    @app_commands.command()
    async def rename(self, interaction: discord.Interaction) -> None:
        """Open a modal."""
        await interaction.response.send_modal(Rename())

    @deck.command()
    @app_commands.describe(count="How many cards")
    async def draw(self, interaction: discord.Interaction, count: app_commands.Range[int, 1, 5]):
        """Draw cards."""
        await interaction.response.send_message(f"drew {count}", ephemeral=True)


class Admin(commands.Cog):
    @app_commands.command()
    @app_commands.default_permissions(manage_guild=True)
    async def reset(self, interaction: discord.Interaction) -> None:
        """Moderators only."""
        await interaction.response.send_message("reset done", ephemeral=True)


class ToyBot(commands.Bot):
    def __init__(self) -> None:
        super().__init__(
            command_prefix=commands.when_mentioned,
            intents=discord.Intents.default(),
            allowed_mentions=discord.AllowedMentions(everyone=False, roles=False, users=True),
        )

    async def setup_hook(self) -> None:
        self.add_dynamic_items(Counter)
        await self.add_cog(Toy(self))
        await self.add_cog(Admin())


class ShardedToyBot(commands.AutoShardedBot):
    def __init__(self) -> None:
        super().__init__(
            command_prefix=commands.when_mentioned,
            intents=discord.Intents.default(),
            allowed_mentions=discord.AllowedMentions(everyone=False, roles=False, users=True),
        )

    setup_hook = ToyBot.setup_hook


def start_options() -> dict[str, object]:
    return {"guild_id": GUILD_ID, "channels": [GAMES], "members": [ALICE, BOB, MOD]}


async def test_slash_reply_is_ephemeral_to_the_caller() -> None:
    async with make_harness(ToyBot(), FakeDiscord(), **start_options()) as harness:
        resp = await harness.slash(ALICE, "toy ping", channel=GAMES)
        assert resp.callback_type == 4
        assert resp.ephemeral_text() == "pong"
        assert resp.public_messages == []
        assert harness.channel_messages(GAMES) == []
        assert harness.identify["intents"] == discord.Intents.default().value


async def test_public_post_carries_embed_file_and_button() -> None:
    async with make_harness(ToyBot(), FakeDiscord(), **start_options()) as harness:
        resp = await harness.slash(ALICE, "toy post", card="juggler")
        post = resp.message
        assert not post.ephemeral
        assert post.embeds[0]["title"] == "Card: juggler"
        assert post.files == {"board.png": tiny_png(200)}
        assert post.embed_image() == tiny_png(200)
        assert find_button(post, label="Count 0").custom_id == "toy:0"
        assert post.mentions == [ALICE.id]
        assert harness.channel_messages(GAMES) == [post]
        upload = next(r for r in resp.requests if r.files)
        assert upload.multipart and upload.json["type"] == 4
        assert upload.files[0].filename == "board.png"


async def test_autocomplete_offers_matching_choices() -> None:
    async with make_harness(ToyBot(), FakeDiscord(), **start_options()) as harness:
        choices = await harness.autocomplete(BOB, "toy post", focused="card", value="j")
        assert [c["name"] for c in choices] == ["juggler", "jester"]
        assert harness.last_response is not None and harness.last_response.callback_type == 8


async def test_button_click_answers_privately_and_edits_the_post() -> None:
    async with make_harness(ToyBot(), FakeDiscord(), **start_options()) as harness:
        post = (await harness.slash(ALICE, "toy post", card="mime")).message
        resp = await harness.click(BOB, post, "toy:0")
        assert resp.ephemeral_text() == "You clicked 0"
        edited = resp.public_messages[0]
        assert edited.id == post.id and edited.content == "count 1"
        assert edited.files == post.files  # an edit without attachments keeps them
        assert [b.custom_id for b in edited.buttons] == ["toy:1"]
        assert post.content.endswith("posted")  # snapshots do not change
        with pytest.raises(PayloadError):
            await harness.click(BOB, post, "toy:0")  # that button is gone now


async def test_deferred_response_then_followup() -> None:
    async with make_harness(ToyBot(), FakeDiscord(), **start_options()) as harness:
        resp = await harness.slash(ALICE, "toy slow")
        assert resp.callback_type == 5 and resp.deferred
        reply = resp.message
        assert reply.ephemeral and not reply.loading
        assert reply.id == resp.interaction.original_id  # the first followup fills the defer
        assert reply.content == "rendered" and reply.files == {"hand.png": tiny_png(90)}


async def test_select_updates_its_message_and_modal_round_trip() -> None:
    async with make_harness(ToyBot(), FakeDiscord(), **start_options()) as harness:
        menu = (await harness.slash(ALICE, "toy menu")).message
        resp = await harness.select(BOB, menu, "toy:pick", ["magician"])
        assert resp.callback_type == 7
        assert harness.message(menu).content == "picked magician"
        assert harness.message(menu).components == ()
        opened = await harness.slash(BOB, "toy rename")
        assert opened.callback_type == 9 and opened.modal is not None
        done = await harness.submit_modal(BOB, opened, {"toy:name": "Clown"})
        assert done.ephemeral_text() == "renamed to Clown"


async def test_options_come_from_the_synced_commands() -> None:
    async with make_harness(ToyBot(), FakeDiscord(), **start_options()) as harness:
        resp = await harness.slash(ALICE, "toy deck draw", count=3)
        assert resp.ephemeral_text() == "drew 3"
        with pytest.raises(PayloadError, match="no option"):
            await harness.slash(ALICE, "toy deck draw", cards=3)
        with pytest.raises(PayloadError, match="max_value"):
            await harness.slash(ALICE, "toy deck draw", count=9)
        with pytest.raises(PayloadError, match="no subcommand"):
            await harness.slash(ALICE, "toy shuffle")


async def test_default_member_permissions_hide_commands(harness_factory: HarnessFactory) -> None:
    harness = await harness_factory(ToyBot(), **start_options())
    with pytest.raises(PayloadError, match="lacks the permissions"):
        await harness.slash(ALICE, "reset")
    assert (await harness.slash(MOD, "reset")).ephemeral_text() == "reset done"


async def test_auto_sharded_bot(harness_factory: HarnessFactory) -> None:
    harness = await harness_factory(ShardedToyBot(), **start_options())
    assert harness.identify["shard"] == [0, 1]
    post = (await harness.slash(ALICE, "toy post", card="mime")).message
    assert (await harness.click(BOB, post, "toy:0")).ephemeral_text() == "You clicked 0"


async def test_validator_catches_bad_payloads_and_passes_good_ones() -> None:
    async with make_harness(ToyBot(), FakeDiscord(), **start_options()) as harness:
        await harness.slash(ALICE, "toy shout", length=2000)
        harness.assert_all_valid()
        with pytest.raises(BotError, match="2001 chars"):
            await harness.slash(ALICE, "toy shout", length=2001)
        with pytest.raises(AssertionError, match=r"content is 2001 chars \(max 2000\)"):
            harness.assert_all_valid()
        assert any("2001" in p for p in harness.take_problems())
        harness.assert_all_valid()


async def test_unanswered_and_expired_interactions_are_reported() -> None:
    async with make_harness(ToyBot(), FakeDiscord(), **start_options()) as harness:
        with pytest.raises(BotError, match="never acknowledged"):
            await harness.slash(ALICE, "toy mute")
        route = "/interactions/{interaction_id}/{interaction_token}/callback"
        harness.fake.fail_next("POST", route, status=404, code=10062)
        resp = await harness.slash(ALICE, "toy ping", allow_errors=True)
        assert not resp.acknowledged
        assert "10062" in resp.errors[0]
        assert len(harness.take_problems()) == 2


def _request(method: str, path: str, body: object) -> RecordedRequest:
    return RecordedRequest(0, method, path, {}, body, [], False)


def test_validator_rules_without_a_bot() -> None:
    good = {
        "content": "hi <@1>",
        "allowed_mentions": {"parse": ["users"]},
        "components": [
            {"type": 1, "components": [{"type": 2, "style": 1, "label": "Go", "custom_id": "g:1"}]}
        ],
    }
    assert validate.hard_issues(_request("POST", "/channels/1/messages", good)) == []
    assert validate.policy_issues(_request("POST", "/channels/1/messages", good)) == []
    crowded = dict(good)
    select = {"type": 3, "custom_id": "s", "options": [{"label": "a", "value": "a"}]}
    crowded["components"] = [
        {"type": 1, "components": [select, *good["components"][0]["components"]]}
    ]
    issues = validate.hard_issues(_request("POST", "/channels/1/messages", crowded))
    assert any("alone in its action row" in i for i in issues)
    pinging = dict(good, allowed_mentions={"parse": ["everyone", "users"]})
    assert validate.policy_issues(_request("POST", "/channels/1/messages", pinging))
    callback = {"type": 8, "data": {"choices": [{"name": "n" * 101, "value": "v"}]}}
    issues = validate.hard_issues(_request("POST", "/interactions/1/tok/callback", callback))
    assert any("choices[0].name" in i for i in issues)  # our limit check
    assert any("maxLength" in i or "too long" in i for i in issues)  # and the OpenAPI schema


def test_a_body_found_valid_once_does_not_vouch_for_a_changed_one() -> None:
    """The schema check remembers what it found valid (a run sends the same parts again and
    again): a part changed anywhere inside is still checked, and its error still named, as
    often as it is sent."""
    row = {"type": 1, "components": [{"type": 2, "style": 1, "label": "Go", "custom_id": "g"}]}
    good = {"content": "hi", "components": [row]}
    assert validate.spec_issues("POST", "/channels/1/messages", good) == []
    bad_row = {"type": 1, "components": [{"type": 2, "style": 1, "label": 7, "custom_id": "g"}]}
    bad = {"content": "hi", "components": [bad_row]}
    issues = validate.spec_issues("POST", "/channels/1/messages", bad)
    assert issues and issues == validate.spec_issues("POST", "/channels/1/messages", bad)
    assert validate.spec_issues("POST", "/channels/1/messages", good) == []


async def test_fake_answers_match_discords_response_schemas() -> None:
    async with make_harness(ToyBot(), FakeDiscord(), **start_options()) as harness:
        resp = await harness.slash(ALICE, "toy post", card="jester")
        callback = next(r for r in resp.requests if r.path.endswith("/callback"))
        checker = validate.response_validator("InteractionCallbackResponse")
        assert [e.message for e in checker.iter_errors(callback.response)] == []
        checker = validate.response_validator("MessageResponse")
        assert [e.message for e in checker.iter_errors(resp.message.raw)] == []


async def test_restarted_bot_answers_a_button_the_first_one_posted() -> None:
    fake = FakeDiscord()
    async with make_harness(ToyBot(), fake, **start_options()) as first:
        post = (await first.slash(ALICE, "toy post", card="magician")).message
    async with make_harness(ToyBot(), fake) as second:
        resp = await second.click(BOB, post, label="Count 0")
        assert resp.ephemeral_text() == "You clicked 0"
        assert second.message(post).content == "count 1"
