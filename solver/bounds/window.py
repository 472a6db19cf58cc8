"""A bound that sees through the last decline: the simple bound of turn 15's Timeline phase
computed from turn 16's start.

Before the last decline phase the simple bound (`solver.bounds.simple`) is loose: any monument
may still reach the Past, any card of the deck may enter play and grant Learns and Creates, and
lost knowledge may still grow (measured on the suite's lines at the start of turn 15's Timeline
phase: 128-174 VP against lines of 56-73, where the same bound at turn 16's start is within a
VP). Turn 15's Timeline phase then searches every order of its effects, every card its costs
pay, every split of its removals, to reach turn-16 starts that the bound prunes at once.

Often what is left of turn 15 once its action phase is over (its *window*: the Timeline phase,
the decline phase, the technology phase; RULES.md section 4) can change only a few things. When
every effect still to run in the window can only draw (``draw``), pay from the hand (``pay``),
remove knowledge from monuments (``remove_knowledge``) or remove lost knowledge
(``discard_lost``), the monuments of space 1 have no decline effect but of those kinds, no chest
is under the board, and the technology phase needs no choice (no middle-of-game flip), every
line from the position
reaches a turn-16 start that agrees with one reached by declining every optional effect
(`passive_start`) in everything but:

* the hand, the deck and the discard pile: the window's draws take at most `Window.draws`
  cards, from the deck's top (section 5: no effect puts a card back; the pile is shuffled in
  only once the deck is empty, which the window cannot reach here); its costs move cards from
  the hand to the discard pile. No card enters play (no Create runs) and no card leaves it
  but the monuments of space 1, which decline (section 4C step 2) whatever was chosen;
* the knowledge on monuments, which the simple bound never reads;
* lost knowledge, which grows only by the knowledge left on the monuments that decline
  (section 4C step 2; D22: every other change is a removal) and falls only by removals: it
  ends between `Window.lost_lo` and `Window.lost_hi`.

The Past, the technologies and their tiles (no Learn runs: the technology phase rolls the next
value of the fixed die sequence, section 4D), the Timeline, the artifacts and the chests are the
same. The Timeline effects that the window cannot run are those whose condition needs more lost
knowledge than there is now: lost knowledge does not grow before the decline phase, and the
Timeline phase comes first (section 4B).

So the simple bound of the passive start with its lost knowledge set to each value of the range,
and with the cards that may be in play before the end counted for every hand at once
(`present_for_all`: the cards in play or in hand now, the deck's top down to the window's draws
plus what turn 16 can take with the hand at its fewest cards, counted as in
`solver.bounds.simple.taken_before_timeline`), bounds every line: the largest of those values
is the bound (`window_bound`). The simple bound reads the hand, the deck and the discard pile
only through that count of the cards that may be in play (`solver.bounds.takes`), and no
knowledge on monuments at all.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Final

from solver.bounds.reachable import ReachMemo, lost_needed, reach
from solver.bounds.simple import (
    NO_LINE,
    TAKE_ROUNDS,
    PoolFacts,
    last_decline_now,
    simple_upper_bound,
)
from solver.bounds.takes import action_takes, enters_after_actions, steps_take
from solver.engine import actions as A
from solver.engine.cards import Effect, Step, all_steps
from solver.engine.conditions import count
from solver.engine.frames import (
    D_ACTION,
    D_DECLINE_ORDER,
    D_DISCARD_VAR,
    D_NUMBER,
    D_ORDER,
    D_PAY,
    D_REMOVE,
    D_TARGET,
    D_YESNO,
    F_DECLINE_PHASE,
    F_EFFECT,
    F_STEPS,
    F_TECH_PHASE,
    F_TURN_END,
)
from solver.engine.setup import turns_for
from solver.engine.state import CHEST_BASE, HAND_LIMIT, GameState
from solver.engine.targets import PAIR_FIRST, REMOVAL_PURPOSES
from solver.frozen import Frozen

#: What an effect still to run in the window may do (see the module).
WINDOW_OPS: Final = frozenset({"draw", "pay", "remove_knowledge", "discard_lost"})
#: The frames the window may hold: the phases still to come and the effects of the Timeline
#: phase with the decisions they ask (an order, a "you may", a payment, a removal, a number of
#: lost knowledge, a discard).
WINDOW_FRAMES: Final = frozenset({
    F_TURN_END, F_TECH_PHASE, F_DECLINE_PHASE, D_ORDER, F_EFFECT, F_STEPS, D_YESNO, D_PAY,
    D_REMOVE, D_TARGET, D_NUMBER, D_DISCARD_VAR, D_DECLINE_ORDER})
#: The decisions `passive_start` answers on its way to turn 16 (the window's and the decline
#: order); any other one (a middle-of-game flip) ends it without a start.
PASSIVE_DECISIONS: Final = frozenset({
    D_ORDER, D_YESNO, D_PAY, D_REMOVE, D_TARGET, D_NUMBER, D_DISCARD_VAR, D_DECLINE_ORDER})
#: The decisions at which `window_bound` is asked: where an effect of the Timeline phase or a
#: decline begins (an order of effects, a lone "you may", an order of declines).
WINDOW_ASKED: Final = frozenset({D_ORDER, D_YESNO, D_DECLINE_ORDER})
PASSIVE_STEPS: Final = 400  # decisions at most on the way (a window asks far fewer)
#: Counters that the window's effects change (`_cannot_run`).
WINDOW_COUNTERS: Final = frozenset({"hand", "hand.artifact", "tl_tokens", "self.tokens"})
#: `window_bound`'s answer once it is known to exceed its caller's threshold (a bound still).
ABOVE: Final = 1_000_000
#: Simple bounds of passive starts kept (`ReachMemo.window`; then forgotten at once).
WINDOW_KEPT: Final = 1 << 16
#: The widest range of lost knowledge bounded value by value.
LOST_SPAN: Final = 12
#: A32 Elongated Skulls: 2 cards per full 3 knowledge that became lost in the decline phase.
SKULLS: Final = "elongated_skulls"
SKULLS_DRAW: Final = 2
SKULLS_PER: Final = 3
#: Costs paid from the hand (`solver.engine.costs`); the others discard from the board.
HAND_COSTS: Final = frozenset({"discard_hand", "discard_hand_up_to"})


@dataclass(frozen=True)
class Window(Frozen):
    """What the window of a position leaves open (see the module).

    :param start: the turn-16 start reached by declining every optional effect.
    :param lost_lo: the least lost knowledge any turn-16 start reached can hold.
    :param lost_hi: the most.
    :param draws: the most cards the window can take from the deck.
    :param hand_least: the fewest cards the hand can hold at turn 16's start (the hand now
        less every payment still to come).
    """

    start: GameState
    lost_lo: int
    lost_hi: int
    draws: int
    hand_least: int


def _cannot_run(st: GameState, e: Effect, source: int, lost_least: int) -> bool:
    """Whether the condition of `e`, queued in the Timeline phase of `st`'s window, can never
    hold when it resolves: a clause on lost knowledge that asks for at least a value above it
    now (it does not grow before the decline phase) or for at most a value below
    `lost_least` (the least it can fall to before the decline phase), or a clause on a
    counter that nothing in the window changes (the Past, the Timeline and its places, the
    technologies, the artifacts: no Create, decline, Learn or move runs in the Timeline
    phase) that fails now. The hand and the knowledge on monuments change."""
    for clause in e.condition:
        counter = clause.counter
        if counter in WINDOW_COUNTERS:
            continue
        if counter == "lost":
            if clause.op in (">=", ">"):
                if not clause.holds(st.lost):
                    return True
            elif clause.op in ("<=", "<") and not clause.holds(lost_least):
                return True
            continue
        if not clause.holds(count(st, counter, source)):
            return True
    return False


class _Work:
    """A tally of the work the window can still do (`last_window`): the most cards it takes
    from the deck, pays from the hand, knowledge it removes from the monuments of space 1,
    lost knowledge it removes; `fits` False once some work falls outside the window."""

    def __init__(self, tokens: int) -> None:
        self.tokens = tokens  # on the monuments of space 1: no removal counts for more
        self.fits = True
        self.draws = 0
        self.paid = 0
        self.removed = 0
        self.lost = 0

    def steps(self, steps: tuple[Step, ...]) -> None:
        """Add what running `steps` once can do."""
        for s in all_steps(steps):
            if s.op not in WINDOW_OPS:
                self.fits = False
            elif s.op == "pay":
                if s.cost not in HAND_COSTS:
                    self.fits = False  # a cost paid from the board changes what is in play
                self.paid += s.amount
            elif s.op == "remove_knowledge":
                # from each monument, from two, or from one (or a pool split among several)
                if s.per is not None or s.target == "each":
                    self.removed += self.tokens
                else:
                    self.removed += s.amount * (2 if s.target == "pair" else 1)
            elif s.op == "discard_lost":
                if s.per is not None:
                    self.fits = False
                self.lost += s.amount
        self.draws += steps_take(steps)

    def effect(self, st: GameState, e: Effect, source: int, lost_least: int) -> None:
        """Add effect `e` of card `source`, queued in the Timeline phase; one whose condition
        cannot hold (`_cannot_run`) does nothing."""
        if lost_needed(e) > st.lost or _cannot_run(st, e, source, lost_least):
            return
        if e.trigger is not None or e.special is not None:
            self.fits = False
        else:
            self.steps(e.steps)


def _tally(st: GameState, lost_least: int) -> _Work:
    """The `_Work` of the window of `st` (see `last_window`), conditions on at most so much
    lost knowledge read against `lost_least`."""
    cards = st.book.cards
    space1 = st.space_monuments(1)
    work = _Work(sum(st.tokens[m] for m in space1))
    for fr in st.stack:
        kind = fr[0]
        if kind not in WINDOW_FRAMES or (kind == D_TARGET and fr[2] not in REMOVAL_PURPOSES):
            work.fits = False  # an action choice, the Timeline phase still to queue, a move...
        elif kind == F_STEPS:
            work.steps(fr[2][fr[3]:])
        elif kind == D_YESNO:
            work.steps(fr[2])
        elif kind == D_PAY:
            work.paid += fr[1]  # a payment under way: the cards still to pay
        elif kind == D_REMOVE:  # a removal under way: the tokens still to remove
            work.removed += fr[2]
        elif kind == D_TARGET:  # a removal's target being chosen (of two for a pair)
            work.removed += fr[4] * (2 if fr[2] == PAIR_FIRST else 1)
        elif kind == D_NUMBER:  # lost knowledge to remove, being chosen
            work.lost += fr[1]
        elif kind == D_DISCARD_VAR:  # "up to" a number of cards, then its steps
            work.steps(fr[2])
            work.paid += max(0, fr[3] - fr[4])
        elif kind in (F_EFFECT, D_ORDER):
            items = ((fr[1], fr[2]),) if kind == F_EFFECT else fr[1]
            for c, i in items:
                if c >= CHEST_BASE:
                    work.fits = False
                else:
                    work.effect(st, cards[c].effects[i], c, lost_least)
        if not work.fits:
            return work
    for m in space1:  # they decline (section 4C step 2): their decline effects run
        for e in cards[m].effects:
            if e.moment != "decline":
                continue
            if e.trigger is not None or e.special is not None:
                work.fits = False
            else:
                work.steps(e.steps)
    if any(e.special == SKULLS for c in st.in_play() for e in cards[c].effects):
        work.draws += SKULLS_DRAW * (work.tokens // SKULLS_PER)
    return work


def last_window(st: GameState) -> Window | None:
    """The `Window` of `st`, or None when the module's conditions do not hold: turn 15 (the
    turn before the last) with its action phase over and its Timeline phase's effects queued,
    only the window's kinds of work left, no chest under the board, no decline effect in space
    1 but the window's kinds, and a passive start reached. Lost knowledge ends at most at its
    value now plus the knowledge on the monuments of space 1, and at least at its value plus
    what of that knowledge the window's removals cannot take less the lost knowledge it can
    remove (each removal takes at most its amount, whenever it runs; a first tally, every
    condition on at most so much lost knowledge taken as holding, gives the least lost
    knowledge before the decline phase; the second reads those conditions against it)."""
    if st.over or st.chests_under:
        return None
    last = turns_for(st.setup.time_space)
    if st.turn != last - 1 or not last_decline_now(st):
        return None
    first = _tally(st, 0)
    if not first.fits:
        return None
    work = _tally(st, max(0, st.lost - first.lost))
    if work.draws >= len(st.deck):
        return None  # the deck could run out: the discard pile would come back
    hi = st.lost + work.tokens
    lo = max(0, st.lost + max(0, work.tokens - work.removed) - work.lost)
    if hi - lo > LOST_SPAN:
        return None
    start = passive_start(st, last)
    if start is None:
        return None
    return Window(start, lo, hi, work.draws, max(0, len(st.hand) - work.paid))


def passive_start(st: GameState, last: int) -> GameState | None:
    """The start of turn `last` reached from `st` by declining every "you may", stopping every
    "up to" removal and taking the first option elsewhere; None if another kind of decision
    comes on the way."""
    s = st.clone()
    for _ in range(PASSIVE_STEPS):
        if s.over:
            return None
        top = s.stack[-1][0] if s.stack else -1
        if s.turn == last and top == D_ACTION:
            return s
        if top not in PASSIVE_DECISIONS:
            return None
        legal = s.legal_actions()
        if A.NO in legal:
            s.apply(A.NO)
        elif A.DONE in legal:
            s.apply(A.DONE)
        else:
            s.apply(legal[0])
    return None


def present_for_all(w: Window, st: GameState, facts: PoolFacts,
                    memo: ReachMemo) -> set[int] | None:
    """The builder cards that may be in play before the game ends from any turn-16 start the
    window of `st` reaches, or None (no restriction): the cards in play at the passive start,
    in hand now, between zones now, and the deck's top down to the window's draws plus ``t``
    cards, where ``t`` is a count of the cards turn 16 can take before its Timeline phase with
    only those cards entering play and the hand's room at its most (`Window.hand_least` cards
    in it: a count that is at least its own `action_takes` bounds every such start, as in
    `solver.bounds.simple.taken_before_timeline`), provided no card can enter play after turn
    16's action phase (`solver.bounds.takes.enters_after_actions`)."""
    table = facts.takes
    if table is None:
        return None
    start = w.start
    base = set(st.hand)
    base.update(st.limbo)
    base.update(start.in_play())
    deck = st.deck
    taken = 0
    for _ in range(TAKE_ROUNDS):
        depth = w.draws + taken
        if depth >= len(deck):
            return None
        present = base | set(deck[len(deck) - depth:]) if depth else set(base)
        r = reach(start, facts.activators, 0, facts.poulnabrone, memo, True, present)
        more = action_takes(start, table, r, present, HAND_LIMIT - w.hand_least)
        if more <= taken:
            if enters_after_actions(start, table, present, memo):
                return None
            return present
        taken = more
    return None


def window_moment(st: GameState) -> bool:
    """Whether `st` is where `window_bound` is asked: turn 15 (the turn before the last) with
    its decline phase to come, at a decision where an effect or a decline begins
    (`WINDOW_ASKED`); whether a window opens there is `last_window`'s question."""
    return (not st.over and bool(st.stack) and st.stack[-1][0] in WINDOW_ASKED
            and st.turn == turns_for(st.setup.time_space) - 1 and last_decline_now(st))


def window_bound(st: GameState, facts: PoolFacts, memo: ReachMemo,
                 above: float = math.inf) -> int | None:
    """The bound of the module at `st`, or None where its conditions do not hold or `st` is
    inside an effect (`WINDOW_ASKED`: it is asked where an effect or a decline begins, which
    a search meets on every line through the window); `NO_LINE` when no value of lost
    knowledge leaves a line that meets every goal. Once one value of lost knowledge bounds
    more than `above` (a search's incumbent: nothing is pruned then), `ABOVE` instead of the
    rest (the least lost knowledge first: it is the one most often worth most)."""
    if not window_moment(st):
        return None
    w = last_window(st)
    if w is None:
        return None
    present = present_for_all(w, st, facts, memo)
    cards = None if present is None else frozenset(present)
    best = NO_LINE
    for lost in range(w.lost_lo, w.lost_hi + 1):
        s = _bare(w.start, lost)
        key = (s.key(), cards)
        value = memo.window.get(key)
        if value is None:
            value = simple_upper_bound(s, facts, memo, True, present)
            if len(memo.window) >= WINDOW_KEPT:
                memo.window.clear()
            memo.window[key] = value
        best = max(best, value)
        if best > above:
            return ABOVE
    return best


def _bare(start: GameState, lost: int) -> GameState:
    """A copy of `start` with `lost` lost knowledge and no cards in hand, deck or discard pile
    and no knowledge on monuments: what the simple bound reads of it when it is told the cards
    that may be in play (it reads the hand, the deck and the discard pile only to count those,
    and never reads knowledge on monuments), so that starts that differ only there share a
    key."""
    s = start.clone()
    s.lost = lost
    s.hand = []
    s.deck = []
    s.discard = []
    s.tokens = [0] * len(s.tokens)
    return s
