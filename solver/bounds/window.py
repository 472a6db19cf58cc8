"""A bound that sees through the last decline: the simple bound of turn 15's Timeline phase
computed from turn 16's start.

Before the last decline phase the simple bound (`solver.bounds.simple`) is loose: any monument
may still reach the Past, any card of the deck may enter play and grant Learns and Creates, and
lost knowledge may still grow (measured on the suite's lines at the start of turn 15's Timeline
phase: 128-174 VP against lines of 56-73, where the same bound at turn 16's start is within a
VP). Turn 15's Timeline phase then searches every order of its effects, every card its costs
pay, every split of its removals, to reach turn-16 starts that the bound prunes at once.

Often what is left of turn 15 once its action phase is over (its *window*: the Timeline phase,
the decline phase, the technology phase; RULES.md section 4) can change only a few things. The
window also opens inside the turn's last action when that is an Archive (section 5, D2: it
discards cards from the hand and removes 1 knowledge from monuments for each, as a cost and a
removal in the window do; `archive_ask`), with the Timeline phase's effects still to queue:
they are those of the cards in play then, which an Archive does not change (section 4B); and
at the first card of a Create's payment when no action choice is left (`pay_ask`): putting
the card into play before the payment reaches the same states (`placed_first`), and from there
the payment is one of the window's costs. When
every effect still to run in the window can only draw (``draw``), look at the deck's top and
keep some (``reveal_keep``), pay from the hand (``pay``), remove knowledge from monuments
(``remove_knowledge``), remove lost knowledge (``discard_lost``), discard from the hand
(``discard_hand``) or learn one technology (``learn``, at most one in the window: A33 Michaux
Stone's), the monuments of space 1 have no decline effect but of those kinds (or are discarded
for holding knowledge, C25-C29; or M11's Create, `solver.bounds.windowcreate`), no chest
under the board does more (each is followed used or kept), and the technology phase needs
no choice (no middle-of-game flip), every line from the position that learns a given
technology, or none, reaches a turn-16 start that agrees with one reached by declining every
optional effect but that Learn (`passive_starts`) in everything but:

* the hand, the deck and the discard pile: the window's draws and looks take at most
  `Window.draws` cards, from the deck's top (section 5: no effect puts a card back; the pile
  is shuffled in only once the deck is empty, which the window cannot reach here); its costs
  move cards from the hand to the discard pile. No card enters play but by one Create in the
  decline phase (M11's: each card and space a start of its own, `solver.bounds.windowcreate`)
  and no card leaves it but the monuments of space 1, which decline (section 4C step 2)
  whatever was chosen;
* the knowledge on monuments, which the simple bound never reads;
* lost knowledge, which grows only by the knowledge left on the monuments that decline
  (section 4C step 2; D22: every other change is a removal) and falls only by removals: it
  ends between `Window.lost_lo` and `Window.lost_hi`.

The Past, the technologies and their tiles (the Learn, if any, takes the same technology from
the same tiles whenever it runs, and what the technology's immediate effect buries is followed
choice by choice; the technology phase rolls the next value of the fixed die sequence, section
4D), the Timeline, the artifacts and the chests are the same, but for one move: a decline
effect of space 1 that moves another monument (C15, P12), the learned technology's (T10), or a
created card's swap of itself with another monument (C13, C14, P23: at the payment of the
turn's last action, before the Timeline phase, `solver.bounds.windowmoves.self_swap`; or at the
window's Create), is followed target by target and space by space, each outcome a start of its
own (the mover declines first in the passive line: any other order reaches one of its
outcomes); a monument may move into space 1 (its decline effects are tallied with the others,
its knowledge may convert) or out of it (its knowledge may stay), which widens lost knowledge's
range by what the most any holds (`solver.bounds.windowwork.moved`); with a move in or before
the Timeline phase the conditions on the Timeline's places are taken as holding. The Timeline
effects that the window cannot run are those whose condition needs more lost knowledge than
there is now (lost knowledge does not grow before the decline phase, and the Timeline phase
comes first, section 4B), and what follows a payment of more cards than the hand can ever hold
in the window.

A chest under the board that creates (Ж) is the window's one Create, followed at each
lightning window left (`solver.bounds.windowcreate`). The window stays open once the decline
phase is over (`solver.bounds.windowwork.declined_now`): what is left is the technology phase
and the lightning window before it; no monument declines any more (D8), so nothing converts
and lost knowledge only falls by removals. There the simple bound of turn 15 stands far above
that of every turn-16 start (t3-h3: 97 against 67-69), and the window is asked where the
simple bound does not prune (`solver.bounds.simplegate`), at a lightning window and where a
removal begins too (`after_decline_ask`).

So the simple bound of each passive start with its lost knowledge set to each value of its range,
and with the cards that may be in play before the end counted for every hand at once
(`present_for_all`: the cards in play or in hand now, the deck's top down to the window's draws
plus what turn 16 can take with the hand at its fewest cards and lost knowledge at its most,
counted as in `solver.bounds.simple.taken_before_timeline`), bounds every line: the largest of
those values is the bound (`window_bound`). The simple bound reads the hand, the deck and the
discard pile only through that count, and no knowledge on monuments at all.
"""

from __future__ import annotations

import math
from typing import Final

from solver.bounds.poolfacts import PoolFacts
from solver.bounds.reachable import ReachMemo
from solver.bounds.simple import NO_LINE, last_decline_now, simple_upper_bound
from solver.bounds.windowcards import WINDOW_KEPT, SplitAnswers, Window, bare, present_for_all
from solver.bounds.windowcreate import Outcome, created, creators, made
from solver.bounds.windowmoves import decline_move
from solver.bounds.windowwork import (
    Work,
    create_chests,
    declined_knowledge,
    declined_now,
    hand_most,
    learn_work,
    moved,
    order_learners,
    tally,
    window_chests,
    window_learnable,
    zeroings,
)
from solver.engine import actions as A
from solver.engine.create import NONE_PAID, place
from solver.engine.flow import settle
from solver.engine.frames import (
    D_ACTION,
    D_ARCHIVE,
    D_CHEST_USE,
    D_CHEST_WINDOW,
    D_CREATE_CARD,
    D_DECLINE_ORDER,
    D_DISCARD_VAR,
    D_LEARN,
    D_MOVE_SPACE,
    D_NUMBER,
    D_ORDER,
    D_PAY,
    D_PICK,
    D_REMOVE,
    D_TARGET,
    D_TECH_PICK,
    D_YESNO,
    F_PLACE,
)
from solver.engine.knowledge import FIRST_PLACE, NO_CARD_SOURCE
from solver.engine.learn import learn_choose
from solver.engine.setup import turns_for
from solver.engine.state import GameState
from solver.engine.targets import MOVE, SWAP_SELF
from solver.engine.techeffects import BURY

#: The decisions `passive_starts` answers on its way to turn 16 (the window's and the decline
#: order); any other one (a middle-of-game flip) ends it without a start.
PASSIVE_DECISIONS: Final = frozenset({
    D_ORDER, D_YESNO, D_PAY, D_REMOVE, D_TARGET, D_NUMBER, D_DISCARD_VAR, D_DECLINE_ORDER,
    D_PICK, D_CHEST_WINDOW, D_CHEST_USE, D_ARCHIVE})
#: The target choices of the window's one move, followed target by target (a decline effect's
#: or a learned technology's move; a created card's swap of itself, P23).
MOVES: Final = (MOVE, SWAP_SELF)
#: The decisions at which `window_bound` is asked: where an effect of the Timeline phase or a
#: decline begins (an order of effects, a lone "you may", an order of declines).
WINDOW_ASKED: Final = frozenset({D_ORDER, D_YESNO, D_DECLINE_ORDER})
#: Counters of the hand (``hand``, ``hand.artifact``).
HAND_COUNTER: Final = "hand"
PASSIVE_STEPS: Final = 400  # decisions at most on the way (a window asks far fewer)
#: The most turn-16 starts `passive_starts` follows from one position (one per choice of a
#: technology to bury).
PASSIVE_STARTS: Final = 16
#: The most turn-16 starts of one passive line with a Create's outcomes (`windowcreate.made`).
CREATED_STARTS: Final = 128
#: The most where a decline effect moves a monument (one per target and space).
MOVED_STARTS: Final = 48
#: `window_bound`'s answer once it is known to exceed its caller's threshold (a bound still).
ABOVE: Final = 1_000_000
#: The fewest starts of a window whose cards for all (`present_for_all`) are kept across
#: positions: a Create's outcomes meet the same starts from many asks (t5-h1: 1.45x nodes/s,
#: pure), where a few starts rarely come again and keeping them all cost t4-h2 10%.
KEPT_FROM: Final = 16
#: The widest range of lost knowledge bounded value by value.
LOST_SPAN: Final = 12
#: The most such monuments of space 1 followed (each one doubles the starts).
VANISHERS: Final = 2
#: The most chests under the board followed (used or not: each one doubles the starts).
CHESTS: Final = 3


def last_windows(st: GameState) -> tuple[Window, ...] | None:
    """The `Window` of `st`, one per technology the window may learn and one where it learns
    none, or None when the module's conditions do not hold: turn 15 (the turn before the last)
    with its action phase over and its Timeline phase's effects queued, only the window's kinds
    of work left (the chests under the board's included), no decline effect in space 1 but the
    window's kinds, at most one Learn, and a passive start reached for each (also one per
    C25-C29 the removals may empty, `zeroings`, and per set of chests used). Lost knowledge ends at
    most at its value now plus the knowledge on the monuments of space 1, and at least at its value
    plus what of that knowledge the window's removals cannot take less the lost knowledge it
    can remove (each removal takes at most its amount, whenever it runs; a first tally, every
    condition on at most so much lost knowledge taken as holding, gives the least lost
    knowledge before the decline phase; the second reads those conditions against it).

    A Learn (A33 Michaux Stone's) takes one of the technologies available now (`window_learnable`):
    nothing else in the window changes the tiles before it (the technology phase comes last),
    and taking a given technology changes them the same way whenever it is taken (section 5:
    the tile's last card is discarded and the tile refilled from the pile). What that
    technology's immediate effect and the Learn's reactions can do is added to the window's
    work (`learn_work`), and its start is the passive one that learns it."""
    if st.over:
        return None
    last = turns_for(st.setup.time_space)
    if st.turn != last - 1 or not (last_decline_now(st) or declined_now(st)):
        return None
    if pay_ask(st):  # the card into play first (`placed_first`): then the window's kinds
        placed = placed_first(st)
        if placed is None:
            return None
        st = placed
    first = tally(st, 0, True)
    if not first.fits or first.learns > 1 or (first.learns and st.in_decline):
        return None
    if len(first.vanishers) > VANISHERS:
        return None
    learning = first.learns > 0
    firsts = {t: learn_work(st, t, 0, first.tokens)
              for t in (window_learnable(st, first.free, 0) if learning else [])}
    most_lost = first.lost + max((w.lost for w in firsts.values()), default=0)
    lost_least = max(0, st.lost - most_lost)
    work = tally(st, lost_least, learning, hand_most(st, first.draws))
    if work.learns > 1:
        return None
    branches: list[tuple[int, Work]] = [(-1, work)]
    for t in window_learnable(st, work.free, lost_least) if work.learns else []:
        most = hand_most(st, first.draws + firsts[t].draws)
        branches.append((t, tally(st, lost_least, learning, most).plus(
            learn_work(st, t, lost_least, work.tokens, most))))
    followed = create_chests(st)  # a chest's Create: followed use by use (`passive_starts`)
    chests = [k for k in window_chests(st) if k not in followed]
    if len(chests) > CHESTS:
        return None
    chest_uses = [tuple(k for j, k in enumerate(chests) if mask >> j & 1)
                  for mask in range(1 << len(chests))]
    out: list[Window] = []
    for tech, w in branches:
        if w.moves:
            moved(st, w)
        outcomes = created(st, w) if w.creates else []
        if not w.fits or outcomes is None or w.draws >= len(st.deck):
            return None  # the deck could run out: the discard pile would come back
        hi = st.lost + w.converted + w.move_in
        lo = max(0, st.lost + max(0, w.converted - w.move_out - w.removed) - w.lost)
        for zeroed in zeroings(st, w):
            for used in chest_uses:
                starts = passive_starts(st, last, tech, zeroed, used, w.moves > 0,
                                        outcomes if w.creates else None,
                                        tuple(followed) if w.creates else ())
                if starts is None:
                    return None
                for start in starts:
                    most, least = declined_knowledge(st, start)
                    top = min(hi, st.lost + most)
                    low = max(lo, st.lost + max(0, least - w.removed) - w.lost)
                    if top - low > LOST_SPAN:
                        return None
                    out.append(Window(start, low, top, w.draws, max(0, len(st.hand) - w.paid)))
    return tuple(out)


def last_window(st: GameState) -> Window | None:
    """The one `Window` of `st` when the window learns nothing (`last_windows`), else None."""
    ws = last_windows(st)
    return ws[0] if ws is not None and len(ws) == 1 else None


def passive_starts(st: GameState, last: int, tech: int = -1, zeroed: tuple[int, ...] = (),
                   used: tuple[int, ...] = (), moving: bool = False,
                   creating: list[Outcome] | None = None,
                   chests: tuple[int, ...] = ()) -> list[GameState] | None:
    """The starts of turn `last` reached from `st` by declining every "you may", stopping every
    "up to" removal, learning `tech` (a technology, or -1: learning none), burying each
    technology in turn where the learned one buries one (T27) and taking the first option
    elsewhere; None if another kind of decision comes on the way, `tech` is not learned, a
    second Learn comes or there are more than `PASSIVE_STARTS` of them.

    `tech` is learned as the rules run a Learn of it whether or not its requirement holds in
    this order of the window (a line that learns it meets it in its own order: `window_learnable`),
    and is the only technology learned: a line that learns `tech` differs from this one only in
    the order of its effects and in what `Window` leaves open.

    With `creating`, the window's one Create is followed outcome by outcome
    (`solver.bounds.windowcreate.made`) where its card choice comes: M11's, declined on the
    passive line, or that of a chest of `chests`, used in a branch of its own at each lightning
    window of the line (`solver.engine.chests`) and kept unused on the line itself. Starts
    equal in every respect are kept once."""
    out: list[GameState] = []
    movers = {m for m in st.space_monuments(1)
              if any(decline_move(e) for e in st.book.cards[m].effects)} if moving else set()
    first = st.clone()
    for m in zeroed:  # as if removals took their knowledge (`zeroings`)
        first.tokens[m] = 0
    for k in used:  # as if used (their effects are the window's work): gone for good (D16)
        first.chests_under.remove(k)
    todo = [(first, tech < 0)]
    seen: set[object] = set()
    while todo:
        s, learned = todo.pop()
        for _ in range(PASSIVE_STEPS):
            if s.over:
                return None
            top = s.stack[-1][0] if s.stack else -1
            if s.turn == last and top == D_ACTION:
                if not learned:
                    return None
                if creating is not None:
                    key = s.key()
                    if key in seen:
                        break
                    seen.add(key)
                out.append(s)
                if len(out) > (CREATED_STARTS if creating else MOVED_STARTS if moving
                               else PASSIVE_STARTS):
                    return None
                break
            if top == D_LEARN:
                if learned:
                    if tech >= 0 or A.NO not in s.legal_actions():
                        return None
                    s.apply(A.NO)
                else:
                    learn_choose(s, s.stack.pop(), A.CARD_CODE | tech)
                    settle(s)
                    learned = True
                continue
            if top == D_ORDER and not learned:  # the Learn's effect first (any order of
                legal = s.legal_actions()  # the effects reaches the same start, see above)
                learners = order_learners(s.stack[-1][1], s)
                pick = [a for a in legal
                        if A.kind_of(a) != A.CHEST and A.value_of(a) in learners]
                s.apply(pick[0] if pick else legal[0])
                continue
            if moving and creating is None and top == D_DECLINE_ORDER:
                legal = s.legal_actions()
                pick = [a for a in legal if A.value_of(a) in movers]  # the mover first
                s.apply(pick[0] if pick else legal[0])
                continue
            if (top == D_TECH_PICK and s.stack[-1][1] == BURY) or (moving and (
                    top == D_MOVE_SPACE or (top == D_TARGET and s.stack[-1][2] in MOVES))):
                legal = s.legal_actions()
                for a in reversed(legal[1:]):
                    branch = s.clone()
                    branch.apply(a)
                    todo.append((branch, learned))
                s.apply(legal[0])
                continue
            if creating is not None and top == D_CREATE_CARD:  # each outcome, and declined
                todo.extend((b, learned) for b in made(s, creating))
                if A.NO not in s.legal_actions():
                    break  # a chest's: every card it may take is an outcome above
                s.apply(A.NO)
                continue
            if chests and top == D_CHEST_WINDOW:  # each chest that creates used here, in a
                legal = s.legal_actions()  # branch of its own
                for k in chests:
                    use = A.code(A.CHEST, k)
                    if use in legal:
                        branch = s.clone()
                        branch.apply(use)
                        todo.append((branch, learned))
            if creating is not None and top == D_DECLINE_ORDER:  # the creator last
                legal = s.legal_actions()
                last_ones = creators(s)
                pick = [a for a in legal if A.value_of(a) not in last_ones]
                s.apply(pick[0] if pick else legal[0])
                continue
            if top not in PASSIVE_DECISIONS:
                return None
            legal = s.legal_actions()
            if A.NO in legal:
                s.apply(A.NO)
            elif A.DONE in legal:
                s.apply(A.DONE)
            else:
                s.apply(legal[0])
        else:
            return None
    return out


def window_asked(st: GameState) -> bool:
    """Whether the decision of `st` is one where `window_bound` is asked: where an effect or a
    decline begins (`WINDOW_ASKED`), in an Archive with no action choice left
    (`archive_ask`), or at a Create's payment with none left (`pay_ask`); after the decline
    phase (`after_decline_ask`) also at a lightning window and where a removal begins."""
    return bool(st.stack) and (st.stack[-1][0] in WINDOW_ASKED or archive_ask(st)
                               or pay_ask(st) or after_decline_ask(st))


def after_decline_ask(st: GameState) -> bool:
    """Whether `st` is after its turn's decline phase, at a lightning window (a chest's Create
    may come, `solver.bounds.windowcreate`) or where a removal begins (a reaction to such a
    Create, A24), with no action choice left: the search meets one of these on every line
    through such a Create or removal, where the simple bound alone is loose (it bounds turn 16
    from turn 15: t3-h3's line, 97 where every start it reaches is below 70)."""
    top = st.stack[-1] if st.stack else None
    if top is None or not (top[0] == D_CHEST_WINDOW or (
            top[0] == D_REMOVE and top[3] == FIRST_PLACE)):
        return False
    return declined_now(st) and not any(fr[0] == D_ACTION for fr in st.stack)


def pay_ask(st: GameState) -> bool:
    """Whether `st` is at the first card of a Create's payment (its card and space chosen,
    `F_PLACE` under the payment) with no action choice left on the stack: a search meets one
    of these on every line through a Create that costs cards."""
    stack = st.stack
    if len(stack) < 2:
        return False
    top = stack[-1]
    if top[0] != D_PAY or top[2] != NONE_PAID or stack[-2][0] != F_PLACE:
        return False
    return not any(fr[0] == D_ACTION for fr in stack)


def placed_first(st: GameState) -> GameState | None:
    """`st` at a `pay_ask` with the card put into play first and the payment after it (before
    the card's Create group runs), or None where putting it into play reads the hand.

    The two orders reach the same states (section 5): what a payment changes is the hand and
    the discard pile; what `place` reads is the card, its space, the Past and the cards in
    play with their knowledge reductions, whose conditions (checked here) do not read the
    hand, and it pushes the group without running it; the payment's options read the hand
    alone, which `place` leaves alone."""
    s = st.clone()
    pay = s.stack.pop()
    fr = s.stack.pop()
    cards = s.book.cards
    card = fr[1]
    readers = [e for e in cards[card].effects if e.discount is not None]
    readers += [e for x in s.in_play() if s.book.reducer[x] for e in cards[x].effects
                if e.reduction is not None]
    if any(cl.counter.startswith(HAND_COUNTER) for e in readers for cl in e.condition):
        return None
    place(s, fr)
    s.stack.append(pay)
    return s


def archive_ask(st: GameState) -> bool:
    """Whether `st` is in an Archive with no action choice left on the stack (the turn's last
    action, or an effect's), at a card it picks or where its removal begins: a search meets
    one of these on every line through it. The start of the Kensington Runestone's removal in
    an Excavate (the same source) is asked too: where the window fits there, that removal is
    one of its kinds."""
    top = st.stack[-1] if st.stack else None
    if top is None or not (top[0] == D_ARCHIVE or (
            top[0] == D_REMOVE and top[1] == NO_CARD_SOURCE and top[3] == FIRST_PLACE)):
        return False
    return not any(fr[0] == D_ACTION for fr in st.stack)


def window_moment(st: GameState) -> bool:
    """Whether `st` is where `window_bound` is asked: turn 15 (the turn before the last) with
    its decline phase to come or just over (`declined_now`: the technology phase and the
    lightning window before it left), at a decision where an effect or a decline begins, in an
    Archive or at a Create's payment with no action choice left (`window_asked`); whether a
    window opens there is `last_windows`' question."""
    return (not st.over and st.turn == turns_for(st.setup.time_space) - 1
            and window_asked(st) and (last_decline_now(st) or declined_now(st)))


def window_bound(st: GameState, facts: PoolFacts, memo: ReachMemo,
                 above: float = math.inf) -> int | None:
    """The bound of the module at `st`, or None where its conditions do not hold or `st` is
    inside an effect (`WINDOW_ASKED`: it is asked where an effect or a decline begins, which
    a search meets on every line through the window); `NO_LINE` when no value of lost
    knowledge leaves a line that meets every goal. Once one value of lost knowledge bounds
    more than `above` (a search's incumbent: nothing is pruned then), `ABOVE` instead of the
    rest (the least lost knowledge first: it is the one most often worth most). The last turn
    is bounded split by split (`solver.bounds.splitplay`, the cards of each split
    `present_for_all` of it) only where the value without that is above `above`."""
    if not window_moment(st):
        return None
    windows = last_windows(st)
    if windows is None:
        return None
    best = NO_LINE
    # the bound split by split where the bound without it does not prune (everywhere when
    # there is no incumbent to prune against)
    refine_above = above if above < math.inf else -math.inf
    kept = len(windows) > KEPT_FROM
    for w in windows:
        found = present_for_all(w, st, facts, memo, kept=kept)
        present = None if found is None else found[0]
        cards = None if present is None else frozenset(present)
        answers = SplitAnswers(w, st, facts, memo, kept)  # asked only where it matters
        # what the split answers read besides the start: the hand, the cards between zones
        # and the deck now, the window's draws and least hand, the start's lost knowledge
        reads = (tuple(st.hand), tuple(st.limbo), tuple(st.deck), w.draws, w.hand_least,
                 w.start.lost)
        for lost in range(w.lost_lo, w.lost_hi + 1):
            s = bare(w.start, lost)
            key = (s.key(), cards)
            value = memo.window.get(key)
            if value is None:
                value = simple_upper_bound(s, facts, memo, True, present)
                if len(memo.window) >= WINDOW_KEPT:
                    memo.window.clear()
                memo.window[key] = value
            if value > refine_above:  # split by split (`solver.bounds.splitplay`)
                split_key = (key, reads)
                refined = memo.window.get(split_key)
                if refined is None:
                    refined = simple_upper_bound(s, facts, memo, True, present,
                                                 split_answer=answers.answer,
                                                 first_answer=answers.first)
                    if len(memo.window) >= WINDOW_KEPT:
                        memo.window.clear()
                    memo.window[split_key] = refined
                value = refined
            best = max(best, value)
            if best > above:
                return ABOVE
    return best
