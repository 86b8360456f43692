"""Street Art: Mural in words: event sentences, action labels, the player's board, the rules."""

from __future__ import annotations

from typing import Any

from bot.i18n import N_, _, _n
from bot.words.common import capitalized, game_over, join_names, name_of
from rules.mural.data import CARDS, COLOUR_NAMES, TECHNIQUES
from rules.mural.state import cell_name

PLAYERS = N_("2–4 players")

OPTIONS = {
    "disc_sides": N_(
        "Which side of the four paint discs is used: A (recommended for a first game), B, or "
        "random per disc."
    ),
    "master_turn_may_hold": N_("The Master turn technique may leave one of its two discs still."),
    "painting_discards": N_(
        "Where a painting's paid paints go: queue_end (the rulebook) or after_first_3 (anywhere "
        "after the queue's first three spaces)."
    ),
}

RULES = N_("""\
**Street Art: Mural** (*Street Art*, MeepleBR) — 2 to 4 graffiti artists paint one mural.
**Setup**: 4 paint discs (*discos*) in a row, 8 coloured segments each (R red, Y yellow, B blue, \
W white), a paint cube on every segment; 3 touching pairs of equal colours. A paint queue \
(*fila de tintas*). Graffiti cards (*cartas de Grafite*) are offered cost side up: 3 (2 players) \
or 4; the deck top shows but cannot be painted. Each player: grafiteiros (pawns), sprays, a \
backpack (*mochila*) of at most 5 paints.
**Your turn**: free actions, **one main action**, free actions, then **End turn**.
**Main actions**
• **Rotate** (*Girar Disco*) a disc so that two segments of one colour meet, then **collect** \
one paint from a pair this turn aligned (any colour of cube). *Giro Simples* (simple): 1 disc \
1 step. With a grafiteiro, each at most twice a round: *Giro Grande* (big): 1 disc up to 4 \
steps; *Giro Duplo* (double): 2 adjacent discs 1 step each. A rotation that aligns nothing \
collectable is not allowed.
• **Paint** (*Pintar o Mural*) a display card: pay its cost (A = any advanced paint) to the end \
of the queue, put it on any free mural cell, mark it with a spray. Flexible costs (*custo \
flexível*) keep their paints on the card: 2 + 1 per basic + 2 per advanced.
• **Pass** (*Passar a Vez*): out until next round (not after a free action). In round 1 the \
first to pass takes the first-player marker.
**Free actions**: **Mix** (*Mistura de Tintas*) 2 basics → 1 advanced (basics to the queue end). \
**Basquiat techniques** (*Técnicas de Basquiat*), 1 grafiteiro, once per round each: \
Swap (*Troca*): a backpack paint for a basic · Copy (*Cópia*): a paint like one you hold · \
Queue Pick (*Fila*): 1 of the first 3 queue paints · Transfer (*Transferência*): a paint to \
another disc · Thrift (*Economia*, main action): paint with 1 basic less · Master Turn \
(*Giro Mestre*, main action): 2 adjacent discs up to 2 steps each, collect 1. One technique is \
open in round 1, the second from round 2.
**End of round 1**: grafiteiros back, second technique revealed, empty segments refilled from \
the queue (then the stock).
**End**: after round 2, or when someone places their last spray or the mural is full — then \
play goes on until the player to the right of the first player has had a turn.
**Score**: card points; each complete disc of two different elements (DJ, MC, BK Breaking, GF \
Graffiti; *Fichas de Elemento* on the border count) +3, a second one only with a third element, \
at most +6 per card, shared by both cards; leftover paints 1 (basic) / 2 (advanced). Ties: most \
sprays on the mural, then card points, then earlier in turn order.
**The board**: discs 1–4 from the left (N at the top, they touch at E/W); a green **=** marks \
a contact whose segments match; the queue's 3 board spaces are framed; each painted card shows \
its element, points, its painter's shape and initial, and its disc bonus (+3/+6); a yellow ring \
marks the discs turned and a yellow frame the card painted in the latest turn.
**Options** (`/game new options:`): `disc_sides=A|B|random`, `master_turn_may_hold=true` \
(technique 6 may leave one disc still), `painting_discards=after_first_3` (paid paints go \
anywhere after the queue's first 3).
Play with `/mural rotate`, `/mural paint`, `/mural mix`, `/mural technique`, `/mural pass`, \
`/mural end-turn`, or the **My hand** button.""")

#: Each technique in a few words, for a button or select option.
TECHNIQUE_LABELS = {
    "BT1": N_("Swap: a backpack paint for a basic of your choice"),
    "BT2": N_("Copy: take a paint like one in your backpack"),
    "BT3": N_("Queue Pick: take 1 of the first 3 queue paints"),
    "BT4": N_("Transfer: move a paint to another disc"),
    "BT5": N_("Thrift (main action): paint a card with 1 basic less"),
    "BT6": N_("Master Turn (main action): 2 adjacent discs ≤ 2 steps, collect 1"),
}
#: A rotation's kind, as its sentence names it.
ROTATIONS = {
    "simple": N_("simple rotation ({discs})"),
    "big": N_("big rotation ({discs})"),
    "double": N_("double rotation ({discs})"),
    "master": N_("Master Turn rotation ({discs})"),
}


def paint_name(paint: str | None) -> str:
    return _("empty") if paint is None else _(COLOUR_NAMES[paint])


def paints_text(paints: list[str]) -> str:
    return " ".join(paints) if paints else _("nothing")


def disc_name(position: int) -> str:
    return _("disc {n}").format(n=position + 1)


def turn_text(steps: int) -> str:
    arrow = "↻" if steps > 0 else "↺"
    if not steps:
        return _("stays")
    return _n("{n} step", "{n} steps", abs(steps)).format(n=abs(steps)) + f" {arrow}"


def technique_name(tile: str) -> str:
    return _(TECHNIQUES[tile].name)


def card_cost(card_id: str) -> str:
    card = CARDS[card_id]
    if card.flexible:
        return _("any {n} paints").format(n=card.spaces)
    return " ".join(card.cost or "")


def card_label(card_id: str) -> str:
    """E.g. "G05 DJ · cost A Y W · 7 pts · half-discs E S"."""
    card = CARDS[card_id]
    points = _("2+paints") if card.flexible else _("{n} pts").format(n=card.points)
    return _("{id} {element} · cost {cost} · {points} · discs {edges}").format(
        id=card.id, element=card.element, cost=card_cost(card_id), points=points, edges=card.edges
    )


# -- events ------------------------------------------------------------------------------------


def describe(events: list[dict[str, Any]], names: dict[str, str]) -> list[str]:
    """One sentence per step worth telling; a rotation and the paint collected after it share
    one ("Bo made a simple rotation: disc 2 1 step ↺ and collected red.")."""
    lines: list[str] = []
    rotated: dict[str, Any] | None = None
    for event in events:
        if rotated is not None:
            who, rotation = name_of(names, rotated["player"]), _rotation(rotated)
            rotated = None
            if event["type"] == "collected":
                line = _("{who} made a {rotation} and collected {paint}.").format(
                    who=who, rotation=rotation, paint=paint_name(event["paint"])
                )
                lines.append(line)
                continue
            lines.append(_("{who} made a {rotation}.").format(who=who, rotation=rotation))
        if event["type"] == "rotated":
            rotated = event
            continue
        line = _describe_one(event, names)
        if line:
            lines.append(line)
    if rotated is not None:
        lines.append(
            _("{who} made a {rotation}.").format(
                who=name_of(names, rotated["player"]), rotation=_rotation(rotated)
            )
        )
    return lines


def _rotation(event: dict[str, Any]) -> str:
    parts = [
        f"{disc_name(d)}: {turn_text(s)}"
        for d, s in zip(event["discs"], event["steps"], strict=True)
    ]
    return _(ROTATIONS[event["kind"]]).format(discs=join_names(parts))


def _describe_one(event: dict[str, Any], names: dict[str, str]) -> str:
    kind = event["type"]
    who = name_of(names, event.get("player"))
    paint = paint_name(event.get("paint"))
    if kind == "collected":
        return _("{who} collected {paint}.").format(who=who, paint=paint)
    if kind == "painted":
        text = (
            _("{who} painted **{card}** ({element}) in {cell} with Thrift, paying {paid}.")
            if event["thrift"]
            else _("{who} painted **{card}** ({element}) in {cell}, paying {paid}.")
        )
        return text.format(
            who=who,
            card=event["card"],
            element=CARDS[event["card"]].element,
            cell=cell_name(*event["cell"]),
            paid=paints_text(event["paid"]),
        )
    if kind == "mixed":
        a, b = (paint_name(p) for p in event["paints"])
        return _("{who} mixed {a} and {b} into an advanced paint.").format(who=who, a=a, b=b)
    if kind == "technique":
        return _("{who} used the technique **{technique}**.").format(
            who=who, technique=technique_name(event["tile"])
        )
    if kind == "swapped":
        return _("{who} swapped {give} for {take}.").format(
            who=who, give=paint_name(event["give"]), take=paint_name(event["take"])
        )
    if kind == "copied":
        return _("{who} copied {paint} from the stock.").format(who=who, paint=paint)
    if kind == "picked":
        return _("{who} took {paint} from the queue.").format(who=who, paint=paint)
    if kind == "transferred":
        return _("{who} moved {paint} from {source} to {target}.").format(
            who=who,
            paint=paint,
            source=disc_name(event["from"][0]),
            target=disc_name(event["to"][0]),
        )
    if kind == "discarded":
        return _("{who} discarded {paints} down to 5 paints.").format(
            who=who, paints=paints_text(event["paints"])
        )
    if kind == "passed":
        return _("{who} passed.").format(who=who)
    if kind == "first_player":
        return _("{who} takes the first-player marker.").format(who=who)
    if kind == "end_triggered":
        text = (
            _(
                "⏳ {who} placed their last spray: the game ends after the player right of the "
                "first player."
            )
            if event["reason"] == "sprays"
            else _(
                "⏳ {who} filled the mural: the game ends after the player right of the first "
                "player."
            )
        )
        return text.format(who=who)
    if kind == "round_over":
        return _(
            "🔁 Round 1 is over: grafiteiros back, **{technique}** revealed, discs refilled. "
            "Round 2 begins."
        ).format(technique=technique_name(event["revealed"]))
    if kind == "game_over":
        return game_over(event, names, lambda n: _("{n} points").format(n=n))
    if kind == "inserted":
        return _("{who} put {paint} at queue space {n}.").format(
            who=who, paint=paint, n=event["position"] + 1
        )
    return ""  # "queued", "ordered" and "turn" are shown by the board and the mention


# -- actions -----------------------------------------------------------------------------------


def action_label(action: dict[str, Any], names: dict[str, str]) -> str:
    label = _label(action)
    return label if len(label) <= 80 else label[:79] + "…"


def _label(action: dict[str, Any]) -> str:
    kind = action["type"]
    paint = paint_name(action.get("paint"))
    if kind == "rotate":
        return _(ROTATE_LABELS[action["kind"]])
    if kind == "disc":
        return capitalized(" + ".join(disc_name(d) for d in action["discs"]))
    if kind == "turn":
        parts = [
            f"{disc_name(d)}: {turn_text(s)}"
            for d, s in zip(action["discs"], action["steps"], strict=True)
        ]
        return _("Turn {discs}").format(discs=", ".join(parts))
    if kind == "collect":
        return _("Collect {paint} from {disc} ({at})").format(
            paint=paint, disc=disc_name(action["disc"]), at=action["at"]
        )
    if kind == "segment":
        return _("{disc}, {at} segment ({paint})").format(
            disc=capitalized(disc_name(action["disc"])), at=action["at"], paint=paint
        )
    if kind == "paint":
        return _("Paint {card}").format(card=card_label(action["card"]))
    if kind == "cell":
        return _("Into cell {cell}").format(cell=cell_name(action["row"], action["col"]))
    if kind == "skip":
        return _("Leave {paint} unpaid (Thrift)").format(paint=paint)
    if kind == "fill":
        if action["paint"] is None:
            return _("Leave this space empty (Thrift)")
        return _("Put {paint} on the card").format(paint=paint)
    if kind == "place":
        return _("Place {paint} next").format(paint=paint)
    if kind == "insert":
        return _("Put {paint} at queue space {n}").format(paint=paint, n=action["position"] + 1)
    if kind == "places":
        return _("Queue spaces {first}–{last}…").format(
            first=action["first"] + 1, last=action["last"] + 1
        )
    if kind == "queue":
        return _("{paint} next to the queue end").format(paint=capitalized(paint))
    if kind == "mix":
        a, b = action["paints"]
        return _("Mix {a} + {b} → advanced").format(a=paint_name(a), b=paint_name(b))
    if kind == "technique":
        return _("Technique {label}").format(label=_(TECHNIQUE_LABELS[action["tile"]]))
    if kind == "swap":
        return _("Swap {give} → {take}").format(
            give=paint_name(action["give"]), take=paint_name(action["take"])
        )
    if kind == "copy":
        return _("Copy {paint} from the stock").format(paint=paint)
    if kind == "pick":
        return _("Take {paint} (queue space {n})").format(paint=paint, n=action["index"] + 1)
    if kind == "discard":
        return _("Discard {paint} to the queue end").format(paint=paint)
    return _(FIXED_LABELS[kind])


ROTATE_LABELS = {
    "simple": N_("Rotate: simple (1 disc, 1 step)"),
    "big": N_("Rotate: big (1 disc up to 4 steps, 1 grafiteiro)"),
    "double": N_("Rotate: double (2 adjacent discs 1 step each, 1 grafiteiro)"),
}
FIXED_LABELS = {
    "back": N_("← Back"),
    "pass": N_("Pass (out until next round)"),
    "end_turn": N_("End turn"),
}


def confirm(action: dict[str, Any]) -> str | None:
    """The question asked before an action a player cannot take back; a pass ends their round,
    so the panel asks first ("Pass (out until next round)" sits among everyday choices)."""
    if action["type"] != "pass":
        return None
    return _(
        "**Pass?** You will be out until the next round: no more turns this round. "
        "Confirm below, or choose another move."
    )


# -- the player's board ------------------------------------------------------------------------


def hand_text(view: dict[str, Any]) -> str:
    me = next((p for p in view["players"] if p["id"] == view.get("viewer")), None)
    if me is None:
        return _("You are watching: you have no board in this game.")
    pack = ", ".join(paint_name(p) for p in me["backpack"]) or _("empty")
    used = [technique_name(t) for t in me["techniques"]]
    lines = [
        _("**Backpack** ({n}/5): {paints}").format(n=len(me["backpack"]), paints=pack),
        _(
            "**Grafiteiros** {grafiteiros} · **sprays** {sprays} · big rotations {big}/2 · "
            "double {double}/2 this round"
        ).format(
            grafiteiros=me["grafiteiros"],
            sprays=me["sprays"],
            big=me["rotations"]["big"],
            double=me["rotations"]["double"],
        ),
        _("**Techniques used this round**: {techniques}").format(
            techniques=", ".join(used) or _("none")
        ),
    ]
    return "\n".join(lines + standing(view, me))


def standing(view: dict[str, Any], me: dict[str, Any]) -> list[str]:
    """The score so far, a pass, and the decision now: what no picture of the hand draws."""
    score = me["score"]
    lines = [
        _("**Score so far** {total} (cards {cards}, discs {discs}, paints {paints})").format(
            total=score["total"], cards=score["cards"], discs=score["discs"], paints=score["paints"]
        )
    ]
    if me["passed"]:
        lines.append(_("You have passed this round."))
    if view.get("current") == me["id"]:
        lines.append(_("**Now:** {decision}").format(decision=decision_text(view["turn"])))
    return lines


def panel_text(view: dict[str, Any]) -> str:
    """The hand panel's words above its picture: only what the picture does not draw (the
    rotations left, the score so far, a pass, the decision now); the backpack, sprays,
    grafiteiros and techniques used are drawn."""
    me = next((p for p in view["players"] if p["id"] == view.get("viewer")), None)
    if me is None:
        return hand_text(view)
    rotations = _("Big rotations {big}/2 · double {double}/2 this round").format(
        big=me["rotations"]["big"], double=me["rotations"]["double"]
    )
    return "\n".join([rotations, *standing(view, me)])


def decision_text(turn: dict[str, Any]) -> str:
    """What the player to move is choosing, from the public turn record."""
    pending = turn["pending"]
    if pending is None:
        if turn["main"]:
            return _("main action done — take free actions or End turn.")
        return _("free actions, then one main action (rotate, paint, a main technique) or pass.")
    do = pending["do"]
    if do == "rotate":
        if "discs" not in pending:
            return _(ROTATION_CHOICES[pending["kind"]])
        discs = join_names([disc_name(d) for d in pending["discs"]])
        return _("choose how far to turn {discs}.").format(discs=discs)
    if do == "paint":
        if "card" not in pending:
            return _("choose a card to paint with Thrift.")
        if "cell" not in pending:
            return _("choose a free cell for {card}.").format(card=pending["card"])
        if "paints" in pending:
            spaces = CARDS[pending["card"]].spaces
            return _("fill {card}'s spaces ({done} of {spaces} done).").format(
                card=pending["card"], done=len(pending["paints"]), spaces=spaces
            )
        return _("choose the basic paint Thrift leaves unpaid.")
    return _(DECISIONS[do])


ROTATION_CHOICES = {
    "simple": N_("choose the disc(s) for your simple rotation."),
    "big": N_("choose the disc(s) for your big rotation."),
    "double": N_("choose the disc(s) for your double rotation."),
    "master": N_("choose the disc(s) for your master rotation."),
}
DECISIONS = {
    "collect": N_("choose the paint to collect."),
    "order": N_("choose which paint goes to the end of the queue next."),
    "insert": N_("choose where your paints go in the queue, after its first 3."),
    "discard": N_("discard down to 5 paints."),
    "swap": N_("choose the paint to swap and the basic to take."),
    "copy": N_("choose the paint to copy."),
    "pick": N_("choose a paint from the front of the queue."),
    "transfer": N_("choose where the paint moves from and to."),
}


#: The step a panel's select asks for, by the type of the moves it offers (its placeholder).
STEPS = {
    "rotate": N_("Choose a rotation…"),
    "disc": N_("Choose a disc…"),
    "turn": N_("Choose how to turn the discs…"),
    "collect": N_("Choose a paint to collect…"),
    "segment": N_("Choose a segment…"),
    "paint": N_("Choose what to do…"),
    "cell": N_("Choose a cell of the mural…"),
    "fill": N_("Choose a paint for the card…"),
    "place": N_("Choose the next paint…"),
    "insert": N_("Choose a queue space…"),
    "pick": N_("Choose a paint to take…"),
    "discard": N_("Choose a paint to discard…"),
}
#: Moves taken for the player when they are the only one (nothing revealed, nothing to weigh).
AUTOMATIC = frozenset({"end_turn"})
#: A few options are buttons, a tap each, even on a turn's first decision (a pass alone).
BUTTONS = True
#: Decisions folded into the move before them on a panel (``bot.steps``): a rotation's disc,
#: how far it turns and the paint collected; a painting's cell. Each is one choice ("Simple ·
#: disc 2 ↺1 · take yellow (disc 3 W)"), the turn's end then taken alone or after free moves.
THEN = frozenset({"disc", "turn", "collect", "cell"})
#: The moves whose follow-ups fold: a technique's own discs and segments stay steps.
FOLD_FROM = frozenset({"rotate", "paint"})
#: A whole rotation or painting ends the turn when only free moves are left besides ending
#: it: a mix or a free technique is free at the start of the player's next turn too. Not on
#: the final lap (no next turn may come), nor when ending asks more (a discard down to 5).
ENDS_TURN = "end_turn"
CAN_WAIT = frozenset({"mix", "technique"})


def waits(view: dict[str, Any]) -> bool:
    """Whether the moves of ``CAN_WAIT`` can wait for the player's next turn: not once the
    final lap has begun."""
    return not view.get("trigger")


ROTATE_SHORT = {
    "simple": N_("Simple"),
    "big": N_("Big (1 grafiteiro)"),
    "double": N_("Double (1 grafiteiro)"),
}


ROTATE_GROUPS = {
    "simple": N_("Simple rotation (1 disc, 1 step)…"),
    "big": N_("Big rotation (1 disc up to 4 steps, 1 grafiteiro)…"),
    "double": N_("Double rotation (2 adjacent discs, 1 grafiteiro)…"),
}


def group_of(action: dict[str, Any]) -> str:
    """The select a whole rotation or painting is listed in on a panel (``bot.steps``)."""
    if action["type"] == "rotate":
        return _(ROTATE_GROUPS[action["kind"]])
    step = STEPS.get(action["type"])
    return _(step) if step else _("Choose your move…")


def chain_label(steps: tuple[dict[str, Any], ...], names: dict[str, str]) -> str:
    """A whole rotation or painting in short, as the board tells a turn: "Simple · disc 2 ↺1
    · take yellow (disc 3 W) · end turn", "Paint G05 DJ · cost A Y W · 7 pts · discs E S ·
    into B2"."""
    parts = []
    for step in steps:
        kind = step["type"]
        if kind == "rotate":
            parts.append(_(ROTATE_SHORT[step["kind"]]))
        elif kind == "turn":
            parts.append(
                ", ".join(
                    f"{disc_name(d)} {'↻' if n > 0 else '↺'}{abs(n)}"
                    for d, n in zip(step["discs"], step["steps"], strict=True)
                )
            )
        elif kind == "collect":
            parts.append(
                _("take {paint} ({disc} {at})").format(
                    paint=paint_name(step["paint"]), disc=disc_name(step["disc"]), at=step["at"]
                )
            )
        elif kind == "cell":
            parts.append(_("into {cell}").format(cell=cell_name(step["row"], step["col"])))
        elif kind == "end_turn":
            parts.append(_("end turn"))
        elif kind != "disc" or not any(s["type"] == "turn" for s in steps):  # turns name discs
            parts.append(_label(step))
    return " · ".join(parts)
