"""The state of one solo game, its zones, and the primitive moves of cards between zones.

RULES.md section 2 names the zones: hand, builder deck and discard pile, the Timeline (6 spaces,
each a lower and an upper place; the time card takes a place), the Past (straight or rotated
monuments), 5 artifact spaces, lost knowledge, the technology collection, tiles A/B/C and the
technology decks. The state stores them as flat lists of card indices so that `clone()` is a
handful of list copies and `key()` a tuple of tuples.

Rules of play (what may happen when) live in the phase and action modules; this module only
knows how cards move. The public game API (`legal_actions`, `apply`, ...) is in `solver.game`.
"""

from __future__ import annotations

from bisect import insort
from typing import Final, Protocol

from solver.engine.actions import Notation
from solver.engine.cards import ARTIFACT, Card, CardBook
from solver.engine.frames import Frame
from solver.engine.setup import Setup
from solver.engine.sheet import ScoreSheet
from solver.rng import shuffled

TIME: Final = -1  # the time card as an item of a Timeline space
EMPTY: Final = -1  # an empty artifact space / tile slot
CHEST_BASE: Final = 1000  # artifact space holding chest letter k: CHEST_BASE + k
HAND_LIMIT: Final = 10  # RULES.md D4
TILE_A: Final = 0
TILE_B: Final = 1
TILE_C: Final = 2


class Rules(Protocol):
    """What the state asks of the rules (implemented by `solver.engine.flow.Rules`)."""

    def apply(self, st: GameState, action: int) -> None: ...

    def score(self, st: GameState) -> ScoreSheet: ...

    def goals_met(self, st: GameState) -> bool: ...


class GameState:
    """All the facts of one solo game at one moment, including its pending work (the stack)."""

    __slots__ = (
        "book", "setup", "rules", "hand", "deck", "discard", "spaces", "tokens", "past", "rotated",
        "artifacts", "lost", "techs", "tiles", "tile_level", "tech_decks", "tech_discards",
        "turn", "time_space", "time_visits", "die_pos", "reshuffles", "stack", "limbo",
        "midgame", "potala", "in_decline", "declining", "vanishing", "converted", "over",
        "legal", "chests_under", "goal_chests", "flags", "held", "score_memo",
    )

    book: CardBook
    setup: Setup
    rules: Rules
    hand: list[int]
    deck: list[int]  # top of the deck is the END of the list
    discard: list[int]
    spaces: list[tuple[int, ...]]  # spaces[s-1]: items from the lower place up (card or TIME)
    tokens: list[int]  # knowledge on each card (meaningful for Timeline monuments)
    past: list[int]  # sorted
    rotated: int  # how many Past monuments are rotated (they are interchangeable)
    artifacts: list[int]  # 5 artifact spaces: card index, chest, or EMPTY
    lost: int
    techs: list[int]  # the technology collection, sorted
    tiles: list[int]  # tile t slot k at 3*t+k; EMPTY when empty
    tile_level: list[int]  # level of each tile's cards (A, B start at 1, C at 2)
    tech_decks: list[list[int]]  # [level I deck, level II deck], top at the end
    tech_discards: list[list[int]]
    turn: int
    time_space: int  # 1..6, or 0 while it waits in the Past
    time_visits: int  # how many times it was in space 1 at a decline phase
    die_pos: int
    reshuffles: list[int]  # [builder, tech I, tech II] reshuffles so far
    stack: list[Frame]
    limbo: list[int]  # cards between zones: being created, revealed
    midgame: bool
    potala: bool  # Potala Palace created outside a decline phase this turn
    in_decline: bool
    declining: int  # the monument whose decline effect is resolving, or -1
    vanishing: int  # a declining card that is discarded instead (C25-C29), or -1
    converted: int  # knowledge turned into lost knowledge this decline phase (A32)
    over: bool
    legal: list[int]  # cached legal actions of the pending decision
    chests_under: list[int]  # chest letters under the board, unused
    goal_chests: list[int]  # chest letters in artifact spaces (goals)
    flags: int  # bit flags for once-per-game decisions (solo modes)
    held: tuple[tuple[int, int], ...]  # (monument, technology) put on a card (Abu Simbel)
    # the last score sheet and exactly the facts it was computed from (`solver.engine.scoring`);
    # not a fact of the game: never in `key()`, shared by clones (immutable)
    score_memo: tuple[tuple[object, ...], tuple[tuple[int, ...], ...] | None, ScoreSheet] | None

    def clone(self) -> GameState:
        """An independent copy (lists copied; cards, setup and frames are immutable)."""
        c = GameState.__new__(GameState)
        c.book = self.book
        c.setup = self.setup
        c.rules = self.rules
        c.hand = self.hand[:]
        c.deck = self.deck[:]
        c.discard = self.discard[:]
        c.spaces = self.spaces[:]
        c.tokens = self.tokens[:]
        c.past = self.past[:]
        c.rotated = self.rotated
        c.artifacts = self.artifacts[:]
        c.lost = self.lost
        c.techs = self.techs[:]
        c.tiles = self.tiles[:]
        c.tile_level = self.tile_level[:]
        c.tech_decks = [self.tech_decks[0][:], self.tech_decks[1][:]]
        c.tech_discards = [self.tech_discards[0][:], self.tech_discards[1][:]]
        c.turn = self.turn
        c.time_space = self.time_space
        c.time_visits = self.time_visits
        c.die_pos = self.die_pos
        c.reshuffles = self.reshuffles[:]
        c.stack = self.stack[:]
        c.limbo = self.limbo[:]
        c.midgame = self.midgame
        c.potala = self.potala
        c.in_decline = self.in_decline
        c.declining = self.declining
        c.vanishing = self.vanishing
        c.converted = self.converted
        c.over = self.over
        c.legal = self.legal
        c.chests_under = self.chests_under[:]
        c.goal_chests = self.goal_chests[:]
        c.flags = self.flags
        c.held = self.held
        c.score_memo = self.score_memo
        return c

    def key(self) -> tuple[object, ...]:
        """An exact position key: two states with equal keys have the same future."""
        return (
            tuple(self.hand), tuple(self.deck), tuple(self.discard), tuple(self.spaces),
            tuple(self.tokens[c] for s in self.spaces for c in s if c >= 0),
            tuple(self.past), self.rotated, tuple(self.artifacts), self.lost, tuple(self.techs),
            tuple(self.tiles), tuple(self.tile_level), tuple(self.tech_decks[0]),
            tuple(self.tech_decks[1]), tuple(self.tech_discards[0]), tuple(self.tech_discards[1]),
            self.turn, self.time_space, self.time_visits, self.die_pos, tuple(self.reshuffles),
            tuple(self.stack), tuple(self.limbo), self.midgame, self.potala, self.in_decline,
            self.declining, self.vanishing, self.converted, self.over,
            tuple(self.chests_under), tuple(self.goal_chests), self.flags, self.held,
        )


    # ----------------------------------------------------------------- game API (OpenSpiel-like)

    def legal_actions(self) -> list[int]:
        """Options of the pending decision, as action codes (`solver.engine.actions`)."""
        return self.legal

    def apply(self, action: int) -> None:
        """Take an option of the pending decision; raises `IllegalActionError` otherwise."""
        self.rules.apply(self, action)

    def is_terminal(self) -> bool:
        return self.over

    def pending(self) -> Frame | None:
        """The pending decision frame, or None at the end."""
        return self.stack[-1] if self.stack else None

    def score(self) -> ScoreSheet:
        """The five rows of the score sheet (RULES.md section 7)."""
        return self.rules.score(self)

    def value(self) -> float:
        return float(self.rules.score(self).total)

    def feasible(self) -> bool:
        """Every goal chest met (always true without a trial)."""
        return self.rules.goals_met(self)

    def action_to_string(self, action: int) -> str:
        return Notation(self.book).render(action)

    def string_to_action(self, text: str) -> int:
        return Notation(self.book).parse(text)

    # ----------------------------------------------------------------- cards and hand

    def card(self, index: int) -> Card:
        return self.book.cards[index]

    def add_to_hand(self, card: int) -> None:
        insort(self.hand, card)

    def draw(self, n: int) -> int:
        """Draw up to `n` cards; every draw stops at 10 in hand (RULES.md D4). An empty deck is
        refilled from the discard pile, shuffled with its own seeded stream (section 5)."""
        drawn = 0
        while drawn < n and len(self.hand) < HAND_LIMIT:
            top = self.take_top()
            if top < 0:
                break
            insort(self.hand, top)
            drawn += 1
        return drawn

    def take_top(self) -> int:
        """Take the top builder card (reshuffling the discard pile if needed), or -1 if none."""
        if not self.deck:
            if not self.discard:
                return -1
            self.reshuffle_builder()
        return self.deck.pop()

    def reshuffle_builder(self) -> None:
        """Shuffle the discard pile into a new builder deck (stream ``builder-reshuffle, k``)."""
        k = self.reshuffles[0]
        self.reshuffles[0] = k + 1
        self.deck = shuffled(self.setup.seed, "builder-reshuffle", k, sorted(self.discard))
        self.discard = []

    def discard_from_hand(self, card: int) -> None:
        self.hand.remove(card)
        self.discard.append(card)

    # ----------------------------------------------------------------- Timeline

    def place_of(self, card: int) -> tuple[int, int]:
        """(space, row) of a card in the Timeline, or (0, 0) if it is not there."""
        for s, items in enumerate(self.spaces):
            if card in items:
                return s + 1, items.index(card)
        return 0, 0

    def place_index(self, card: int) -> int:
        """A total order of Timeline places: space by space, lower place first."""
        s, r = self.place_of(card)
        return (s - 1) * 3 + r

    def monuments(self) -> list[int]:
        """Timeline monuments in place order (the time card is not a monument, D18)."""
        return [c for items in self.spaces for c in items if c >= 0]

    def in_timeline(self, card: int) -> bool:
        return any(card in items for items in self.spaces)

    def space_monuments(self, space: int) -> list[int]:
        return [c for c in self.spaces[space - 1] if c >= 0]

    def has_free_place(self, space: int) -> bool:
        """Two places a space; the time card takes one of them (RULES.md section 2)."""
        return len(self.spaces[space - 1]) < 2

    def free_spaces(self) -> list[int]:
        """The spaces with a free place (`has_free_place`), in order."""
        return [s for s, items in enumerate(self.spaces, 1) if len(items) < 2]

    def put_in_space(self, card: int, space: int) -> None:
        """Put a monument in the lower place of `space` if free, else the upper one."""
        self.spaces[space - 1] = self.spaces[space - 1] + (card,)

    def take_from_timeline(self, card: int) -> None:
        """Remove a monument; the card above it slides down (RULES.md section 2)."""
        s, _ = self.place_of(card)
        self.spaces[s - 1] = tuple(c for c in self.spaces[s - 1] if c != card)

    def adjacent(self, card: int) -> list[int]:
        """Monuments orthogonally adjacent to `card` (RULES.md D5): the other place of the same
        space, and the same row of the spaces left and right. The time card is never adjacent."""
        s, r = self.place_of(card)
        if s == 0:
            return []
        out = [c for c in self.spaces[s - 1] if c >= 0 and c != card]
        for t in (s - 1, s + 1):
            if 1 <= t <= 6:
                items = self.spaces[t - 1]
                if r < len(items) and items[r] >= 0:
                    out.append(items[r])
        return out

    def timeline_tokens(self) -> int:
        return sum(self.tokens[c] for c in self.monuments())

    # ----------------------------------------------------------------- board

    def board_artifacts(self) -> list[int]:
        """Artifact cards on the board (chest cards are not artifacts, D11)."""
        return [a for a in self.artifacts if 0 <= a < CHEST_BASE]

    def free_artifact_space(self) -> int:
        for i, a in enumerate(self.artifacts):
            if a == EMPTY:
                return i
        return -1

    def in_play(self) -> list[int]:
        """Cards whose standing effects work: Timeline monuments and board artifacts
        (`monuments` then `board_artifacts`, written out: two calls less)."""
        return [c for items in self.spaces for c in items if c >= 0] + \
            [a for a in self.artifacts if 0 <= a < CHEST_BASE]

    def count_past(self, kind: int) -> int:
        kinds = self.book.kinds
        return sum(1 for c in self.past if kinds[c] == kind)

    # ----------------------------------------------------------------- technologies

    def tile_cards(self, tile: int) -> list[int]:
        return [c for c in self.tiles[3 * tile:3 * tile + 3] if c != EMPTY]

    def available_techs(self) -> list[int]:
        return [c for c in self.tiles if c != EMPTY]

    def die_slot(self, roll: int) -> int:
        """The slot (0-8; its tile is ``slot // 3``) a die roll hits (RULES.md section 4D,
        D9): rolls 1-3 tile A, 4-6 tile B; after the middle of the game, where that tile stayed
        Level I, tile C takes its numbers."""
        tile = 0 if roll <= 3 else 1
        if self.midgame and self.tile_level[tile] == 1:
            tile = TILE_C
        return 3 * tile + (roll - 1) % 3

    def take_from_tile(self, tech: int) -> int:
        """Remove a technology from its tile; return the tile."""
        i = self.tiles.index(tech)
        self.tiles[i] = EMPTY
        return i // 3

    def discard_tech(self, tech: int) -> None:
        self.tech_discards[self.card(tech).level - 1].append(tech)

    def check_tile(self, tile: int) -> None:
        """If a tile holds exactly one card, discard it and fill the tile with 3 new cards of its
        level (RULES.md sections 4D and 5, Learn)."""
        cards = self.tile_cards(tile)
        if len(cards) == 1:
            self.discard_tech(cards[0])
            for k in range(3):
                self.tiles[3 * tile + k] = EMPTY
            self.fill_tile(tile)

    def fill_tile(self, tile: int) -> None:
        """Fill an empty tile with 3 cards of its level, reshuffling that level's discard pile
        when the deck runs out; with fewer than 3 in deck and discard the tile stays empty."""
        lv = self.tile_level[tile] - 1
        if len(self.tech_decks[lv]) + len(self.tech_discards[lv]) < 3:
            return
        for k in range(3):
            if not self.tech_decks[lv]:
                self.reshuffle_tech(lv)
            self.tiles[3 * tile + k] = self.tech_decks[lv].pop()

    def reshuffle_tech(self, lv: int) -> None:
        n = self.reshuffles[1 + lv]
        self.reshuffles[1 + lv] = n + 1
        purpose = "tech1-reshuffle" if lv == 0 else "tech2-reshuffle"
        self.tech_decks[lv] = shuffled(self.setup.seed, purpose, n, sorted(self.tech_discards[lv]))
        self.tech_discards[lv] = []

    # ----------------------------------------------------------------- checks

    def zone_of_every_card(self) -> dict[int, str]:
        """Where each card is; raises AssertionError if a card is in two places or in none."""
        seen: dict[int, str] = {}

        def put(cards: list[int] | tuple[int, ...], zone: str) -> None:
            for c in cards:
                if c in seen:
                    raise AssertionError(f"{self.card(c).code} is in {seen[c]} and {zone}")
                seen[c] = zone

        put(self.hand, "hand")
        put(self.deck, "deck")
        put(self.discard, "discard")
        put([c for s in self.spaces for c in s if c >= 0], "timeline")
        put(self.past, "past")
        put(self.board_artifacts(), "artifacts")
        put(self.limbo, "limbo")
        put([t for _, t in self.held], "held on a card")
        put(self.techs, "collection")
        put([c for c in self.tiles if c != EMPTY], "tiles")
        put(self.tech_decks[0] + self.tech_decks[1], "tech deck")
        put(self.tech_discards[0] + self.tech_discards[1], "tech discard")
        missing = [c.code for c in self.book.cards
                   if c.index not in seen and c.index in self.setup_cards()]
        if missing:
            raise AssertionError(f"cards in no zone: {missing}")
        return seen

    def setup_cards(self) -> frozenset[int]:
        return self.setup.card_pool(self.book)

    def is_artifact(self, card: int) -> bool:
        return self.book.cards[card].kind == ARTIFACT

