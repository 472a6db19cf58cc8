"""Python's cycle collector kept to the young generations while a search runs
(`young_collections_only`).

The collector's automatic runs are set off by allocation counts: every 700 net allocations it
traverses the young objects alive at that moment, every tenth such run the middle generation,
and now and then every object, the transposition table and the bound's memos included, again
and again as they grow. A search makes no reference cycles in its inner loop
(`tests/test_bound_cycles.py`), so those full runs find next to nothing to free; an exact
search from turn 14 (100,000 nodes) ran 1.09x the nodes/s without them (session 45).

The young runs go on: cycles made outside the inner loop (the CP-SAT bound builds graphs and
models) are freed while they are young, as before. Cycles among objects that reached the oldest
generation wait for the first full run after the search. The collector decides nothing in the
game: a search gives the same nodes, values and lines with or without it; only its time
differs.
"""

from __future__ import annotations

import gc
from collections.abc import Iterator
from contextlib import contextmanager
from typing import Final

#: The oldest generation's threshold inside the block: no full run is set off by allocations.
NO_FULL_RUNS: Final = 1 << 30


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
