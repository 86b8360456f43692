"""The Street Art: Mural rules engine: setup, a turn as small decisions, rounds, the end.

Source of truth: the Portuguese rulebook (../shared/rulebooks/street-art-mural.pt.txt); its
translation, the ambiguity readings and the data are Parts B and C of street-art-mural.en.md.
The state is a plain JSON-able dict (``dump`` is a deep copy), so ``load(dump(s)) == s``.

A turn is a sequence of decisions by one player: free actions (mix, free techniques), one main
action (a rotation, painting, a main technique, or passing), more free actions, then "end
turn". A compound action is a ``pending`` decision in the state (for instance "paint G05" then
"into cell B2"), each with a short ``legal()`` list; "back" leaves a pending choice before it
commits anything.

Readings beyond Part B/C (each also stated where it is implemented):

- The first player is drawn from the seed (the rulebook asks who made art most recently).
- The display cards and the deck top are public in full (cost, points, element, half-discs):
  the cost side faces up and a player must see a card's half-discs to plan its placement.
- The stock is unlimited (C1); the state counts the cubes ever taken from it, so every cube in
  play is accounted for (discs + queue + backpacks + cards == taken).
- Discarded paints go to the queue end one at a time in the order the player picks; the choice
  is asked only while the remaining discards differ.
- A player who took a free action and then has no main action left may still pass (they
  "precisam passar"); otherwise a free action and passing never share a turn.
- Painting needs a spray to put on the card; a player with no spray left cannot paint.
- The game-end lap: after the trigger the game ends when a finished turn would hand play to
  the first-player-marker holder again (the seat to their right has had its turn, or has passed).
"""

from __future__ import annotations

import copy
from collections import Counter
from dataclasses import asdict, dataclass
from typing import Any

from rules.mural import discs as geometry
from rules.mural.data import (
    ADVANCED,
    ADVANCED_ROTATION_USES,
    BACKPACK_LIMIT,
    BASICS,
    CARDS,
    DISC_SIDES,
    DISCS,
    DISPLAY_SIZE,
    ELEMENTS,
    GRAFITEIROS,
    MURALS,
    PAINTS,
    QUEUE_ON_BOARD,
    SIDES,
    SLOT_NAMES,
    SLOTS,
    SPRAYS,
    TECHNIQUES,
    Card,
    MuralLayout,
)
from rules.mural.scoring import bonus_grid, score_sheet
from rules.protocol import Action, Event, IllegalAction, Outcome, View, merge_options, rng

GAME_ID = "street-art-mural"
FORMAT_VERSION = 1
PLAY = "play"
OVER = "over"
State = dict[str, Any]
BACK: Action = {"type": "back"}
QUEUE_END = "queue_end"
AFTER_FIRST_3 = "after_first_3"
#: With painting_discards=after_first_3, the places offered for one paint: the first this many
#: after the queue's 3rd paint, and always the queue end (a select menu holds 25 choices).
INSERT_CHOICES = 24


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


def _options_from(merged: dict[str, Any]) -> Options:
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


def _setup_discs(seed: str, options: Options) -> list[dict[str, Any]]:
    """Setup 1-3: discs in random positions ("A posição dos discos não importa"), sides by the
    option, turned "para que 3 pares de segmentos de cores iguais estejam alinhados" (the C3
    algorithm), and "1 cubo de tinta Básica em cada segmento da cor correspondente"."""
    generator = rng(seed, 1)
    names = sorted(DISC_SIDES)
    generator.shuffle(names)
    discs = []
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


def _seat(player: str, count: int) -> dict[str, Any]:
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
    if kind == "simple":
        candidates = geometry.simple_rotations()
    elif kind == "big":
        candidates = [((d,), (s,)) for d in range(DISCS) for s in geometry.big_steps()]
    elif kind == "double":
        candidates = geometry.pair_rotations((1, -1))
    else:  # master (technique 6)
        steps = (1, 2, -1, -2) + ((0,) if state["options"]["master_turn_may_hold"] else ())
        candidates = geometry.pair_rotations(steps)
    return [r for r in candidates if geometry.collectable(state["discs"], r)]


# -- the game object ---------------------------------------------------------------------------


class Mural:
    """The Street Art: Mural game object registered in ``rules.GAMES``."""

    id = GAME_ID
    title = "Street Art: Mural"
    min_players = 2
    max_players = 4

    @property
    def default_options(self) -> dict[str, Any]:
        return dict(DEFAULT_OPTIONS)

    def start(self, players: list[str], seed: str, options: dict[str, Any] | None = None) -> State:
        """Setup steps 1-10 for 2-4 players (see the helpers for each step)."""
        opts = _options_from(merge_options(self, options))
        players = list(players)
        if not 2 <= len(players) <= 4:
            raise IllegalAction("Street Art: Mural needs 2 to 4 players.")
        if len(set(players)) != len(players):
            raise IllegalAction("Each player may take only one seat.")
        seed = str(seed)
        count = len(players)
        generator = rng(seed, 0)
        queue = list(BASICS)
        generator.shuffle(queue)  # step 4: "coloque aleatoriamente no início da fila"
        tokens = list(ELEMENTS)
        generator.shuffle(tokens)  # step 5
        techniques = sorted(TECHNIQUES)
        generator.shuffle(techniques)  # step 6: reveal 1, 1 face down, the rest to the box
        deck = sorted(CARDS)
        generator.shuffle(deck)  # step 7
        first = generator.randrange(count)  # step 10, drawn (reading)
        size = DISPLAY_SIZE[count]
        grid = MURALS[count]
        taken = {p: 0 for p in PAINTS}
        for basic in BASICS:
            taken[basic] = 2 * DISCS + 1  # two segments per disc, one cube in the queue
        return {
            "game": GAME_ID,
            "version": FORMAT_VERSION,
            "seed": seed,
            "options": asdict(opts),
            "players": players,
            "rng": 2,
            "discs": _setup_discs(seed, opts),
            "queue": queue,
            "taken": taken,
            "mural": [[None] * grid.cols for _ in range(grid.rows)],
            "tokens": dict(zip(SIDES, tokens, strict=True)),
            "techniques": techniques[:2],
            "display": deck[:size],
            "deck": deck[size:],
            "seats": [_seat(p, count) for p in players],
            "round": 1,
            "first": first,
            "round_first": first,
            "first_passed": False,
            "current": first,
            "phase": PLAY,
            "turn": {"main": False, "free": False, "pending": None, "log": []},
            "turns": 1,
            "trigger": None,
            "ended_by": None,
            "last": None,
            "previous": None,
        }

    # -- queries -----------------------------------------------------------------------------

    def to_move(self, state: State) -> list[str]:
        if state["phase"] == OVER:
            return []
        return [state["players"][state["current"]]]

    def legal(self, state: State, player: str) -> list[Action]:
        if player not in self.to_move(state):
            return []
        pending = state["turn"]["pending"]
        if pending is None:
            return self._top_level(state)
        return _PENDING_CHOICES[pending["do"]](state, pending)

    def _top_level(self, state: State) -> list[Action]:
        """The turn's menu: the main actions while none is taken, the free actions, pass or
        end turn."""
        seat = state["seats"][state["current"]]
        turn = state["turn"]
        actions: list[Action] = []
        mains = self._main_actions(state) if not turn["main"] else []
        actions.extend(mains)
        actions.extend(mix_options(seat["backpack"]))
        actions.extend(
            {"type": "technique", "tile": t}
            for t in revealed(state)
            if not TECHNIQUES[t].main and technique_usable(state, t)
        )
        if turn["main"]:
            actions.append({"type": "end_turn"})
        elif not turn["free"] or not mains:
            actions.append({"type": "pass"})
        return actions

    def _main_actions(self, state: State) -> list[Action]:
        seat = state["seats"][state["current"]]
        actions: list[Action] = []
        for kind in ("simple", "big", "double"):
            if kind != "simple" and not advanced_rotation_free(seat, kind):
                continue
            if rotation_options(state, kind):
                actions.append({"type": "rotate", "kind": kind})
        actions.extend({"type": "paint", "card": c} for c in paintable(state, thrift=False))
        actions.extend(
            {"type": "technique", "tile": t}
            for t in revealed(state)
            if TECHNIQUES[t].main and technique_usable(state, t)
        )
        return actions

    def outcome(self, state: State) -> Outcome | None:
        """Scoring items 1-3; ties: "vence quem possuir mais sprays no mural, caso o empate
        permaneça, vence quem pontuou mais no critério I [...] vence quem agiu antes pela ordem
        de turno na última rodada"."""
        if state["phase"] != OVER:
            return None
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

    def view(self, state: State, player: str | None) -> View:
        """Everything on the table: discs, queue, mural, display and deck top, the revealed
        techniques, each player's board. Never the deck below its top card, the face-down
        technique or the tiles in the box, nor the seed."""
        result = self.outcome(state)
        sheet = scores(state)
        seats = []
        for index, seat in enumerate(state["seats"]):
            seats.append(
                {
                    "id": seat["player"],
                    "seat": index,
                    "backpack": sorted(seat["backpack"], key=PAINTS.index),
                    "grafiteiros": seat["grafiteiros"],
                    "rotations": dict(seat["rotations"]),
                    "techniques": list(seat["techniques"]),
                    "sprays": seat["sprays"],
                    "passed": seat["passed"],
                    "score": sheet[seat["player"]],
                }
            )
        return {
            "game": GAME_ID,
            "viewer": player,
            "players": seats,
            "discs": [
                {
                    "disc": d["disc"],
                    "side": d["side"],
                    "colours": d["colours"],
                    "orientation": d["orientation"],
                    "cubes": list(d["cubes"]),
                }
                for d in state["discs"]
            ],
            "contacts": geometry.aligned_contacts(state["discs"]),
            "queue": list(state["queue"]),
            "queue_on_board": QUEUE_ON_BOARD,
            "mural": copy.deepcopy(state["mural"]),
            "bonuses": bonus_grid(state["mural"], layout(state), state["tokens"]),
            "tokens": dict(state["tokens"]),
            "token_cells": {side: list(cell) for side, cell in layout(state).tokens.items()},
            "display": list(state["display"]),
            "deck_top": state["deck"][0] if state["deck"] else None,
            "deck_size": len(state["deck"]),
            "techniques": revealed(state),
            "hidden_techniques": len(state["techniques"]) - len(revealed(state)),
            "round": state["round"],
            "first": state["players"][state["first"]],
            "current": None if state["phase"] == OVER else state["players"][state["current"]],
            "to_move": self.to_move(state),
            "turn": copy.deepcopy(state["turn"]),
            "turns": state["turns"],
            "trigger": copy.deepcopy(state["trigger"]),
            "last": copy.deepcopy(state["last"]),
            "previous": copy.deepcopy(state["previous"]),
            "outcome": None if result is None else result.to_json(),
        }

    # -- moves -------------------------------------------------------------------------------

    def play(self, state: State, player: str, action: Action) -> tuple[State, list[Event]]:
        if state["phase"] == OVER:
            raise IllegalAction("The game is over.")
        if player not in state["players"]:
            raise IllegalAction("You are not playing in this game.")
        if player not in self.to_move(state):
            raise IllegalAction("It is not your turn.")
        if not isinstance(action, dict) or action not in self.legal(state, player):
            raise IllegalAction(why_not(state, action))
        table = copy.deepcopy(state)
        events: list[Event] = []
        _APPLY[action["type"]](table, action, events)
        table["last"] = {"player": player, "events": copy.deepcopy(events)}
        _remember_turn(state, table, player, events)
        return table, events

    # -- storage -----------------------------------------------------------------------------

    def dump(self, state: State) -> dict[str, Any]:
        return copy.deepcopy(state)

    def load(self, data: dict[str, Any]) -> State:
        if data.get("game") != GAME_ID or data.get("version") != FORMAT_VERSION:
            raise ValueError(
                f"not a Street Art: Mural state of format version {FORMAT_VERSION}: "
                f"game={data.get('game')!r}, version={data.get('version')!r}"
            )
        return copy.deepcopy(data)


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
    return bool(rotation_options(state, "master"))


def mix_options(backpack: list[str]) -> list[Action]:
    """ "Troque 2 Tintas Básicas por 1 Tinta Avançada": each pair of basics held."""
    have = counts(backpack)
    out = []
    for i, a in enumerate(BASICS):
        for b in BASICS[i:]:
            if (a == b and have[a] >= 2) or (a != b and have[a] and have[b]):
                out.append({"type": "mix", "paints": [a, b]})
    return out


# -- pending decisions -------------------------------------------------------------------------


def _rotation_choices(state: State, pending: dict[str, Any]) -> list[Action]:
    options = rotation_options(state, pending["kind"])
    if "discs" not in pending:
        firsts = sorted({r[0] for r in options})
        return [{"type": "disc", "discs": list(d)} for d in firsts] + [BACK]
    chosen = tuple(pending["discs"])
    return [
        {"type": "turn", "discs": list(d), "steps": list(s)} for d, s in options if d == chosen
    ] + [BACK]


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


def _collect_choices(state: State, pending: dict[str, Any]) -> list[Action]:
    return [segment_choice(state, "collect", d, s) for d, s in pending["options"]]


def _paint_choices(state: State, pending: dict[str, Any]) -> list[Action]:
    seat = state["seats"][state["current"]]
    if "card" not in pending:  # Thrift: which card
        return [{"type": "paint", "card": c} for c in paintable(state, thrift=True)] + [BACK]
    if "cell" not in pending:
        return [{"type": "cell", "row": r, "col": c} for r, c in free_cells(state)] + [BACK]
    card = CARDS[pending["card"]]
    if not card.flexible:  # only Thrift on a fixed cost asks: which basic to leave unpaid
        return [{"type": "skip", "paint": p} for p in thrift_skips(seat["backpack"], card)]
    left = list(seat["backpack"])
    for p in pending["paints"]:
        if p is not None:
            left.remove(p)
    may_skip = pending["thrift"] and None not in pending["paints"]
    # can_pay checked there are enough paints; each choice keeps that true.
    out: list[Action] = [{"type": "fill", "paint": p} for p in PAINTS if p in left]
    if may_skip:
        out.append({"type": "fill", "paint": None})
    return out


def _order_choices(state: State, pending: dict[str, Any]) -> list[Action]:
    return [{"type": "queue", "paint": p} for p in PAINTS if p in unordered_tail(state)]


def _insert_choices(state: State, pending: dict[str, Any]) -> list[Action]:
    if pending["paint"] is None:
        return [{"type": "place", "paint": p} for p in PAINTS if p in unordered_tail(state)]
    return [
        {"type": "insert", "paint": pending["paint"], "position": i}
        for i in insert_positions(len(state["queue"]), pending["count"])
    ]


def _discard_choices(state: State, pending: dict[str, Any]) -> list[Action]:
    backpack = state["seats"][state["current"]]["backpack"]
    return [{"type": "discard", "paint": p} for p in PAINTS if p in backpack]


def _swap_choices(state: State, pending: dict[str, Any]) -> list[Action]:
    """Technique 1: "Troque 1 tinta qualquer de sua mochila por uma Tinta Básica"."""
    backpack = state["seats"][state["current"]]["backpack"]
    return [
        {"type": "swap", "give": give, "take": take}
        for give in PAINTS
        if give in backpack
        for take in BASICS
        if take != give
    ] + [BACK]


def _copy_choices(state: State, pending: dict[str, Any]) -> list[Action]:
    """Technique 2: "Pegue uma tinta do estoque [...] igual a uma tinta qualquer [...] na sua
    mochila"."""
    backpack = state["seats"][state["current"]]["backpack"]
    return [{"type": "copy", "paint": p} for p in PAINTS if p in backpack] + [BACK]


def _pick_choices(state: State, pending: dict[str, Any]) -> list[Action]:
    """Technique 3: "Pegue uma das 3 primeiras tintas do começo da fila"."""
    queue = state["queue"][:QUEUE_ON_BOARD]
    return [{"type": "pick", "index": i, "paint": p} for i, p in enumerate(queue)] + [BACK]


def _transfer_choices(state: State, pending: dict[str, Any]) -> list[Action]:
    """Technique 4: "Passe 1 tinta qualquer de um segmento de um disco para um segmento de outro
    disco": source disc, source segment, target disc, target segment."""
    discs = state["discs"]
    steps = pending["steps"]
    if len(steps) == 0:
        choices = [d for d in range(DISCS) if any(p is not None for p in discs[d]["cubes"])]
        return [{"type": "disc", "discs": [d]} for d in choices] + [BACK]
    if len(steps) == 1:
        cubes = discs[steps[0]]["cubes"]
        return [
            segment_choice(state, "segment", steps[0], s)
            for s in range(SLOTS)
            if cubes[s] is not None
        ]
    if len(steps) == 2:
        return [{"type": "disc", "discs": [d]} for d in range(DISCS) if d != steps[0]]
    return [segment_choice(state, "segment", steps[2], s) for s in range(SLOTS)]


_PENDING_CHOICES = {
    "rotate": _rotation_choices,
    "collect": _collect_choices,
    "paint": _paint_choices,
    "order": _order_choices,
    "insert": _insert_choices,
    "discard": _discard_choices,
    "swap": _swap_choices,
    "copy": _copy_choices,
    "pick": _pick_choices,
    "transfer": _transfer_choices,
}


# -- applying ----------------------------------------------------------------------------------


def _me(table: State) -> dict[str, Any]:
    return table["seats"][table["current"]]


def _pending(table: State) -> dict[str, Any]:
    return table["turn"]["pending"]


def _take_from_stock(table: State, paint: str) -> None:
    """C1: the stock is unlimited; ``taken`` counts what left it."""
    table["taken"][paint] += 1


def _apply_rotate(table: State, action: Action, events: list[Event]) -> None:
    """Main action 1, "Girar Disco": choose simple, big or double, then the disc(s)."""
    table["turn"]["pending"] = {"do": "rotate", "kind": action["kind"]}


def _apply_disc(table: State, action: Action, events: list[Event]) -> None:
    pending = _pending(table)
    if pending["do"] == "rotate":
        pending["discs"] = action["discs"]
    else:  # transfer
        pending["steps"].append(action["discs"][0])


def _apply_turn(table: State, action: Action, events: list[Event]) -> None:
    """Turn the chosen disc(s), place the grafiteiro an advanced rotation or technique 6 costs,
    then "Após qualquer tipo de giro, o jogador deve recolher uma tinta"."""
    pending = _pending(table)
    kind = pending["kind"]
    rotation = (tuple(pending["discs"]), tuple(action["steps"]))
    options = geometry.collectable(table["discs"], rotation)
    aligned = geometry.newly_aligned(table["discs"], rotation)
    geometry.rotate(table["discs"], rotation)
    me = _me(table)
    if kind in ("big", "double"):
        me["grafiteiros"] -= 1
        me["rotations"][kind] += 1
    elif kind == "master":
        _use_technique(table, "BT6", events)
    table["turn"]["main"] = True
    events.append(
        {
            "type": "rotated",
            "player": me["player"],
            "kind": kind,
            "discs": list(rotation[0]),
            "steps": list(rotation[1]),
            "aligned": aligned,
        }
    )
    table["turn"]["pending"] = {"do": "collect", "options": [list(o) for o in options]}
    if len(options) == 1:
        _apply_collect(table, segment_choice(table, "collect", *options[0]), events)


def _apply_collect(table: State, action: Action, events: list[Event]) -> None:
    """ "o jogador deve recolher uma tinta [...] NÃO PODERÁ pegar uma outra tinta deste segundo
    par": exactly one cube from a newly aligned pair, into the backpack."""
    cubes = table["discs"][action["disc"]]["cubes"]
    paint = cubes[action["segment"]]
    cubes[action["segment"]] = None
    me = _me(table)
    me["backpack"].append(paint)
    table["turn"]["pending"] = None
    events.append(
        {
            "type": "collected",
            "player": me["player"],
            "paint": paint,
            "disc": action["disc"],
            "segment": action["segment"],
        }
    )


def _apply_paint(table: State, action: Action, events: list[Event]) -> None:
    """Main action 2, "Pintar o Mural": the card first; a Thrift technique already pending
    keeps its discount."""
    pending = _pending(table)
    if pending is None:
        table["turn"]["pending"] = {"do": "paint", "card": action["card"], "thrift": False}
    else:
        pending["card"] = action["card"]


def _apply_cell(table: State, action: Action, events: list[Event]) -> None:
    """ "coloque a carta em algum espaço livre no Mural [...] NÃO precisa formar um disco"."""
    pending = _pending(table)
    pending["cell"] = [action["row"], action["col"]]
    card = CARDS[pending["card"]]
    if card.flexible:
        pending["paints"] = []
    elif not pending["thrift"]:
        _finish_painting(table, list(card.cost or ""), events)
    else:
        skips = thrift_skips(_me(table)["backpack"], card)
        if len(skips) <= 1:
            _pay_with_skip(table, skips[0] if skips else None, events)


def _apply_skip(table: State, action: Action, events: list[Event]) -> None:
    _pay_with_skip(table, action["paint"], events)


def _pay_with_skip(table: State, skip: str | None, events: list[Event]) -> None:
    """Thrift on a fixed cost: "Pinte 1 carta de grafite, sem gastar 1 tinta básica"."""
    cost = list(CARDS[_pending(table)["card"]].cost or "")
    if skip is not None:
        cost.remove(skip)
    _finish_painting(table, cost, events)


def _apply_fill(table: State, action: Action, events: list[Event]) -> None:
    """A flexible cost: "as tintas usadas não são descartadas, mas sim colocadas sobre os espaços
    de tinta na face da carta" — every space filled, any paint in any space (B ambiguity)."""
    pending = _pending(table)
    pending["paints"].append(action["paint"])
    card = CARDS[pending["card"]]
    if len(pending["paints"]) == card.spaces:
        _finish_painting(table, [p for p in pending["paints"] if p is not None], events)


def _finish_painting(table: State, paid: list[str], events: list[Event]) -> None:
    """Pay, place the card with "um de seus cilindros de spray sobre a carta", and "coloque a
    carta do topo do baralho, no lugar da carta pintada". A fixed cost's paints go to the
    queue end in the order the player picks (B ambiguity a)."""
    pending = _pending(table)
    me = _me(table)
    for paint in paid:
        me["backpack"].remove(paint)
    card = CARDS[pending["card"]]
    row, col = pending["cell"]
    paints = list(pending.get("paints", [])) if card.flexible else []
    table["mural"][row][col] = {"card": card.id, "painter": me["player"], "paints": paints}
    me["sprays"] -= 1
    slot = table["display"].index(card.id)
    if table["deck"]:
        table["display"][slot] = table["deck"].pop(0)
    else:  # C7: "If the deck runs out, the display simply shrinks."
        table["display"].pop(slot)
    if pending["thrift"]:
        _use_technique(table, "BT5", events)
    table["turn"]["main"] = True
    table["turn"]["pending"] = None
    events.append(
        {
            "type": "painted",
            "player": me["player"],
            "card": card.id,
            "cell": [row, col],
            "paid": paid,
            "thrift": pending["thrift"],
        }
    )
    if not card.flexible:
        if table["options"]["painting_discards"] == AFTER_FIRST_3 and paid:
            _insert_after_first_3(table, paid, events)
        else:
            _to_queue(table, paid, events)
    _check_trigger(table, events)


def _insert_after_first_3(table: State, paints: list[str], events: list[Event]) -> None:
    """Reading (b) of "colocadas, na ordem que o jogador desejar, na fila de tintas do lado de
    fora do tabuleiro central (exceto pelas 3 primeiras tintas da fila)": each paint goes
    anywhere after the first 3. They wait at the queue end until placed, one at a time."""
    table["queue"].extend(paints)
    events.append({"type": "queued", "paints": list(paints)})
    table["turn"]["pending"] = {"do": "insert", "count": len(paints)}
    _choose_lone_paint(table)


def _choose_lone_paint(table: State) -> None:
    """With one kind of paint left to place there is nothing to choose but where."""
    pending = _pending(table)
    tail = unordered_tail(table)
    pending["paint"] = tail[0] if len(set(tail)) == 1 else None


def insert_positions(queue_length: int, waiting: int) -> list[int]:
    """Where a waiting paint may go: after the first 3 (or the whole queue, if shorter)."""
    base = queue_length - waiting
    places = list(range(min(QUEUE_ON_BOARD, base), base + 1))
    return places[:INSERT_CHOICES] + ([base] if base not in places[:INSERT_CHOICES] else [])


def _apply_place(table: State, action: Action, events: list[Event]) -> None:
    _pending(table)["paint"] = action["paint"]


def _apply_insert(table: State, action: Action, events: list[Event]) -> None:
    pending = _pending(table)
    count = pending["count"]
    queue = table["queue"]
    head, tail = queue[:-count], queue[-count:]
    tail.remove(action["paint"])
    head.insert(action["position"], action["paint"])
    table["queue"] = head + tail
    events.append(
        {
            "type": "inserted",
            "player": _me(table)["player"],
            "paint": action["paint"],
            "position": action["position"],
        }
    )
    pending["count"] = count - 1
    if pending["count"] == 0:
        table["turn"]["pending"] = None
    else:
        _choose_lone_paint(table)


def _to_queue(table: State, paints: list[str], events: list[Event]) -> None:
    """Discards go to the end of the queue "na ordem que o jogador desejar". They join the queue
    at once; while the unordered tail holds different paints, the player picks which comes
    next, one paint at a time."""
    table["queue"].extend(paints)
    if paints:
        events.append({"type": "queued", "paints": list(paints)})
    if len(set(paints)) > 1:
        table["turn"]["pending"] = {"do": "order", "count": len(paints)}


def unordered_tail(table: State) -> list[str]:
    """The queue's last paints whose order the player is still choosing."""
    return table["queue"][-table["turn"]["pending"]["count"] :]


def _apply_queue(table: State, action: Action, events: list[Event]) -> None:
    pending = _pending(table)
    tail = unordered_tail(table)
    tail.remove(action["paint"])
    count = pending["count"]
    table["queue"][-count:] = [action["paint"], *tail]
    pending["count"] = count - 1
    if len(set(tail)) <= 1:
        table["turn"]["pending"] = None
        events.append({"type": "ordered", "paints": table["queue"][-count:]})


def _apply_mix(table: State, action: Action, events: list[Event]) -> None:
    """ "Troque 2 Tintas Básicas por 1 Tinta Avançada. [...] descartadas no final da fila"."""
    me = _me(table)
    for paint in action["paints"]:
        me["backpack"].remove(paint)
    me["backpack"].append(ADVANCED)
    _take_from_stock(table, ADVANCED)
    table["turn"]["free"] = True
    events.append({"type": "mixed", "player": me["player"], "paints": list(action["paints"])})
    _to_queue(table, list(action["paints"]), events)


def _apply_technique(table: State, action: Action, events: list[Event]) -> None:
    tile = action["tile"]
    pending: dict[str, Any] = {
        "BT1": {"do": "swap"},
        "BT2": {"do": "copy"},
        "BT3": {"do": "pick"},
        "BT4": {"do": "transfer", "steps": []},
        "BT5": {"do": "paint", "thrift": True},
        "BT6": {"do": "rotate", "kind": "master"},
    }[tile]
    table["turn"]["pending"] = pending


def _use_technique(table: State, tile: str, events: list[Event]) -> None:
    """ "coloque um grafiteiro da sua cor sobre a peça da técnica utilizada"."""
    me = _me(table)
    me["grafiteiros"] -= 1
    me["techniques"].append(tile)
    if not TECHNIQUES[tile].main:
        table["turn"]["free"] = True
    events.append({"type": "technique", "player": me["player"], "tile": tile})


def _apply_swap(table: State, action: Action, events: list[Event]) -> None:
    """ "Pegue-a do estoque e coloque a que você tinha no final da fila de tintas"."""
    me = _me(table)
    _use_technique(table, "BT1", events)
    me["backpack"].remove(action["give"])
    me["backpack"].append(action["take"])
    _take_from_stock(table, action["take"])
    table["queue"].append(action["give"])
    table["turn"]["pending"] = None
    events.append(
        {"type": "swapped", "player": me["player"], "give": action["give"], "take": action["take"]}
    )


def _apply_copy(table: State, action: Action, events: list[Event]) -> None:
    me = _me(table)
    _use_technique(table, "BT2", events)
    me["backpack"].append(action["paint"])
    _take_from_stock(table, action["paint"])
    table["turn"]["pending"] = None
    events.append({"type": "copied", "player": me["player"], "paint": action["paint"]})


def _apply_pick(table: State, action: Action, events: list[Event]) -> None:
    """ "Ao coletá-la, ajuste a fila para que ela continue tendo 3 tintas nos 3 espaços iniciais,
    se possível": the queue is a compact list."""
    me = _me(table)
    _use_technique(table, "BT3", events)
    paint = table["queue"].pop(action["index"])
    me["backpack"].append(paint)
    table["turn"]["pending"] = None
    events.append({"type": "picked", "player": me["player"], "paint": paint})


def _apply_segment(table: State, action: Action, events: list[Event]) -> None:
    """Technique 4 steps; the last one moves the paint: "Se o segmento de destino possuir 1
    tinta, troque as duas tintas de lugar"."""
    pending = _pending(table)
    pending["steps"].append(action["segment"])
    if len(pending["steps"]) < 4:
        return
    src_disc, src_seg, dst_disc, dst_seg = pending["steps"]
    source = table["discs"][src_disc]["cubes"]
    target = table["discs"][dst_disc]["cubes"]
    source[src_seg], target[dst_seg] = target[dst_seg], source[src_seg]
    _use_technique(table, "BT4", events)
    table["turn"]["pending"] = None
    events.append(
        {
            "type": "transferred",
            "player": _me(table)["player"],
            "paint": target[dst_seg],
            "swapped": source[src_seg],
            "from": [src_disc, src_seg],
            "to": [dst_disc, dst_seg],
        }
    )


def _apply_back(table: State, action: Action, events: list[Event]) -> None:
    table["turn"]["pending"] = None


def _apply_pass(table: State, action: Action, events: list[Event]) -> None:
    """Main action 4, "Passar a Vez": "só volta a jogar na próxima rodada. [...] Na primeira
    rodada, o primeiro jogador que passar pega o marcador de primeiro jogador"."""
    me = _me(table)
    me["passed"] = True
    events.append({"type": "passed", "player": me["player"]})
    if table["round"] == 1 and not table["first_passed"]:
        table["first_passed"] = True
        table["first"] = table["current"]
        events.append({"type": "first_player", "player": me["player"]})
    # The backpack limit holds "no final do seu turno" for a turn that ends in a pass too.
    table["turn"]["pending"] = {"do": "discard"}
    _continue_discarding(table, events)


def _apply_end_turn(table: State, action: Action, events: list[Event]) -> None:
    """ "o jogador deve descartar o excesso (à sua escolha) para voltar ao limite de 5, no final
    do seu turno" (to the queue end, B ambiguity), then the next player."""
    table["turn"]["pending"] = {"do": "discard"}
    _continue_discarding(table, events)


def _apply_discard(table: State, action: Action, events: list[Event]) -> None:
    me = _me(table)
    me["backpack"].remove(action["paint"])
    table["queue"].append(action["paint"])
    events.append({"type": "discarded", "player": me["player"], "paints": [action["paint"]]})
    _continue_discarding(table, events)


def _continue_discarding(table: State, events: list[Event]) -> None:
    """Over the limit with one kind of paint left there is nothing to choose: discard it."""
    me = _me(table)
    excess = len(me["backpack"]) - BACKPACK_LIMIT
    if excess > 0 and len(set(me["backpack"])) == 1:
        paints = me["backpack"][:excess]
        del me["backpack"][:excess]
        table["queue"].extend(paints)
        events.append({"type": "discarded", "player": me["player"], "paints": paints})
        excess = 0
    if excess <= 0:
        table["turn"]["pending"] = None
        _next_turn(table, events)


_APPLY = {
    "rotate": _apply_rotate,
    "disc": _apply_disc,
    "turn": _apply_turn,
    "collect": _apply_collect,
    "paint": _apply_paint,
    "cell": _apply_cell,
    "skip": _apply_skip,
    "fill": _apply_fill,
    "queue": _apply_queue,
    "place": _apply_place,
    "insert": _apply_insert,
    "mix": _apply_mix,
    "technique": _apply_technique,
    "swap": _apply_swap,
    "copy": _apply_copy,
    "pick": _apply_pick,
    "segment": _apply_segment,
    "back": _apply_back,
    "pass": _apply_pass,
    "end_turn": _apply_end_turn,
    "discard": _apply_discard,
}


def _remember_turn(state: State, table: State, player: str, events: list[Event]) -> None:
    """Keep the events of the turn in progress, and once it is over the whole of it as
    ``previous`` (what the board shows as "last turn": the card painted, the discs turned)."""
    so_far = state["turn"]["log"] + [e for e in events if e["type"] != "turn"]
    if table["phase"] == OVER or table["turns"] != state["turns"]:
        table["previous"] = {"player": player, "events": copy.deepcopy(so_far)}
    else:
        table["turn"]["log"] = so_far


# -- turns, rounds, the end --------------------------------------------------------------------


def _check_trigger(table: State, events: list[Event]) -> None:
    """ "A partida se encerra antes do final da segunda rodada quando: algum jogador utilizar
    todos os seus sprays ou; o mural for finalizado"."""
    if table["trigger"] is not None:
        return
    me = _me(table)
    reason = "sprays" if me["sprays"] == 0 else "mural" if not free_cells(table) else None
    if reason:
        table["trigger"] = {"player": me["player"], "reason": reason, "round": table["round"]}
        events.append({"type": "end_triggered", "player": me["player"], "reason": reason})


def _next_turn(table: State, events: list[Event]) -> None:
    """The next player clockwise who has not passed. "Uma rodada acaba quando todos os jogadores
    passarem"; after the trigger, "até que o turno do jogador à direita de quem está com o
    marcador de primeiro jogador tenha acabado", and never a new round (C10)."""
    n = len(table["players"])
    table["turn"] = {"main": False, "free": False, "pending": None, "log": []}
    active = [i for i, seat in enumerate(table["seats"]) if not seat["passed"]]
    if not active:
        if table["round"] == 1 and table["trigger"] is None:
            _end_round_one(table, events)
            return
        _finish(table, "trigger" if table["trigger"] else "round_2", events)
        return
    walk = [(table["current"] + k) % n for k in range(1, n + 1)]
    following = next(i for i in walk if i in active)
    if table["trigger"] is not None and table["first"] in walk[: walk.index(following) + 1]:
        _finish(table, "trigger", events)
        return
    table["current"] = following
    table["turns"] += 1
    events.append({"type": "turn", "player": table["players"][following]})


def _end_round_one(table: State, events: list[Event]) -> None:
    """ "Final de Rodada": grafiteiros back, "Revele a segunda peça de técnica de Basquiat", refill
    the discs from the queue (C5 order), then from the stock with "repita o passo 4"."""
    count = len(table["players"])
    for seat in table["seats"]:
        seat["grafiteiros"] = GRAFITEIROS[count]
        seat["rotations"] = {"big": 0, "double": 0}
        seat["techniques"] = []
        seat["passed"] = False
    table["round"] = 2
    from_stock = geometry.refill(table["discs"], table["queue"])
    for _, _, paint in from_stock:
        _take_from_stock(table, paint)
    if from_stock:
        fresh = list(BASICS)
        rng(table["seed"], table["rng"]).shuffle(fresh)
        table["rng"] += 1
        table["queue"].extend(fresh)
        for paint in fresh:
            _take_from_stock(table, paint)
    table["current"] = table["first"]
    table["round_first"] = table["first"]
    table["turns"] += 1
    events.append(
        {
            "type": "round_over",
            "round": 1,
            "revealed": table["techniques"][1],
            "from_stock": len(from_stock),
        }
    )
    events.append({"type": "turn", "player": table["players"][table["first"]]})


def _finish(table: State, ended_by: str, events: list[Event]) -> None:
    table["phase"] = OVER
    table["ended_by"] = ended_by
    sheet = scores(table)
    result = MURAL.outcome(table)
    assert result is not None
    events.append(
        {
            "type": "game_over",
            "scores": {p: sheet[p]["total"] for p in table["players"]},
            "winners": result.winners,
        }
    )


# -- refusals ----------------------------------------------------------------------------------


def why_not(state: State, action: Any) -> str:
    """A sentence saying why ``action`` is not legal now and what to do instead."""
    if not isinstance(action, dict) or action.get("type") not in _APPLY:
        return "That is not a Street Art: Mural move; pick one from your list of moves."
    kind = action["type"]
    pending = state["turn"]["pending"]
    seat = state["seats"][state["current"]]
    if pending is not None and kind in ("rotate", "mix", "pass", "end_turn", "technique"):
        return "Finish the choice you started first (or go back): " + _pending_hint(pending)
    if kind == "rotate":
        return _why_not_rotate(state, seat, action)
    if kind == "paint":
        return _why_not_paint(state, seat, action)
    if kind == "cell":
        return _why_not_cell(state, action)
    if kind == "mix":
        basics = sum(1 for p in seat["backpack"] if p in BASICS)
        if basics < 2:
            return f"Mixing needs two basic paints in your backpack; you have {basics}."
        return "You do not hold those two basic paints; mix two basics from your backpack."
    if kind == "technique":
        return _why_not_technique(state, seat, action)
    if kind == "disc" and pending is not None and pending["do"] == "rotate":
        return (
            "No turn of that disc aligns a same-colour pair with a paint on it, so there would "
            "be nothing to collect; choose another disc or go back."
        )
    if kind == "turn":
        return (
            "That rotation aligns no same-colour pair holding a paint, so there would be nothing "
            "to collect; choose another rotation."
        )
    if kind == "pass":
        if state["turn"]["main"]:
            return "You already took your main action this turn; end your turn instead."
        return "You cannot take a free action and pass in the same turn; take a main action."
    if kind == "end_turn":
        return "Take your main action first (rotate, paint, a main technique), or pass."
    return "That choice is not available now; " + (
        _pending_hint(pending) if pending else "pick one from your list of moves."
    )


def _pending_hint(pending: dict[str, Any]) -> str:
    return {
        "rotate": "choose the disc and how far to turn it.",
        "collect": "choose the paint to collect.",
        "paint": "choose the card, its cell and the paints for it.",
        "order": "choose which paint goes to the end of the queue next.",
        "insert": "choose where your paints go in the queue, after its first 3.",
        "discard": "choose a paint to discard down to 5.",
        "swap": "choose the paint to swap.",
        "copy": "choose the paint to copy.",
        "pick": "choose a paint from the front of the queue.",
        "transfer": "choose where the paint moves from and to.",
    }[pending["do"]]


def _why_not_rotate(state: State, seat: dict[str, Any], action: Action) -> str:
    kind = action.get("kind")
    if state["turn"]["main"]:
        return "You already took your main action this turn; end your turn."
    if kind not in ("simple", "big", "double"):
        return "A rotation is simple, big or double."
    if kind != "simple" and seat["grafiteiros"] == 0:
        return f"A {kind} rotation needs a grafiteiro and you have none left; try a simple one."
    if kind != "simple" and seat["rotations"][kind] >= ADVANCED_ROTATION_USES:
        return f"You already used the {kind} rotation twice this round; choose another action."
    return (
        f"No {kind} rotation aligns a same-colour pair with a paint on it, so there would be "
        "nothing to collect; paint, use a technique, or pass."
    )


def _why_not_paint(state: State, seat: dict[str, Any], action: Action) -> str:
    card = action.get("card")
    if state["turn"]["main"] and state["turn"]["pending"] is None:
        return "You already took your main action this turn; end your turn."
    if state["deck"] and card == state["deck"][0]:
        return "The top card of the deck cannot be painted; choose one of the display cards."
    if card not in state["display"]:
        return "That card is not in the display; choose one of the display cards."
    if seat["sprays"] == 0:
        return "You have no spray left to mark a card, so you cannot paint."
    if not free_cells(state):
        return "The mural is full; there is no cell left to paint."
    need = CARDS[card]
    if need.flexible:
        return f"{card} needs {need.spaces} paints and your backpack holds {len(seat['backpack'])}."
    return f"You cannot pay {card} ({' '.join(need.cost or '')}) with your backpack; collect more."


def _why_not_cell(state: State, action: Action) -> str:
    row, col = action.get("row"), action.get("col")
    grid = layout(state)
    if not (isinstance(row, int) and isinstance(col, int)):
        return "Choose a cell of the mural, such as A1."
    if not (0 <= row < grid.rows and 0 <= col < grid.cols):
        return "That cell is outside the mural; choose a free cell."
    if state["mural"][row][col] is not None:
        return f"{cell_name(row, col)} is already painted; choose a free cell."
    return "Choose a card to paint first."


def _why_not_technique(state: State, seat: dict[str, Any], action: Action) -> str:
    tile = action.get("tile")
    if tile not in TECHNIQUES:
        return "There is no such technique; pick one of the revealed tiles."
    name = TECHNIQUES[tile].name
    if tile not in revealed(state):
        return f"{name} is not revealed in this game or this round; use a revealed technique."
    if tile in seat["techniques"]:
        return f"You already used {name} this round; each technique once per round."
    if seat["grafiteiros"] == 0:
        return f"You have no grafiteiro left to place on {name} this round."
    if TECHNIQUES[tile].main and state["turn"]["main"]:
        return f"{name} counts as your main action and you already took one this turn."
    return f"{name} has nothing to work on right now; choose another action."


MURAL = Mural()
