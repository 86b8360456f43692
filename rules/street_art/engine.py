"""The Street Art rules engine: state, legal actions, effects and scoring.

Source of truth: the rulebook (retold in docs/rules/street-art.md); where it is silent, the
rulings B4 of its component notes (listed there too). Shapes of actions, views
and events: docs/street-art-contract.md.

Readings beyond B4 (each also stated where it is implemented):

- Fireworks may be aimed at any other player, even one with no hearts: it steals nothing then.
  The choice is skipped only when no target could give a heart (B4.3).
- Brass Band: after every Brass Band the player decides to stop or to play another, even
  with none left in hand (then "stop" is their one choice), so whose turn it is never tells
  the table what a private hand holds.
- Fireworks targets are listed with the players who have hearts first.
- Rain: the Rain covers its player's previous top card, so a Beatboxer it covers is no longer
  "currently visible" when the Beatboxers are counted.
- A reshuffle while refilling includes the card the current player just played (B4.7 literal);
  with keep_top_on_reshuffle the kept top cards keep their play timestamps, so the "most
  recently" order of later steals is unchanged.
- A player who starts a turn with no cards (possible only when nothing at all could be drawn,
  which 60 cards never allow, B3) skips the play step and does only the draw step (event
  ``skipped``); if nobody holds or can draw a card, the game ends (``ended_by: "no_cards"``)
  instead of waiting forever.
- The turn number counts turns actually taken; the ``turn_cap`` option ends the game after that
  many turns (``ended_by: "turn_cap"``). It is a safety net (B4.8), not a rule.
- Each player is dealt 5 cards in a row from the shuffled deck; the same seat ids twice are
  refused.
"""

from __future__ import annotations

import json
from dataclasses import asdict, dataclass
from typing import Any

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
from rules.street_art.data import (
    BEATBOXER,
    BRASS_BAND,
    CARDS,
    DECK,
    FIREWORKS,
    FIREWORKS_HEARTS,
    HAND_SIZE,
    HEARTS,
    RAIN,
    RAIN_LOSS,
)

GAME_ID = "street-art"
FORMAT_VERSION = 1

#: Phases: who owes what decision now.
PLAY = "play"  # the current player plays a card
AIM = "fireworks"  # the current player chooses the Fireworks victim
BRASS = "brass-band"  # the current player plays another Brass Band or stops
OVER = "over"

#: The ``victim`` of Fireworks that takes from the middle (option fireworks_may_take_from_middle).
MIDDLE = "middle"


@dataclass(frozen=True)
class Options:
    """The table's options, with their defaults (docs/street-art-contract.md, "Options")."""

    two_players: bool = False
    #: B4.3: Fireworks may take 2 hearts from the middle instead of a player.
    fireworks_may_take_from_middle: bool = False
    #: B4.7: a reshuffle keeps each player's visible top card on the table.
    keep_top_on_reshuffle: bool = False
    #: B4.8: a safety net against endless games, not a rule.
    turn_cap: int = 500


DEFAULT_OPTIONS: dict[str, Any] = asdict(Options())


@dataclass(frozen=True)
class Seat:
    """One player at the table. ``pile`` runs bottom to top, its last card is the visible one;
    ``played_at`` is the table clock when that top card was played (0 without a pile)."""

    player: str
    hand: tuple[str, ...]
    pile: tuple[str, ...]
    hearts: int
    played_at: int

    @property
    def top(self) -> str | None:
        return self.pile[-1] if self.pile else None


@dataclass(frozen=True)
class StreetArtState:
    """A whole game, immutable. ``draw_pile[0]`` is the top card of the draw pile; ``clock``
    counts cards played (the play timestamps); ``rng_counter`` is the next ``rng`` counter."""

    seed: str
    options: Options
    seats: tuple[Seat, ...]
    draw_pile: tuple[str, ...]
    middle: int
    box: int
    current: int
    phase: str
    turn: int
    clock: int
    rng_counter: int
    ended_by: str | None
    #: ``{"player": ..., "events": [...]}`` of the last action as JSON text (so the state holds
    #: nothing mutable and hashes), or ``None`` before the first action.
    last_action: str | None
    #: The protocol's ``turn`` (``rules.protocol.turn_after``), unlike ``turn`` also one more for
    #: the step that ends the game.
    turn_number: int = 1

    @property
    def players(self) -> list[str]:
        return [seat.player for seat in self.seats]

    @property
    def last(self) -> dict[str, Any] | None:
        """A fresh copy of the last action's player and events."""
        return None if self.last_action is None else json.loads(self.last_action)


def _last_action(player: str, events: list[Event]) -> str:
    return json.dumps({"player": player, "events": events})


def _options_from(merged: dict[str, Any]) -> Options:
    for key in ("two_players", "fireworks_may_take_from_middle", "keep_top_on_reshuffle"):
        if not isinstance(merged[key], bool):
            raise IllegalAction(Refusal("The option {key} must be true or false.", key=key))
    cap = merged["turn_cap"]
    if isinstance(cap, bool) or not isinstance(cap, int) or cap < 1:
        raise IllegalAction("The option turn_cap must be a whole number of at least 1.")
    return Options(**merged)


class _Table:
    """A mutable working copy of a state for the length of one action; ``freeze`` makes the
    next immutable state. The input state is never touched."""

    def __init__(self, state: StreetArtState) -> None:
        self.state = state
        self.options = state.options
        self.players = state.players
        self.hands = [list(seat.hand) for seat in state.seats]
        self.piles = [list(seat.pile) for seat in state.seats]
        self.hearts = [seat.hearts for seat in state.seats]
        self.played_at = [seat.played_at for seat in state.seats]
        self.draw = list(state.draw_pile)
        self.middle = state.middle
        self.box = state.box
        self.current = state.current
        self.phase = state.phase
        self.turn = state.turn
        self.clock = state.clock
        self.rng_counter = state.rng_counter
        self.ended_by = state.ended_by
        self.events: list[Event] = []

    def movers(self) -> list[str]:
        """Who is to move now (``StreetArt.to_move`` of the state ``freeze`` would make)."""
        return [] if self.phase == OVER else [self.players[self.current]]

    def freeze(self, actor: str, turn_number: int) -> StreetArtState:
        seats = tuple(
            Seat(
                player=player,
                hand=tuple(sorted(self.hands[i])),
                pile=tuple(self.piles[i]),
                hearts=self.hearts[i],
                played_at=self.played_at[i],
            )
            for i, player in enumerate(self.players)
        )
        return StreetArtState(
            seed=self.state.seed,
            options=self.options,
            seats=seats,
            draw_pile=tuple(self.draw),
            middle=self.middle,
            box=self.box,
            current=self.current,
            phase=self.phase,
            turn=self.turn,
            clock=self.clock,
            rng_counter=self.rng_counter,
            ended_by=self.ended_by,
            last_action=_last_action(actor, self.events),
            turn_number=turn_number,
        )

    # -- helpers -----------------------------------------------------------------------------

    @property
    def me(self) -> str:
        return self.players[self.current]

    @property
    def over(self) -> bool:
        return self.phase == OVER

    def top(self, seat: int) -> str | None:
        return self.piles[seat][-1] if self.piles[seat] else None

    def others(self) -> list[int]:
        """The other seats, clockwise from the current player."""
        n = len(self.players)
        return [(self.current + k) % n for k in range(1, n)]

    def visible(self, card: str) -> int:
        """How many discard piles show ``card`` on top."""
        return sum(1 for seat in range(len(self.players)) if self.top(seat) == card)

    def shuffle(self, cards: list[str]) -> None:
        rng(self.state.seed, self.rng_counter).shuffle(cards)
        self.rng_counter += 1

    # -- playing a card ----------------------------------------------------------------------

    def play_card(self, card: str) -> None:
        """Rulebook, Gameplay: "On your turn, you play exactly one card. [...] You place the played
        card face up in front of you, so that each player has their own discard pile in which the
        last card played is always visible." The clock stamps the new top card (B4.2)."""
        self.hands[self.current].remove(card)
        self.clock += 1
        self.piles[self.current].append(card)
        self.played_at[self.current] = self.clock
        self.events.append({"type": "played", "player": self.me, "card": card})
        if CARDS[card].kind == "star":
            self.score_star(card)
            self.end_turn()
        elif card == BEATBOXER:
            self.score_beatboxer()
            self.end_turn()
        elif card == FIREWORKS:
            self.light_fireworks()
        elif card == BRASS_BAND:
            self.score_brass_band()
        elif card == RAIN:
            self.rain()
            self.end_turn()

    def score_star(self, card: str) -> None:
        """Rulebook, Gameplay: "If another player currently has an identical Street Star face up in
        front of them, you steal that number of hearts from that player. If several players have the
        same card in front of them, you take the hearts from the player who played it most
        recently." Otherwise you get the hearts from the middle. B4.2: the card alone decides the
        source; you steal min(value, their hearts), even 0, and never top up from the middle; your
        own old top card is covered and does not count."""
        value = CARDS[card].value
        assert value is not None
        showing = [seat for seat in self.others() if self.top(seat) == card]
        if not showing:
            self.take_from_middle(value)
            return
        victim = max(showing, key=lambda seat: self.played_at[seat])
        self.steal(victim, value, card)

    def score_beatboxer(self) -> None:
        """Rulebook, Beatboxer: "You receive as many hearts from the middle as there are Beatboxers
        currently visible on the discard piles. Your own card counts too." (B4.4: capped at the
        middle.)"""
        self.take_from_middle(self.visible(BEATBOXER))

    def light_fireworks(self) -> None:
        """Rulebook, Fireworks: "You may steal 2 hearts from any player." The player chooses the
        victim next (phase ``fireworks``), unless no choice could give anything (B4.3: "If no other
        player has any hearts, it does nothing")."""
        if self.fireworks_targets():
            self.phase = AIM
            return
        self.events.append({"type": "fizzled", "player": self.me, "card": FIREWORKS})
        self.end_turn()

    def fireworks_targets(self) -> list[str]:
        """Victims that would give at least one heart: other players with hearts, and the middle
        with option fireworks_may_take_from_middle (B4.3)."""
        targets = [self.players[seat] for seat in self.others() if self.hearts[seat] > 0]
        if self.options.fireworks_may_take_from_middle and self.middle > 0:
            targets.append(MIDDLE)
        return targets

    def aim_fireworks(self, victim: str) -> None:
        """Steal up to 2 hearts from the chosen player: "If you would have to give up more
        audience chips than you own, you give up all that you own" (B4.3, same cap as Rain).
        With the option, the middle may be the victim."""
        if victim == MIDDLE:
            self.take_from_middle(FIREWORKS_HEARTS)
        else:
            self.steal(self.players.index(victim), FIREWORKS_HEARTS, FIREWORKS)
        self.end_turn()

    def score_brass_band(self) -> None:
        """Rulebook, Brass Band: "You may play as many of these cards from your hand as you like.
        [...] For each Brass Band card you receive 1 heart from the middle." B4.5: a turn is one
        non-Brass card or one or more Brass Bands. Hands are private ("Take the cards into your
        hand and look at them"), so after every Brass Band the player decides to stop or to play
        another, whatever they hold: the phase never tells the table whether they hold one."""
        self.take_from_middle(1)
        if not self.over:
            self.phase = BRASS

    def stop_brass_band(self) -> None:
        """The player plays no more Brass Bands this turn."""
        self.end_turn()

    def rain(self) -> None:
        """Rulebook, Rain: "All the other players must return audience chips to the box, according
        to the card currently visible on their personal discard pile. [...] If you would have to
        give up more audience chips than you own, you give up all that you own. After you have given
        up your audience chips, all card piles on the table are collected, shuffled and placed under
        the draw pile." (B4.6.) The Beatboxers are counted once, before any pile is collected and
        after the Rain covered its player's own top card."""
        beatboxers = self.visible(BEATBOXER)
        losses: dict[str, int] = {}
        for seat in self.others():
            loss = min(rain_loss(self.top(seat), beatboxers), self.hearts[seat])
            self.hearts[seat] -= loss
            self.box += loss
            losses[self.players[seat]] = loss
        self.events.append({"type": "rain", "player": self.me, "losses": losses})
        collected = self.collect_piles(keep_top=False)
        self.draw.extend(collected)
        self.events.append({"type": "piles_collected", "cards": len(collected)})

    # -- hearts --------------------------------------------------------------------------------

    def take_from_middle(self, hearts: int) -> None:
        """Rulebook, End of the Game: "If on your last turn you would receive more hearts from the
        middle than are there, you take all remaining hearts from the middle." and "The game ends as
        soon as there are no more audience chips in the middle of the table." (B4.8: at once, even
        mid payout.)"""
        taken = min(hearts, self.middle)
        self.middle -= taken
        self.hearts[self.current] += taken
        self.events.append({"type": "took", "player": self.me, "hearts": taken})
        if self.middle == 0:
            self.finish("middle_empty")

    def steal(self, victim: int, hearts: int, card: str) -> None:
        """Move up to ``hearts`` from ``victim`` to the current player, never more than the
        victim owns (B4.2, B4.3)."""
        stolen = min(hearts, self.hearts[victim])
        self.hearts[victim] -= stolen
        self.hearts[self.current] += stolen
        self.events.append(
            {
                "type": "stole",
                "from": self.players[victim],
                "to": self.me,
                "hearts": stolen,
                "card": card,
            }
        )

    # -- cards -------------------------------------------------------------------------------

    def collect_piles(self, keep_top: bool) -> list[str]:
        """Take the discard piles off the table (all of them, or all but each top card) and
        return them shuffled."""
        collected: list[str] = []
        for seat, pile in enumerate(self.piles):
            if keep_top:
                collected.extend(pile[:-1])
                self.piles[seat] = pile[-1:]
            else:
                collected.extend(pile)
                self.piles[seat] = []
                self.played_at[seat] = 0
        if collected:
            self.shuffle(collected)
        return collected

    def reshuffle(self) -> bool:
        """Rulebook, Rain: "If the draw pile runs out beforehand, you shuffle all discard piles and
        form a new draw pile from them." B4.7: the visible top cards too, unless option
        keep_top_on_reshuffle keeps each one. False when there was nothing to shuffle."""
        collected = self.collect_piles(keep_top=self.options.keep_top_on_reshuffle)
        if not collected:
            return False
        self.draw.extend(collected)
        self.events.append({"type": "reshuffled", "cards": len(collected)})
        return True

    def can_draw(self) -> bool:
        """Whether a card could be drawn now, from the draw pile or after a reshuffle."""
        beneath = 1 if self.options.keep_top_on_reshuffle else 0
        return bool(self.draw) or any(len(pile) > beneath for pile in self.piles)

    def refill(self, seat: int) -> None:
        """Rulebook, Gameplay: "You draw cards until you have 5 cards in hand again." When the draw
        pile runs out, reshuffle; when there is nothing anywhere to draw, stop drawing."""
        hand = self.hands[seat]
        drawn = 0
        while len(hand) < HAND_SIZE:
            if not self.draw and not self.reshuffle():
                break
            hand.append(self.draw.pop(0))
            drawn += 1
        if drawn:
            self.events.append({"type": "drew", "player": self.players[seat], "cards": drawn})

    # -- turns -------------------------------------------------------------------------------

    def end_turn(self) -> None:
        """Rulebook, Gameplay: "You draw cards until you have 5 cards in hand again. The next player
        clockwise takes their turn." Nobody draws once the game is over (B4.8)."""
        if self.over:
            return
        self.phase = PLAY
        self.refill(self.current)
        self.next_turn()

    def next_turn(self) -> None:
        """Pass the turn clockwise. Reading: a player with no cards skips the play step and
        only draws; if nobody can play at all, the game ends rather than wait forever."""
        if self.turn >= self.options.turn_cap:
            self.finish("turn_cap")
            return
        if not any(self.hands) and not self.can_draw():
            self.finish("no_cards")
            return
        n = len(self.players)
        for _ in range(2 * n):
            self.current = (self.current + 1) % n
            if self.hands[self.current]:
                self.turn += 1
                self.events.append({"type": "turn", "player": self.me})
                return
            self.events.append({"type": "skipped", "player": self.me})
            self.refill(self.current)
        self.finish("no_cards")

    def finish(self, ended_by: str) -> None:
        self.phase = OVER
        self.ended_by = ended_by
        result = outcome_of(self.players, self.hearts, ended_by)
        self.events.append(
            {"type": "game_over", "scores": result.scores, "winners": result.winners}
        )


def rain_loss(top: str | None, beatboxers: int) -> int:
    """Rulebook, Rain: "If someone has a Special Card showing: Fireworks: 2 hearts must be given
    up. Brass Band: 1 heart must be given up. Beatboxer: As many hearts must be given up as
    there are Beatboxers currently visible." A Street Star costs its value; no pile costs 0
    (B4.6). A Rain is never left showing, so it costs 0."""
    if top is None:
        return 0
    if top == BEATBOXER:
        return beatboxers
    value = CARDS[top].value
    if value is not None:
        return value
    return RAIN_LOSS.get(top, 0)


def outcome_of(players: list[str], hearts: list[int], ended_by: str) -> Outcome:
    """Rulebook, End of the Game: "The player who thrilled the biggest audience wins. In case of a
    tie, all players involved in the tie win." """
    scores = dict(zip(players, hearts, strict=True))
    best = max(hearts)
    winners = [player for player in players if scores[player] == best]
    return Outcome(scores=scores, winners=winners, details={"ended_by": ended_by})


#: The events that make nothing hidden known (``StreetArt.reveals``); every other one does:
#: ``drew``, ``reshuffled``, ``piles_collected``.
REVEALS_NOTHING = frozenset(
    {"played", "fizzled", "took", "stole", "rain", "turn", "skipped", "game_over"}
)


class StreetArt(Game):
    """The Street Art game object registered in ``rules.GAMES`` (docs/architecture.md, "A game
    is a function of its log")."""

    id = GAME_ID
    title = "Street Art"
    #: What ``start`` accepts with the default options; two_players widens it (player_range).
    min_players = 3
    max_players = 5
    #: Stopping a run of Brass Bands (protocol: an AI's last resort).
    passive_actions = frozenset({"stop"})

    def reveals(self, event: Event) -> bool:
        """A card drawn, and the piles shuffled into the draw pile (a refill that runs out, a
        Rain), make new cards known; a card played from its player's own hand does not
        (protocol, ``reveals``)."""
        return event.get("type") not in REVEALS_NOTHING

    @property
    def default_options(self) -> dict[str, Any]:
        return dict(DEFAULT_OPTIONS)

    def player_range(self, options: dict[str, Any]) -> tuple[int, int]:
        """B2: 3 to 5 players, following the parent game; the two_players option admits 2."""
        return (2 if options.get("two_players") else self.min_players), self.max_players

    # -- setup -----------------------------------------------------------------------------------

    def start(
        self, players: list[str], seed: str, options: dict[str, Any] | None = None
    ) -> StreetArtState:
        """Rulebook, Setup: "Shuffle the cards face down and deal 5 cards to each player. [...] The
        remaining cards are placed face down in the middle of the table as a draw pile. Place all
        audience chips in the middle of the table." 3 to 5 players, 2 with option two_players (B2);
        the start player is drawn at random (B4.9)."""
        opts = _options_from(merge_options(self, options))
        players = list(players)
        low, high = self.player_range(asdict(opts))
        if not low <= len(players) <= high:
            raise IllegalAction("Street Art needs 3 to 5 players (2 with the two_players option).")
        if len(set(players)) != len(players):
            raise IllegalAction("Each player may take only one seat.")
        seed = str(seed)
        deck = list(DECK)
        generator = rng(seed, 0)
        generator.shuffle(deck)
        first = generator.randrange(len(players))
        seats = tuple(
            Seat(
                player=player,
                hand=tuple(sorted(deck[i * HAND_SIZE : (i + 1) * HAND_SIZE])),
                pile=(),
                hearts=0,
                played_at=0,
            )
            for i, player in enumerate(players)
        )
        return StreetArtState(
            seed=seed,
            options=opts,
            seats=seats,
            draw_pile=tuple(deck[len(players) * HAND_SIZE :]),
            middle=HEARTS,
            box=0,
            current=first,
            phase=PLAY,
            turn=1,
            clock=0,
            rng_counter=1,
            ended_by=None,
            last_action=None,
        )

    # -- queries ---------------------------------------------------------------------------------

    def to_move(self, state: StreetArtState) -> list[str]:
        if state.phase == OVER:
            return []
        return [state.seats[state.current].player]

    def legal(self, state: StreetArtState, player: str) -> list[Action]:
        if player not in self.to_move(state):
            return []
        me = state.seats[state.current]
        if state.phase == PLAY:
            return [{"type": "play", "card": card} for card in CARDS if card in me.hand]
        if state.phase == BRASS:
            another = [{"type": "play", "card": BRASS_BAND}] if BRASS_BAND in me.hand else []
            return [*another, {"type": "stop"}]
        # AIM: every other player (B4.3), those with hearts to give first, each group
        # clockwise from the current player; the middle after the players with hearts.
        n = len(state.seats)
        others = [state.seats[(state.current + k) % n] for k in range(1, n)]
        middle = [MIDDLE] if state.options.fireworks_may_take_from_middle else []
        victims = [
            *(seat.player for seat in others if seat.hearts),
            *middle,
            *(seat.player for seat in others if not seat.hearts),
        ]
        return [{"type": "fireworks", "victim": victim} for victim in victims]

    def outcome(self, state: StreetArtState) -> Outcome | None:
        if state.phase != OVER:
            return None
        assert state.ended_by is not None
        return outcome_of(state.players, [seat.hearts for seat in state.seats], state.ended_by)

    def view(self, state: StreetArtState, player: str | None) -> View:
        """What ``player`` may know: the table, the counts, and their own hand only. Never
        another hand, the order of the draw pile, or the seed."""
        result = self.outcome(state)
        view: View = {
            "game": GAME_ID,
            "viewer": player,
            "players": [
                {
                    "id": seat.player,
                    "hearts": seat.hearts,
                    "top": seat.top,
                    "pile": len(seat.pile),
                    "hand_size": len(seat.hand),
                    "seat": index,
                }
                for index, seat in enumerate(state.seats)
            ],
            "middle": state.middle,
            "box": state.box,
            "draw_pile": len(state.draw_pile),
            "phase": state.phase,
            "current": None if state.phase == OVER else state.seats[state.current].player,
            "to_move": self.to_move(state),
            "turn": state.turn,
            "last": state.last,
            "outcome": None if result is None else result.to_json(),
        }
        if player is not None and player in state.players:
            view["hand"] = sorted(state.seats[state.players.index(player)].hand)
            if state.phase == PLAY and player in self.to_move(state):
                view["takes"] = self.takes(state, player)
        return view

    def takes(self, state: StreetArtState, player: str) -> dict[str, dict[str, Any]]:
        """What each Street Star in the mover's hand would take now, ``{"hearts", "from"}``
        (a player, or the middle), so a label can say so when it is less than the card's value.
        It depends only on the table (the tops, the hearts, the middle), but is the mover's aid,
        as ArtSee's previews are."""
        takes: dict[str, dict[str, Any]] = {}
        for action in self.legal(state, player):
            if CARDS[action["card"]].kind != "star":
                continue
            _, events = self.play(state, player, action)
            gain = next(e for e in events if e["type"] in ("took", "stole"))
            takes[action["card"]] = {"hearts": gain["hearts"], "from": gain.get("from", MIDDLE)}
        return takes

    # -- moves -----------------------------------------------------------------------------------

    def play(
        self, state: StreetArtState, player: str, action: Action
    ) -> tuple[StreetArtState, list[Event]]:
        kind = action.get("type") if isinstance(action, dict) else None
        if kind not in ("play", "fireworks", "stop"):
            raise IllegalAction("That is not a Street Art action.")
        if state.phase == OVER:
            raise IllegalAction("The game is over.")
        if player not in state.players:
            raise IllegalAction("You are not playing in this game.")
        if player not in self.to_move(state):
            raise IllegalAction("It is not your turn.")
        table = _Table(state)
        if state.phase == PLAY:
            self._check_play(state, action)
            table.play_card(action["card"])
        elif state.phase == AIM:
            self._check_aim(state, player, action)
            table.aim_fireworks(action["victim"])
        else:
            self._check_brass(state, action)
            if kind == "stop":
                table.stop_brass_band()
            else:
                table.play_card(BRASS_BAND)
        # The events are this action's own, new lists and dicts: the caller may keep them.
        turn = turn_after(
            state.turn_number, player, self.to_move(state), table.movers(), table.events
        )
        return table.freeze(player, turn), table.events

    def turn(self, state: StreetArtState) -> int:
        return state.turn_number

    @staticmethod
    def _check_play(state: StreetArtState, action: Action) -> None:
        if action["type"] == "fireworks":
            raise IllegalAction("Play a Fireworks card before choosing whom it hits.")
        if action["type"] == "stop":
            raise IllegalAction("There is no Brass Band turn to stop; play a card.")
        card = action.get("card")
        if not isinstance(card, str) or card not in CARDS:
            raise IllegalAction("Choose one of the cards in your hand to play.")
        if card not in state.seats[state.current].hand:
            raise IllegalAction(Refusal("You do not hold a {card} card.", card=CARDS[card].name))

    @staticmethod
    def _check_aim(state: StreetArtState, player: str, action: Action) -> None:
        if action["type"] != "fireworks":
            raise IllegalAction("Choose a Fireworks victim first.")
        victim = action.get("victim")
        if victim == MIDDLE:
            if not state.options.fireworks_may_take_from_middle:
                raise IllegalAction("In this game Fireworks steal from players, not the middle.")
            return
        if victim == player:
            raise IllegalAction("You cannot aim Fireworks at yourself.")
        if not isinstance(victim, str) or victim not in state.players:
            raise IllegalAction("Choose a Fireworks victim who is playing in this game.")

    @staticmethod
    def _check_brass(state: StreetArtState, action: Action) -> None:
        if action["type"] == "fireworks":
            raise IllegalAction("Play another Brass Band card or stop.")
        if action["type"] == "play" and action.get("card") != BRASS_BAND:
            raise IllegalAction("This turn you may only play more Brass Band cards, or stop.")
        if action["type"] == "play" and BRASS_BAND not in state.seats[state.current].hand:
            raise IllegalAction("You hold no other Brass Band card: stop to end your turn.")

    # -- storage ---------------------------------------------------------------------------------

    def dump(self, state: StreetArtState) -> dict[str, Any]:
        """A JSON-able, versioned copy of ``state``; ``load`` inverts it."""
        return {
            "game": GAME_ID,
            "version": FORMAT_VERSION,
            "seed": state.seed,
            "options": asdict(state.options),
            "seats": [
                {
                    "player": seat.player,
                    "hand": list(seat.hand),
                    "pile": list(seat.pile),
                    "hearts": seat.hearts,
                    "played_at": seat.played_at,
                }
                for seat in state.seats
            ],
            "draw_pile": list(state.draw_pile),
            "middle": state.middle,
            "box": state.box,
            "current": state.current,
            "phase": state.phase,
            "turn": state.turn,
            "clock": state.clock,
            "rng_counter": state.rng_counter,
            "ended_by": state.ended_by,
            "last": state.last,
            "turn_number": state.turn_number,
        }

    def load(self, data: dict[str, Any]) -> StreetArtState:
        if data.get("game") != GAME_ID or data.get("version") != FORMAT_VERSION:
            raise ValueError(
                f"not a Street Art state of format version {FORMAT_VERSION}: "
                f"game={data.get('game')!r}, version={data.get('version')!r}"
            )
        last = data["last"]
        if last is not None:
            last = _last_action(last["player"], last["events"])
        return StreetArtState(
            seed=data["seed"],
            options=Options(**data["options"]),
            seats=tuple(
                Seat(
                    player=seat["player"],
                    hand=tuple(seat["hand"]),
                    pile=tuple(seat["pile"]),
                    hearts=seat["hearts"],
                    played_at=seat["played_at"],
                )
                for seat in data["seats"]
            ),
            draw_pile=tuple(data["draw_pile"]),
            middle=data["middle"],
            box=data["box"],
            current=data["current"],
            phase=data["phase"],
            turn=data["turn"],
            clock=data["clock"],
            rng_counter=data["rng_counter"],
            ended_by=data["ended_by"],
            last_action=last,
            turn_number=data.get("turn_number", 1),  # a game saved before it was kept
        )


STREET_ART = StreetArt()
