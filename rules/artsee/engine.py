"""The ArtSee rules engine: galleries, visitors, prestige, masterpieces and the end.

Source of truth: the rulebook (retold in docs/rules/artsee.md); where it is silent, the rulings
A5 of its component notes (listed there too); data in ``rules.artsee.data``.

A turn is a sequence of small decisions, each with a short ``legal()`` list:

1. ``card``: choose an exhibit from your hand (phase ``card``), then ``place`` it onto a column
   or into a new column at the left or right end (phase ``column``; ``back`` chooses again).
2. Opponents welcome visitors (phase ``welcome``): each opponent's standing ``policy``
   (``always``, the default, ``never`` or ``ask``) decides for them; only players on ``ask``
   with a visitor in supply and a matching front card are asked (``welcome`` a column, or
   ``enough``), all at once, before the active player goes on.
3. Prestige is scored: visitors on the covered card, then the arrow.
4. ``claim`` a masterpiece (phase ``claim``) or ``pass``; then choose its ``slot`` (phase
   ``slot``; ``back`` chooses again). Skipped when no claim is possible; a single free slot is
   taken without asking.
5. ``draw`` from pile 1 or 2 (phase ``draw``); automatic when only one pile has cards.

Two compound actions apply two decisions at once, for a slash command with two options:
``{"type": "play", "card", "column"}`` and ``{"type": "claim", "token", "slot"}``; they are
accepted exactly when their two parts are legal one after the other (a ``play`` while a card is
already chosen, or a ``claim`` while a token is, first takes that choice back).
``{"type": "policy"}`` is a standing order any seated player may give at any time
(``is_standing_order``).

Readings where the rulebook is silent (each also stated where it is implemented):

- Welcoming visitors comes in step 2, as the rulebook orders it ("Play a Card - Welcome
  Visitors - Earn Prestige - Claim a Masterpiece - Draw a Card"): the active player sees the new
  visitors before they claim and draw. The asked opponents answer together, then the active
  player's turn goes on.
- ``always`` welcomes on every matching front card from the left, while visitors last.
- When one draw pile empties, the top card of the other moves over only if that leaves both
  with a card ("so that there are always two draw piles (if possible)").
- The draw piles are split with the odd card on pile 1; the start player is drawn from the
  seed ("or choose randomly").
- A player whose hand is empty while the game goes on is skipped (the 2..5-player removals
  make this impossible, A3.3; the rule is a safety net).
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field, replace
from typing import Any

from rules.artsee.data import (
    CATEGORY_BONUS,
    CATEGORY_NAMES,
    EXHIBITS,
    GALLERY_START,
    HAND_SIZE,
    MAIN,
    MASTERPIECES,
    REMOVAL,
    STARTING,
    VISITORS,
)
from rules.jsoncopy import json_copy
from rules.protocol import (
    Action,
    Event,
    Game,
    IllegalAction,
    Outcome,
    Refusal,
    View,
    merge_options,
    rng,
    turn_after,
)

GAME_ID = "artsee"
FORMAT_VERSION = 1

CARD = "card"
COLUMN = "column"
CLAIM = "claim"
SLOT = "slot"
DRAW = "draw"
WELCOME = "welcome"
OVER = "over"

POLICIES = ("always", "never", "ask")
DEFAULT_POLICY = "always"
NEW_COLUMNS = ("left", "right")


def category_name(category: str) -> str:
    return CATEGORY_NAMES[category]


def token_name(token: str) -> str:
    """ "Portrait 7" for ``PO-7``."""
    info = MASTERPIECES[token]
    return Refusal(
        "{category} {requirement}",
        category=category_name(info.category),
        requirement=info.requirement,
    )


@dataclass(frozen=True)
class Gallery:
    """One player's gallery and holdings. ``columns`` run left to right, each bottom to front;
    ``visitors[j]`` sit on the front card of column ``j`` (only front cards take visitors and a
    covered card gives its visitors back in step 3 of that turn, A5.7); ``masterpieces`` are
    ``(token, slot)``
    with slot 0 the left end and slot ``len(columns)`` the right end (A5.5)."""

    player: str
    columns: tuple[tuple[str, ...], ...]
    visitors: tuple[int, ...]
    masterpieces: tuple[tuple[str, int], ...]
    supply: int
    hand: tuple[str, ...]
    prestige: int
    policy: str = DEFAULT_POLICY

    @property
    def on_cards(self) -> int:
        """Visitors in the gallery (the tie-break), not in the supply."""
        return sum(self.visitors)


@dataclass(frozen=True)
class Progress:
    """The current turn so far: the card ``chosen`` (hidden until placed), the card ``played``
    and its ``column``, the prestige ``earned`` this turn, the ``token`` chosen to claim, and
    ``claimed`` (the token placed this turn)."""

    chosen: str | None = None
    played: str | None = None
    column: int | None = None
    earned: int = 0
    token: str | None = None
    claimed: str | None = None


@dataclass(frozen=True)
class ArtSeeState:
    """A whole game, immutable. ``piles[p][0]`` is the top card of draw pile ``p + 1``; ``box``
    holds the cards setup returned to the box; ``asking`` lists the players on ``ask`` still
    deciding where to welcome visitors, with the columns still open to them."""

    seed: str
    galleries: tuple[Gallery, ...]
    piles: tuple[tuple[str, ...], tuple[str, ...]]
    box: tuple[str, ...]
    supply: tuple[str, ...]
    start: int
    current: int
    phase: str
    turn: int
    progress: Progress = field(default_factory=Progress)
    asking: tuple[tuple[str, tuple[int, ...]], ...] = ()
    last_action: str | None = None
    #: The protocol's ``turn`` (``rules.protocol.turn_after``), unlike ``turn``, also counts each
    #: visitor answer that hands the decision on.
    turn_number: int = 1

    @property
    def players(self) -> list[str]:
        return [gallery.player for gallery in self.galleries]

    @property
    def last(self) -> dict[str, Any] | None:
        return None if self.last_action is None else json.loads(self.last_action)


def _last_action(player: str, events: list[Event]) -> str:
    return json.dumps({"player": player, "events": events})


def left_neighbour(seat: int, count: int) -> int:
    """A5.1: "the *next* player in turn order sits to your left"."""
    return (seat + 1) % count


def right_neighbour(seat: int, count: int) -> int:
    """A5.1: "the *previous* player sits to your right"."""
    return (seat - 1) % count


class _Table:
    """A mutable working copy of a state for one action; ``freeze`` makes the next state."""

    def __init__(self, state: ArtSeeState) -> None:
        self.state = state
        self.players = state.players
        self.columns = [[list(col) for col in g.columns] for g in state.galleries]
        self.visitors = [list(g.visitors) for g in state.galleries]
        self.masterpieces = [dict(g.masterpieces) for g in state.galleries]
        self.supplies = [g.supply for g in state.galleries]
        self.hands = [list(g.hand) for g in state.galleries]
        self.prestige = [g.prestige for g in state.galleries]
        self.policies = [g.policy for g in state.galleries]
        self.piles = [list(state.piles[0]), list(state.piles[1])]
        self.tokens = list(state.supply)
        self.current = state.current
        self.phase = state.phase
        self.turn = state.turn
        self.progress = state.progress
        self.asking = {player: list(cols) for player, cols in state.asking}
        self.events: list[Event] = []

    def freeze(self, actor: str) -> ArtSeeState:
        galleries = tuple(
            Gallery(
                player=player,
                columns=tuple(tuple(col) for col in self.columns[i]),
                visitors=tuple(self.visitors[i]),
                masterpieces=tuple(sorted(self.masterpieces[i].items(), key=lambda t: t[1])),
                supply=self.supplies[i],
                hand=tuple(sorted(self.hands[i])),
                prestige=self.prestige[i],
                policy=self.policies[i],
            )
            for i, player in enumerate(self.players)
        )
        return replace(
            self.state,
            galleries=galleries,
            piles=(tuple(self.piles[0]), tuple(self.piles[1])),
            supply=tuple(sorted(self.tokens)),
            current=self.current,
            phase=self.phase,
            turn=self.turn,
            progress=self.progress,
            asking=tuple((p, tuple(cols)) for p, cols in self.asking.items()),
            # A step that tells nothing (choosing a card, taking it back) keeps the last news.
            last_action=_last_action(actor, self.events) if self.events else self.state.last_action,
        )

    @property
    def me(self) -> str:
        return self.players[self.current]

    # -- 1. play a card ----------------------------------------------------------------------

    def choose(self, card: str) -> None:
        """Rulebook, Play a Card: "you choose one exhibit card from your hand"; its front stays
        hidden until it is placed, so this tells nobody which card it is."""
        self.progress = replace(self.progress, chosen=card)
        self.phase = COLUMN

    def back_to_cards(self) -> None:
        self.progress = replace(self.progress, chosen=None)
        self.phase = CARD

    def place(self, column: int | str) -> None:
        """Rulebook, Play a Card: "You may add to an existing column or start a new column. [...]
        play the new card on top of any other cards in that column [...] If you wish to start a
        new column, play the card to the left or right of all existing columns". A5.5: a new
        column beyond an end slot leaves the token where it is, now between columns."""
        seat, card = self.current, self.progress.chosen
        assert card is not None
        self.hands[seat].remove(card)
        cols = self.columns[seat]
        if column == "left":
            cols.insert(0, [card])
            self.visitors[seat].insert(0, 0)
            self.masterpieces[seat] = {t: s + 1 for t, s in self.masterpieces[seat].items()}
            index = 0
        elif column == "right":
            cols.append([card])
            self.visitors[seat].append(0)
            index = len(cols) - 1
        else:
            assert isinstance(column, int)
            index = column
            cols[index].append(card)
        self.progress = replace(self.progress, chosen=None, played=card, column=index)
        self.events.append(
            {
                "type": "placed",
                "player": self.me,
                "card": card,
                "column": index + 1,
                "new": column if column in NEW_COLUMNS else None,
            }
        )
        self.welcome_visitors()

    def earn_prestige(self) -> None:
        """Rulebook, step 3, Earn Prestige, after the opponents welcomed their visitors (step
        2): the covered card's visitors, then the arrow; then step 4, the claim. The card that
        was covered is the one now second from the front of the played column."""
        seat, column = self.current, self.progress.column
        played = self.progress.played
        assert column is not None and played is not None
        pile = self.columns[seat][column]
        if len(pile) > 1:
            self.score_covered(column, pile[-2])
        self.score_arrow(played, column)
        self.enter_claim()

    def score_covered(self, column: int, covered: str) -> None:
        """Rulebook, Earn Prestige: "Check to see how many of your visitors are on the exhibit
        card you covered [...] Earn one prestige for each visitor on the covered exhibit card.
        Remove those visitors and return them to your personal supply." """
        seat = self.current
        count = self.visitors[seat][column]
        self.visitors[seat][column] = 0
        if count == 0:
            return
        self.supplies[seat] += count
        self.earn(count)
        self.events.append(
            {"type": "visitors_scored", "player": self.me, "card": covered, "prestige": count}
        )

    def arrow_target(self, seat: int, column: int, arrow: str) -> tuple[int, int, list[str]]:
        """Where an arrow points: ``(seat, column, masterpiece tokens in the gap)``. Rulebook:
        "If the exhibit card you played this turn is in a column on the left or right end of your
        gallery, it might point toward one of your neighbors. If it does, count the number of
        matching art pieces in the nearest column of that neighbor's gallery instead." A5.1/A5.2:
        your leftmost column faces your left neighbour's rightmost column; with two players the
        opponent is both neighbours. A5.3: an end gap holds both players' end-slot tokens."""
        count = len(self.players)
        width = len(self.columns[seat])
        mine = self.masterpieces[seat]
        if arrow == "L":
            if column > 0:
                return seat, column - 1, [t for t, s in mine.items() if s == column]
            other = left_neighbour(seat, count)
            far = len(self.columns[other])
            gap = [t for t, s in mine.items() if s == 0]
            gap += [t for t, s in self.masterpieces[other].items() if s == far]
            return other, far - 1, gap
        if column < width - 1:
            return seat, column + 1, [t for t, s in mine.items() if s == column + 1]
        other = right_neighbour(seat, count)
        gap = [t for t, s in mine.items() if s == width]
        gap += [t for t, s in self.masterpieces[other].items() if s == 0]
        return other, 0, gap

    def score_arrow(self, card: str, column: int) -> None:
        """Rulebook, Earn Prestige: "In that adjacent column, count the number of art pieces that
        match the featured category of the exhibit card you played this turn. Earn one prestige
        for each art piece that matches the category." and, for masterpieces: "When you play an
        exhibit card in a column adjacent to the masterpiece token and the arrow points in its
        direction, you earn one extra prestige if it matches the featured category." (A5.4)"""
        info = EXHIBITS[card]
        seat, target, gap = self.arrow_target(self.current, column, info.arrow)
        pieces = sum(1 for c in self.columns[seat][target] if info.featured in EXHIBITS[c].pieces)
        tokens = sum(1 for t in gap if MASTERPIECES[t].category == info.featured)
        self.earn(pieces + tokens)
        self.events.append(
            {
                "type": "arrow",
                "player": self.me,
                "direction": info.arrow,
                "owner": self.players[seat],
                "column": target + 1,
                "pieces": pieces,
                "masterpieces": tokens,
                "prestige": pieces + tokens,
            }
        )

    def earn(self, prestige: int) -> None:
        """Rulebook: "As you earn prestige, take prestige tokens from the general supply"
        (an unlimited score, A4)."""
        self.prestige[self.current] += prestige
        self.progress = replace(self.progress, earned=self.progress.earned + prestige)

    # -- 4. claim a masterpiece ------------------------------------------------------------------

    def free_slots(self, seat: int) -> list[int]:
        """A5.5: "A gallery with c columns has c+1 slots [...] Each slot holds at most one of
        your own tokens." """
        taken = set(self.masterpieces[seat].values())
        return [s for s in range(len(self.columns[seat]) + 1) if s not in taken]

    def claim_refusal(self, token: str) -> str | None:
        """Why the current player may not claim ``token`` now (A5.6), or ``None``."""
        blocked = self._claim_blocked(token)
        if blocked is None:
            return None
        info = MASTERPIECES[token]
        if blocked == "claimed":
            return Refusal(
                "The {name} masterpiece has been claimed already; choose another.",
                name=token_name(token),
            )
        if blocked == "featured":
            played = self.progress.played
            assert played is not None
            return Refusal(
                "You played a {kind} exhibit this turn, so you may only claim a {kind} "
                "masterpiece.",
                kind=category_name(EXHIBITS[played].featured),
            )
        if blocked == "one of each":
            return Refusal(
                "You already have a {kind} masterpiece; each player may claim only one of each "
                "category.",
                kind=category_name(info.category),
            )
        if blocked == "prestige":
            return Refusal(
                "You earned {earned} prestige this turn; the {name} needs {requirement}.",
                earned=self.progress.earned,
                name=token_name(token),
                requirement=info.requirement,
            )
        return Refusal("Your gallery has no free slot for a masterpiece.")

    def _claim_blocked(self, token: str) -> str | None:
        """The rule of A5.6 that stops the current player claiming ``token`` now, or ``None``:
        the checks of ``claim_refusal`` without its sentence, which ``claimable`` needs for
        every token at every claim step (building and dropping the sentences was four tenths
        of an ArtSee move, and AI search plays many)."""
        info = MASTERPIECES[token]
        seat = self.current
        played = self.progress.played
        assert played is not None
        if token not in self.tokens:
            return "claimed"
        if info.category != EXHIBITS[played].featured:
            return "featured"
        if any(MASTERPIECES[t].category == info.category for t in self.masterpieces[seat]):
            return "one of each"
        if info.requirement > self.progress.earned:
            return "prestige"
        if not self.free_slots(seat):
            return "no slot"
        return None

    def claimable(self) -> list[str]:
        """Rulebook, Claim a Masterpiece: "If that total meets or exceeds the claim requirement of
        a masterpiece token in the general supply, you may claim it! You may only claim a
        masterpiece token if it matches the featured category of the exhibit card you played
        this turn." and "Each player may only claim one masterpiece token of each category." """
        return [t for t in self.tokens if self._claim_blocked(t) is None]

    def enter_claim(self) -> None:
        """The claim is optional; the game asks only when some claim is possible."""
        if self.claimable():
            self.phase = CLAIM
        else:
            self.enter_draw()

    def choose_token(self, token: str) -> None:
        """A single free slot is taken without asking (no choice to make)."""
        self.progress = replace(self.progress, token=token)
        slots = self.free_slots(self.current)
        if len(slots) == 1:
            self.put_token(slots[0])
        else:
            self.phase = SLOT

    def back_to_tokens(self) -> None:
        self.progress = replace(self.progress, token=None)
        self.phase = CLAIM

    def put_token(self, slot: int) -> None:
        """Rulebook: "When you claim a masterpiece token, you must immediately place it in an
        empty slot, either between any two columns in your gallery or on one end of your
        gallery." """
        token = self.progress.token
        assert token is not None
        self.tokens.remove(token)
        self.masterpieces[self.current][token] = slot
        self.progress = replace(self.progress, token=None, claimed=token)
        self.events.append({"type": "claimed", "player": self.me, "token": token, "slot": slot})
        self.enter_draw()

    def pass_claim(self) -> None:
        self.events.append({"type": "passed", "player": self.me})
        self.enter_draw()

    # -- 5. draw a card ----------------------------------------------------------------------

    def enter_draw(self) -> None:
        """Rulebook, Draw a Card: "You may choose the top card from either of the two face-down
        draw piles." With one pile left there is no choice; with none, no draw."""
        filled = [p for p in (0, 1) if self.piles[p]]
        if len(filled) == 2:
            self.phase = DRAW
        elif filled:
            self.draw(filled[0])
        else:
            self.next_turn()

    def draw(self, pile: int) -> None:
        """Draw the top card of ``pile``; then "If one of the draw piles becomes empty before the
        other, move the top card of the remaining draw pile over to the empty draw pile, so that
        there are always two draw piles (if possible)." (only when the other keeps a card)."""
        card = self.piles[pile].pop(0)
        self.hands[self.current].append(card)
        self.events.append(
            {
                "type": "drew",
                "player": self.me,
                "pile": pile + 1,
                "category": EXHIBITS[card].featured,
            }
        )
        empty, other = (pile, 1 - pile) if not self.piles[pile] else (1 - pile, pile)
        if not self.piles[empty] and len(self.piles[other]) >= 2:
            moved = self.piles[other].pop(0)
            self.piles[empty].append(moved)
            self.events.append(
                {
                    "type": "moved",
                    "from": other + 1,
                    "to": empty + 1,
                    "category": EXHIBITS[moved].featured,
                }
            )
        self.next_turn()

    # -- 2. welcome visitors -------------------------------------------------------------------

    def matching_fronts(self, seat: int) -> list[int]:
        """Rulebook, Welcome Visitors: "any columns where the front exhibit card [...] has the same
        featured category as the exhibit card you just played"."""
        played = self.progress.played
        assert played is not None
        featured = EXHIBITS[played].featured
        return [
            j for j, col in enumerate(self.columns[seat]) if EXHIBITS[col[-1]].featured == featured
        ]

    def welcome_visitors(self) -> None:
        """Rulebook, Welcome Visitors: "For each matching exhibit card in their gallery, an
        opponent may (but is not required to) place one visitor from their personal supply onto
        that exhibit card. [...] You (the active player) do not get to place any visitors."
        Each opponent's standing policy answers for them; players on ``ask`` who have a visitor
        and a matching front card are asked, all at once; then the active player earns prestige.
        """
        count = len(self.players)
        for k in range(1, count):
            seat = (self.current + k) % count
            open_columns = self.matching_fronts(seat)
            if not open_columns or self.supplies[seat] == 0:
                continue
            if self.policies[seat] == "ask":
                self.asking[self.players[seat]] = open_columns
            else:
                self.apply_policy(seat, open_columns)
        if self.asking:
            self.phase = WELCOME
        else:
            self.earn_prestige()

    def apply_policy(self, seat: int, open_columns: list[int]) -> None:
        """``always`` welcomes on each open column from the left while visitors last."""
        if self.policies[seat] == "always":
            for column in open_columns[: self.supplies[seat]]:
                self.put_visitor(seat, column)

    def put_visitor(self, seat: int, column: int) -> None:
        self.visitors[seat][column] += 1
        self.supplies[seat] -= 1
        self.events.append({"type": "welcomed", "player": self.players[seat], "column": column + 1})

    def welcome(self, player: str, column: int) -> None:
        seat = self.players.index(player)
        self.put_visitor(seat, column)
        remaining = [c for c in self.asking[player] if c != column]
        if remaining and self.supplies[seat] > 0:
            self.asking[player] = remaining
        else:
            self.done_welcoming(player)

    def done_welcoming(self, player: str) -> None:
        del self.asking[player]
        if not self.asking:
            self.earn_prestige()

    def set_policy(self, player: str, policy: str) -> None:
        """A standing order: it answers every later welcome, and the one now asked if any."""
        seat = self.players.index(player)
        self.policies[seat] = policy
        self.events.append({"type": "policy", "player": player, "policy": policy})
        if player in self.asking and policy != "ask":
            self.apply_policy(seat, self.asking[player])
            self.done_welcoming(player)

    # -- turns and the end ---------------------------------------------------------------------

    def next_turn(self) -> None:
        """Rulebook, End of the Game: "At the end of the turn when both draw piles are empty and
        all player hands are empty, the game is over." Otherwise "proceeding in clockwise
        order"."""
        self.progress = Progress()
        if not any(self.piles) and not any(self.hands):
            self.finish()
            return
        count = len(self.players)
        for _ in range(count):
            self.current = (self.current + 1) % count
            if self.hands[self.current]:
                self.turn += 1
                self.phase = CARD
                self.events.append({"type": "turn", "player": self.me})
                return
            self.events.append({"type": "skipped", "player": self.me})
        self.finish()

    def finish(self) -> None:
        self.phase = OVER
        result = outcome_of(self.frozen_galleries())
        self.events.append(
            {"type": "game_over", "scores": result.scores, "winners": result.winners}
        )

    def frozen_galleries(self) -> tuple[Gallery, ...]:
        return self.freeze(self.me).galleries


def final_scores(gallery: Gallery) -> dict[str, int]:
    """Rulebook, End of the Game: "each player earns prestige equal to the prestige values of
    the masterpiece tokens in their gallery. In addition, each player earns bonus prestige based
    on how many masterpiece tokens of different categories they have" (A1, A2)."""
    tokens = [MASTERPIECES[t] for t, _ in gallery.masterpieces]
    values = sum(t.value for t in tokens)
    bonus = CATEGORY_BONUS[len({t.category for t in tokens})]
    return {
        "prestige": gallery.prestige,
        "masterpieces": values,
        "bonus": bonus,
        "total": gallery.prestige + values + bonus,
    }


def outcome_of(galleries: tuple[Gallery, ...]) -> Outcome:
    """Rulebook: "The player with the most total prestige wins! If there is a tie, the tied
    player with the most visitors remaining in their gallery wins. If there is still a tie, the
    tied players share the victory." (A5.9: visitors on cards, not in supply.)"""
    breakdown = {g.player: final_scores(g) for g in galleries}
    scores = {p: b["total"] for p, b in breakdown.items()}
    best = max(scores.values())
    tied = [g for g in galleries if scores[g.player] == best]
    most = max(g.on_cards for g in tied)
    winners = [g.player for g in tied if g.on_cards == most]
    return Outcome(
        scores=scores,
        winners=winners,
        details={
            "breakdown": breakdown,
            "visitors_in_gallery": {g.player: g.on_cards for g in galleries},
            "tie_break": len(tied) > 1,
        },
    )


def _column_number(width: int, value: Any) -> int | str:
    """A ``place`` target (a column number from 1, or "left"/"right" for a new column) as the
    engine uses it: a 0-based column index, or the side."""
    if value in NEW_COLUMNS:
        return str(value)
    if isinstance(value, int) and not isinstance(value, bool) and 1 <= value <= width:
        return value - 1
    raise IllegalAction(
        Refusal(
            "Your gallery has columns 1 to {width}: choose one of them, or left or right for a "
            "new column at that end.",
            width=width,
        )
    )


#: The events that make nothing hidden known (``ArtSee.reveals``); every other one does:
#: ``drew``, ``moved``.
REVEALS_NOTHING = frozenset(
    {
        "placed",
        "visitors_scored",
        "arrow",
        "claimed",
        "passed",
        "welcomed",
        "policy",
        "turn",
        "skipped",
        "game_over",
    }
)


class ArtSee(Game):
    """The ArtSee game object registered in ``rules.GAMES`` (docs/architecture.md, "A game is a
    function of its log")."""

    id = GAME_ID
    title = "ArtSee"
    min_players = 2
    max_players = 5
    #: Going back on a chosen card, or declining a claim (protocol: an AI's last resort).
    passive_actions = frozenset({"back", "pass"})

    @property
    def default_options(self) -> dict[str, Any]:
        return {}

    # -- setup -----------------------------------------------------------------------------------

    def start(
        self, players: list[str], seed: str, options: dict[str, Any] | None = None
    ) -> ArtSeeState:
        """Rulebook, Setup 1-10: deal two starting cards into each gallery and three into each
        hand, box the rest of the starting deck, remove main cards by player count (A3.3: 3 in
        total with 5 players), split the rest into two draw piles, give each player their
        visitors; the start player is chosen randomly."""
        merge_options(self, options)
        players = list(players)
        if not self.min_players <= len(players) <= self.max_players:
            raise IllegalAction("ArtSee needs 2 to 5 players.")
        if len(set(players)) != len(players):
            raise IllegalAction("Each player may take only one seat.")
        seed = str(seed)
        generator = rng(seed, 0)
        starting = sorted(STARTING)
        generator.shuffle(starting)
        count = len(players)
        gallery_cards = [
            starting[i * GALLERY_START : (i + 1) * GALLERY_START] for i in range(count)
        ]
        dealt = count * GALLERY_START
        hands = [
            starting[dealt + i * HAND_SIZE : dealt + (i + 1) * HAND_SIZE] for i in range(count)
        ]
        box = starting[dealt + count * HAND_SIZE :]
        main = sorted(MAIN)
        how, number = REMOVAL[count]
        if how == "each":
            removed = [
                card
                for category in sorted({MAIN[c].featured for c in main})
                for card in generator.sample(
                    [c for c in main if MAIN[c].featured == category], number
                )
            ]
        else:
            removed = generator.sample(main, number)
        deck = [card for card in main if card not in removed]
        generator.shuffle(deck)
        half = (len(deck) + 1) // 2
        galleries = tuple(
            Gallery(
                player=player,
                columns=tuple((card,) for card in gallery_cards[i]),
                visitors=(0,) * GALLERY_START,
                masterpieces=(),
                supply=VISITORS[count],
                hand=tuple(sorted(hands[i])),
                prestige=0,
            )
            for i, player in enumerate(players)
        )
        first = generator.randrange(count)
        return ArtSeeState(
            seed=seed,
            galleries=galleries,
            piles=(tuple(deck[:half]), tuple(deck[half:])),
            box=tuple(sorted(box + removed)),
            supply=tuple(sorted(MASTERPIECES)),
            start=first,
            current=first,
            phase=CARD,
            turn=1,
        )

    # -- queries ---------------------------------------------------------------------------------

    def to_move(self, state: ArtSeeState) -> list[str]:
        if state.phase == OVER:
            return []
        if state.phase == WELCOME:
            return [player for player, _ in state.asking]
        return [state.players[state.current]]

    def legal(self, state: ArtSeeState, player: str) -> list[Action]:
        if player not in self.to_move(state):
            return []
        table = _Table(state)
        if state.phase == WELCOME:
            columns = dict(state.asking)[player]
            return [{"type": "welcome", "column": c + 1} for c in columns] + [{"type": "enough"}]
        me = state.galleries[state.current]
        if state.phase == CARD:
            return [{"type": "card", "card": card} for card in me.hand]
        if state.phase == COLUMN:
            places: list[Action] = [
                {"type": "place", "column": n} for n in range(1, len(me.columns) + 1)
            ]
            places += [{"type": "place", "column": side} for side in NEW_COLUMNS]
            return [*places, {"type": "back"}]
        if state.phase == CLAIM:
            return [{"type": "claim", "token": t} for t in table.claimable()] + [{"type": "pass"}]
        if state.phase == SLOT:
            slots = table.free_slots(state.current)
            return [{"type": "slot", "slot": s} for s in slots] + [{"type": "back"}]
        return [{"type": "draw", "pile": 1}, {"type": "draw", "pile": 2}]

    def reveals(self, event: Event) -> bool:
        """A card drawn (its face, to its drawer) and a card moved between the draw piles
        (the back it uncovers) make something hidden known; an exhibit placed from its
        player's own hand does not (protocol, ``reveals``)."""
        return event.get("type") not in REVEALS_NOTHING

    def is_standing_order(self, action: Action) -> bool:
        """Whether ``action`` may be given at any time by any seated player, not only by one who
        owes a decision: setting the visitor policy."""
        return isinstance(action, dict) and action.get("type") == "policy"

    def outcome(self, state: ArtSeeState) -> Outcome | None:
        if state.phase != OVER:
            return None
        return outcome_of(state.galleries)

    def view(self, state: ArtSeeState, player: str | None) -> View:
        """What ``player`` may know. Public: every gallery, every hand's card backs (rulebook:
        "The card backs, however, must remain visible to your opponents at all times"), the back
        of each draw pile's top card (A5.8), the masterpiece supply. Only the owner sees their
        card fronts and the card they chose but have not placed yet."""
        result = self.outcome(state)
        progress = state.progress
        view: View = {
            "game": GAME_ID,
            "viewer": player,
            "players": [
                {
                    "id": g.player,
                    "seat": i,
                    "prestige": g.prestige,
                    "supply": g.supply,
                    "policy": g.policy,
                    "hand": sorted(EXHIBITS[c].featured for c in g.hand),
                    "columns": [list(col) for col in g.columns],
                    "visitors": list(g.visitors),
                    "masterpieces": [{"token": t, "slot": s} for t, s in g.masterpieces],
                }
                for i, g in enumerate(state.galleries)
            ],
            "piles": [
                {"size": len(pile), "top": EXHIBITS[pile[0]].featured if pile else None}
                for pile in state.piles
            ],
            "supply": list(state.supply),
            "phase": state.phase,
            "current": None if state.phase == OVER else state.players[state.current],
            "start": state.players[state.start],
            "to_move": self.to_move(state),
            "turn": state.turn,
            "played": progress.played,
            "column": None if progress.column is None else progress.column + 1,
            "earned": progress.earned,
            "asking": {p: [c + 1 for c in cols] for p, cols in state.asking},
            "last": state.last,
            "outcome": None if result is None else result.to_json(),
        }
        if player is not None and player in state.players:
            seat = state.players.index(player)
            view["hand_cards"] = sorted(state.galleries[seat].hand)
            view["chosen"] = progress.chosen if seat == state.current else None
            view["token"] = progress.token if seat == state.current else None
            if state.phase == COLUMN and seat == state.current:
                view["previews"] = self.previews(state, player)
        return view

    def previews(self, state: ArtSeeState, player: str) -> dict[str, int]:
        """What placing the chosen card would earn in each place (visitors on the covered card
        plus the arrow), keyed by the ``place`` target as text: the owner's aid to choose, in
        their own view only, since it depends on the card they chose."""
        # Welcoming never changes the prestige (opponents welcome only onto their own
        # galleries), so each preview plays the place with nobody asked in step 2.
        quiet = replace(state, galleries=tuple(replace(g, policy="never") for g in state.galleries))
        return {
            str(action["column"]): self.play(quiet, player, action)[0].progress.earned
            for action in self.legal(state, player)
            if action["type"] == "place"
        }

    # -- moves -----------------------------------------------------------------------------------

    def play(
        self, state: ArtSeeState, player: str, action: Action
    ) -> tuple[ArtSeeState, list[Event]]:
        kind = action.get("type") if isinstance(action, dict) else None
        if kind not in HANDLERS:
            raise IllegalAction("That is not an ArtSee action.")
        if state.phase == OVER:
            raise IllegalAction("The game is over.")
        if player not in state.players:
            raise IllegalAction("You are not playing in this game.")
        table = _Table(state)
        if kind == "policy":
            _set_policy(table, player, action)
        else:
            if player not in self.to_move(state):
                raise IllegalAction(_not_your_move(state))
            HANDLERS[kind](table, player, action)
        new = table.freeze(player)
        turn = turn_after(
            state.turn_number, player, self.to_move(state), self.to_move(new), table.events
        )
        return replace(new, turn_number=turn), json_copy(table.events)

    def turn(self, state: ArtSeeState) -> int:
        return state.turn_number

    # -- storage ---------------------------------------------------------------------------------

    def dump(self, state: ArtSeeState) -> dict[str, Any]:
        """A JSON-able, versioned copy of ``state``; ``load`` inverts it."""
        return {
            "game": GAME_ID,
            "version": FORMAT_VERSION,
            "seed": state.seed,
            "galleries": [
                {
                    "player": g.player,
                    "columns": [list(col) for col in g.columns],
                    "visitors": list(g.visitors),
                    "masterpieces": [[t, s] for t, s in g.masterpieces],
                    "supply": g.supply,
                    "hand": list(g.hand),
                    "prestige": g.prestige,
                    "policy": g.policy,
                }
                for g in state.galleries
            ],
            "piles": [list(pile) for pile in state.piles],
            "box": list(state.box),
            "supply": list(state.supply),
            "start": state.start,
            "current": state.current,
            "phase": state.phase,
            "turn": state.turn,
            "progress": vars(state.progress).copy(),
            "asking": [[p, list(cols)] for p, cols in state.asking],
            "last": state.last,
            "turn_number": state.turn_number,
        }

    def load(self, data: dict[str, Any]) -> ArtSeeState:
        if data.get("game") != GAME_ID or data.get("version") != FORMAT_VERSION:
            raise ValueError(
                f"not an ArtSee state of format version {FORMAT_VERSION}: "
                f"game={data.get('game')!r}, version={data.get('version')!r}"
            )
        last = data["last"]
        return ArtSeeState(
            seed=data["seed"],
            galleries=tuple(
                Gallery(
                    player=g["player"],
                    columns=tuple(tuple(col) for col in g["columns"]),
                    visitors=tuple(g["visitors"]),
                    masterpieces=tuple((t, s) for t, s in g["masterpieces"]),
                    supply=g["supply"],
                    hand=tuple(g["hand"]),
                    prestige=g["prestige"],
                    policy=g["policy"],
                )
                for g in data["galleries"]
            ),
            piles=(tuple(data["piles"][0]), tuple(data["piles"][1])),
            box=tuple(data["box"]),
            supply=tuple(data["supply"]),
            start=data["start"],
            current=data["current"],
            phase=data["phase"],
            turn=data["turn"],
            progress=Progress(**data["progress"]),
            asking=tuple((p, tuple(cols)) for p, cols in data["asking"]),
            last_action=None if last is None else _last_action(last["player"], last["events"]),
            turn_number=data.get("turn_number", 1),  # a game saved before it was kept
        )


# -- checking and applying each kind of action ----------------------------------------------------

PHASE_HINTS = {
    CARD: Refusal("choose a card from your hand to play"),
    COLUMN: Refusal("choose the column for your card"),
    CLAIM: Refusal("claim a masterpiece or pass"),
    SLOT: Refusal("choose a slot for your masterpiece"),
    DRAW: Refusal("draw from pile 1 or pile 2"),
    WELCOME: Refusal("welcome visitors or say enough"),
}


def _finish_first(table: _Table) -> IllegalAction:
    return IllegalAction(Refusal("First {hint}.", hint=PHASE_HINTS[table.phase]))


def _not_your_move(state: ArtSeeState) -> str:
    if state.phase == WELCOME:
        return Refusal("Other players are welcoming visitors; your turn comes after them.")
    return Refusal("It is {player}'s turn, not yours.", player=state.players[state.current])


def _card(table: _Table, player: str, action: Action) -> None:
    if table.phase != CARD:
        raise _finish_first(table)
    card = action.get("card")
    if not isinstance(card, str) or card not in table.hands[table.current]:
        raise IllegalAction(
            "You do not hold that exhibit: choose a card from your hand (My hand shows them)."
        )
    table.choose(card)


def _place(table: _Table, player: str, action: Action) -> None:
    if table.phase != COLUMN:
        if table.phase == CARD:
            raise IllegalAction("Choose the card to play first, then its column.")
        raise _finish_first(table)
    table.place(_column_number(len(table.columns[table.current]), action.get("column")))


def _play(table: _Table, player: str, action: Action) -> None:
    """The compound ``{"type": "play", "card", "column"}``: choose (again, if a card was chosen
    already), then place."""
    if table.phase == COLUMN:
        table.back_to_cards()
    _card(table, player, action)
    _place(table, player, action)


def _back(table: _Table, player: str, action: Action) -> None:
    if table.phase == COLUMN:
        table.back_to_cards()
    elif table.phase == SLOT:
        table.back_to_tokens()
    else:
        raise IllegalAction("There is nothing to take back now.")


def _claim(table: _Table, player: str, action: Action) -> None:
    token = action.get("token")
    if not isinstance(token, str) or token not in MASTERPIECES:
        raise IllegalAction(
            "There is no such masterpiece: tokens are named like PO-7 (category and requirement)."
        )
    if table.phase in (CARD, COLUMN):
        raise IllegalAction(
            "Play a card first: you may claim a masterpiece after earning prestige."
        )
    if table.phase not in (CLAIM, SLOT):
        raise IllegalAction(_late_claim(table, token))
    refusal = table.claim_refusal(token)
    if refusal:
        raise IllegalAction(refusal)
    if "slot" not in action:
        if table.phase == SLOT:
            raise _finish_first(table)
        table.choose_token(token)
        return
    slot = action["slot"]
    if slot not in table.free_slots(table.current) or isinstance(slot, bool):
        raise IllegalAction(_slot_refusal(table))
    table.progress = replace(table.progress, token=token)
    table.put_token(slot)


def _late_claim(table: _Table, token: str) -> str:
    """Why a claim comes too late in the turn, saying the rule that blocks it if one does."""
    if table.progress.claimed:
        return Refusal(
            "You already claimed {token} this turn; draw a card.",
            token=token_name(table.progress.claimed),
        )
    refusal = table.claim_refusal(token)
    if refusal:
        return refusal
    return Refusal("You chose not to claim a masterpiece this turn.")


def _slot_refusal(table: _Table) -> str:
    slots = ", ".join(str(s) for s in table.free_slots(table.current))
    width = len(table.columns[table.current])
    return Refusal(
        "Choose a free slot: {slots} (0 is the left end, {width} the right end, and k lies "
        "between columns k and k+1).",
        slots=slots,
        width=width,
    )


def _slot(table: _Table, player: str, action: Action) -> None:
    if table.phase != SLOT:
        raise _finish_first(table)
    slot = action.get("slot")
    if slot not in table.free_slots(table.current) or isinstance(slot, bool):
        raise IllegalAction(_slot_refusal(table))
    table.put_token(slot)


def _pass(table: _Table, player: str, action: Action) -> None:
    if table.phase != CLAIM:
        raise _finish_first(table)
    table.pass_claim()


def _draw(table: _Table, player: str, action: Action) -> None:
    pile = action.get("pile")
    if pile not in (1, 2) or isinstance(pile, bool):
        raise IllegalAction("Choose draw pile 1 or 2.")
    if not table.piles[pile - 1]:
        other = 3 - pile
        if table.piles[other - 1]:
            raise IllegalAction(
                Refusal(
                    "Draw pile {pile} is empty; draw from pile {other}.", pile=pile, other=other
                )
            )
        raise IllegalAction(
            Refusal(
                "Draw pile {pile} is empty, and so is pile {other}: nothing is left to draw.",
                pile=pile,
                other=other,
            )
        )
    if table.phase != DRAW:
        raise _finish_first(table)
    table.draw(pile - 1)


def _welcome(table: _Table, player: str, action: Action) -> None:
    if table.phase != WELCOME:
        raise _finish_first(table)
    column = action.get("column")
    open_columns = table.asking[player]
    seat = table.players.index(player)
    played = table.progress.played
    assert played is not None
    wanted = category_name(EXHIBITS[played].featured)
    width = len(table.columns[seat])
    if not isinstance(column, int) or isinstance(column, bool) or not 1 <= column <= width:
        raise IllegalAction(
            Refusal("Your gallery has columns 1 to {width}; choose one of them.", width=width)
        )
    if column - 1 not in open_columns:
        front = EXHIBITS[table.columns[seat][column - 1][-1]].featured
        if front != EXHIBITS[played].featured:
            raise IllegalAction(
                Refusal(
                    "The front exhibit of your column {column} is {front}; visitors may only go "
                    "on a {wanted} front card this turn.",
                    column=column,
                    front=category_name(front),
                    wanted=wanted,
                )
            )
        raise IllegalAction(
            Refusal("You already welcomed a visitor on column {column} this turn.", column=column)
        )
    table.welcome(player, column - 1)


def _enough(table: _Table, player: str, action: Action) -> None:
    if table.phase != WELCOME:
        raise _finish_first(table)
    table.done_welcoming(player)


def _set_policy(table: _Table, player: str, action: Action) -> None:
    policy = action.get("policy")
    if policy not in POLICIES:
        raise IllegalAction("A visitor policy is always, never or ask.")
    table.set_policy(player, policy)


HANDLERS = {
    "card": _card,
    "place": _place,
    "play": _play,
    "back": _back,
    "claim": _claim,
    "slot": _slot,
    "pass": _pass,
    "draw": _draw,
    "welcome": _welcome,
    "enough": _enough,
    "policy": _set_policy,
}


ARTSEE = ArtSee()
