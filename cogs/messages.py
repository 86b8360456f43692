"""What the bot posts, built from a game's read model: lobby, board, hand panel.

Builders only: nothing here sends anything, so every message shape is in one place and
within Discord's limits by construction (25 options, 5 buttons a row, 100-char ids, embeds,
and for the Components V2 board posts 40 components and 4,000 characters of text).

Board posts are Components V2 (a ``LayoutView``): Discord shows a media gallery's picture
larger than an embed's image, which our landscape boards need to be read inline.
"""

from __future__ import annotations

import io
import time
from dataclasses import dataclass, field
from typing import Any

import discord

from bot import steps, teaching
from bot.ai import NORMAL
from bot.i18n import N_, _, _n
from bot.presentation.turn import plain
from bot.read_model import ReadModel
from bot.service import AWAY_UNTIL, Step
from bot.store.base import ABANDONED, ACTIVE, FINISHED, LOBBY
from bot.teaching import TEACHING
from bot.words import WORDS, counter, label_for, tell
from cogs import activity, web_table
from cogs.hint_items import with_help
from cogs.items import REAL_GAME, SELECT_LIMIT, STEP_PICK, STEPS, Click, GameButton, PickSelect
from images.artsee import MORE_GALLERIES_FILE
from rules.protocol import player_range

#: For edits and anything that means to ping nobody.
NO_PINGS = discord.AllowedMentions.none()
EMBED_DESCRIPTION_LIMIT = 4096
#: Characters of text across all the TextDisplays of one Components V2 message.
V2_TEXT_LIMIT = 4000
BUTTON_ROW = 5
#: A message holds 5 action rows; a select fills one.
MAX_ROWS = 5
DANGER = discord.ButtonStyle.danger
BOARD_FILE = "board.png"
HAND_FILE = "hand.png"
#: The longest description (alt text) Discord keeps for an attachment.
ALT_TEXT_MAX = 1024
#: The alt text of each picture a board post shows (a screen reader reads it).
ALT_TEXT = {
    BOARD_FILE: N_("The board, {counter}"),
    MORE_GALLERIES_FILE: N_("The galleries beyond the first four"),
    "race.gif": N_("The race, replayed"),
}
COLOURS = {LOBBY: 0x3B82F6, ACTIVE: 0x10B981, FINISHED: 0xF59E0B, ABANDONED: 0x6B7280}
#: A game's status in a list, as a word.
STATUS_WORDS = {
    LOBBY: N_("lobby"),
    ACTIVE: N_("active"),
    FINISHED: N_("finished"),
    ABANDONED: N_("abandoned"),
}


def status_word(status: str) -> str:
    """A game's status as a player reads it in a list."""
    return _(STATUS_WORDS[status]) if status in STATUS_WORDS else status


def title_of(read: ReadModel) -> str:
    """ "<Game> · game <id>", the title of every post about one game."""
    return _("{title} · game {id}").format(title=read.engine.title, id=read.record.id)


def button(
    read: ReadModel,
    verb: str,
    label: str,
    style: discord.ButtonStyle,
    arg: int | None = None,
) -> GameButton:
    """A button of the game at the version its buttons carry."""
    return GameButton.make(read.record.id, read.version, verb, label, style, arg)


def mention(user: str) -> str | None:
    """A user mention for a Discord seat; AI seats are never mentioned."""
    return f"<@{user}>" if user.isdigit() else None


def allowed_mentions(pings: list[str]) -> discord.AllowedMentions:
    """Exactly the users a post means to ping (seated players, by id), whatever mentions its
    text holds: nothing a user typed can ping anyone."""
    users = [discord.Object(int(user)) for user in pings if user.isdigit()]
    return discord.AllowedMentions(everyone=False, roles=False, users=users, replied_user=False)


def clip(text: str, limit: int) -> str:
    return text if len(text) <= limit else text[: limit - 1] + "…"


@dataclass
class Post:
    """A message ready to send: keyword arguments for ``send_message``/``followup.send``."""

    content: str | None = None
    embed: discord.Embed | None = None
    view: discord.ui.View | discord.ui.LayoutView | None = None
    files: list[discord.File] = field(default_factory=list)
    extra: dict[str, Any] = field(default_factory=dict)
    #: The ids of the users this post pings (its content names them); nobody else is pinged.
    pings: list[str] = field(default_factory=list)

    def kwargs(self) -> dict[str, Any]:
        if isinstance(self.view, discord.ui.LayoutView) and (self.content or self.embed):
            # Discord refuses content or embeds beside the Components V2 flag.
            raise ValueError("a Components V2 post carries its text in its layout")
        out: dict[str, Any] = {"allowed_mentions": allowed_mentions(self.pings), **self.extra}
        if self.content is not None:
            out["content"] = self.content
        if self.embed is not None:
            out["embed"] = self.embed
        if self.view is not None:
            out["view"] = self.view
        if self.files:
            out["files"] = self.files
        return out


# -- lobby ---------------------------------------------------------------------------------


def lobby_embed(read: ReadModel) -> discord.Embed:
    record, game, names = read.record, read.engine, read.names
    host = " " + _("(host)")
    # Seats are numbered in play order; once the game is over a numbered list under
    # "Finished." reads as the standings, which the result post tells.
    over = record.status == FINISHED
    seats = "\n".join(
        f"{'-' if over else f'{i}.'} {names[s.user]}{' 🤖' if s.ai else ''}"
        f"{host if s.user == record.host else ''}"
        for i, s in enumerate(record.seats, 1)
    )
    low, high = player_range(game, record.options)
    status = {
        LOBBY: _("Waiting for players ({seated}/{high}; {low}–{high} with these options).").format(
            seated=len(record.seats), low=low, high=high
        ),
        ACTIVE: _("Started!"),
        ABANDONED: _("Abandoned."),
        FINISHED: _("Finished."),
    }[record.status]
    embed = discord.Embed(
        title=clip(title_of(read), 256),
        description=clip(f"{status}\n\n{seats}", EMBED_DESCRIPTION_LIMIT),
        colour=COLOURS[record.status],
    )
    options = {k: v for k, v in record.options.items() if game.default_options.get(k) != v}
    if options:
        embed.add_field(
            name=_("Options"),
            value=clip(", ".join(f"{k}={v}" for k, v in options.items()), 1024),
        )
    away = vacation_lines(read)
    if away:
        embed.add_field(name=_("Vacation"), value=clip(away, 1024), inline=False)
    if record.status == LOBBY:
        level = record.prefs.get("ai_level", NORMAL)
        embed.add_field(
            name=_("Add AI"), value=_("seats play at level **{level}**").format(level=level)
        )
        embed.set_footer(
            text=_(
                "{players}. Join with the button or /game join; the host starts with Start or "
                "/game start."
            ).format(players=_(WORDS[record.game].PLAYERS))
        )
    return embed


def vacations(read: ReadModel, now: float | None = None) -> dict[str, float]:
    """Who at a running table is on vacation, and until when (issue 27): a planned absence
    (`/game away until:`), or a clock that spent a vacation day (its third figure)."""
    record, now = read.record, time.time() if now is None else now
    if record.status != ACTIVE:
        return {}
    planned = record.prefs.get(AWAY_UNTIL, {})
    spent = {p: c[2] for p, c in record.clocks.items() if len(c) > 2 and c[2] is not None}
    found: dict[str, float] = {}
    for user, until in [*planned.items(), *spent.items()]:
        if until > now:
            found[user] = max(until, found.get(user, until))
    return found


def vacation_lines(read: ReadModel) -> str:
    """A line a player on vacation, for everyone at the table."""
    return "\n".join(
        _("🏖️ {name} is on vacation until <t:{until}:f>.").format(
            name=read.names.get(user, user), until=int(until)
        )
        for user, until in vacations(read).items()
    )


def vacation_day(read: ReadModel, user: str, until: float) -> str:
    """The post of a vacation day a late player's clock spent."""
    return _(
        "🏖️ {name}'s time ran out: a vacation day was spent, so {name} is on vacation until "
        "<t:{until}:f>. When none are left, the AI decides."
    ).format(name=read.names.get(user, user), until=int(until))


#: The verbs of the host's choices at a stalled table (``cogs.stall``).
STALL_KICK, STALL_EXTEND, STALL_ABANDON = "stallkick", "stallext", "stallend"


def stall_post(read: ReadModel, user: str) -> Post:
    """The host's message: who has not moved through three reminders, and the three choices
    (the host is pinged; the buttons name the seat by its number)."""
    record = read.record
    seat = next(i for i, s in enumerate(record.seats) if s.user == user)
    name = read.names.get(user, user)
    text = _(
        "{host} ⏳ {title} `{id}` has stalled: {name} has not moved through three reminders. "
        "What now? Hand the seat to its AI, give the clock a day more, or abandon the game."
    ).format(host=mention(record.host) or "", title=read.title, id=record.id, name=name)
    view = discord.ui.View(timeout=None)
    secondary, danger = discord.ButtonStyle.secondary, discord.ButtonStyle.danger
    view.add_item(button(read, STALL_KICK, _("Kick to AI"), secondary, seat))
    view.add_item(button(read, STALL_EXTEND, _("Extend the clock"), secondary, seat))
    view.add_item(button(read, STALL_ABANDON, _("Abandon"), danger, seat))
    return Post(content=text.strip(), view=view, pings=[record.host])


def options_post(read: ReadModel) -> Post:
    """Every option of the game: its value here, its default and what it changes."""
    record, game = read.record, read.engine
    explained = WORDS[record.game].OPTIONS
    lines = []
    for key, default in game.default_options.items():
        value = record.options.get(key, default)
        changed = "" if value == default else " " + _("(default {value})").format(value=default)
        lines.append(f"`{key}={value}`{changed}: {_(explained[key])}")
    how = (
        _("The host changes them with `/game rules options:name=value` before the start.")
        if record.status == LOBBY
        else _("They are fixed once the game has started.")
    )
    embed = discord.Embed(
        title=clip(_("{title}: options").format(title=title_of(read)), 256),
        description=clip("\n".join([*lines, "", how]), EMBED_DESCRIPTION_LIMIT),
        colour=COLOURS[record.status],
    )
    return Post(embed=embed)


def lobby_view(read: ReadModel) -> discord.ui.View | None:
    record = read.record
    if record.status != LOBBY:
        return None
    view = discord.ui.View(timeout=None)
    view.add_item(button(read, "join", _("Join"), discord.ButtonStyle.success))
    view.add_item(button(read, "leave", _("Leave"), discord.ButtonStyle.secondary))
    view.add_item(button(read, "addai", _("Add AI"), discord.ButtonStyle.secondary))
    view.add_item(button(read, "start", _("Start"), discord.ButtonStyle.primary))
    return view


def lobby_post(read: ReadModel, note: str | None = None) -> Post:
    return Post(content=note, embed=lobby_embed(read), view=lobby_view(read))


# -- the board ------------------------------------------------------------------------------


def narrate(read: ReadModel, steps: list[Step]) -> list[str]:
    return tell(read.record.game, [(s.player, s.events) for s in steps], read.names)


#: The ``arg`` of a question button: a second "hand" button needs a custom id of its own.
QUESTION_ARG = 1


def board_buttons(read: ReadModel, question: str | None = None) -> discord.ui.ActionRow:
    """My hand / Board / Rules, and first, when players are asked something on another's turn
    (ArtSee's visitors, Street Kings' NOZ), a button named after the question that opens the
    same private panel with their choice."""
    row: discord.ui.ActionRow = discord.ui.ActionRow()
    active = read.record.status == ACTIVE
    if active and question:
        style = discord.ButtonStyle.success
        row.add_item(button(read, "hand", clip(question, 80), style, QUESTION_ARG))
    if active:
        row.add_item(button(read, "hand", _("My hand"), discord.ButtonStyle.primary))
    row.add_item(button(read, "board", _("Board"), discord.ButtonStyle.secondary))
    row.add_item(button(read, "rules", _("Rules"), discord.ButtonStyle.secondary))
    if read.record.status == FINISHED and read.record.prefs.get(TEACHING):  # learnt: now play
        row.add_item(button(read, REAL_GAME, _("Play a real game"), discord.ButtonStyle.success))
    elif read.record.status == FINISHED:  # its players may sit down again (issue 13)
        row.add_item(button(read, "rematch", _("Rematch"), discord.ButtonStyle.success))
    # Play (issue 40) and the public page's link (issue 26): Play first when it launches the
    # Activity, else the link, which Play would only repeat (a row holds five).
    web = web_table.table_button(read.record)
    if web is not None and not activity.PlayButton.launches:
        row.add_item(web)
        web = None
    activity.add_play(row, read.record)
    if web is not None and len(row.children) < 5:
        row.add_item(web)
    return row


def question_of(read: ReadModel) -> str | None:
    """The out-of-turn question the game is asking, if its words name one."""
    if read.record.status != ACTIVE:
        return None
    ask = getattr(WORDS[read.record.game], "question", None)
    return ask(read.view(None)) if ask else None


#: Pictures a post never carries beside its board: Street Kings' market, which its board
#: draws (one picture a post, on a phone).
LEFT_OUT = frozenset({"market.png"})


async def render_turn(read: ReadModel, steps: list[Step]) -> list[discord.File]:
    """The public board, then any picture the game adds for this turn (a race replayed), drawn
    in the worker pool once per version and served from the picture cache after that."""
    events = [event for step in steps for event in step.events]
    board, extras = await read.board_pictures(events, narrate(read, steps))
    pictures = [(BOARD_FILE, board), *((n, d) for n, d in extras if n not in LEFT_OUT)]
    return [discord.File(io.BytesIO(data), filename=name) for name, data in pictures]


def next_line(read: ReadModel, *, private: bool = False) -> str:
    """The one line saying whose move it is: the humans waiting by mention (the public post
    pings them), AI seats and a private copy by name; empty once nobody owes a move. A move,
    not a turn: an ArtSee player asked about visitors decides on another's turn."""
    waiting = read.to_move
    if read.record.status != ACTIVE or not waiting:
        return ""
    humans = set(read.waiting_humans)
    who = [
        (None if private or p not in humans else mention(p)) or f"**{read.names.get(p, p)}**"
        for p in waiting
    ]
    return _("➡️ {names}, your move.").format(names=", ".join(who))


def outcome_line(read: ReadModel, lead: bool = False) -> str:
    """The final scores and winners, ``lead`` by "Game over" on a final post whose turn lines
    do not say it already (a private copy), so every final post says it once."""
    outcome = read.outcome
    if outcome is None:
        return ""
    names = read.names
    winners = ", ".join(f"**{names.get(p, p)}**" for p in outcome.winners)
    over = _("🏁 **Game over.**") + "\n" if lead else ""
    final = scores_line(read)
    won = _n("**Winner:** {names}", "**Winners:** {names}", len(outcome.winners))
    return f"{over}{final}\n{won.format(names=winners)}"


def scores_line(read: ReadModel) -> str:
    """The final scores alone, for a final post whose lines already name the winners (the
    game's own "Game over" line): said once, never twice in a row."""
    outcome = read.outcome
    if outcome is None:
        return ""
    ranking = sorted(outcome.scores.items(), key=lambda item: -item[1])
    # "AI 1: 5", not "AI 1 5": a name may end in a number (an AI seat's does).
    scores = " · ".join(
        _("{name}: {score}").format(name=read.names.get(p, p), score=s) for p, s in ranking
    )
    return _("**Final scores:** {scores}").format(scores=scores)


def ended_in(steps: list[Step]) -> bool:
    return any(event.get("type") == "game_over" for step in steps for event in step.events)


def last_lines(lines: list[str], budget: int) -> str:
    """The turn's lines within ``budget`` characters, keeping the latest: they lead to the
    board shown."""
    text = "\n".join(lines)
    return text if len(text) <= budget else "…" + text[-(budget - 1) :]


def gallery(files: list[discord.File], counter: str) -> list[discord.ui.MediaGallery]:
    """One gallery per picture, the board first: a gallery of one shows it at full width,
    where two in one gallery would share the width. ``counter``: the turn the board shows."""
    return [
        discord.ui.MediaGallery(
            discord.MediaGalleryItem(
                f"attachment://{f.filename}",
                description=_(ALT_TEXT[f.filename]).format(counter=counter).strip()
                if f.filename in ALT_TEXT
                else None,
            )
        )
        for f in files
    ]


def turn_counter(read: ReadModel) -> str:
    """The game's one turn counter at this version, as its board draws it."""
    return counter(read.record.game, read.view(None)) if read.record.state is not None else ""


async def board_post(
    read: ReadModel,
    steps: list[Step],
    headline: str | None = None,
    *,
    private: bool = False,
    ratings: str = "",
) -> Post:
    """The turn post, in Components V2: one container with what happened and whose move it
    is (the one line that pings), the board (and the turn's second pictures) and the buttons.
    Each thing said once: no heading inside the game's thread (its name says it), no turn
    counter or footer beside the board that draws them. ``private``: the copy one player
    asked for, which pings nobody. ``ratings``: the final post's line of rating changes
    (``cogs.memory.rating_line``)."""
    record = read.record
    title = "" if record.thread and not private else f"### {clip(title_of(read), 256)}"
    finished = record.status == FINISHED
    if finished:
        tail = scores_line(read) if ended_in(steps) else outcome_line(read, lead=True)
    else:
        tail = next_line(read, private=private)
    tail = "\n".join(line for line in (tail, vacation_lines(read), ratings) if line)
    budget = V2_TEXT_LIMIT - len(title) - len(tail) - 2  # and the two newlines between
    told = last_lines(([headline] if headline else []) + narrate(read, steps), budget)
    files = await render_turn(read, steps)
    container: discord.ui.Container = discord.ui.Container(accent_colour=COLOURS[record.status])
    text = "\n".join(part for part in (title, told, tail) if part)
    if text:  # Discord refuses an empty TextDisplay
        container.add_item(discord.ui.TextDisplay(text))
    for item in gallery(files, turn_counter(read)):
        container.add_item(item)
    container.add_item(board_buttons(read, question_of(read)))
    layout = discord.ui.LayoutView(timeout=None)
    layout.add_item(container)
    pings = [] if private or finished else read.waiting_humans
    return Post(view=layout, files=files, pings=pings)


# -- the private hand panel -------------------------------------------------------------------


def step_of(game: str, action: dict[str, Any]) -> str:
    """A select's placeholder: the step it is for ("Choose a column…"), from the game's
    words, else the general one."""
    steps: dict[str, str] = getattr(WORDS[game], "STEPS", {})
    return _(steps[action["type"]]) if action["type"] in steps else _("Choose your move…")


def option_labels(
    read: ReadModel, user: str, legal: list[dict[str, Any]], view: dict[str, Any]
) -> list[str]:
    """Each option's label, carrying its consequence where the game can say it from a dry run
    ("Onto column 3 · +2 ★"), so a player chooses without working it out from the board."""
    game = read.record.game
    labels = [label_for(game, action, read.names, view) for action in legal]
    weigh = getattr(WORDS[game], "consequence", None)
    if weigh is None:
        return labels
    out = []
    for label, action in zip(labels, legal, strict=True):
        events = read.events_of(user, action)
        brings = weigh(events, user) if events is not None else None
        out.append(f"{label} · {brings}" if brings else label)
    return out


def confirmation(read: ReadModel, action: dict[str, Any]) -> str | None:
    """The question to ask before ``action`` is applied from a panel, if its game asks one."""
    ask = getattr(WORDS[read.record.game], "confirm", None)
    return ask(action) if ask else None


def add_whole_steps(view: discord.ui.View, read: ReadModel, whole: list[steps.Composed]) -> None:
    """The whole steps as ``bot.steps.layout`` lays them out: a button each (one tap), or a
    select per group with the moves offered alone as buttons under them."""
    for row, laid in enumerate(steps.layout(whole)):
        if not laid.placeholder:
            for index in laid.choices:
                label = clip(whole[index].label, 80)
                view.add_item(button(read, STEPS, label, discord.ButtonStyle.primary, index))
            continue
        click = Click(read.record.id, STEP_PICK, read.version, row or None)
        labels = [clip(whole[index].label, 100) for index in laid.choices]
        view.add_item(PickSelect.of(click, labels, list(laid.choices), laid.placeholder))


async def hand_panel(
    read: ReadModel, user: str, note: str = "", confirm: int | None = None
) -> Post:
    """The ephemeral panel: the player's hand (in words, and drawn where the game draws hands)
    and their legal actions as a select or buttons.

    Options are indices into ``legal()`` at this version: the version in the custom id makes an
    index from an older panel refused rather than applied to a different list. ``confirm``: the
    index of a chosen action that asks first; the panel asks, with a button that applies it
    (at this version only) above the usual choices.
    """
    record = read.record
    words = WORDS[record.game]
    view_data = read.view(user)
    legal = read.legal(user)
    lines = [note] if note else []
    lines += teaching.lines(read.lessons(user))  # a teaching table's rules, as they matter
    png = await read.hand_picture(user)
    # Beside a picture of the hand, only what the picture does not draw: each fact once. The
    # hand in words goes with the picture as its description, for a screen reader.
    told = getattr(words, "panel_text", None) if png else None
    said = (told or words.hand_text)(view_data)
    if said:
        lines.append(said)
    view: discord.ui.View | None = None
    if legal:
        mid_turn = read.mid_turn
        lines.append(
            _("**Your move:** choose below.") if not mid_turn else _("**Your move continues:**")
        )
        view = discord.ui.View(timeout=None)
        labels = [clip(label, 80) for label in option_labels(read, user, legal, view_data)]
        question = None
        if confirm is not None and 0 <= confirm < len(legal):
            question = confirmation(read, legal[confirm])
        if confirm is not None and question:  # asked, with its button on a row of its own
            lines.append(question)
            yes = _("Yes: {choice}").format(choice=labels[confirm])
            sure = button(read, "sure", clip(yes, 80), DANGER, confirm)
            sure.row = 0
            view.add_item(sure)
        rows = MAX_ROWS - 1 if question else MAX_ROWS
        # A teaching table shows each decision on its own panel, with its own lessons.
        teaching_table = bool(record.prefs.get(TEACHING))
        whole = steps.composed(read, user) if question is None and not teaching_table else []
        few = len(legal) <= BUTTON_ROW and (mid_turn or getattr(words, "BUTTONS", False))
        if whole:  # one choice for a move and the decisions that follow it
            add_whole_steps(view, read, whole)
        elif few:
            for index, label in enumerate(labels):
                choice = button(read, "act", label, discord.ButtonStyle.primary, index)
                choice.row = 1 if question else None
                view.add_item(choice)
        else:
            pages = [labels[i : i + SELECT_LIMIT] for i in range(0, len(labels), SELECT_LIMIT)]
            for page, page_labels in enumerate(pages[:rows]):
                first = page * SELECT_LIMIT + 1
                placeholder = step_of(record.game, legal[first - 1])
                if len(pages) > 1:
                    placeholder = _("{step} ({first}–{last} of {total})").format(
                        step=placeholder,
                        first=first,
                        last=first + len(page_labels) - 1,
                        total=len(labels),
                    )
                view.add_item(
                    PickSelect.make(record.id, read.version, page_labels, page, placeholder)
                )
            shown = rows * SELECT_LIMIT
            if len(labels) > shown:  # never hide a move silently: say where the rest are
                hidden = len(labels) - shown
                more = _n(
                    "({n} more move than fit here: use the game's slash commands.)",
                    "({n} more moves than fit here: use the game's slash commands.)",
                    hidden,
                )
                lines.append(more.format(n=hidden))
    elif record.status == ACTIVE:
        lines.append(read.turn_message())
    picture = None
    if png:
        alt = clip(plain(words.hand_text(view_data)), ALT_TEXT_MAX)
        picture = discord.File(io.BytesIO(png), filename=HAND_FILE, description=alt)
    view = with_help(view, read, user)  # issue 39: Hint, "Why not…?"
    view = web_table.add_hand_link(view, record, user)  # issue 26: "Open on the web"
    view = activity.add_play(view, record, panel=True)  # issue 40
    return Post(content=clip("\n".join(lines), 2000), view=view, files=[picture] if picture else [])
