"""The transposition table of the exact search: what is known of positions already searched.

The replacement policy lives here and nowhere else (`TranspositionTable.store`), and so does the
table's limit: a number of entries, an estimate of the memory it holds, or both. A full table
forgets its oldest entries; a forgotten position is searched again when it comes back, so a
limit costs transpositions (time), never a wrong answer: an entry is only ever a shortcut for a
subtree the search can always expand.
"""

from __future__ import annotations

import sys
from collections.abc import Hashable
from dataclasses import dataclass
from typing import Final

from solver.frozen import Frozen

#: Bytes one entry costs besides its key and its line: the dict slot with the table's growth
#: slack (~100), the `TTEntry` object with slots (56) and its float (24), rounded up.
ENTRY_OVERHEAD: Final = 200
#: Bytes per action of an entry's line (a tuple slot; the action integers are shared).
LINE_ITEM_BYTES: Final = 8
#: A key's size is measured on the first new position and on every `KEY_SAMPLE`-th one after;
#: every entry is charged the running mean (keys of one search are alike in size).
KEY_SAMPLE: Final = 256
#: A full table forgets this share of its limit at once (oldest entries first), so that the
#: forgetting costs little per store.
EVICT_SHARE: Final = 0.25
MB: Final = 1 << 20
#: The memory cap of a solve's table, in MiB (`solver.solve.SolveConfig.tt_memory_mb`): about
#: 2.8 KB a position with the engine's key (the estimate runs ~15% above what tracemalloc
#: measures), so ~380k positions; with the engine, the bound and its caches a solve stays
#: under about 2 GB.
DEFAULT_MEMORY_MB: Final = 1024.0


@dataclass(frozen=True, slots=True)
class TTEntry(Frozen):
    """What the search knows about the best feasible terminal value reachable from a position.

    :param value: that value when `exact`, otherwise an upper bound on it (``-inf``: none).
    :param exact: True when the position's subtree was searched through.
    :param line: for an exact, finite value: the actions from the position to that terminal.
    """

    value: float
    exact: bool
    line: tuple[int, ...] = ()


def deep_size(obj: object) -> int:
    """Bytes held by `obj` and the tuples and lists inside it (`sys.getsizeof` of each), the
    small integers and singletons CPython shares (``None``, booleans, the empty tuple) counted
    as 0."""
    if obj is None or isinstance(obj, bool) or obj == ():
        return 0
    if isinstance(obj, int) and -5 <= obj <= 256:
        return 0
    size = sys.getsizeof(obj)
    if isinstance(obj, tuple | list):
        size += sum(deep_size(x) for x in obj)
    return size


class TranspositionTable:
    """Positions already searched, by `Game.search_key(state)`; the replacement policy lives here.

    Policy: an exact entry is never replaced; a bound is replaced by an exact entry or by a
    lower (tighter) bound. Entries are immutable, so a probe hands out no shared mutable state.

    Limit: at most `capacity` entries and about `memory_bytes` bytes (each ``None``: no limit;
    the bytes are the estimate of `memory`). A store that goes over a limit forgets the oldest
    entries (least recently stored or tightened) until the table is `EVICT_SHARE` below it, never
    the entry just stored (a capacity of 0 stores nothing). Which entries go depends only on
    the sequence of stores, so a search stays deterministic.
    """

    def __init__(self, capacity: int | None = None, memory_bytes: int | None = None) -> None:
        if capacity is not None and capacity < 0:
            raise ValueError(f"capacity must be at least 0, got {capacity}")
        if memory_bytes is not None and memory_bytes < 0:
            raise ValueError(f"memory_bytes must be at least 0, got {memory_bytes}")
        self._capacity = capacity
        self._memory = memory_bytes
        self._entries: dict[Hashable, TTEntry] = {}
        self._new = 0  # new positions stored (for the key samples)
        self._key_bytes = 0.0  # running mean of the sampled key sizes
        self._samples = 0
        self._line_items = 0  # actions in the lines of the entries held
        self.evicted = 0  # entries forgotten to stay within the limits

    def __len__(self) -> int:
        return len(self._entries)

    @property
    def memory(self) -> int:
        """The estimated bytes the table holds: per entry the mean sampled key size and
        `ENTRY_OVERHEAD`, plus `LINE_ITEM_BYTES` per action of the stored lines."""
        return int(len(self._entries) * (self._key_bytes + ENTRY_OVERHEAD)
                   + self._line_items * LINE_ITEM_BYTES)

    def probe(self, key: Hashable) -> TTEntry | None:
        """The entry stored for `key`, if any."""
        return self._entries.get(key)

    def store(self, key: Hashable, entry: TTEntry) -> None:
        """Record `entry` for `key`, following the replacement policy of the class."""
        entries = self._entries
        old = entries.get(key)
        if old is None:
            if self._capacity == 0:
                return
            if self._new % KEY_SAMPLE == 0:
                self._samples += 1
                self._key_bytes += (deep_size(key) - self._key_bytes) / self._samples
            self._new += 1
            entries[key] = entry
            self._line_items += len(entry.line)
            self._keep_limits()
        elif not old.exact and (entry.exact or entry.value < old.value):
            del entries[key]  # re-inserted: the entry becomes the youngest
            entries[key] = entry
            self._line_items += len(entry.line) - len(old.line)
            self._keep_limits()

    def _over(self, slack: float) -> bool:
        """True when the table holds more than ``(1 - slack)`` of a limit."""
        if self._capacity is not None and len(self._entries) > self._capacity * (1 - slack):
            return True
        return self._memory is not None and self.memory > self._memory * (1 - slack)

    def _keep_limits(self) -> None:
        """After a store: if a limit is exceeded, forget the oldest entries until the table is
        `EVICT_SHARE` below every limit (the youngest entry stays)."""
        if not self._over(0.0):
            return
        entries = self._entries
        per_entry = self._key_bytes + ENTRY_OVERHEAD
        count = len(entries)
        memory = float(self.memory)
        doomed: list[Hashable] = []
        for key, entry in entries.items():
            if count <= 1:
                break
            cap_ok = self._capacity is None or count <= self._capacity * (1 - EVICT_SHARE)
            mem_ok = self._memory is None or memory <= self._memory * (1 - EVICT_SHARE)
            if cap_ok and mem_ok:
                break
            doomed.append(key)
            count -= 1
            memory -= per_entry + len(entry.line) * LINE_ITEM_BYTES
        for key in doomed:
            self._line_items -= len(entries.pop(key).line)
        self.evicted += len(doomed)
