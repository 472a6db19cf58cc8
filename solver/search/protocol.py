"""The small game protocol that every search in `solver.search` talks to.

A puzzle (the Ancient Knowledge solo game, the Antike know-how purchase, ...) implements
`PuzzleState`; the searches use nothing else. The protocol follows OpenSpiel's Python games:
a state has one pending decision whose legal actions are small integers, `apply` changes the
state in place, `clone` copies it cheaply.

The objective is always *maximised*. A terminal state has a `value()` (the score) and says
whether it is `feasible()` (every hard constraint met, e.g. every goal chest). A search only
accepts feasible terminals as solutions; it may keep the best infeasible one for reporting.

What a search may know beyond the rules is a `Game`: optional hooks declared in one place (an
admissible bound, the key of the transposition table, a policy prior and context codes for
NRPA, a shortfall that ranks lines missing a goal). A puzzle without them searches with
`PlainGame`; a puzzle whose states bound themselves with `SelfBoundedGame`; the Heritage game
with `solver.game.HeritageGame`, which takes its bound as an object.
"""

from __future__ import annotations

import math
from collections.abc import Hashable, Sequence
from typing import Generic, Protocol, TypeVar, runtime_checkable

S = TypeVar("S", bound="PuzzleState")
S_contra = TypeVar("S_contra", bound="PuzzleState", contravariant=True)
B = TypeVar("B", bound="BoundedState")


@runtime_checkable
class PuzzleState(Protocol):
    """One position of a deterministic single-agent puzzle."""

    def legal_actions(self) -> Sequence[int]:
        """The legal actions of the pending decision, as stable integer codes, in a fixed order."""
        ...

    def apply(self, action: int) -> None:
        """Apply one legal action in place; raise `ValueError` (or a subclass) if it is illegal."""
        ...

    def clone(self: S) -> S:
        """An independent copy."""
        ...

    def is_terminal(self) -> bool:
        """True when no decision is pending any more."""
        ...

    def value(self) -> float:
        """The objective of a terminal state (higher is better)."""
        ...

    def feasible(self) -> bool:
        """True when a terminal state meets every hard constraint."""
        ...

    def key(self) -> Hashable:
        """An exact position key: equal keys mean equal futures (for transposition tables)."""
        ...

    def action_to_string(self, action: int) -> str:
        """The notation of an action of the pending decision."""
        ...


@runtime_checkable
class BoundedState(PuzzleState, Protocol):
    """A state that knows an admissible bound on its own future (small puzzles)."""

    def upper_bound(self) -> float:
        """No terminal reachable from here has a larger `value()`."""
        ...


class Game(Protocol[S_contra]):
    """What a search may ask of a puzzle beyond its states' rules (every hook has a neutral
    default in `PlainGame`)."""

    #: True when `policy_bias` is a real prior (NRPA then adds it to its weights, GNRPA).
    has_prior: bool
    #: True when the hooks the exact search asks make no reference cycles: the search then
    #: pauses the cycle collector (`solver.search.collector`); False: it keeps to young runs.
    cycle_free: bool

    def upper_bound(self, state: S_contra) -> float:
        """An admissible bound: no terminal reachable from `state` has a larger `value()`;
        ``-inf`` declares that no feasible terminal is reachable."""
        ...

    def search_key(self, state: S_contra) -> Hashable:
        """The transposition-table key: equal keys must mean equal futures."""
        ...

    def policy_code(self, state: S_contra, action: int) -> Hashable:
        """A stable code of an action in its context, for learned policies (NRPA)."""
        ...

    def policy_bias(self, state: S_contra, action: int) -> float:
        """A prior weight of an action (used only when `has_prior`)."""
        ...

    def policy_codes(self, state: S_contra, legal: Sequence[int]) -> Sequence[Hashable]:
        """``[policy_code(state, a) for a in legal]``, in one call (NRPA asks it per decision)."""
        ...

    def policy_factors(self, state: S_contra, legal: Sequence[int]) -> Sequence[float] | None:
        """``[exp(policy_bias(state, a)) for a in legal]`` in one call, or None when every bias
        is 0 (used only when `has_prior`)."""
        ...

    def policy_choice(self, state: S_contra, legal: Sequence[int],
                      ) -> tuple[Sequence[Hashable], Sequence[float] | None]:
        """``(policy_codes(state, legal), policy_factors(state, legal))`` in one call (NRPA
        asks it per decision when it uses the prior)."""
        ...

    def shortfall(self, state: S_contra) -> float:
        """How far a terminal is from meeting its hard constraints (0: met or unknown)."""
        ...

    def improved(self, value: float) -> None:
        """The exact search's incumbent rose to `value` (its own line, or another worker's):
        a bound that spends only where it may prune can weigh against it."""
        ...


class PlainGame(Generic[S]):
    """The neutral hooks: no bound, the exact key, the action as its own code, no prior."""

    has_prior = False
    cycle_free = False  # a subclass's hooks may make cycles: only one that knows says True

    def upper_bound(self, state: S) -> float:
        return math.inf

    def search_key(self, state: S) -> Hashable:
        return state.key()

    def policy_code(self, state: S, action: int) -> Hashable:
        return action

    def policy_bias(self, state: S, action: int) -> float:
        return 0.0

    def policy_codes(self, state: S, legal: Sequence[int]) -> Sequence[Hashable]:
        return legal

    def policy_factors(self, state: S, legal: Sequence[int]) -> Sequence[float] | None:
        return None

    def policy_choice(self, state: S, legal: Sequence[int],
                      ) -> tuple[Sequence[Hashable], Sequence[float] | None]:
        return self.policy_codes(state, legal), self.policy_factors(state, legal)

    def shortfall(self, state: S) -> float:
        return 0.0

    def improved(self, value: float) -> None:
        return None


class SelfBoundedGame(PlainGame[B]):
    """`PlainGame` with the states' own `upper_bound()`."""

    def upper_bound(self, state: B) -> float:
        return state.upper_bound()
