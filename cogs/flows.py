"""Interaction flows shared by slash commands and components.

Acknowledge first: an interaction that changes a game or draws a picture gets its first response
(a defer, a deferred update of the clicked message, or the answer itself) before any store write
or render, so no wait for the store or the renderer is one the player sees as "This interaction
failed". Every failure reaches the user as an ephemeral sentence; nothing here knows a rule.
"""

from __future__ import annotations

import contextlib
import datetime
import logging
import time
from collections.abc import AsyncIterator, Awaitable, Callable
from typing import Any

import discord

from bot.errors import ServiceError, StaleRequest
from bot.i18n import N_, _, set_language, use
from bot.options import parse_options
from bot.presentation.turn import forced
from bot.read_model import ReadModel, turn_version
from bot.service import GameService, MoveResult
from bot.store.base import ACTIVE, GameRecord, StoreUnavailable
from bot.visibility import unknown_game
from bot.words import WORDS
from cogs import cooldowns, delivery, latest, memory, messages, threads, visibility
from cogs.items import PICK, Click, GameButton, PickSelect, parse
from cogs.language import in_public, player_language
from cogs.messages import Post
from cogs.retry import fresh_kwargs, retrying, transient
from cogs.threads import LOBBY_MESSAGE

log = logging.getLogger(__name__)

UNKNOWN_INTERACTION = 10062
#: "Invalid Webhook Token": an interaction's token that died (with a 401).
INVALID_WEBHOOK_TOKEN = 50027
OOPS = N_(
    "Something went wrong on our side. `/game board` shows where the game stands; please try again."
)
#: The most characters of a message's content (Discord refuses more with a 400).
MESSAGE_LIMIT = 2000
#: The answer when the store cannot be reached or written: not a bug, and no command to try
#: meanwhile (each would fail the same way).
OUTAGE = N_(
    "The game store is not reachable right now, so your move was not saved. Try again in a minute."
)
#: The answer when a change is saved but Discord failed past our retries: its posts are owed.
LATER = N_(
    "Done and saved. Discord is having a bad moment, so the table's post follows in a minute."
)


def service_of(interaction: discord.Interaction) -> GameService:
    return interaction.client.service  # type: ignore[attr-defined]


def where(interaction: discord.Interaction) -> tuple[str, str, str]:
    """(guild id, channel id, user id) as the strings the service speaks."""
    guild = str(interaction.guild_id or "dm")
    return guild, str(interaction.channel_id), str(interaction.user.id)


def display_name(interaction: discord.Interaction) -> str:
    return interaction.user.display_name[:64]


async def my_game(interaction: discord.Interaction, game_id: str) -> ReadModel:
    """The caller's game in this channel, which must be ``game_id``: a game's own slash group
    acts only on that game (another game here has its own commands)."""
    service = service_of(interaction)
    guild, channel, user = where(interaction)
    read = service.read(await service.resolve(guild, channel, user))
    if read.record.game != game_id:
        wanted = service.games[game_id].title
        raise ServiceError(
            _("Your game here is {title}, not {wanted} — use its own commands.").format(
                title=read.title, wanted=wanted
            )
        )
    return read


async def watched(interaction: discord.Interaction, ref: str | None) -> GameRecord:
    """The game a look-only command is about, for players and spectators alike
    (``GameService.watch``): the one of this thread, the caller's, or this channel's one."""
    guild, channel, user = where(interaction)
    in_thread = isinstance(interaction.channel, discord.Thread)
    record = await service_of(interaction).watch(guild, channel, user, ref, in_thread=in_thread)
    if not await visibility.may_see(interaction, record):
        raise unknown_game(record.id)
    return record


#: ``interaction.extras`` keys: whether a "thinking…" message waits for its first follow-up
#: (and if so, whether it is private), and whether the interaction expired before our answer.
THINKING = "tabletop.thinking"
EXPIRED = "tabletop.expired"


def expired(error: discord.HTTPException) -> bool:
    """Whether Discord says the interaction's token is dead (10062, 50027, or a 401 on its
    webhook): the work goes on, and the public part goes out with the bot's token."""
    return error.code in (UNKNOWN_INTERACTION, INVALID_WEBHOOK_TOKEN) or error.status == 401


async def acknowledge(interaction: discord.Interaction, *, private: bool = False) -> None:
    """The first response, before any store write or render: a deferred update of the clicked
    message for a component, else a "thinking…" message (``private``: only the user sees it).

    If Discord says the interaction expired, the work goes on (a move must still be posted):
    ``send`` then posts public messages to the channel and drops private ones.
    """
    if interaction.response.is_done() or interaction.extras.get(EXPIRED):
        return
    try:
        if interaction.type == discord.InteractionType.component and not private:
            await interaction.response.defer()
        else:
            await interaction.response.defer(thinking=True, ephemeral=private)
            interaction.extras[THINKING] = private
    except discord.HTTPException as error:
        if not expired(error):
            raise
        log.warning("interaction %s expired before we could acknowledge it", interaction.id)
        interaction.extras[EXPIRED] = True


async def send(
    interaction: discord.Interaction, post: Post, *, ephemeral: bool = False
) -> discord.Message | None:
    """Answer the interaction, or follow up if it was acknowledged; returns the message sent.

    The first follow-up after a "thinking…" defer replaces that message and keeps its
    visibility, so an answer of the other kind (a refusal after a public defer) deletes it
    first and follows up on its own.
    """
    kwargs = post.kwargs()
    unheld(kwargs.get("view"))
    if not interaction.extras.get(EXPIRED) and not interaction.response.is_done():
        await interaction.response.send_message(**kwargs, ephemeral=ephemeral)
        return None
    again = fresh_kwargs(post)
    if not interaction.extras.get(EXPIRED):
        try:
            thinking = interaction.extras.pop(THINKING, None)
            if thinking is not None and thinking != ephemeral:
                await interaction.delete_original_response()
            return await retrying(
                lambda: interaction.followup.send(**again(), ephemeral=ephemeral, wait=True)
            )
        except discord.HTTPException as error:
            if not expired(error):
                raise
            interaction.extras[EXPIRED] = True  # the token died since: nothing was sent
    if ephemeral or interaction.channel is None:
        log.warning("interaction %s expired; a private answer is dropped", interaction.id)
        return None
    log.warning("interaction %s expired; posting in its channel instead", interaction.id)
    channel = interaction.channel
    return await retrying(lambda: channel.send(**again()))  # type: ignore[union-attr]


def unheld(view: discord.ui.View | discord.ui.LayoutView | None) -> None:
    """Let a view of persistent items only go out without a listener: its clicks reach the
    dynamic items registered at start-up by their custom ids anyway, so discord.py need keep
    no copy of it, nor (for an ephemeral panel) a 15-minute timeout task each. A stopped view
    is still sent whole; it is only not listened to."""
    if view is None:
        return
    items = list(view.walk_children())
    if all(isinstance(i, discord.ui.DynamicItem) or not i.is_dispatchable() for i in items):
        view.stop()


async def update(interaction: discord.Interaction, **fields: Any) -> bool:
    """Edit the clicked message (a lobby, a hand panel), after a deferred update or as the
    answer itself; whether it was edited. A token that died (even after the change was
    saved) is no error: the caller's public part goes on with the bot's token (``publish``
    posts the board, ``lobby_change`` edits the lobby by its channel), so a dead token never
    leaves the table waiting for the outbox's lease."""
    fields.setdefault("allowed_mentions", messages.NO_PINGS)
    unheld(fields.get("view"))
    if not interaction.extras.get(EXPIRED):
        try:
            if interaction.response.is_done():
                await interaction.edit_original_response(**fields)
            else:
                await interaction.response.edit_message(**fields)
            return True
        except discord.HTTPException as error:
            if not expired(error):
                raise
            interaction.extras[EXPIRED] = True
    log.warning("interaction %s expired; its message stays as it was", interaction.id)
    return False


async def reply_error(interaction: discord.Interaction, message: str) -> None:
    await send(interaction, Post(content=message), ephemeral=True)


async def guard(interaction: discord.Interaction, flow: Awaitable[Any]) -> None:
    """Run a component's flow; turn every failure into an ephemeral sentence (never "This
    interaction failed"). Slash commands need no guard: their errors reach ``GameTree``.
    Its answers are in the player's language (its public posts switch to the server's), and
    it reads only the games its member may see (``cogs.visibility``)."""
    set_language(player_language(interaction))
    visibility.bind(interaction)
    try:
        await flow
    except Exception as error:
        await report(interaction, error)


async def report(interaction: discord.Interaction, error: BaseException) -> None:
    """Tell the user about a failed interaction in a sentence: the service's own words, the
    current board for an out-of-date click, the store's outage, an apology for a crash (which
    is logged). Nothing raised while telling them escapes: it is logged."""
    try:
        await explain(interaction, error)
    except Exception:
        log.exception("could not tell the user about the error in %s", interaction.id)


async def explain(interaction: discord.Interaction, error: BaseException) -> None:
    if isinstance(error, StaleRequest):
        await show_board(interaction, error.record, note=error.message)
    elif isinstance(error, ServiceError):
        await tell(interaction, messages.clip(error.message, MESSAGE_LIMIT))
    elif isinstance(error, discord.HTTPException) and expired(error):
        # The 15-minute token ran out; the game itself goes on.
        log.warning("interaction %s expired before we answered", interaction.id)
    elif isinstance(error, StoreUnavailable):
        log.warning("interaction %s: the store is unavailable: %s", interaction.id, error)
        await tell(interaction, _(OUTAGE))
    elif transient(error):
        # Discord's bad moment outlasted our tries: what the change owes the table is in the
        # outbox, and the delivery worker sends it (cogs.delivery).
        log.warning(
            "interaction %s: Discord failed (%s); its posts are owed", interaction.id, error
        )
        await tell(interaction, _(LATER))
    else:
        log.exception("unexpected error in interaction %s", interaction.id, exc_info=error)
        await tell(interaction, _(OOPS))


async def tell(interaction: discord.Interaction, message: str) -> None:
    """The last word on a failed interaction; a failure to say it is logged, never raised
    (nothing may escape the error handler). Autocomplete takes no message: it offers none."""
    if interaction.type == discord.InteractionType.autocomplete:
        return
    try:
        await reply_error(interaction, message)
    except discord.HTTPException:
        log.warning("could not tell the user about the error in %s", interaction.id)


# -- reading -----------------------------------------------------------------------------------


async def show_board(
    interaction: discord.Interaction, record: GameRecord, note: str | None = None
) -> None:
    """The current board, privately (Board button, `/game board`, out-of-date clicks)."""
    read = service_of(interaction).read(record)
    if record.state is None:
        await send(interaction, messages.lobby_post(read, note), ephemeral=True)
        return
    await acknowledge(interaction, private=True)
    post = await messages.board_post(read, [], headline=note, private=True)
    await send(interaction, post, ephemeral=True)


async def show_hand(interaction: discord.Interaction, record: GameRecord) -> None:
    service = service_of(interaction)
    user = where(interaction)[2]
    seat = record.seat_of(user)
    if seat is None or seat.ai:
        raise ServiceError(
            _("You are not playing in game `{id}` — `/game list` shows the games here.").format(
                id=record.id
            )
        )
    if record.state is None:
        raise ServiceError(
            _("Game `{id}` has not started yet — the host can `/game start`.").format(id=record.id)
        )
    await acknowledge(interaction, private=True)
    panel = await messages.hand_panel(service.read(record), user)
    await send(interaction, panel, ephemeral=True)


def rules_text(game_id: str) -> str:
    """A game's rules summary in the current language (its words' ``rules()`` where the
    summary has figures to fill in, else its ``RULES`` translated)."""
    words = WORDS[game_id]
    filled = getattr(words, "rules", None)
    return str(filled()) if filled else _(words.RULES)


async def show_rules(interaction: discord.Interaction, which: str | None, ref: str | None) -> None:
    """`/game rules`: how to play ``which`` game (by default the one played here), and the
    options of the table here (or named by ``ref``) when it is a game of that kind."""
    service = service_of(interaction)
    record: GameRecord | None = None
    try:
        record = await watched(interaction, ref)
    except ServiceError:
        if ref is not None:  # a table asked for by id and not found: say so
            raise
    game_id = which or (record.game if record is not None else next(iter(service.games)))
    embeds = [
        discord.Embed(
            title=_("{title}: how to play").format(title=service.games[game_id].title),
            description=rules_text(game_id)[:4096],
        )
    ]
    if record is not None and record.game == game_id:
        options = messages.options_post(service.read(record)).embed
        embeds += [options] if options is not None else []
    await send(interaction, Post(extra={"embeds": embeds}), ephemeral=True)


async def change_options(interaction: discord.Interaction, text: str, ref: str | None) -> None:
    """`/game rules options:`: the host changes the lobby's options, told on the lobby."""
    service = service_of(interaction)
    guild, channel, user = where(interaction)
    changes = parse_options(text)
    await acknowledge(interaction)
    record = await service.set_options(guild, channel, user, changes, ref)
    shown = ", ".join(f"{k}={record.options[k]}" for k in changes)  # as checked
    async with in_public(interaction):
        note = _("Options changed: {options}.").format(options=shown)
        await lobby_change(interaction, record, note)


# -- changing --------------------------------------------------------------------------------


@contextlib.asynccontextmanager
async def owing(interaction: discord.Interaction, result: MoveResult) -> AsyncIterator[None]:
    """Whatever fails inside, before the posts ``result`` owes went out, hands them to the
    delivery worker at once (``delivery.give_back``): it never waits out the front door's
    lease (``outbox.FRONT_LEASE``)."""
    try:
        yield
    except BaseException:
        await delivery.give_back(interaction.client, result.owed)
        raise


async def publish(
    interaction: discord.Interaction, result: MoveResult, headline: str | None = None
) -> None:
    """Post the public board for a finished turn (or the game's start or end) where the game
    is played, and at the end show the result in the channel. The move is stored already: if
    the interaction expired, the board goes to the channel directly, so the table still sees
    the turn."""
    await acknowledge(interaction)
    async with owing(interaction, result), in_public(interaction):
        ratings = memory.rating_line(result.results, result.read.names)
        post = await messages.board_post(result.read, result.told, headline, ratings=ratings)
        message = await post_to_game(interaction, result.record, post)
    await delivery.sent(interaction.client, result.owed, message)
    if result.record.status != ACTIVE:
        await delivery.finish(interaction.client, result)


async def post_to_game(
    interaction: discord.Interaction, record: GameRecord, post: Post
) -> discord.Message | None:
    """A public post of the game: the answer itself when the interaction came from where the
    game is played, else sent there (its thread) with a private line saying where it went.
    The latest is remembered, so a player can be sent to it, and the one it replaces loses its
    live buttons; returns it (None: it answered the interaction's first response)."""
    await latest.retire_latest(interaction.client, record)
    post = await threads.pinging_now(interaction.client, record.id, post)
    if record.thread is None or str(interaction.channel_id) == record.thread:
        message = await send(interaction, post)
    else:
        try:
            message = await threads.post(interaction.client, record, post)
            with use(player_language(interaction)):  # the public post's note, for its player
                note = _("Posted in {place}, where game `{id}` is played.").format(
                    place=threads.link(record), id=record.id
                )
        except discord.Forbidden:
            # The thread is closed to the bot (an overwrite, a locked thread): the table still
            # sees the turn, here, and the player learns what to ask an admin for.
            message = await send(interaction, post)
            with use(player_language(interaction)):
                note = _(
                    "I may not post in {place}, where game `{id}` is played, so the post is "
                    "here instead: an admin can give the bot Send Messages in Threads there."
                ).format(place=threads.link(record), id=record.id)
        await latest.remember_latest(interaction.client, record, message)
        try:
            await send(interaction, Post(content=note), ephemeral=True)
        except discord.HTTPException as error:
            # The table has its post: a private note Discord would not take must not make it
            # owed again (the worker would post the board twice).
            log.warning("interaction %s: its note was refused: %s", interaction.id, error)
        return message
    await latest.remember_latest(interaction.client, record, message)
    return message


async def play(
    interaction: discord.Interaction,
    read: ReadModel,
    action: dict[str, Any],
    *,
    expected_version: int | None = None,
    from_panel: bool = False,
) -> None:
    """Apply a move to the game ``read`` shows; publish the board when the turn is over, else
    show the next choice. At a teaching table a move that lost clearly more than the best one
    then gets its private note (``note_mistake``)."""
    service = service_of(interaction)
    guild, channel, user = where(interaction)
    if not from_panel and read.mid_turn and read.to_move == [user]:
        # Mid-turn (say, a Fireworks victim to choose): a command that continues the turn
        # is applied; any other brings back the pending choice, saying why, not an error.
        reason = read.refusal(user, action)
        if reason is not None:
            await acknowledge(interaction, private=True)
            note = f"{reason}\n" + _("**Finish your turn first.**")
            panel = await messages.hand_panel(read, user, note)
            await send(interaction, panel, ephemeral=True)
            return
    await acknowledge(interaction)
    ref = read.record.id
    result = await service.move(
        guild, channel, user, action, ref=ref, expected_version=expected_version
    )
    taken: list[str] = []
    steps = list(result.steps)
    while not result.turn_over and (only := forced_move(result.read, user)) is not None:
        label = WORDS[result.read.record.game].action_label(only, result.read.names)
        taken.append(_("↪ Taken for you, the only choice: {choice}").format(choice=label))
        # At the version just read: a move taken for the player never lands on a state that
        # changed in between (a timeout, an undo), it is refused as stale instead.
        result = await service.move(
            guild, channel, user, only, ref=ref, expected_version=turn_version(result.read.record)
        )
        steps += result.steps
    after = result.read
    if result.turn_over:
        if from_panel:
            done = WORDS[after.record.game].action_label(action, after.names)  # its panel's
            text = "\n".join([f"✅ {done}", *taken])
            async with owing(interaction, result):
                await update(interaction, content=text, view=None, attachments=[])
        await publish(interaction, result)
        await note_mistake(interaction, read, action)
        return
    so_far = "\n".join([*messages.narrate(after, steps), *taken])
    panel = await messages.hand_panel(after, user, note=so_far)
    if from_panel:
        await update(interaction, content=panel.content, view=panel.view, attachments=panel.files)
    else:
        await send(interaction, panel, ephemeral=True)
    await note_mistake(interaction, read, action)


async def note_mistake(
    interaction: discord.Interaction, read: ReadModel, action: dict[str, Any]
) -> None:
    """At a teaching table, the private note on a move that lost clearly more than the best
    one (``GameService.mistake``), after what the move showed: on the same interaction."""
    mistake = await service_of(interaction).mistake(read, where(interaction)[2], action)
    if mistake is not None:
        await send(interaction, Post(content=mistake), ephemeral=True)


def forced_move(read: ReadModel, user: str) -> dict[str, Any] | None:
    """The move to take for ``user`` mid-turn: their one legal move, where the game says such
    a move reveals nothing and leaves nothing to weigh (Street Art's stop after the last Brass
    Band). A tap on a choice of one is a tap for nothing; the web page takes the same ones."""
    return forced(read.engine, read.state, user)


async def play_index(
    interaction: discord.Interaction, game: str, index: int, version: int, sure: bool = False
) -> None:
    """A choice on a hand panel: ``index`` into ``legal()`` as it was at ``version``. A choice
    that cannot be taken back (a Mural pass) asks first; ``sure``: the player confirmed it."""
    service = service_of(interaction)
    guild, _channel, user = where(interaction)
    read = service.read(await service.get(game, guild))
    if read.version != version:
        raise StaleRequest(read.record)
    legal = read.legal(user)
    if not 0 <= index < len(legal):
        raise ServiceError(read.turn_message() if legal == [] else _(UNAVAILABLE))
    if not sure and messages.confirmation(read, legal[index]):
        await acknowledge(interaction)
        panel = await messages.hand_panel(read, user, confirm=index)
        await update(interaction, content=panel.content, view=panel.view, attachments=panel.files)
        return
    await play(interaction, read, legal[index], expected_version=version, from_panel=True)


async def lobby_change(interaction: discord.Interaction, record: GameRecord, note: str) -> None:
    """Show a lobby change on the lobby message itself: the one clicked (buttons), else the
    newest one, edited in place, with a line linking it (commands). A new lobby message only
    when none is left, so no older copy keeps buttons of its own."""
    service = service_of(interaction)
    post = messages.lobby_post(service.read(record), note)
    clicked = interaction.type == discord.InteractionType.component
    if clicked and await update(interaction, content=note, embed=post.embed, view=post.view):
        return
    # A command, or a click whose token died after the change was saved: the lobby message
    # is edited by its channel, with the bot's token.
    url = await threads.edit_lobby(interaction.client, service.read(record), note)
    if url is None:
        await post_lobby(interaction, record, post)
        return
    if clicked:  # the lobby clicked shows the change: no line about it
        return
    line = _("{note} [The lobby]({url}).").format(note=note, url=url)
    await send(interaction, Post(content=line))


async def post_lobby(interaction: discord.Interaction, record: GameRecord, post: Post) -> None:
    """A new public lobby message; the newest is remembered so a start can close its buttons."""
    message = await send(interaction, post)
    if message is not None:
        await service_of(interaction).remember_message(
            record, LOBBY_MESSAGE, str(message.channel.id), str(message.id)
        )


async def close_lobby(
    interaction: discord.Interaction, read: ReadModel, *, clicked_lobby: bool
) -> None:
    """After a start, the lobby shows that the game began and offers no buttons: the one
    clicked (``clicked_lobby``), else the newest lobby message posted."""
    shown = threads.lobby_embed(read)
    if clicked_lobby and await update(interaction, content=None, embed=shown, view=None):
        return
    await threads.edit_lobby(interaction.client, read)  # by its channel: no token needed


async def new_game(
    interaction: discord.Interaction,
    game: str,
    options: dict[str, Any],
    prefs: dict[str, Any] | None = None,
) -> None:
    service = service_of(interaction)
    guild, channel, user = where(interaction)
    await acknowledge(interaction)
    name = display_name(interaction)
    record = await service.new_game(game, guild, channel, user, name, options, prefs)
    async with in_public(interaction):
        await post_lobby(interaction, record, messages.lobby_post(service.read(record)))


async def join(interaction: discord.Interaction, ref: str | None) -> None:
    service = service_of(interaction)
    guild, channel, user = where(interaction)
    await acknowledge(interaction)
    record = await service.join(guild, channel, user, display_name(interaction), ref)
    if not await started_by_itself(interaction, record, clicked_lobby=on_lobby(interaction)):
        async with in_public(interaction):
            note = _("{name} joined.").format(name=display_name(interaction))
            await lobby_change(interaction, record, note)


async def add_ai(interaction: discord.Interaction, ref: str | None) -> None:
    service = service_of(interaction)
    guild, channel, user = where(interaction)
    await acknowledge(interaction)
    record = await service.add_ai(guild, channel, user, ref)
    if not await started_by_itself(interaction, record, clicked_lobby=on_lobby(interaction)):
        async with in_public(interaction):
            await lobby_change(interaction, record, _("An AI player sat down."))


async def start(interaction: discord.Interaction, ref: str | None) -> None:
    service = service_of(interaction)
    guild, channel, user = where(interaction)
    await acknowledge(interaction)
    await begin(interaction, await service.start(guild, channel, user, ref), on_lobby(interaction))


def on_lobby(interaction: discord.Interaction) -> bool:
    """Whether the interaction is a click on a lobby message (its Join, Add AI, Start)."""
    return interaction.type == discord.InteractionType.component


async def started_by_itself(
    interaction: discord.Interaction, record: GameRecord, *, clicked_lobby: bool
) -> bool:
    """Start a lobby that starts by itself (opened with `autostart:` and now full, or a
    rematch every player sits at again); whether it started."""
    service = service_of(interaction)
    if not service.ready_to_start(record):
        return False
    result = await service.autostart(record.id)
    if result is None:
        return False
    await begin(interaction, result, clicked_lobby)
    return True


async def begin(interaction: discord.Interaction, result: MoveResult, clicked_lobby: bool) -> None:
    """A game has just started: its thread opened, its lobby closed, its first board posted.
    ``clicked_lobby``: the interaction is a click on the lobby message, which it updates."""
    async with owing(interaction, result):  # else the worker finishes: thread, lobby, board
        stays = await threads.open_thread(interaction, result.read)  # for who started it
        async with in_public(interaction):
            await close_lobby(interaction, result.read, clicked_lobby=clicked_lobby)
            await publish(interaction, result, threads.begins(result.read))
    if stays is not None:
        await send(interaction, Post(content=stays), ephemeral=True)


async def rematch(interaction: discord.Interaction, game_id: str) -> None:
    """The Rematch button of a finished game: the first player opens the rematch's lobby in
    the game's channel, the others sit down at it; it starts once all of them have."""
    service = service_of(interaction)
    guild, _channel, user = where(interaction)
    await acknowledge(interaction)
    record, opened = await service.rematch(guild, user, display_name(interaction), game_id)
    if await started_by_itself(interaction, record, clicked_lobby=False):
        return
    read = service.read(record)
    async with in_public(interaction):
        note = _("Rematch of game `{id}`: its players sit down again with **Rematch**.").format(
            id=game_id
        )
        if not opened:
            await threads.edit_lobby(interaction.client, read, note)
        else:
            lobby = messages.lobby_post(read, note)
            message = await threads.post(interaction.client, record, lobby)
            await service.remember_message(
                record, LOBBY_MESSAGE, str(message.channel.id), str(message.id)
            )
    sit = _("You sit at the rematch, game `{id}`.").format(id=record.id)
    await send(interaction, Post(content=sit), ephemeral=True)


async def leave(interaction: discord.Interaction, ref: str | None) -> None:
    """Leave by command, or by a lobby's Leave button (which never leaves a started game)."""
    service = service_of(interaction)
    guild, channel, user = where(interaction)
    from_lobby = interaction.type == discord.InteractionType.component
    await acknowledge(interaction)
    result = await service.leave(guild, channel, user, ref, lobby_only=from_lobby)
    record = result.record
    name = display_name(interaction)
    async with in_public(interaction):
        if record.state is None:
            await lobby_change(interaction, record, _("{name} left.").format(name=name))
            return
        headline = _("{name} left game `{id}`; an AI plays their seat.").format(
            name=name, id=record.id
        )
        await publish(interaction, result, headline)


def return_date(text: str, now: float) -> float:
    """The moment a planned absence ends: the start of the UTC day ``text`` (YYYY-MM-DD)
    names, from tomorrow to a year ahead."""
    try:
        day = datetime.date.fromisoformat(text.strip())
    except ValueError:
        raise ServiceError(
            _("`{text}` is not a date: write it as YYYY-MM-DD.").format(text=text[:40])
        ) from None
    until = datetime.datetime.combine(day, datetime.time(), datetime.UTC).timestamp()
    if not now < until <= now + 366 * 86400:
        raise ServiceError(_("Choose a return date from tomorrow to a year ahead."))
    return until


async def away(
    interaction: discord.Interaction, away: bool, ref: str | None, until: str | None = None
) -> None:
    """`/game away` and `/game away back:True`: the seat to its AI and back, told where the game is
    played; `/game away until:` plans an absence that the player's vacation days cover."""
    service = service_of(interaction)
    guild, channel, user = where(interaction)
    back_on = return_date(until, time.time()) if until is not None else None
    await acknowledge(interaction)
    result = await service.away(guild, channel, user, away, ref, back_on)
    name = display_name(interaction)
    async with in_public(interaction):
        if back_on is not None:
            left = await service.vacation_days_left(guild, user, time.time())
            headline = _(
                "🏖️ {name} is on vacation until <t:{until}:f>: their clock spends their vacation "
                "days ({left} left this year), then their AI decides."
            ).format(name=name, until=int(back_on), left=left)
        else:
            headline = (
                _("{name} is away: their AI plays the seat until `/game away back:True`.")
                if away
                else _("{name} is back and plays their own seat again.")
            ).format(name=name)
        await publish(interaction, result, headline)


async def kick(interaction: discord.Interaction, player: discord.abc.User, ref: str | None) -> None:
    """`/game kick`: the host or a server manager takes a player's seat from them."""
    service = service_of(interaction)
    guild, channel, user = where(interaction)
    is_admin = bool(interaction.permissions.manage_guild)
    in_thread = isinstance(interaction.channel, discord.Thread)
    await acknowledge(interaction)
    result = await service.kick(
        guild, channel, user, str(player.id), is_admin, ref, in_thread=in_thread
    )
    name = player.display_name[:64]
    async with in_public(interaction):
        if result.record.state is None:
            note = _("{name} was taken out of the lobby.").format(name=name)
            await lobby_change(interaction, result.record, note)
            return
        headline = _("{name}'s seat was handed to an AI.").format(name=name)
        await publish(interaction, result, headline)


async def abandon(interaction: discord.Interaction, ref: str | None) -> None:
    """`/game abandon` (and the host's choice at a stalled table): the game ends without a
    result, the table is told, its lobby message edited and its thread archived later."""
    service = service_of(interaction)
    guild, channel, user = where(interaction)
    is_admin = bool(interaction.permissions.manage_guild)
    await acknowledge(interaction)
    record = await service.abandon(guild, channel, user, is_admin, ref)
    title, who = service.engine(record).title, display_name(interaction)
    async with in_public(interaction):
        text = _("Game `{id}` ({title}) was abandoned by {name}.").format(
            id=record.id, title=title, name=who
        )
        await post_to_game(interaction, record, Post(content=text))
    await threads.finish(interaction.client, service.read(record))


STRAY = N_(
    "That button or menu is not one this bot can use (any more) — `/game board` shows "
    "your game as it stands."
)
UNAVAILABLE = N_("That choice is not available.")


def is_ours(client: discord.Client, custom_id: str) -> bool:
    """Whether one of the dynamic items the bot registered takes ``custom_id`` (game items
    by ``cogs.items.parse``, which also refuses crafted ids; the others by their template)."""
    if parse(custom_id) is not None:
        return True
    items = getattr(client, "dynamic_items", ())
    return any(
        item.__discord_ui_compiled_template__.fullmatch(custom_id)  # type: ignore[attr-defined]
        for item in items
        if item not in (GameButton, PickSelect)
    )


def offers(message: discord.Message | None, custom_id: str, kind: int) -> bool:
    """Whether ``message`` carries a component of type ``kind`` with ``custom_id``: only then
    does discord.py hand a click to our dynamic items."""
    stack: list[Any] = list(message.components) if message is not None else []
    while stack:
        component = stack.pop()
        stack.extend(getattr(component, "children", ()))
        if getattr(component, "custom_id", None) == custom_id and component.type.value == kind:
            return True
    return False


async def answer_stray(interaction: discord.Interaction) -> None:
    """Every component interaction our items will not take (an id no template matches, or one
    the message does not carry: crafted, or left by another version) still gets a sentence,
    never "This interaction failed"."""
    if interaction.type != discord.InteractionType.component:
        return
    data: dict[str, Any] = dict(interaction.data or {})
    custom_id, kind = str(data.get("custom_id", "")), int(data.get("component_type", 0))
    if is_ours(interaction.client, custom_id) and offers(interaction.message, custom_id, kind):
        return
    log.info("interaction %s: component %r is none of ours", interaction.id, custom_id[:100])
    set_language(player_language(interaction))
    await guard(interaction, reply_error(interaction, _(STRAY)))


def picked_index(click: Click) -> int:
    """The legal-action index a select sent; a crafted value is refused with a sentence."""
    value = click.values[0] if len(click.values) == 1 else ""
    if not (value.isascii() and value.isdigit() and len(value) <= 4):
        raise ServiceError(_(UNAVAILABLE))
    return int(value)


async def on_click(interaction: discord.Interaction, click: Click) -> None:
    """Every button and select of ours (``cogs.items`` forwards here): discord.py only logs a
    component callback's errors, so the whole click runs inside the guard."""
    await guard(interaction, dispatch_click(interaction, click))


#: The handlers of verbs another module of the Discord layer owns (``cogs.undo``), by verb;
#: that module adds its own when it is imported.
VERBS: dict[str, Callable[[discord.Interaction, Click], Awaitable[None]]] = {}


async def dispatch_click(interaction: discord.Interaction, click: Click) -> None:
    service = service_of(interaction)
    guild = where(interaction)[0]
    game, verb, version = click.game, click.verb, click.version
    if verb in VERBS:
        await VERBS[verb](interaction, click)
    elif verb == "join":
        await join(interaction, game)
    elif verb == "leave":
        await leave(interaction, game)
    elif verb == "addai":
        await add_ai(interaction, game)
    elif verb == "start":
        await start(interaction, game)
    elif verb == "hand":
        await show_hand(interaction, await service.get(game, guild))
    elif verb == "board":
        cooldowns.check(interaction, cooldowns.BOARD)
        record = await service.get(game, guild)
        stale = turn_version(record) != version
        note = _("That board is out of date: here is the current one.") if stale else None
        await show_board(interaction, record, note)
    elif verb == "rematch":
        await rematch(interaction, game)
    elif verb == "rules":
        await show_rules(interaction, (await service.get(game, guild)).game, None)
    elif verb in ("act", "sure"):
        index = -1 if click.arg is None else click.arg
        await play_index(interaction, game, index, version, sure=verb == "sure")
    elif verb == PICK:
        await play_index(interaction, game, picked_index(click), version)
