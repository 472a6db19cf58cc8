"""Whole games played by a fixed policy over the search protocol (`solver.search.protocol`).

Two policies, for any puzzle that implements `PuzzleState`:

* `random_playout`: at each decision, ``legal[stream.below(len(legal))]`` (uniform over the
  legal actions, `solver.rng.Stream`); the caller picks the stream, so a seed means the same
  game everywhere (``heritage play``, the engine benchmark and the ``random`` baseline all
  play through here).
* `greedy_playout`: one step of look-ahead: try every legal action on a copy and keep the one
  whose position scores best by the caller's `score`; ties go to the first option, or to a
  random one when a stream is given.

Both play to the end; the state is the caller's (`random_playout` changes it in place).

>>> from solver.rng import Stream
>>> class Count:  # a tiny puzzle: add 1 or 2 until the sum reaches 5
...     def __init__(self, total: int = 0) -> None: self.total = total
...     def legal_actions(self) -> list[int]: return [] if self.total >= 5 else [1, 2]
...     def apply(self, action: int) -> None: self.total += action
...     def clone(self) -> "Count": return Count(self.total)
...     def is_terminal(self) -> bool: return self.total >= 5
...     def value(self) -> float: return float(self.total)
>>> state = Count()
>>> line = random_playout(state, Stream(0, "doc"))
>>> state.is_terminal() and sum(line) == state.total
True
>>> greedy_playout(Count(), lambda s: s.value()).line
[2, 2, 2]
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Generic, TypeVar

from solver.rng import Stream
from solver.search.protocol import PuzzleState

S = TypeVar("S", bound=PuzzleState)


def random_playout(state: PuzzleState, stream: Stream) -> list[int]:
    """Play `state` to the end in place, each action drawn uniformly from the legal ones with
    one ``stream.below(len(legal))`` per decision; return the actions played."""
    line: list[int] = []
    while not state.is_terminal():
        legal = state.legal_actions()
        action = legal[stream.below(len(legal))]
        state.apply(action)
        line.append(action)
    return line


class Playout(Generic[S]):
    """A finished game: its last position, the actions from the start, and the positions the
    policy evaluated on the way (its work)."""

    def __init__(self, state: S, line: list[int], evaluated: int) -> None:
        self.state = state
        self.line = line
        self.evaluated = evaluated


def greedy_playout(state: S, score: Callable[[S], float],
                   stream: Stream | None = None) -> Playout[S]:
    """Play from `state` (not changed) to the end, at each decision taking the action whose
    position has the highest `score`; among equal scores the first action in legal order, or,
    with a `stream`, ``tied[stream.below(len(tied))]`` (a draw only when two or more tie)."""
    evaluated = 0
    line: list[int] = []
    while not state.is_terminal():
        top = float("-inf")
        tied: list[tuple[int, S]] = []
        for action in state.legal_actions():
            child = state.clone()
            child.apply(action)
            evaluated += 1
            value = score(child)
            if value > top:
                top, tied = value, [(action, child)]
            elif value == top:
                tied.append((action, child))
        pick = 0 if stream is None or len(tied) == 1 else stream.below(len(tied))
        action, state = tied[pick]
        line.append(action)
    return Playout(state, line, evaluated)
