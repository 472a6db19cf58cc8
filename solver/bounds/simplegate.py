"""Where to ask the simple bound: everywhere after the last decline, before it only while it
prunes.

With a decline phase still to come the simple bound (`solver.bounds.simple`) is loose: the
monuments that may still reach the Past, the Learns and Creates every card out of play could
grant, the lost knowledge still to come and to go all count at their best. Measured (session 14,
compiled build, the turn-15 search of t5-h2 with the optimum as incumbent): at the start of
turn 15's Timeline phase it stood 58-149 VP above the line's 69 on every one of 37,583
positions, so it pruned nothing there, and its 81,826 calls before the last decline took 39% of
the search's time. After the last decline it is within a few VP and prunes most positions.

So a search asks it, at positions with a decline phase still to come (`decline_phases_left`,
counted apart for each number left), only while it pays: after `SimpleGatePolicy.calls` calls
there, only while at least `SimpleGatePolicy.rate` of them gave a bound at or below the
incumbent the search started with (a prune); otherwise the answer is ``inf`` ("no bound": always
admissible; the search then expands the position, as it would have). One call in
`SimpleGatePolicy.probe` still asks, so the counts follow the search. Counts, not time: a
node-limited search stays reproducible. The counts are kept for the whole solve (its exact
searches ask about the same game), the incumbent is each search's.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Final

from solver.bounds.poolfacts import PoolFactsCache
from solver.bounds.simple import as_bound, decline_phases_left, simple_upper_bound
from solver.bounds.window import archive_ask, pay_ask, window_bound, window_moment
from solver.bounds.windowwork import declined_now
from solver.engine.state import GameState

#: `SimpleGate.ask`: do not ask (the bound is ``inf``); ask, nothing to count.
CLOSED: Final = -1
ALWAYS: Final = 0


@dataclass(frozen=True)
class SimpleGatePolicy:
    """When the simple bound is asked before the last decline (see the module).

    :param calls: calls at one number of decline phases left before the gate may close.
    :param rate: the least share of those calls that pruned for the gate to stay open.
    :param probe: with the gate closed, one call in this many still asks (and counts).
    :param window: in the window of the last decline, ask `solver.bounds.window`'s bound
        (False: the simple bound alone, gated as before it; to measure, or to check one
        against the other).
    """

    calls: int = 256
    rate: float = 0.02
    probe: int = 32
    window: bool = True


class SimpleGate:
    """The gate of one solve (see the module): its counts and the current search's incumbent."""

    def __init__(self, policy: SimpleGatePolicy | None = None) -> None:
        self.policy = policy or SimpleGatePolicy()
        self.threshold = -math.inf
        # decline phases left: [calls, prunes, calls skipped]
        self.seen: dict[int, list[int]] = {}
        # the window bound's (`window`): [calls, prunes, calls skipped]; in an Archive and at
        # a Create's payment apart (`solver.bounds.window.archive_ask`, `pay_ask`: each covers
        # every card the hand may give, so it prunes less often, and should not close the
        # gate of the others)
        self.window_seen = [0, 0, 0]
        self.archive_seen = [0, 0, 0]
        self.pay_seen = [0, 0, 0]
        self.after_seen = [0, 0, 0]  # after the last decline (asked where the simple bound
        # does not prune, `bound`)

    def start_search(self, incumbent: float | None) -> None:
        """A search starts: prunes are counted against `incumbent` (None: nothing prunes)."""
        self.threshold = -math.inf if incumbent is None else incumbent

    def improved(self, value: float) -> None:
        """The search's incumbent rose to `value`: prunes are counted against it, and the
        window bound stops early above it."""
        self.threshold = max(self.threshold, value)

    def ask(self, st: GameState) -> int:
        """Whether to ask the simple bound at `st`: ``CLOSED`` (no: answer ``inf``), else the
        count to hand `asked` with the value (``ALWAYS`` after the last decline)."""
        phases = decline_phases_left(st)
        if phases == 0:
            return ALWAYS
        seen = self.seen.get(phases)
        if seen is None:
            seen = self.seen[phases] = [0, 0, 0]
        if self._shut(seen):
            return CLOSED
        return phases

    def asked(self, count: int, value: float) -> None:
        """Count the simple bound's `value` where `ask` said `count`."""
        if count > 0:
            seen = self.seen[count]
            seen[0] += 1
            seen[1] += value <= self.threshold

    def window(self, st: GameState, pool: PoolFactsCache) -> int | None:
        """`solver.bounds.window.window_bound` where the policy asks it and it pays, else None:
        gated as the simple bound is before the last decline (after `SimpleGatePolicy.calls`
        asks, asked only while at least `SimpleGatePolicy.rate` of them pruned, one call in
        `SimpleGatePolicy.probe` still asking; counted only at the window's moment,
        `window_moment`, where an ask that finds no window counts as one that did not prune:
        finding out costs a passive run to turn 16; the asks in an Archive and at a payment
        counted apart), and told the search's incumbent (above it, it stops early: nothing is
        pruned then)."""
        if not self.policy.window or not window_moment(st):
            return None
        seen = (self.after_seen if declined_now(st) else self.archive_seen if archive_ask(st)
                else self.pay_seen if pay_ask(st) else self.window_seen)
        if self._shut(seen):
            return None
        above = self.threshold if self.threshold > -math.inf else math.inf
        value = window_bound(st, pool.facts(st), pool.memo, above)
        seen[0] += 1  # no answer (no window there) counts as no prune: the asking costs
        seen[1] += value is not None and value <= self.threshold
        return value

    def _shut(self, seen: list[int]) -> bool:
        """Whether an ask counted in `seen` ([calls, prunes, calls skipped]) is skipped: after
        `SimpleGatePolicy.calls` calls fewer than `SimpleGatePolicy.rate` of them pruned, and
        this is not the one call in `SimpleGatePolicy.probe` that still asks."""
        pol = self.policy
        if seen[0] >= pol.calls and seen[1] < pol.rate * seen[0]:
            seen[2] += 1
            return bool(seen[2] % pol.probe)
        return False

    def bound(self, st: GameState, pool: PoolFactsCache) -> float:
        """The simple bound of `st` (with `pool`'s facts and memo) where the gate is open,
        else ``inf``; in the window of the last decline where `solver.bounds.window` applies
        and its own gate is open (`window`), its bound instead; after that decline (turn 15's
        technology phase left, `solver.bounds.windowwork.declined_now`) the smaller of the two,
        the window's asked only where the simple bound does not prune."""
        count = self.ask(st)
        if count == ALWAYS:  # after the last decline: the window's only where this is above
            value = as_bound(simple_upper_bound(st, pool.facts(st), pool.memo,
                                                refine_above=self.threshold))
            if value <= self.threshold:
                return value
            window = self.window(st, pool)
            return value if window is None else min(value, as_bound(window))
        window = self.window(st, pool)
        if window is not None:
            return as_bound(window)
        if count == CLOSED:
            return math.inf
        value = as_bound(simple_upper_bound(st, pool.facts(st), pool.memo,
                                            refine_above=self.threshold))
        self.asked(count, value)
        return value
