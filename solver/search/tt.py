"""The transposition table of the exact search: what is known of positions already searched.

The replacement policy lives here and nowhere else (`TranspositionTable.store`).
"""

from __future__ import annotations

from collections.abc import Hashable
from dataclasses import dataclass

from solver.frozen import Frozen


@dataclass(frozen=True)
class TTEntry(Frozen):
    """What the search knows about the best feasible terminal value reachable from a position.

    :param value: that value when `exact`, otherwise an upper bound on it (``-inf``: none).
    :param exact: True when the position's subtree was searched through.
    :param line: for an exact, finite value: the actions from the position to that terminal.
    """

    value: float
    exact: bool
    line: tuple[int, ...] = ()


class TranspositionTable:
    """Positions already searched, by `Game.search_key(state)`; the replacement policy lives here.

    Policy: an exact entry is never replaced; a bound is replaced by an exact entry or by a
    lower (tighter) bound. Entries are immutable, so a probe hands out no shared mutable state.
    """

    def __init__(self, capacity: int | None = None) -> None:
        self._capacity = capacity
        self._entries: dict[Hashable, TTEntry] = {}

    def __len__(self) -> int:
        return len(self._entries)

    def probe(self, key: Hashable) -> TTEntry | None:
        """The entry stored for `key`, if any."""
        return self._entries.get(key)

    def store(self, key: Hashable, entry: TTEntry) -> None:
        """Record `entry` for `key`, following the replacement policy of the class."""
        old = self._entries.get(key)
        if old is None:
            if self._capacity is None or len(self._entries) < self._capacity:
                self._entries[key] = entry
        elif not old.exact and (entry.exact or entry.value < old.value):
            self._entries[key] = entry
