"""The card model: builder and technology cards with their effects, as the engine reads them.

Card facts and effect encodings live in data files (`puzzles/data/cards/*.json`, format in
`puzzles/data/CARD_FORMAT.md`); `puzzles.cardsets` validates a file and builds these objects.
Everything here is immutable and shared by every game state.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Final

from solver.frozen import Frozen

# Builder card kinds (monument types first; RULES.md section 1).
CITY: Final = 0
MEGALITH: Final = 1
PYRAMID: Final = 2
ARTIFACT: Final = 3
KIND_NAMES: Final = ("city", "megalith", "pyramid", "artifact")
MONUMENT_KINDS: Final = (CITY, MEGALITH, PYRAMID)

# Technology types.
ANCIENT: Final = 0
SECRET: Final = 1
WRITING: Final = 2
TECH_TYPE_NAMES: Final = ("ancient", "secret", "writing")

MOMENTS: Final = ("immediate", "timeline", "decline", "endgame", "anytime")

COUNTERS: Final = (
    "past.city", "past.megalith", "past.pyramid", "past.any", "past.max_type", "past.min_type",
    "past.endgame",
    "timeline.city", "timeline.megalith", "timeline.pyramid", "timeline.any", "timeline.min_type",
    "space1",
    "techs.ancient", "techs.secret", "techs.writing", "techs.any", "techs.min_type",
    "techs.max_type",
    "artifacts", "lost", "tl_tokens", "hand", "hand.artifact", "self.tokens",
    "adj.city", "adj.megalith", "adj.pyramid", "adj.any", "adj.max_type",
)

OPS: Final = (">=", "<=", "==")  # card conditions and requirements
CLAUSE_OPS: Final = (">=", "<=", "==", ">", "<")  # goals may also say > and <

STEP_OPS: Final = (
    "draw", "remove_knowledge", "discard_lost", "swap", "move", "straighten", "create", "learn",
    "archive", "reveal_keep", "reveal_until", "niches", "ancient_greek", "discard_hand", "pay",
    "bury_tech", "vanish_if_knowledge", "hold_tech", "gain_held_tech",
)

SPECIALS: Final = (
    "potala_skip_decline", "candi_sukuh", "kensington_runestone", "phaistos_disc",
    "elongated_skulls", "poulnabrone",
)

TARGETS: Final = ("self", "one", "pair", "pool", "each")


@dataclass(frozen=True, slots=True)
class Clause(Frozen):
    """``counter op value``: a count compared with a number. One clause type serves card
    conditions (checked when an effect resolves), technology requirements (when learned) and
    goal chests (at the end, `solver.engine.goals`; goals may also use ``>`` and ``<``)."""

    counter: str
    op: str
    value: int

    def holds(self, amount: int) -> bool:
        op = self.op
        if op == ">=":
            return amount >= self.value
        if op == "<=":
            return amount <= self.value
        if op == "==":
            return amount == self.value
        if op == ">":
            return amount > self.value
        return amount < self.value

    def __str__(self) -> str:
        return f"{self.counter} {self.op} {self.value}"


@dataclass(frozen=True, slots=True)
class Filter(Frozen):
    """Which Timeline monuments an effect may target."""

    monument_type: int | None = None
    other: bool = False
    adjacent: bool = False
    min_tokens: int | None = None
    exact_tokens: int | None = None
    space: int | None = None


@dataclass(frozen=True, slots=True)
class Score(Frozen):
    """An end-game VP rule: fixed, per counter, or the highest tier reached."""

    fixed: int = 0
    per: str | None = None
    times: int = 1
    counter: str | None = None
    tiers: tuple[tuple[int, int], ...] = ()


@dataclass(frozen=True, slots=True)
class Trigger(Frozen):
    """An "each time you CREATE / LEARN / EXCAVATE" condition."""

    event: str
    kind: int | None = None  # create: MONUMENT (-1 = any monument) or ARTIFACT
    monument_type: int | None = None
    spaces: tuple[int, ...] = ()
    not_self: bool = False
    tech_type: int | None = None
    rotated_at_least: int = 0


ANY_MONUMENT: Final = -1


@dataclass(frozen=True, slots=True)
class Step(Frozen):
    """One primitive of an effect, with every parameter the vocabulary allows."""

    op: str
    n: int = 0
    per: str | None = None
    amount: int = 0
    up_to: bool = False
    target: str = "one"
    filter: Filter = field(default_factory=Filter)
    first: str = "self"
    to: int = 0  # 0 = any free place
    kind: int | None = None
    monument_type: int | None = None
    count: int = 1
    keep: int = 1
    ignore_requirements: bool = False
    card_type: int | None = None
    level: int | None = None
    optional: bool = False
    cost: str = ""  # pay: discard_hand / discard_hand_up_to / discard_self / discard_artifacts
    then: tuple[Step, ...] = ()


def all_steps(steps: tuple[Step, ...]) -> list[Step]:
    """Every step of `steps`, each followed by the steps its ``then`` runs (depth first)."""
    out: list[Step] = []
    for s in steps:
        out.append(s)
        out.extend(all_steps(s.then))
    return out


@dataclass(frozen=True, slots=True)
class Reduction(Frozen):
    """A standing knowledge reduction for monuments entering play."""

    monument_type: int | None
    amount: int
    others: bool


@dataclass(frozen=True, slots=True)
class Effect(Frozen):
    """One effect of a card at one activation moment (a card may carry two: RULES.md section 12)."""

    moment: str
    condition: tuple[Clause, ...] = ()
    steps: tuple[Step, ...] = ()
    optional: bool = False
    trigger: Trigger | None = None
    score: Score | None = None
    reduction: Reduction | None = None
    discount: Score | None = None
    special: str | None = None
    opponents_only: bool = False


@dataclass(frozen=True, slots=True)
class Card(Frozen):
    """A builder card (monument or artifact) or a technology card."""

    index: int
    id: str
    code: str
    name: str
    is_tech: bool
    kind: int  # builder: CITY..ARTIFACT; technology: ANCIENT..WRITING
    set_name: str
    activation: str
    text: str
    effects: tuple[Effect, ...]
    number: int = 0
    country: str = ""
    starting_hand: int | None = None
    discard_cost: int = 0
    starting_space: int = 0
    knowledge: int = 0
    vp: int = 0
    locked: bool = False
    level: int = 0
    requirement: tuple[Clause, ...] = ()
    requirement_text: str = ""

    @property
    def is_monument(self) -> bool:
        return not self.is_tech and self.kind != ARTIFACT

    @property
    def is_artifact(self) -> bool:
        return not self.is_tech and self.kind == ARTIFACT

    @property
    def type_name(self) -> str:
        return TECH_TYPE_NAMES[self.kind] if self.is_tech else KIND_NAMES[self.kind]

    def effects_at(self, moment: str) -> tuple[Effect, ...]:
        return tuple(e for e in self.effects if e.moment == moment)


@dataclass(frozen=True)
class CardBook(Frozen):
    """Every card of the game's card sets, indexed by a dense integer (the card index).

    Builder cards come first, then technologies, in data-file order; the index is stable for a
    given list of card sets, and it is what the engine stores in its state.

    Derived per card index (what the engine's hot loops would otherwise find by scanning every
    effect of every card in play): `timeline_effects` (indices of the effects with the Timeline
    moment), `learn_reactions` ((effect index, technology type or None) of each "each time you
    LEARN" trigger), `create_reactive` (some effect reacts to a Create: a create trigger or
    Poulnabrone), `reducer` (some effect reduces entering knowledge), `kinds` (each card's
    `Card.kind`), `candi_sukuh` (the card
    carries that special), `single_minimum` ((counter, value) of a technology requirement that
    is exactly one ``>=`` clause, else None).
    """

    cards: tuple[Card, ...]
    sets: tuple[tuple[str, str], ...]  # (set name, content hash)
    # lookup tables made from `cards` (declared fields, so a compiled build can hold them)
    _by_code: dict[str, int] = field(init=False, repr=False, compare=False)
    _by_id: dict[str, int] = field(init=False, repr=False, compare=False)
    # per card index, what the engine's hot loops look up (`card_tables`; derived, never set)
    timeline_effects: tuple[tuple[int, ...], ...] = field(init=False, repr=False, compare=False)
    learn_reactions: tuple[tuple[tuple[int, int | None], ...], ...] = field(
        init=False, repr=False, compare=False)
    create_reactive: tuple[bool, ...] = field(init=False, repr=False, compare=False)
    reducer: tuple[bool, ...] = field(init=False, repr=False, compare=False)
    candi_sukuh: tuple[bool, ...] = field(init=False, repr=False, compare=False)
    kinds: tuple[int, ...] = field(init=False, repr=False, compare=False)
    single_minimum: tuple[tuple[str, int] | None, ...] = field(init=False, repr=False,
                                                               compare=False)

    def __post_init__(self) -> None:
        by_code = {c.code: c.index for c in self.cards}
        by_id = {c.id: c.index for c in self.cards}
        object.__setattr__(self, "_by_code", by_code)
        object.__setattr__(self, "_by_id", by_id)
        cards = self.cards
        object.__setattr__(self, "timeline_effects", tuple(
            tuple(i for i, e in enumerate(c.effects) if e.moment == "timeline") for c in cards))
        object.__setattr__(self, "learn_reactions", tuple(
            tuple((i, e.trigger.tech_type) for i, e in enumerate(c.effects)
                  if e.trigger is not None and e.trigger.event == "learn") for c in cards))
        object.__setattr__(self, "create_reactive", tuple(
            any(e.special == "poulnabrone"
                or (e.trigger is not None and e.trigger.event == "create")
                for e in c.effects) for c in cards))
        object.__setattr__(self, "reducer", tuple(
            any(e.reduction is not None for e in c.effects) for c in cards))
        object.__setattr__(self, "kinds", tuple(c.kind for c in cards))
        object.__setattr__(self, "candi_sukuh", tuple(
            any(e.special == "candi_sukuh" for e in c.effects) for c in cards))
        object.__setattr__(self, "single_minimum", tuple(
            (c.requirement[0].counter, c.requirement[0].value)
            if len(c.requirement) == 1 and c.requirement[0].op == ">=" else None
            for c in cards))

    def __len__(self) -> int:
        return len(self.cards)

    def __getitem__(self, index: int) -> Card:
        return self.cards[index]

    def lookup(self, name: str) -> Card | None:
        """The card with this code (``C5``) or id (``C5_ElloraCaves``), or None."""
        idx = self._by_code.get(name, self._by_id.get(name))
        return None if idx is None else self.cards[idx]

    @property
    def builders(self) -> tuple[Card, ...]:
        return tuple(c for c in self.cards if not c.is_tech)

    @property
    def technologies(self) -> tuple[Card, ...]:
        return tuple(c for c in self.cards if c.is_tech)
