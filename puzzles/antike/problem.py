"""One know-how purchase to plan: what the nation has, what others have, its gold, the goal.

Rules used (Antike rules manual, page 9, "Know-How"):

* a nation secures one or more know-hows in one purchase by paying gold to the bank;
* the price is the "new" price (7 basic / 10 secondary) when no other nation possesses the
  know-how, else the "known" price (3 / 5);
* each know-how a nation is first to obtain (no other nation possesses it) earns one scholar;
* a secondary needs its basic; the basic may be bought in the same purchase (the page's example
  buys sailing and navigation together for 3 + 10 = 13 gold);
* a nation with all eight know-hows receives an extra personage (reported, not optimised).

Holdings are read *closed under prerequisites*: a nation (this one or another) can only have
obtained a secondary while owning its basic, and the page moves the nation's stone from the
basic down to the secondary, so a holding written "navigation" means "sailing, navigation".

The two goals, with the tie-breaks that make the best purchase unique (so the two solving
methods must return the very same purchase):

* ``scholars``: most scholars within the gold; ties: less gold; then `TIE_BREAK`;
* ``cheapest``: reach the wanted know-hows for the least gold; then `TIE_BREAK`.

Both goals also honour ``want`` as a hard constraint: the purchase must reach every wanted
know-how (an empty ``want`` is always reached, so the ``scholars`` goal without ``want`` is
never infeasible).
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from enum import StrEnum

from puzzles.antike.knowhow import Catalog, KnowHow, KnowHowError, load_catalog, shown

#: The last tie-break, after scholars and gold: leave the later know-hows of the chart unbought
#: (compare the last know-how, in chart order, where two purchases differ; the one without it
#: wins). It is a reporting convention, not a rule of the game.
TIE_BREAK = "leave later know-hows of the chart unbought"


class ProblemError(KnowHowError):
    """A bad value for one parameter of a purchase; `parameter` names it (``gold``, ``have``
    ...)."""

    def __init__(self, parameter: str, message: str) -> None:
        super().__init__(message)
        self.parameter = parameter


class Goal(StrEnum):
    """What the purchase optimises."""

    SCHOLARS = "scholars"
    CHEAPEST = "cheapest"

    @classmethod
    def parse(cls, text: str) -> Goal:
        """The goal named by `text`.

        :raises ProblemError: for any other word.
        """
        try:
            return cls(text.strip().lower())
        except ValueError:
            choices = " or ".join(repr(g.value) for g in cls)
            raise ProblemError("goal", f"must be {choices}, got {shown(text)}") from None


#: The most gold a purchase takes: far above the price of all eight know-hows (80), and small
#: enough for the constraint model's integer arithmetic.
GOLD_MAX = 1_000_000


def parse_gold(text: str) -> int:
    """The nation's gold, a whole number from 0 to `GOLD_MAX`, in ASCII digits.

    :raises ProblemError: for anything else.
    """
    word = text.strip()
    if not word.isascii() or not word.isdigit() or len(word) > 7 or int(word) > GOLD_MAX:
        raise ProblemError("gold", f"must be a whole number from 0 to {GOLD_MAX}, "
                           f"got {shown(text)}")
    return int(word)


@dataclass(frozen=True)
class PurchaseProblem:
    """A validated purchase to plan. Build it with `create` or `from_text`.

    :param have: the know-hows the nation owns (closed under prerequisites).
    :param others: the know-hows at least one other nation possesses (closed likewise).
    :param gold: the gold the nation may pay, >= 0.
    :param want: the know-hows the purchase must reach (closed likewise).
    """

    catalog: Catalog
    have: frozenset[str]
    others: frozenset[str]
    gold: int
    goal: Goal
    want: frozenset[str]

    @classmethod
    def create(
        cls,
        have: Iterable[str] = (),
        others: Iterable[str] = (),
        gold: int = 0,
        goal: Goal = Goal.SCHOLARS,
        want: Iterable[str] = (),
        catalog: Catalog | None = None,
    ) -> PurchaseProblem:
        """Check and close a purchase problem.

        :raises ProblemError: for an unknown know-how, a negative gold, or the ``cheapest`` goal
            without wanted know-hows (the cheapest way to want nothing is to buy nothing).
        """
        catalog = catalog or load_catalog()
        closed: dict[str, frozenset[str]] = {}
        for parameter, names in (("have", have), ("others", others), ("want", want)):
            try:
                closed[parameter] = catalog.closure(names)
            except KnowHowError as exc:
                raise ProblemError(parameter, str(exc)) from None
        if isinstance(gold, bool) or not isinstance(gold, int) or not 0 <= gold <= GOLD_MAX:
            raise ProblemError("gold", f"must be a whole number from 0 to {GOLD_MAX}, got {gold!r}")
        if goal is Goal.CHEAPEST and not closed["want"]:
            raise ProblemError("want", "the 'cheapest' goal needs at least one wanted know-how")
        return cls(catalog, closed["have"], closed["others"], gold, goal, closed["want"])

    @classmethod
    def from_text(
        cls,
        have: str = "",
        others: str = "",
        gold: str = "0",
        goal: str = "scholars",
        want: str = "",
        catalog: Catalog | None = None,
    ) -> PurchaseProblem:
        """`create` from command-line text: comma-separated names, a number, a goal word.

        :raises ProblemError: naming the parameter at fault.
        """
        catalog = catalog or load_catalog()
        parsed: dict[str, frozenset[str]] = {}
        for parameter, text in (("have", have), ("others", others), ("want", want)):
            try:
                parsed[parameter] = catalog.parse(text)
            except KnowHowError as exc:
                raise ProblemError(parameter, str(exc)) from None
        return cls.create(
            have=parsed["have"],
            others=parsed["others"],
            gold=parse_gold(gold),
            goal=Goal.parse(goal),
            want=parsed["want"],
            catalog=catalog,
        )

    # --- the rules of one know-how ------------------------------------------------------------

    def is_first(self, name: str) -> bool:
        """True when no other nation possesses `name`: it is NEW (rules p. 9)."""
        return name not in self.others

    def price(self, name: str) -> int:
        """The gold for `name`: 7/10 when new, 3/5 when another nation has it (rules p. 9)."""
        return self.catalog[name].price(known_elsewhere=not self.is_first(name))

    def scholars(self, name: str) -> int:
        """Scholars for obtaining `name`: one when the nation is first to obtain it (rules p. 9)."""
        return self.catalog.scholars_per_first if self.is_first(name) else 0

    # --- the purchase as a whole ----------------------------------------------------------------

    @property
    def candidates(self) -> tuple[KnowHow, ...]:
        """The know-hows the nation could still buy, each after its prerequisite."""
        return tuple(
            self.catalog[name] for name in self.catalog.decision_order() if name not in self.have
        )

    @property
    def required(self) -> frozenset[str]:
        """The know-hows the purchase must contain: the wanted ones not owned yet."""
        return self.want - self.have

    def is_valid_purchase(self, bought: Iterable[str]) -> bool:
        """True when `bought` holds no owned know-how, gives every bought secondary its basic
        (owned or bought now, rules p. 9), fits in the gold and contains `required`."""
        bought = frozenset(bought)
        if bought & self.have or not bought >= self.required:
            return False
        owned = self.have | bought
        for name in bought:
            prerequisite = self.catalog[name].prerequisite
            if prerequisite is not None and prerequisite not in owned:
                return False
        return self.cost(bought) <= self.gold

    def cost(self, bought: Iterable[str]) -> int:
        """The gold the bank receives for `bought`: the sum of the prices (rules p. 9)."""
        return sum(self.price(name) for name in bought)

    def scholars_for(self, bought: Iterable[str]) -> int:
        """The scholars `bought` earns: one per know-how no other nation has (rules p. 9)."""
        return sum(self.scholars(name) for name in bought)

    def all_reached(self, bought: Iterable[str]) -> bool:
        """True when the nation then has every know-how of the chart, all eight: the page's
        condition for an extra personage."""
        return self.have | frozenset(bought) == frozenset(self.catalog.names)

    # --- the objective (one linear form, shared by CP-SAT and the search) -----------------------

    @property
    def gold_weight(self) -> int:
        """Weight of one gold: above any tie-break sum (2 ** number of know-hows)."""
        return 1 << len(self.catalog)

    @property
    def scholar_weight(self) -> int:
        """Weight of one scholar: above any gold-and-tie-break sum, so scholars come first."""
        most_gold = sum(k.price_new for k in self.catalog.know_hows)
        return (most_gold + 1) * self.gold_weight

    def coefficient(self, name: str) -> int:
        """What buying `name` adds to the objective (maximised):

        * ``scholars``: scholar_weight * scholars - gold_weight * price - 2 ** index;
        * ``cheapest``: - gold_weight * price - 2 ** index.

        The ``2 ** index`` term is `TIE_BREAK`; distinct purchases get distinct objectives.
        """
        know_how = self.catalog[name]
        value = -self.gold_weight * self.price(name) - (1 << know_how.index)
        if self.goal is Goal.SCHOLARS:
            value += self.scholar_weight * self.scholars(name)
        return value

    def objective(self, bought: Iterable[str]) -> int:
        """The objective of a purchase: the sum of its `coefficient`s (empty purchase: 0)."""
        return sum(self.coefficient(name) for name in bought)
