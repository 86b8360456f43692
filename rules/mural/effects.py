"""What each action does to a working copy of the state: the effects of a turn's decisions,
and how turns, rounds and the game end."""

from __future__ import annotations

from typing import Any

from rules.jsoncopy import json_copy
from rules.mural import discs as geometry
from rules.mural.data import (
    ADVANCED,
    BACKPACK_LIMIT,
    BASICS,
    CARDS,
    GRAFITEIROS,
    TECHNIQUES,
)
from rules.mural.state import (
    AFTER_FIRST_3,
    OVER,
    State,
    free_cells,
    outcome_of,
    scores,
    segment_choice,
    thrift_skips,
    unordered_tail,
)
from rules.protocol import Action, Event, rng

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


def _apply_place(table: State, action: Action, events: list[Event]) -> None:
    _pending(table)["paint"] = action["paint"]


def _apply_places(table: State, action: Action, events: list[Event]) -> None:
    """A range of queue places chosen first, in a queue longer than a select menu."""
    _pending(table)["places"] = [action["first"], action["last"]]


def _apply_insert(table: State, action: Action, events: list[Event]) -> None:
    pending = _pending(table)
    pending["places"] = None
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
    by_tile: dict[str, dict[str, Any]] = {
        "BT1": {"do": "swap"},
        "BT2": {"do": "copy"},
        "BT3": {"do": "pick"},
        "BT4": {"do": "transfer", "steps": []},
        "BT5": {"do": "paint", "thrift": True},
        "BT6": {"do": "rotate", "kind": "master"},
    }
    table["turn"]["pending"] = by_tile[tile]


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
    """Leave a choice that has committed nothing; from a range of queue places, back to the
    ranges (the paints are already paid and wait to be placed)."""
    pending = table["turn"]["pending"]
    if pending["do"] == "insert":
        pending["places"] = None
    else:
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
    # A pass ends a turn with no free action in it ("O jogador não pode realizar uma ação
    # livre e passar a vez"), so the backpack is within its limit since the last turn's end.
    _next_turn(table, events)


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


APPLY = {
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
    "places": _apply_places,
    "pass": _apply_pass,
    "end_turn": _apply_end_turn,
    "discard": _apply_discard,
}


def remember_turn(state: State, table: State, player: str, events: list[Event]) -> None:
    """Keep the events of the turn in progress, and once it is over the whole of it as
    ``previous`` (what the board shows as "last turn": the card painted, the discs turned)."""
    so_far = state["turn"]["log"] + [e for e in events if e["type"] != "turn"]
    if table["phase"] == OVER or table["turns"] != state["turns"]:
        table["previous"] = {"player": player, "events": json_copy(so_far)}
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
    result = outcome_of(table)
    events.append(
        {
            "type": "game_over",
            "scores": {p: sheet[p]["total"] for p in table["players"]},
            "winners": result.winners,
        }
    )
