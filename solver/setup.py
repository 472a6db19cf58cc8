"""Game setup (RULES.md section 3): decks, tiles, hand, time card, die sequence.

A `Setup` is everything needed to deal a game again on any machine: the card sets (by name and
content hash), the hand spec, the draw seed or an explicit deck order, the die seed or an
explicit die sequence, and the time card's start space. `new_game` deals it.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from solver.cards import CardBook
from solver.errors import SetupError
from solver.frames import D_CHEST_GOALS, D_KEEP, D_PAY, F_TURN_START
from solver.rng import die_rolls, shuffled
from solver.state import EMPTY, TIME, GameState

if TYPE_CHECKING:
    from solver.chests import ChestSet

HAND_SPECS = ("1", "2", "3", "4", "draw", "list")
HAND_SIZE = 6
DRAW_SIZE = 10


def turns_for(time_space: int) -> int:
    """16 turns with the time card in space 4, 15 from space 3 (RULES.md section 4)."""
    return 12 + time_space


@dataclass(frozen=True)
class Setup:
    """The deal of one game; `to_json` / `from_json` carry it in line files."""

    hand: str = "1"
    hand_cards: tuple[str, ...] = ()
    seed: int = 0
    die_seed: int | None = None
    deck: tuple[str, ...] | None = None
    dice: tuple[int, ...] | None = None
    time_space: int = 4
    card_sets: tuple[tuple[str, str], ...] = ()
    restricted: bool = False
    trial: int | None = None  # the trial table's number (RULES.md section 9), if any
    # Chest cards (RULES.md sections 8-10), by letter: goals in artifact spaces, effects under
    # the board, or (Campaign) the revealed chests the player chooses goals from in the game.
    chests: str | None = None  # chest file: "default" (puzzles/data/chests.json) or a path
    chests_sha256: str | None = None  # its content hash; a changed file is refused
    goals: tuple[str, ...] = ()
    under: tuple[str, ...] = ()
    revealed: tuple[str, ...] = ()
    campaign: bool = False  # Campaign mode: the mid-game goal revision (section 6)
    worthiest_heir: bool = False  # Campaign variant: every revealed chest is taken as a goal
    extra_discards: int = 0  # Campaign rank: builder cards discarded more at setup (section 10)
    chest_data: ChestSet | None = field(default=None, compare=False, hash=False, repr=False)

    def __post_init__(self) -> None:
        if self.hand not in HAND_SPECS:
            raise SetupError(f"hand: {self.hand!r} is not one of 1, 2, 3, 4, draw or a file")
        if self.time_space not in (3, 4):
            raise SetupError(f"time_space: {self.time_space} must be 4 or 3")
        needed = turns_for(self.time_space) - 1
        if self.dice is not None:
            bad = [d for d in self.dice if not 1 <= d <= 6]
            if bad:
                raise SetupError(f"dice: value {bad[0]} is outside 1-6")
            if len(self.dice) < needed:
                raise SetupError(
                    f"dice: {len(self.dice)} values given, the game needs {needed} "
                    f"(one per technology phase)")
            rolls = tuple(self.dice)
        else:
            seed = self.seed if self.die_seed is None else self.die_seed
            rolls = die_rolls(seed, needed)
        object.__setattr__(self, "rolls", rolls)
        self._check_chests()

    def _check_chests(self) -> None:
        """Chest letters known, at most 5 a zone, no chest twice; the chest file loaded and its
        hash checked (RULES.md sections 8-10)."""
        from solver.actions import CHEST_LETTERS

        zones = (("goals", self.goals), ("under", self.under), ("revealed", self.revealed))
        seen: dict[str, str] = {}
        for name, letters in zones:
            for ch in letters:
                if ch not in CHEST_LETTERS:
                    raise SetupError(f"chests.{name}: {ch!r} is not a chest letter ({CHEST_LETTERS})")
                if ch in seen:
                    raise SetupError(f"chests.{name}: chest {ch} is also in chests.{seen[ch]}")
                seen[ch] = name
            if len(letters) > 5:
                raise SetupError(f"chests.{name}: {len(letters)} chests, at most 5 fit")
        if self.revealed and self.goals:
            raise SetupError("chests.goals: with revealed chests the goals are chosen in the game")
        if not 0 <= self.extra_discards <= 5:
            raise SetupError(f"extra_discards: {self.extra_discards} must be 0-5")
        if not seen:
            return
        if self.chest_data is None:
            from puzzles.chests import load_chests

            data = load_chests(self.chests or "default")
            object.__setattr__(self, "chest_data", data)
        assert self.chest_data is not None
        if self.chests_sha256 is not None and self.chests_sha256 != self.chest_data.sha256:
            raise SetupError(f"chests: chest file {self.chests or 'default'} has changed since this "
                             f"setup was written (sha256 {self.chests_sha256[:12]}... expected)")
        object.__setattr__(self, "chests", self.chest_data.source)
        object.__setattr__(self, "chests_sha256", self.chest_data.sha256)

    def revealed_indices(self) -> list[int]:
        """The revealed chests (Campaign setup, section 10) as letter indices, in order."""
        from solver.actions import CHEST_LETTERS

        return sorted(CHEST_LETTERS.index(c) for c in self.revealed)

    rolls: tuple[int, ...] = field(init=False, default=(), compare=False)

    def card_pool(self, book: CardBook) -> frozenset[int]:
        """The cards of this game: every card of the card sets, or (restricted) only those
        whose effects the engine implements."""
        if not self.restricted:
            return frozenset(range(len(book)))
        from solver.effects import card_implemented

        return frozenset(c.index for c in book.cards if card_implemented(c))

    def to_json(self) -> dict[str, Any]:
        out: dict[str, Any] = {
            "hand": self.hand,
            "seed": self.seed,
            "die_seed": self.seed if self.die_seed is None else self.die_seed,
            "time_space": self.time_space,
            "card_sets": [{"name": n, "sha256": h} for n, h in self.card_sets],
            "restricted_to_implemented": self.restricted,
        }
        if self.hand == "list":
            out["hand_cards"] = list(self.hand_cards)
        if self.deck is not None:
            out["deck"] = list(self.deck)
        if self.dice is not None:
            out["dice"] = list(self.dice)
        if self.trial is not None:
            out["trial"] = self.trial
        if self.goals or self.under or self.revealed:
            out["chests"] = {
                "file": self.chests, "sha256": self.chests_sha256, "goals": list(self.goals),
                "under": list(self.under), "revealed": list(self.revealed),
                "campaign": self.campaign, "worthiest_heir": self.worthiest_heir,
            }
        if self.extra_discards:
            out["extra_discards"] = self.extra_discards
        return out

    @staticmethod
    def from_json(data: Any, where: str = "setup") -> Setup:
        if not isinstance(data, dict):
            raise SetupError(f"{where}: expected an object")
        try:
            deck = data.get("deck")
            dice = data.get("dice")
            chests = data.get("chests") or {}
            if not isinstance(chests, dict):
                raise SetupError(f"{where}: field 'chests' must be an object, got {chests!r}")
            return Setup(
                hand=str(data.get("hand", "1")),
                hand_cards=tuple(str(c) for c in data.get("hand_cards", ())),
                seed=int(data.get("seed", 0)),
                die_seed=None if data.get("die_seed") is None else int(data["die_seed"]),
                deck=None if deck is None else tuple(str(c) for c in deck),
                dice=None if dice is None else tuple(int(d) for d in dice),
                time_space=int(data.get("time_space", 4)),
                card_sets=tuple((str(s["name"]), str(s["sha256"])) for s in data.get("card_sets", ())),
                restricted=bool(data.get("restricted_to_implemented", False)),
                trial=None if data.get("trial") is None else int(data["trial"]),
                chests=None if chests.get("file") is None else str(chests["file"]),
                chests_sha256=None if chests.get("sha256") is None else str(chests["sha256"]),
                goals=tuple(str(c) for c in chests.get("goals", ())),
                under=tuple(str(c) for c in chests.get("under", ())),
                revealed=tuple(str(c) for c in chests.get("revealed", ())),
                campaign=bool(chests.get("campaign", False)),
                worthiest_heir=bool(chests.get("worthiest_heir", False)),
                extra_discards=int(data.get("extra_discards", 0)),
            )
        except (TypeError, ValueError, KeyError) as exc:
            if isinstance(exc, SetupError):
                raise
            raise SetupError(f"{where}: {exc}") from None


def _resolve(book: CardBook, code: str, field_name: str) -> int:
    card = book.lookup(code)
    if card is None or card.is_tech:
        raise SetupError(f"{field_name}: unknown builder card {code!r}")
    return card.index


def _deal_chests(st: GameState, setup: Setup) -> None:
    """Goal chests into the artifact spaces from the left, effect chests under the board
    (RULES.md section 3.3); a campaign's goals are a decision (`solver.chests.goals_options`)."""
    from solver.actions import CHEST_LETTERS
    from solver.chests import place_goal

    for ch in setup.goals:
        place_goal(st, CHEST_LETTERS.index(ch))
    st.chests_under = sorted(CHEST_LETTERS.index(ch) for ch in setup.under)


def new_game(setup: Setup, book: CardBook) -> GameState:
    """Deal a game (RULES.md section 3) and run it to the first decision."""
    from solver import flow

    pool = setup.card_pool(book)
    cards = book.cards
    builders = sorted(i for i in pool if not cards[i].is_tech)
    level1 = sorted(i for i in pool if cards[i].is_tech and cards[i].level == 1)
    level2 = sorted(i for i in pool if cards[i].is_tech and cards[i].level == 2)

    hand: list[int] = []
    if setup.hand in ("1", "2", "3", "4"):
        mark = int(setup.hand)
        hand = [i for i in builders if cards[i].starting_hand == mark]
        if len(hand) != HAND_SIZE:
            raise SetupError(f"hand: premade hand {mark} has {len(hand)} cards in this deck, not 6")
    elif setup.hand == "list":
        hand = [_resolve(book, c, "hand") for c in setup.hand_cards]
        if len(hand) != HAND_SIZE or len(set(hand)) != HAND_SIZE:
            raise SetupError(f"hand: needs 6 distinct builder cards, got {list(setup.hand_cards)}")
        missing = [cards[i].code for i in hand if i not in pool]
        if missing:
            raise SetupError(f"hand: card {missing[0]} is not in this game's deck")
    rest = [i for i in builders if i not in set(hand)]

    if setup.deck is not None:
        order = [_resolve(book, c, "deck") for c in setup.deck]
        if sorted(order) != rest:
            extra = sorted(set(order) - set(rest))
            lacking = sorted(set(rest) - set(order))
            dup = len(order) != len(set(order))
            what = (f"card {cards[extra[0]].code} is not in the deck" if extra else
                    f"card {cards[lacking[0]].code} is missing" if lacking else
                    "a card appears twice" if dup else "wrong length")
            raise SetupError(f"deck: not a permutation of the deck ({what})")
        deck = order[::-1]  # the file lists the top card first; the top is the list's end
    else:
        deck = shuffled(setup.seed, "builder", 0, rest)

    st = GameState.__new__(GameState)
    st.book = book
    st.setup = setup
    st.hand = sorted(hand)
    st.deck = deck
    st.discard = []
    st.spaces = [(), (), (), (), (), ()]
    st.tokens = [0] * len(book)
    st.past = []
    st.rotated = 0
    st.artifacts = [EMPTY] * 5
    st.lost = 0
    st.techs = []
    st.tiles = [EMPTY] * 9
    st.tile_level = [1, 1, 2]
    st.tech_decks = [shuffled(setup.seed, "tech1", 0, level1), shuffled(setup.seed, "tech2", 0, level2)]
    st.tech_discards = [[], []]
    st.turn = 0
    st.time_space = setup.time_space
    st.spaces[setup.time_space - 1] = (TIME,)
    st.time_visits = 0
    st.die_pos = 0
    st.reshuffles = [0, 0, 0]
    st.stack = [(F_TURN_START,)]
    st.limbo = []
    st.midgame = False
    st.potala = False
    st.in_decline = False
    st.declining = -1
    st.vanishing = -1
    st.converted = 0
    st.over = False
    st.legal = []
    st.chests_under = []
    st.goal_chests = []
    st.flags = 0
    st.held = ()
    for tile in range(3):
        st.fill_tile(tile)
    _deal_chests(st, setup)
    keep = HAND_SIZE - setup.extra_discards
    if setup.hand == "draw":
        st.draw(DRAW_SIZE)
        st.stack.append((D_KEEP, keep, -1, ()))
    elif setup.extra_discards:
        st.stack.append((D_PAY, setup.extra_discards, -1, None))  # campaign rank (section 10)
    if setup.revealed:  # Campaign: goals are chosen after the draw, before the discards
        st.stack.append((D_CHEST_GOALS, -1, ()))
    flow.settle(st)
    return st
