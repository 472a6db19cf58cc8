"""What the window of the last decline can still do (`solver.bounds.window`): a tally of the
work its effects may do, read from the stack and the monuments of space 1 (`tally`), with the
technologies a Learn in it may take (`window_learnable`) and what each adds (`learn_work`)."""

from __future__ import annotations

from dataclasses import replace
from typing import Final

from solver.bounds.activators import lost_needed
from solver.bounds.takes import steps_take
from solver.bounds.windowmoves import decline_move, moves_one, self_swap, swap_pending, swaps_self
from solver.engine.cards import ANY_MONUMENT, Effect, Step, all_steps
from solver.engine.chests import CHEST_MOMENTS, chest_of
from solver.engine.conditions import count
from solver.engine.frames import (
    D_ARCHIVE,
    D_CHEST_USE,
    D_CHEST_WINDOW,
    D_DECLINE_ORDER,
    D_DISCARD_VAR,
    D_NUMBER,
    D_ORDER,
    D_PAY,
    D_REMOVE,
    D_TARGET,
    D_YESNO,
    F_ARCHIVE_REMOVE,
    F_DECLINE_FINISH,
    F_DECLINE_NEXT,
    F_DECLINE_PHASE,
    F_EFFECT,
    F_ELONGATED,
    F_LEARN_TRIGGERS,
    F_SLIDE,
    F_STEPS,
    F_TECH_PHASE,
    F_TIMELINE_PHASE,
    F_TURN_END,
)
from solver.engine.learn import candi_sukuh_in_timeline, learn_trigger_group
from solver.engine.state import CHEST_BASE, HAND_LIMIT, GameState
from solver.engine.targets import PAIR_FIRST, REMOVAL_PURPOSES
from solver.engine.turn import timeline_queue

#: What an effect still to run in the window may do (see `solver.bounds.window`).
WINDOW_OPS: Final = frozenset({
    "draw", "pay", "remove_knowledge", "discard_lost", "reveal_keep", "archive", "discard_hand"})
#: What a technology learned in the window may do besides: put an available technology under
#: its level's pile (T27; `passive_starts` follows every choice).
LEARNED_OPS: Final = frozenset({"bury_tech"})
#: The frames the window may hold: the phases still to come and the effects of the Timeline
#: phase with the decisions they ask (an order, a "you may", a payment, a removal, a number of
#: lost knowledge, a discard), the steps of a decline phase under way (the next decline, the
#: end of one, Elongated Skulls' draw, the slide), and an Archive under way with no action
#: choice after it (its picks, its removal), the Timeline phase still to queue its effects.
WINDOW_FRAMES: Final = frozenset({
    F_TURN_END, F_TECH_PHASE, F_DECLINE_PHASE, D_ORDER, F_EFFECT, F_STEPS, D_YESNO, D_PAY,
    D_REMOVE, D_TARGET, D_NUMBER, D_DISCARD_VAR, D_DECLINE_ORDER, F_LEARN_TRIGGERS,
    F_DECLINE_NEXT, F_DECLINE_FINISH, F_ELONGATED, F_SLIDE, D_CHEST_WINDOW, D_CHEST_USE,
    F_TIMELINE_PHASE, D_ARCHIVE, F_ARCHIVE_REMOVE})

#: Counters that the window's effects change (`cannot_run`).
WINDOW_COUNTERS: Final = frozenset({"hand", "hand.artifact", "tl_tokens", "self.tokens"})
#: Counters that a Learn in the window may change: the technologies', and the places of the
#: Timeline (T10 Planetary Grid's move).
MOVED_COUNTERS: Final = ("techs.", "adj.", "space1")
#: Counters that a created card's swap of itself before the Timeline phase changes
#: (`swap_pending`): the places of the Timeline.
SWAPPED_COUNTERS: Final = ("adj.", "space1")
#: Counters that a monument created before the Timeline phase changes (`early_create`): the
#: Timeline's and its places'.
CREATED_COUNTERS: Final = ("timeline.", "adj.", "space1")

#: A32 Elongated Skulls: 2 cards per full 3 knowledge that became lost in the decline phase.
SKULLS: Final = "elongated_skulls"
SKULLS_DRAW: Final = 2
SKULLS_PER: Final = 3
#: C25-C29's decline effect: a monument that still holds knowledge is discarded instead.
VANISH: Final = "vanish_if_knowledge"

#: A step that learns.
LEARN_OP: Final = "learn"
#: A step that creates a card (`solver.bounds.windowcreate`).
CREATE_OP: Final = "create"

#: Costs paid from the hand (`solver.engine.costs`); the others discard from the board.
HAND_COSTS: Final = frozenset({"discard_hand", "discard_hand_up_to"})


def cannot_run(st: GameState, e: Effect, source: int, lost_least: int,
               learning: bool) -> bool:
    """Whether the condition of `e`, queued in the Timeline phase of `st`'s window, can never
    hold when it resolves: a clause on lost knowledge that asks for at least a value above it
    now (it does not grow before the decline phase) or for at most a value below
    `lost_least` (the least it can fall to before the decline phase), or a clause on a
    counter that nothing in the window changes (the Past, the Timeline and its places, the
    artifacts: no decline or move runs in the Timeline phase, no Create unless a chest's may
    come before it, `early_create`, and no swap unless a card just created swaps itself before
    it, `swap_pending`; the technologies too unless the window may learn one, `learning`)
    that fails now. The hand and the knowledge on monuments change. In the decline
    phase lost knowledge and the Past grow with each decline: no condition is read there."""
    if st.in_decline:
        return False
    for clause in e.condition:
        counter = clause.counter
        if counter in WINDOW_COUNTERS or (learning and counter.startswith(MOVED_COUNTERS)):
            continue
        if counter.startswith(SWAPPED_COUNTERS) and swap_pending(st):
            continue
        if counter.startswith(CREATED_COUNTERS) and early_create(st):
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


class Work:
    """A tally of the work the window can still do (`last_windows`): the most cards it takes
    from the deck, pays from the hand, knowledge it removes from the monuments of space 1,
    lost knowledge it removes, technologies it may learn (`learns`; `free` if one of them
    needs no requirement); `fits` False once some work falls outside the window."""

    def __init__(self, tokens: int, learning: bool = False, learned: bool = False,
                 hand_most: int = HAND_LIMIT) -> None:
        self.tokens = tokens  # on the monuments of space 1: no removal counts for more
        self.hand_most = hand_most  # the most cards the hand can hold in the window
        self.learning = learning  # whether a Learn may come before an effect resolves
        self.learned = learned  # a learned technology's effects: `LEARNED_OPS` fit too
        self.fits = True
        self.draws = 0
        self.paid = 0
        self.removed = 0
        self.lost = 0
        self.learns = 0
        self.free = False
        # monuments of space 1 with knowledge that are discarded if they decline with any
        # (C25-C29, `VANISH`): their knowledge never becomes lost knowledge
        self.vanishers: list[int] = []
        self.converted = tokens  # the most knowledge the decline phase converts
        # moves in the window (`moves_one`: a decline effect of space 1's, a learned
        # technology's) and, once `moved` has looked, the most knowledge a monument moved into
        # space 1 brings and the most one moved out keeps
        self.moves = 0
        self.move_in = 0
        self.move_out = 0
        # Creates of a monument from the hand in the decline phase (`creating`: the steps
        # being added run there; `solver.bounds.windowcreate.created` looks at the rest)
        self.creating = False
        self.creates = 0

    def plus(self, other: Work) -> Work:
        """The work of both tallies (`other`: a learned technology's, `learn_work`)."""
        out = Work(self.tokens, self.learning, False, self.hand_most)
        out.fits = self.fits and other.fits
        out.draws = self.draws + other.draws
        out.paid = self.paid + other.paid
        out.removed = self.removed + other.removed
        out.lost = self.lost + other.lost
        out.learns = self.learns + other.learns
        out.free = self.free or other.free
        out.vanishers = self.vanishers
        out.converted = self.converted
        out.moves = self.moves + other.moves  # `moved` works out the rest
        out.creates = self.creates + other.creates
        return out

    def steps(self, steps: tuple[Step, ...]) -> None:
        """Add what running `steps` once can do (`_payable`: not what follows a payment the
        hand can never make)."""
        steps = self._payable(steps)
        for s in all_steps(steps):
            if s.op == LEARN_OP:
                self.learns += s.count
                self.free = self.free or s.ignore_requirements
            elif s.op == VANISH:
                pass  # `tally` lists the card: what it changes is `last_windows`' to follow
            elif self.learned and moves_one(s):
                self.moves += 1  # a learned technology's move (`moved`)
            elif s.op == CREATE_OP and self.creating and s.kind == ANY_MONUMENT:
                self.creates += 1  # a monument from the hand, in the decline phase
            elif s.op in LEARNED_OPS:
                self.fits = self.fits and self.learned
            elif s.op not in WINDOW_OPS:
                self.fits = False
            elif s.op == "pay":
                if s.cost not in HAND_COSTS:
                    self.fits = False  # a cost paid from the board changes what is in play
                self.paid += s.amount
            elif s.op == "discard_hand":  # cards from the hand, nothing for them (C35)
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
            elif s.op == "archive":  # cards from the hand, 1 knowledge removed for each (D2)
                self.paid += self.hand_most
                self.removed += self.hand_most
        self.draws += steps_take(steps)

    def _payable(self, steps: tuple[Step, ...]) -> tuple[Step, ...]:
        """`steps` without the payments of more cards from the hand than it ever holds in the
        window (`hand_most`) and what they pay for: a cost is paid in full or its steps do not
        run (section 5; `solver.engine.costs.can_pay`)."""
        out: list[Step] = []
        changed = False
        for s in steps:
            if s.op == "pay" and s.cost == "discard_hand" and s.amount > self.hand_most:
                changed = True
                continue
            then = self._payable(s.then) if s.then else s.then
            if then is not s.then:
                s = replace(s, then=then)
                changed = True
            out.append(s)
        return tuple(out) if changed else steps

    def effect(self, st: GameState, e: Effect, source: int, lost_least: int) -> None:
        """Add effect `e` of card `source`, queued in the Timeline phase; one whose condition
        cannot hold (`cannot_run`) does nothing."""
        if self._may_run(st, e, source, lost_least, self.learning):
            self._effect_steps(e, e.trigger is not None)

    def reaction(self, st: GameState, e: Effect, source: int, lost_least: int) -> None:
        """Add "each time you LEARN" effect `e` of card `source` (its trigger is the Learn),
        or a learned technology's immediate effect; one whose condition cannot hold does
        nothing."""
        if self._may_run(st, e, source, lost_least, True):
            self._effect_steps(e, False)

    @staticmethod
    def _may_run(st: GameState, e: Effect, source: int, lost_least: int,
                 learning: bool) -> bool:
        """Whether `e`'s condition may hold when it resolves (`cannot_run`; before the decline
        phase, lost knowledge never rises above its value now)."""
        return not cannot_run(st, e, source, lost_least, learning) and (
            st.in_decline or lost_needed(e) <= st.lost)

    def swap(self, e: Effect) -> None:
        """Add a created card's swap of itself (`self_swap`): the window's one move
        (`moved`, followed target by target), and the rest of its steps."""
        self.moves += 1
        self.steps(tuple(x for x in e.steps if not swaps_self(x)))

    def any_effect(self, e: Effect) -> None:
        """Add `e`, whatever its condition and trigger (an effect that runs in the decline
        phase, where the window reads no condition)."""
        self._effect_steps(e, False)

    def _effect_steps(self, e: Effect, other_trigger: bool) -> None:
        """Add `e`'s steps; a special (or a trigger of its own) falls outside the window."""
        if other_trigger or e.special is not None:
            self.fits = False
        else:
            self.steps(e.steps)


def tally(st: GameState, lost_least: int, learning: bool,
          hand_most: int = HAND_LIMIT) -> Work:
    """The `Work` of the window of `st` (see `last_windows`), conditions on at most so much
    lost knowledge read against `lost_least`, those on technologies taken as holding if
    `learning`, payments from the hand against `hand_most` cards in it at most."""
    cards = st.book.cards
    # after the decline phase no monument of space 1 declines before the end (D8)
    space1 = st.space_monuments(1) if not declined_now(st) else []
    work = Work(sum(st.tokens[m] for m in space1), learning, False, hand_most)
    work.creating = st.in_decline
    for fr in st.stack:
        kind = fr[0]
        if kind not in WINDOW_FRAMES or (kind == D_TARGET and fr[2] not in REMOVAL_PURPOSES):
            work.fits = False  # an action choice, a Create, a move...
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
        elif kind == D_ARCHIVE:  # an Archive under way (section 5, D2): any card of the
            # hand may still go, 1 knowledge removed for each, and for each one gone
            work.paid += len(st.hand)
            work.removed += len(st.hand) + fr[1]
        elif kind == F_ARCHIVE_REMOVE:  # its cards chosen, their knowledge to remove
            work.removed += fr[1]
        elif kind == D_DISCARD_VAR:  # "up to" a number of cards, then its steps
            work.steps(fr[2])
            work.paid += max(0, fr[3] - fr[4])
        elif kind == F_LEARN_TRIGGERS:  # a Learn's reactions, to be ordered
            in_play = st.in_play()
            for c, i in fr[2]:
                if c in in_play:
                    work.reaction(st, cards[c].effects[i], c, lost_least)
        elif kind in (F_EFFECT, D_ORDER, F_TIMELINE_PHASE):
            # an effect, the queue, or the queue still to form (the cards in play then are
            # those now: an Archive under way moves none, section 4B)
            items = (((fr[1], fr[2]),) if kind == F_EFFECT else fr[1] if kind == D_ORDER
                     else timeline_queue(st))
            for c, i in items:
                if c >= CHEST_BASE:  # a chest's is counted below, with the chests under the board
                    continue
                e = cards[c].effects[i]
                if self_swap(e):  # a card just created swaps itself: the window's one move
                    work.swap(e)
                elif e.trigger is not None:  # a reaction whose event came (a Learn, a
                    work.reaction(st, e, c, lost_least)  # Create: no Timeline effect has one)
                else:
                    work.effect(st, e, c, lost_least)
        if not work.fits:
            return work
    work.creating = True  # a chest's Create is followed (`create_chests`), and the decline
    for k in window_chests(st):  # effects below run in the decline phase; each chest may be
        work.steps(chest_of(st, k).steps)  # used once in the window (D16)
    for m in space1:  # they decline (section 4C step 2): their decline effects run
        # (those of the one declining now are on the stack, counted above)
        running = m == st.declining
        for e in cards[m].effects:
            if e.moment != "decline":
                continue
            if not running:
                if e.trigger is not None or e.special is not None:
                    work.fits = False
                    continue
                steps = e.steps
                if decline_move(e):
                    work.moves += 1
                    steps = tuple(x for x in steps if not moves_one(x))
                work.steps(steps)
            if (m != st.vanishing and st.tokens[m] and m not in work.vanishers
                    and any(x.op == VANISH for x in e.steps)):
                work.vanishers.append(m)
    kept = sum(st.tokens[m] for m in work.vanishers)
    if st.vanishing in space1:  # declining now, to be discarded with its knowledge
        kept += st.tokens[st.vanishing]
    work.converted = work.tokens - kept
    work.draws += skulls_draws(st, work.converted)
    return work


def skulls_draws(st: GameState, converted: int) -> int:
    """What Elongated Skulls (A32), if in play, draws after the decline phase of `st` when
    `converted` more knowledge becomes lost in it (2 cards per full 3 with what this phase's
    declines converted already)."""
    cards = st.book.cards
    if not any(e.special == SKULLS for c in st.in_play() for e in cards[c].effects):
        return 0
    done = st.converted if st.in_decline else 0  # converted by this phase's declines
    return SKULLS_DRAW * ((done + converted) // SKULLS_PER)


def moved(st: GameState, work: Work) -> None:
    """What the one move of the window (`Work.moves`: a decline effect of space 1, the
    immediate effect of a technology learned in the Timeline phase, or a created card's swap
    of itself, `swaps_self`) changes: a monument of another space may move into space 1 and
    decline (its decline effects run, its knowledge converts: at most the most any holds,
    Elongated Skulls drawing for it), or one of space 1
    may move out (it does not decline: its knowledge stays, at most the most any holds). Two
    moves, or one with a monument of space 1 that may be discarded for holding knowledge
    (C25-C29), fall outside the window."""
    if work.moves > 1 or work.vanishers:
        work.fits = False
        return
    space1 = st.space_monuments(1)
    others = [m for m in st.monuments() if m not in space1]
    work.move_in = max((st.tokens[m] for m in others), default=0)
    work.move_out = max((st.tokens[m] for m in space1), default=0)
    work.draws += (skulls_draws(st, work.converted + work.move_in)
                   - skulls_draws(st, work.converted))
    entering_declines(st, work, others, False)  # a move among them falls outside


def entering_declines(st: GameState, work: Work, monuments: list[int], may_move: bool) -> None:
    """Add the decline effects of `monuments`, which may enter space 1 in the window and
    decline there; one with a trigger or a special of its own falls outside. With `may_move`,
    a decline move among them is the window's one move (`moved`), else it falls outside
    (`WINDOW_OPS`)."""
    cards = st.book.cards
    for m in monuments:
        for e in cards[m].effects:
            if e.moment != "decline":
                continue
            if e.trigger is not None or e.special is not None:
                work.fits = False
            elif may_move and decline_move(e):  # C15, P12
                work.moves = 1
                work.steps(tuple(x for x in e.steps if not moves_one(x)))
            else:
                work.steps(e.steps)


def zeroings(st: GameState, w: Work) -> list[tuple[int, ...]]:
    """The sets of C25-C29 cards of space 1 (`Work.vanishers`) that the window's removals may
    leave without knowledge before they decline (each then goes to the Past; any other is
    discarded with its knowledge): every set whose knowledge the removals can take."""
    out: list[tuple[int, ...]] = [()]
    for m in w.vanishers:
        out += [(*z, m) for z in out if sum(st.tokens[x] for x in z) + st.tokens[m] <= w.removed]
    return out


def hand_most(st: GameState, draws: int) -> int:
    """The most cards the hand of `st` can hold in a window that draws at most `draws` (no
    take goes past 10 in hand, D4)."""
    return min(HAND_LIMIT, len(st.hand) + draws)


def window_learnable(st: GameState, free: bool, lost_least: int) -> list[int]:
    """The technologies a Learn in the window of `st` may take: the available ones (all of
    them when the Learn ignores requirements) whose requirement may hold at some moment of the
    Timeline phase. A clause on the hand is taken as holding (the window's draws and payments
    change it); on lost knowledge, one asking for at least a value is read against lost
    knowledge now (it does not grow before the decline phase), one asking for at most a value
    against `lost_least`; one on the Timeline is taken as holding where a chest may create a
    monument before the Timeline phase (`early_create`), one on its places where a created
    card swaps itself before it (`swap_pending`); the rest (the Past, the artifacts, the
    technologies) do not change before the Learn. Candi Sukuh in the Timeline lets one "at
    least" clause fail by one (D19), as in `solver.engine.learn.learnable` (taken as there
    where it may be created before the Learn)."""
    techs = sorted(st.available_techs())
    if free:
        return techs
    cards = st.book.cards
    early = early_create(st)
    swap = swap_pending(st)
    relax = early or candi_sukuh_in_timeline(st)
    out: list[int] = []
    for t in techs:
        short = 0  # "at least" clauses failing by one
        ok = True
        for clause in cards[t].requirement:
            counter = clause.counter
            if counter in WINDOW_COUNTERS or (early and counter.startswith(CREATED_COUNTERS)) or (
                    swap and counter.startswith(SWAPPED_COUNTERS)):
                continue
            if counter == "lost":
                v = st.lost if clause.op in (">=", ">") else lost_least
            else:
                v = count(st, counter, -1)
            if clause.holds(v):
                continue
            if relax and clause.op == ">=" and v >= clause.value - 1:
                short += 1
            else:
                ok = False
        if ok and short <= 1:
            out.append(t)
    return out


def learn_work(st: GameState, tech: int, lost_least: int, tokens: int,
               hand_most: int = HAND_LIMIT) -> Work:
    """What learning `tech` in the window of `st` adds to its work: the technology's immediate
    effects and the "each time you LEARN" effects of the cards in play (no card enters or
    leaves play before the decline phase) that react to its type (section 5)."""
    cards = st.book.cards
    work = Work(tokens, True, True, hand_most)
    for e in cards[tech].effects:
        if e.moment == "immediate":
            work.reaction(st, e, tech, lost_least)
    for c, i in learn_trigger_group(st, tech):  # as the rules collect them at the Learn
        work.reaction(st, cards[c].effects[i], c, lost_least)
    return work


def window_chests(st: GameState) -> list[int]:
    """The chests under the board that the window of `st` may use: those with an effect of a
    moment it holds (at any moment, or in the Timeline phase), each at most once (D16). A game
    without chest data has none."""
    if not st.chests_under or st.setup.chest_data is None:
        return []
    return [k for k in st.chests_under if chest_of(st, k).moment in CHEST_MOMENTS]


def create_chests(st: GameState) -> list[int]:
    """The chests under the board that the window of `st` may use whose effect creates a
    monument from the hand (`solver.bounds.windowcreate`): a lightning chest may be used at any
    window of the turn left (`solver.engine.chests`: at the start of the Timeline phase, of the
    decline phase and of the technology phase, and within a phase), and each use is followed
    as the rules run it
    (`solver.bounds.window.passive_starts`), never taken as used before the window."""
    return [k for k in window_chests(st)
            if any(s.op == CREATE_OP for s in all_steps(chest_of(st, k).steps))]


def early_create(st: GameState) -> bool:
    """Whether a monument may be created in the window of `st` before what is left of it reads
    the Timeline: a chest that creates (`create_chests`) with the Timeline phase still to begin
    (its lightning window opens at the phase's start, before the queue forms; the new card's
    Timeline effects join the others), with effects still waiting in an order (a window opens
    between two, `solver.engine.chests`), or with the decline phase over (a Learn may still
    come, `declined_now`). The Timeline's counts may then differ from now where a condition or
    a requirement is read."""
    return (any(fr[0] == F_TIMELINE_PHASE or fr[0] == D_ORDER for fr in st.stack)
            or declined_now(st)) and bool(create_chests(st))


def declined_now(st: GameState) -> bool:
    """Whether the decline phase of `st`'s turn is over (the turn's end on the stack, the
    phase neither under way nor still on it): the window then holds the technology phase and
    the lightning window before it (the window after the last decline,
    `solver.bounds.window.window_moment`)."""
    kinds = [fr[0] for fr in st.stack]
    return not st.in_decline and F_TURN_END in kinds and F_DECLINE_PHASE not in kinds


def declined_knowledge(st: GameState, start: GameState) -> tuple[int, int]:
    """The most and the least knowledge on the monuments that decline on the way from `st` to
    `start` (those in the Past of `start` and not of `st`), before the window's removals take
    any: what each holds now (nothing in the window adds knowledge to a monument), or for one
    created in the window its entering knowledge (section 5: at most its printed value, at
    least `least_entering`). Lost knowledge grows by what is left on them (section 4C step 2,
    D22)."""
    cards = st.book.cards
    before = set(st.past)
    now = set(st.monuments())
    most = least = 0
    for m in start.past:
        if m in before:
            continue
        if m in now:
            most += st.tokens[m]
            least += st.tokens[m]
        else:
            most += cards[m].knowledge
            least += least_entering(st, m)
    return most, least


def least_entering(st: GameState, card: int) -> int:
    """The least knowledge `card`, created in the window of `st`, enters with: its printed value
    less its own discount and every reduction of a card in play now (those in play at the
    Create are among them), whatever their conditions (section 5); 0 where a discount counts
    something."""
    cards = st.book.cards
    value = cards[card].knowledge
    for e in cards[card].effects:
        d = e.discount
        if d is not None:
            if d.per is not None:
                return 0
            value -= d.fixed
    reducer = st.book.reducer
    for x in st.in_play():
        if reducer[x]:
            for e in cards[x].effects:
                if e.reduction is not None:
                    value -= e.reduction.amount
    return max(0, value)


def order_learners(queue: tuple[tuple[int, int], ...], st: GameState) -> set[int]:
    """The cards of an order's `queue` whose queued effect learns."""
    cards = st.book.cards
    return {c for c, i in queue if c < CHEST_BASE
            and any(x.op == LEARN_OP for x in all_steps(cards[c].effects[i].steps))}
