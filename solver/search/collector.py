"""Python's cycle collector while a search runs: paused (`collector_paused`) where the game's
hooks make no reference cycles (`Game.cycle_free`: the simple bound), else kept to its young
generations (`young_collections_only`).

The collector's automatic runs are set off by allocation counts: every 700 net allocations it
traverses the young objects alive at that moment, every tenth such run the middle generation,
and now and then every object, the transposition table and the bound's memos included, again
and again as they grow. The exact search with the simple bound, and NRPA, make no cycles in
their inner loops (`tests/test_bound_cycles.py`, `tests/test_collector.py`), so those runs find
nothing to free: they only traverse what the search keeps. Without the full runs an exact
search from turn 14 (100,000 nodes) ran 1.09x the nodes/s (session 45); with the collector
paused, 1.07x more (session 46), in the same memory, and a collection afterwards freed
nothing. After the block every object it allocated moves to the oldest generation untraversed
(`collector_paused`); a young run now and then inside it instead (every million objects
allocated net) cost as much as it saved: it traverses every object the search keeps, once,
cache-cold.

The CP-SAT bound's models and graphs do leave cycles (48,427 objects after a 10-s search from
turn 15, session 46): with it the young runs go on and free them while they are young, and
cycles among objects that reached the oldest generation wait for the first full run after the
search. The collector decides nothing in the game: a search gives the same nodes, values and
lines with or without it; only its time and memory differ.
"""

from __future__ import annotations

import gc
from collections.abc import Iterator
from contextlib import contextmanager
from typing import Final

#: The oldest generation's threshold inside the block: no full run is set off by allocations.
NO_FULL_RUNS: Final = 1 << 30


@contextmanager
def collector_paused() -> Iterator[None]:
    """No collection inside the block (for hooks that make no cycles: `Game.cycle_free`); the
    collector as it was after it (also when the block raises). A nested block changes
    nothing."""
    enabled = gc.isenabled()
    gc.disable()
    try:
        yield
    finally:
        if enabled:
            # Every object allocated in the block is young: the first young run after it would
            # traverse them all (0.4 s after 50,000 nodes). Freezing and unfreezing moves every
            # tracked object to the oldest generation without traversing any (constant time;
            # objects frozen before the block are unfrozen too: nothing in heritage freezes).
            gc.freeze()
            gc.unfreeze()
            gc.enable()


@contextmanager
def young_collections_only() -> Iterator[None]:
    """No automatic full collection inside the block; the thresholds as they were after it
    (also when the block raises). A nested block changes nothing."""
    young, middle, oldest = gc.get_threshold()
    gc.set_threshold(young, middle, NO_FULL_RUNS)
    try:
        yield
    finally:
        gc.set_threshold(young, middle, oldest)
