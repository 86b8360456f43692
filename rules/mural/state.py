"""Street Art: Mural's state: its shape and options, the setup, and what is possible in it.

The state is a plain JSON-able dict (see ``engine.Mural.start`` for its keys). Everything here
reads a state and changes nothing; the effects of actions are in ``effects``, the choices of a
pending decision in ``choices``.
"""

from __future__ import annotations

from collections import Counter
from dataclasses import asdict, dataclass
from typing import Any

from rules.mural import discs as geometry
from rules.mural.data import (
    ADVANCED_ROTATION_USES,
    BASICS,
    CARDS,
    DISC_SIDES,
    DISCS,
    GRAFITEIROS,
    MURALS,
    QUEUE_ON_BOARD,
    SLOT_NAMES,
    SLOTS,
    SPRAYS,
    TECHNIQUES,
    Card,
    MuralLayout,
)
from rules.mural.scoring import score_sheet
from rules.protocol import Action, IllegalAction, Outcome, rng

GAME_ID = "street-art-mural"
FORMAT_VERSION = 1
PLAY = "play"
OVER = "over"
State = dict[str, Any]
BACK: Action = {"type": "back"}
QUEUE_END = "queue_end"
AFTER_FIRST_3 = "after_first_3"
#: A select menu holds 25 choices. With painting_discards=after_first_3, a longer list of queue
#: places is split, as the Street Kings shop splits its list: first a range of at most
#: ``INSERT_RANGE`` places, then a place in it (or "back" to the ranges).
MAX_CHOICES = 25
INSERT_RANGE = 24


@dataclass(frozen=True)
class Options:
    """The table's options. ``disc_sides``: "A" (recommended first game), "B" or "random"
    (setup step 1). ``master_turn_may_hold``: technique 6 may leave one disc still (B ambiguity
    6b, off by default). ``painting_discards``: "queue_end" (B ambiguity a of painting) or
    "after_first_3", the alternative reading (b): each paid paint goes anywhere after the
    queue's first 3 paints."""

    disc_sides: str = "A"
    master_turn_may_hold: bool = False
    painting_discards: str = QUEUE_END


DEFAULT_OPTIONS: dict[str, Any] = asdict(Options())


def options_from(merged: dict[str, Any]) -> Options:
    if merged["disc_sides"] not in ("A", "B", "random"):
        raise IllegalAction("The option disc_sides must be A, B or random.")
    if not isinstance(merged["master_turn_may_hold"], bool):
        raise IllegalAction("The option master_turn_may_hold must be true or false.")
    if merged["painting_discards"] not in (QUEUE_END, AFTER_FIRST_3):
        raise IllegalAction("The option painting_discards must be queue_end or after_first_3.")
    return Options(**merged)


def cell_name(row: int, col: int) -> str:
    """A cell as players say it: column letter, row number (A1 is the top left)."""
    return f"{'ABCDE'[col]}{row + 1}"


def counts(paints: list[str]) -> Counter[str]:
    return Counter(paints)


# -- setup -------------------------------------------------------------------------------------


def setup_discs(seed: str, options: Options) -> list[dict[str, Any]]:
    """Setup 1-3: discs in random positions ("A posição dos discos não importa"), sides by the
    option, turned "para que 3 pares de segmentos de cores iguais estejam alinhados" (the C3
    algorithm), and "1 cubo de tinta Básica em cada segmento da cor correspondente"."""
    generator = rng(seed, 1)
    names = sorted(DISC_SIDES)
    generator.shuffle(names)
    discs: list[dict[str, Any]] = []
    for name in names:
        side = options.disc_sides if options.disc_sides != "random" else generator.choice("AB")
        colours = DISC_SIDES[name][side]
        discs.append(
            {
                "disc": name,
                "side": side,
                "colours": colours,
                "orientation": 0,
                "cubes": list(colours),
            }
        )
    discs[0]["orientation"] = generator.randrange(SLOTS)
    for k in range(DISCS - 1):
        left, right = discs[k], discs[k + 1]
        colour = left["colours"][geometry.segment_at(left, 0)]
        choices = [(4 - s) % SLOTS for s in range(SLOTS) if right["colours"][s] == colour]
        right["orientation"] = generator.choice(choices)
    return discs


def new_seat(player: str, count: int) -> dict[str, Any]:
    return {
        "player": player,
        "backpack": [],
        "grafiteiros": GRAFITEIROS[count],
        "rotations": {"big": 0, "double": 0},
        "techniques": [],
        "sprays": SPRAYS[count],
        "passed": False,
    }


# -- the state's parts -------------------------------------------------------------------------


def seat_of(state: State, player: str) -> dict[str, Any]:
    return state["seats"][state["players"].index(player)]


def layout(state: State) -> MuralLayout:
    return MURALS[len(state["players"])]


def free_cells(state: State) -> list[tuple[int, int]]:
    return [
        (r, c)
        for r, cells in enumerate(state["mural"])
        for c, cell in enumerate(cells)
        if cell is None
    ]


def revealed(state: State) -> list[str]:
    """Setup 6: one tile revealed in round 1; "Revele a segunda peça" at the end of round 1."""
    return state["techniques"][: state["round"]]


def can_pay(backpack: list[str], card: Card, thrift: bool) -> bool:
    """Whether ``backpack`` pays ``card``; with Thrift "sem gastar 1 tinta básica" (a cost with
    no basic gets no reduction; a flexible card may leave one space empty, B ambiguity 5c)."""
    if card.flexible:
        return len(backpack) >= card.spaces - (1 if thrift else 0)
    need = counts(list(card.cost or ""))
    have = counts(backpack)
    short = sum(max(0, n - have[p]) for p, n in need.items())
    if short == 0:
        return True
    if not thrift:
        return False
    return short == 1 and any(need[b] > have[b] for b in BASICS)


def thrift_skips(backpack: list[str], card: Card) -> list[str]:
    """The basic paints of a fixed cost that Thrift may leave unpaid, keeping the rest payable."""
    cost = list(card.cost or "")
    out = []
    for basic in BASICS:
        if basic in cost:
            rest = list(cost)
            rest.remove(basic)
            if not counts(rest) - counts(backpack):
                out.append(basic)
    return out


def rotation_options(state: State, kind: str) -> list[geometry.Rotation]:
    """Every rotation of ``kind`` that lets its player collect. "Após qualquer tipo de giro, o
    jogador deve recolher uma tinta", so a rotation whose new same-colour pairs are all empty
    is not legal (B ambiguity a: "a legal rotation must allow a collection"; C4)."""
    return [r for r in _rotations(state, kind) if geometry.collectable(state["discs"], r)]


def rotation_possible(state: State, kind: str) -> bool:
    """Whether some rotation of ``kind`` lets its player collect: ``rotation_options`` stopped
    at the first (the menus ask this of every kind on every turn, and an AI's search asks it
    thousands of times a decision)."""
    return any(geometry.collectable(state["discs"], r) for r in _rotations(state, kind))


def _rotations(state: State, kind: str) -> list[geometry.Rotation]:
    """The rotations of ``kind``, collecting or not."""
    if kind == "simple":
        candidates = geometry.simple_rotations()
    elif kind == "big":
        candidates = [((d,), (s,)) for d in range(DISCS) for s in geometry.big_steps()]
    elif kind == "double":
        candidates = geometry.pair_rotations((1, -1))
    else:  # master (technique 6)
        steps = (1, 2, -1, -2) + ((0,) if state["options"]["master_turn_may_hold"] else ())
        candidates = geometry.pair_rotations(steps)
    return candidates


# -- what is possible --------------------------------------------------------------------------


def scores(state: State) -> dict[str, dict[str, int]]:
    return score_sheet(
        state["mural"],
        layout(state),
        state["tokens"],
        state["players"],
        [seat["backpack"] for seat in state["seats"]],
    )


def advanced_rotation_free(seat: dict[str, Any], kind: str) -> bool:
    """ "ao colocar 1 Grafiteiro no espaço da ação desejada (cada ação pode ser usada até duas
    vezes em cada rodada)", per player (B ambiguity c)."""
    return seat["grafiteiros"] > 0 and seat["rotations"][kind] < ADVANCED_ROTATION_USES


def paintable(state: State, thrift: bool) -> list[str]:
    """Display cards the current player can pay, with a free cell and a spray to mark it ("a
    carta do topo do baralho não pode ser escolhida": only the display)."""
    seat = state["seats"][state["current"]]
    if seat["sprays"] == 0 or not free_cells(state):
        return []
    return [c for c in state["display"] if can_pay(seat["backpack"], CARDS[c], thrift)]


def technique_usable(state: State, tile: str) -> bool:
    """ "Se um jogador não possuir mais grafiteiros ele não poderá usar essas ações especiais
    nessa rodada. [...] Você não pode realizá-la novamente nesta rodada." And the effect must
    be possible now."""
    seat = state["seats"][state["current"]]
    if tile not in revealed(state) or tile in seat["techniques"] or seat["grafiteiros"] == 0:
        return False
    if TECHNIQUES[tile].main and state["turn"]["main"]:
        return False
    backpack = seat["backpack"]
    if tile in ("BT1", "BT2"):
        return bool(backpack)
    if tile == "BT3":
        return bool(state["queue"])
    if tile == "BT4":
        return any(p is not None for d in state["discs"] for p in d["cubes"])
    if tile == "BT5":
        return bool(paintable(state, thrift=True))
    return rotation_possible(state, "master")


def mix_options(backpack: list[str]) -> list[Action]:
    """ "Troque 2 Tintas Básicas por 1 Tinta Avançada": each pair of basics held."""
    have = counts(backpack)
    out = []
    for i, a in enumerate(BASICS):
        for b in BASICS[i:]:
            if (a == b and have[a] >= 2) or (a != b and have[a] and have[b]):
                out.append({"type": "mix", "paints": [a, b]})
    return out


def segment_choice(state: State, kind: str, disc: int, segment: int) -> Action:
    """A choice of one segment, naming the paint on it and where it sits now (compass slot)."""
    where = state["discs"][disc]
    slot = (segment + where["orientation"]) % SLOTS
    return {
        "type": kind,
        "disc": disc,
        "segment": segment,
        "paint": where["cubes"][segment],
        "at": SLOT_NAMES[slot],
    }


def unordered_tail(table: State) -> list[str]:
    """The queue's last paints whose order the player is still choosing."""
    return table["queue"][-table["turn"]["pending"]["count"] :]


def insert_positions(queue_length: int, waiting: int) -> list[int]:
    """Every place a waiting paint may go: after the first 3 (or the whole queue's end, if it
    is shorter), up to the paints still waiting at the end."""
    base = queue_length - waiting
    return list(range(min(QUEUE_ON_BOARD, base), base + 1))


def outcome_of(state: State) -> Outcome:
    """Scoring items 1-3; ties: "vence quem possuir mais sprays no mural, caso o empate
    permaneça, vence quem pontuou mais no critério I [...] vence quem agiu antes pela ordem
    de turno na última rodada"."""
    sheet = scores(state)
    players = state["players"]
    n = len(players)
    order = {players[(state["round_first"] + i) % n]: i for i in range(n)}
    ranking = sorted(
        players,
        key=lambda p: (-sheet[p]["total"], -sheet[p]["sprays"], -sheet[p]["cards"], order[p]),
    )
    return Outcome(
        scores={p: sheet[p]["total"] for p in players},
        winners=[ranking[0]],
        details={
            "ended_by": state["ended_by"],
            "sheet": sheet,
            "ranking": ranking,
            "last_round_order": sorted(players, key=order.__getitem__),
        },
    )
