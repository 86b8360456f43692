"""Street Art: Mural in words: event sentences, action labels, the player's board, the rules."""

from __future__ import annotations

from typing import Any

from bot.words.common import game_over, join_names, name_of
from rules.mural.data import CARDS, COLOUR_NAMES, TECHNIQUES
from rules.mural.state import cell_name

PLAYERS = "2–4 players"

OPTIONS = {
    "disc_sides": "Which side of the four paint discs is used: A (recommended for a first "
    "game), B, or random per disc.",
    "master_turn_may_hold": "The Master turn technique may leave one of its two discs still.",
    "painting_discards": "Where a painting's paid paints go: queue_end (the rulebook) or "
    "after_first_3 (anywhere after the queue's first three spaces).",
}

RULES = """\
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
`/mural end-turn`, or the **My hand** button."""

#: Each technique in a few words, for a button or select option.
TECHNIQUE_LABELS = {
    "BT1": "Swap: a backpack paint for a basic of your choice",
    "BT2": "Copy: take a paint like one in your backpack",
    "BT3": "Queue Pick: take 1 of the first 3 queue paints",
    "BT4": "Transfer: move a paint to another disc",
    "BT5": "Thrift (main action): paint a card with 1 basic less",
    "BT6": "Master Turn (main action): 2 adjacent discs ≤ 2 steps, collect 1",
}
STEP_WORDS = {1: "1 step", 2: "2 steps", 3: "3 steps", 4: "4 steps"}


def paint_name(paint: str | None) -> str:
    return "empty" if paint is None else COLOUR_NAMES[paint]


def paints_text(paints: list[str]) -> str:
    return " ".join(paints) if paints else "nothing"


def disc_name(position: int) -> str:
    return f"disc {position + 1}"


def turn_text(steps: int) -> str:
    arrow = "↻" if steps > 0 else "↺"
    return f"{STEP_WORDS[abs(steps)]} {arrow}" if steps else "stays"


def technique_name(tile: str) -> str:
    return TECHNIQUES[tile].name


def card_cost(card_id: str) -> str:
    card = CARDS[card_id]
    if card.flexible:
        return f"any {card.spaces} paints"
    return " ".join(card.cost or "")


def card_label(card_id: str) -> str:
    """E.g. "G05 DJ · cost A Y W · 7 pts · half-discs E S"."""
    card = CARDS[card_id]
    points = "2+paints" if card.flexible else f"{card.points} pts"
    return f"{card.id} {card.element} · cost {card_cost(card_id)} · {points} · discs {card.edges}"


# -- events ------------------------------------------------------------------------------------


def describe(events: list[dict[str, Any]], names: dict[str, str]) -> list[str]:
    """One sentence per step worth telling; a rotation and the paint collected after it share
    one ("Bo made a simple rotation: disc 2 1 step ↺ and collected red.")."""
    lines: list[str] = []
    rotated: dict[str, Any] | None = None
    for event in events:
        if rotated is not None:
            said = f"{name_of(names, rotated['player'])} made a {_rotation(rotated)}"
            rotated = None
            if event["type"] == "collected":
                lines.append(f"{said} and collected {paint_name(event['paint'])}.")
                continue
            lines.append(said + ".")
        if event["type"] == "rotated":
            rotated = event
            continue
        line = _describe_one(event, names)
        if line:
            lines.append(line)
    if rotated is not None:
        lines.append(f"{name_of(names, rotated['player'])} made a {_rotation(rotated)}.")
    return lines


def _rotation(event: dict[str, Any]) -> str:
    parts = [
        f"{disc_name(d)}: {turn_text(s)}"
        for d, s in zip(event["discs"], event["steps"], strict=True)
    ]
    kind = {"simple": "simple", "big": "big", "double": "double", "master": "Master Turn"}
    return f"{kind[event['kind']]} rotation ({join_names(parts)})"


def _describe_one(event: dict[str, Any], names: dict[str, str]) -> str:
    kind = event["type"]
    who = name_of(names, event.get("player"))
    if kind == "collected":
        return f"{who} collected {paint_name(event['paint'])}."
    if kind == "painted":
        where = cell_name(*event["cell"])
        thrift = " with Thrift" if event["thrift"] else ""
        return (
            f"{who} painted **{event['card']}** ({CARDS[event['card']].element}) in {where}"
            f"{thrift}, paying {paints_text(event['paid'])}."
        )
    if kind == "mixed":
        a, b = (paint_name(p) for p in event["paints"])
        return f"{who} mixed {a} and {b} into an advanced paint."
    if kind == "technique":
        return f"{who} used the technique **{technique_name(event['tile'])}**."
    if kind == "swapped":
        return f"{who} swapped {paint_name(event['give'])} for {paint_name(event['take'])}."
    if kind == "copied":
        return f"{who} copied {paint_name(event['paint'])} from the stock."
    if kind == "picked":
        return f"{who} took {paint_name(event['paint'])} from the queue."
    if kind == "transferred":
        return (
            f"{who} moved {paint_name(event['paint'])} from {disc_name(event['from'][0])} "
            f"to {disc_name(event['to'][0])}."
        )
    if kind == "discarded":
        return f"{who} discarded {paints_text(event['paints'])} down to 5 paints."
    if kind == "passed":
        return f"{who} passed."
    if kind == "first_player":
        return f"{who} takes the first-player marker."
    if kind == "end_triggered":
        why = "placed their last spray" if event["reason"] == "sprays" else "filled the mural"
        return f"⏳ {who} {why}: the game ends after the player right of the first player."
    if kind == "round_over":
        return (
            f"🔁 Round 1 is over: grafiteiros back, **{technique_name(event['revealed'])}** "
            "revealed, discs refilled. Round 2 begins."
        )
    if kind == "game_over":
        return game_over(event, names, lambda n: f"{n} points")
    if kind == "inserted":
        return f"{who} put {paint_name(event['paint'])} at queue space {event['position'] + 1}."
    return ""  # "queued", "ordered" and "turn" are shown by the board and the mention


# -- actions -----------------------------------------------------------------------------------


def action_label(action: dict[str, Any], names: dict[str, str]) -> str:
    label = _label(action)
    return label if len(label) <= 80 else label[:79] + "…"


def _label(action: dict[str, Any]) -> str:
    kind = action["type"]
    if kind == "rotate":
        return {
            "simple": "Rotate: simple (1 disc, 1 step)",
            "big": "Rotate: big (1 disc up to 4 steps, 1 grafiteiro)",
            "double": "Rotate: double (2 adjacent discs 1 step each, 1 grafiteiro)",
        }[action["kind"]]
    if kind == "disc":
        return " + ".join(disc_name(d) for d in action["discs"]).capitalize()
    if kind == "turn":
        parts = [
            f"{disc_name(d)}: {turn_text(s)}"
            for d, s in zip(action["discs"], action["steps"], strict=True)
        ]
        return "Turn " + ", ".join(parts)
    if kind == "collect":
        where = f"{disc_name(action['disc'])} ({action['at']})"
        return f"Collect {paint_name(action['paint'])} from {where}"
    if kind == "segment":
        where = f"{disc_name(action['disc']).capitalize()}, {action['at']} segment"
        return f"{where} ({paint_name(action['paint'])})"
    if kind == "paint":
        return f"Paint {card_label(action['card'])}"
    if kind == "cell":
        return f"Into cell {cell_name(action['row'], action['col'])}"
    if kind == "skip":
        return f"Leave {paint_name(action['paint'])} unpaid (Thrift)"
    if kind == "fill":
        if action["paint"] is None:
            return "Leave this space empty (Thrift)"
        return f"Put {paint_name(action['paint'])} on the card"
    if kind == "place":
        return f"Place {paint_name(action['paint'])} next"
    if kind == "insert":
        return f"Put {paint_name(action['paint'])} at queue space {action['position'] + 1}"
    if kind == "places":
        return f"Queue spaces {action['first'] + 1}–{action['last'] + 1}…"
    if kind == "queue":
        return f"{paint_name(action['paint']).capitalize()} next to the queue end"
    if kind == "mix":
        a, b = action["paints"]
        return f"Mix {paint_name(a)} + {paint_name(b)} → advanced"
    if kind == "technique":
        return f"Technique {TECHNIQUE_LABELS[action['tile']]}"
    if kind == "swap":
        return f"Swap {paint_name(action['give'])} → {paint_name(action['take'])}"
    if kind == "copy":
        return f"Copy {paint_name(action['paint'])} from the stock"
    if kind == "pick":
        return f"Take {paint_name(action['paint'])} (queue space {action['index'] + 1})"
    if kind == "discard":
        return f"Discard {paint_name(action['paint'])} to the queue end"
    return {"back": "← Back", "pass": "Pass (out until next round)", "end_turn": "End turn"}[kind]


def confirm(action: dict[str, Any]) -> str | None:
    """The question asked before an action a player cannot take back; a pass ends their round,
    so the panel asks first ("Pass (out until next round)" sits among everyday choices)."""
    if action["type"] != "pass":
        return None
    return (
        "**Pass?** You will be out until the next round: no more turns this round. "
        "Confirm below, or choose another move."
    )


# -- the player's board ------------------------------------------------------------------------


def hand_text(view: dict[str, Any]) -> str:
    me = next((p for p in view["players"] if p["id"] == view.get("viewer")), None)
    if me is None:
        return "You are watching: you have no board in this game."
    pack = ", ".join(paint_name(p) for p in me["backpack"]) or "empty"
    used = [technique_name(t) for t in me["techniques"]]
    score = me["score"]
    lines = [
        f"**Backpack** ({len(me['backpack'])}/5): {pack}",
        f"**Grafiteiros** {me['grafiteiros']} · **sprays** {me['sprays']} · big rotations "
        f"{me['rotations']['big']}/2 · double {me['rotations']['double']}/2 this round",
        f"**Techniques used this round**: {', '.join(used) or 'none'}",
        f"**Score so far** {score['total']} (cards {score['cards']}, discs {score['discs']}, "
        f"paints {score['paints']})",
    ]
    if me["passed"]:
        lines.append("You have passed this round.")
    if view.get("current") == me["id"]:
        lines.append(f"**Now:** {decision_text(view['turn'])}")
    return "\n".join(lines)


def decision_text(turn: dict[str, Any]) -> str:
    """What the player to move is choosing, from the public turn record."""
    pending = turn["pending"]
    if pending is None:
        if turn["main"]:
            return "main action done — take free actions or End turn."
        return "free actions, then one main action (rotate, paint, a main technique) or pass."
    do = pending["do"]
    if do == "rotate":
        if "discs" not in pending:
            return f"choose the disc(s) for your {pending['kind']} rotation."
        return f"choose how far to turn {' and '.join(disc_name(d) for d in pending['discs'])}."
    if do == "paint":
        if "card" not in pending:
            return "choose a card to paint with Thrift."
        if "cell" not in pending:
            return f"choose a free cell for {pending['card']}."
        if "paints" in pending:
            spaces = CARDS[pending["card"]].spaces
            return f"fill {pending['card']}'s spaces ({len(pending['paints'])} of {spaces} done)."
        return "choose the basic paint Thrift leaves unpaid."
    return {
        "collect": "choose the paint to collect.",
        "order": "choose which paint goes to the end of the queue next.",
        "insert": "choose where your paints go in the queue, after its first 3.",
        "discard": "discard down to 5 paints.",
        "swap": "choose the paint to swap and the basic to take.",
        "copy": "choose the paint to copy.",
        "pick": "choose a paint from the front of the queue.",
        "transfer": "choose where the paint moves from and to.",
    }[do]
