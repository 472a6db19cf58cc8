"""An admissible upper bound on the final VP of a position (for exact search).

"Admissible" means no line from the position can score more. The bound adds, row by row of the
score sheet (RULES.md section 7), the most each row can still reach:

* Past VP: the VP already in the Past, plus the best printed VP of the monuments that could
  still decline. At most 2 monuments decline a decline phase (space 1 has two places), plus at
  most one per decline effect that can put a monument into space 1 (`solver.bounds.movers`), so
  ``declines <= 2 * decline_phases_left + entries``; when a card with a trigger of another kind
  may act (none the card loader admits) the count is unknown: every monument out of the Past
  may decline. With no decline phase left (after the last one: the game ends at the last
  turn's decline phase at once, D8) nothing declines: a card reaches the Past only by
  declining (section 4C step 2; D7: Excavate moves nothing).
  In the turn of the last decline phase (turn 15), only monuments in play by then decline:
  those in play or in hand, those the deck's top can yield before the Timeline phase (a count
  of the cards that can leave the deck, `solver.bounds.takes`), and at most as many others as
  effects can create after the action phase (`_decliners_this_turn`).
* End-game effects: each Past (or possibly Past) end-game card at its best value with every
  counter at its most optimistic (Past counts after every possible decline, every technology
  learned, no lost knowledge, a full Timeline).
* Technologies: the VP already learned, plus the best VP of the technologies not yet learned,
  one per Learn still reachable (`solver.bounds.reachable`: the action choices left, the
  Learns under way, and the grants of cards that can still activate).
* Timeline: the monuments in it now plus the Creates still reachable (a monument enters the
  Timeline only by a Create, section 5; `solver.bounds.reachable`), at most 12 (6 spaces, 2
  places).
* Lost knowledge: lost knowledge only grows, except by removals (``discard_lost`` steps, D22);
  so it ends at least at its current value less every removal still reachable
  (`solver.bounds.reachable`), and never below 0.

* In the last turn, the counts of `solver.bounds.reachable` read only the builder cards that may
  be in play before the game ends, when no card can enter play after the action phase
  (`_in_play_by_the_end`): a card out of play acts only once created, from the hand.

* After the last decline, a technology whose requirement asks for more lost knowledge than there
  is now is left out of the candidates (`_learnable_later`): lost knowledge then never grows
  (section 4C step 2, D22), and every way a technology still enters the collection checks its
  requirement (section 5 Learn; the Pyramid of the Niches learns as at a Learn), unless an
  effect that ignores requirements may still run.
* A few Learns left after the last decline (`few_learns`): the technology row and the
  end-game rules are bounded together, over the counts by type of the technologies that may
  still be learned, instead of each at its own best (a Learn adds 1 to one type's counter, not
  to all three). The lost-knowledge row joins them: a technology that removes lost knowledge
  (D22) takes a Learn like one worth VP, so each is rated at its VP plus its own removal, and
  the lost knowledge left by every other removal is subtracted (`tech_removals`).
* After the last decline lost knowledge never falls below its value now less the removals
  still reachable: a requirement of at most ``k`` lost knowledge below that floor is never
  met again (`_learnable_later`).
* After the last decline a requirement on a Past count that is not met now is never met again
  (the Past changes only at a decline, section 4C step 2; `_learnable_later`), and in the last
  turn only the technologies on the tiles, revealed, or turned up by the tile refills still
  to come can enter the collection (`solver.bounds.techrow`): the others are no candidates,
  and their immediate effects (a removal of lost knowledge, a Learn) do not count.
* With few action choices left (`solver.bounds.reachable`'s splits), each split of them into
  Creates, Learns and other actions is bounded on its own and the largest kept: one action is
  a Create or a Learn, not both, so the Timeline row and the technology row do not both take
  every action. In the last turn each split is counted with only the cards it can bring into
  play itself, and its Creates at most the cards it can create (`solver.bounds.splitplay`);
  a split with one Learn twice, once on the lines that learn a technology that takes cards
  and once on the others, each with only its own technologies as candidates (one Learn does
  not both draw Proto-writing's cards and score the Emerald Tablet's VP); and a split with one
  Create action creates one card at most where nothing that can be in play before its first
  Create grants another.
  After the last decline a split whose counts cannot meet every goal chest
  (`solver.bounds.goalreach`) is no line of a won trial and is left out; with none left, no
  line wins (`NO_LINE`).

It is loose early in the game; near the end (few decline phases left) it is what lets branch
and bound cut. The constraint layer (`solver.bounds.cpsat`) gives a tighter one.
"""

from __future__ import annotations

import math
from typing import Final

from solver.bounds.endrules import TIMELINE_PLACES, CounterRanges, effect_max
from solver.bounds.goalreach import goals_may_hold
from solver.bounds.movers import phase_entries
from solver.bounds.poolfacts import PoolFacts, pool_facts
from solver.bounds.reachable import UNBOUNDED, ReachMemo, ReachSummary, reach
from solver.bounds.splitplay import (
    ALL_KINDS,
    Case,
    Contexts,
    Entry,
    FirstCards,
    SplitAnswer,
    closed_take,
    entering,
    first_cards,
    split_counts,
    split_present,
)
from solver.bounds.takes import (
    TakeTable,
    enterable,
    enters_after_actions,
    late_creates,
)
from solver.bounds.techjoint import few_learns, tech_removals
from solver.bounds.techrow import last_turn_techs, learn_relax, may_pass
from solver.engine.cards import Card
from solver.engine.frames import F_DECLINE_PHASE, F_TIMELINE_PHASE
from solver.engine.setup import turns_for
from solver.engine.state import GameState

LOST_CAP: Final = 200  # lost knowledge declines can still add: a generous cap
#: What `simple_upper_bound` returns when no line from the position can meet every goal
#: (`as_bound` reads it as ``-inf``, the bound protocol's "none exists").
NO_LINE: Final = -1_000_000
#: The most Learns left for which `few_learns` bounds technologies and end-game rules jointly.
FEW_LEARNS: Final = 4
TAKE_ROUNDS: Final = 8  # rounds of `_decliners_this_turn`'s search for a closed deck count
#: Answers of `taken_before_timeline` kept by position in each of the memo's two generations
#: (a key is ~3 KB: the two hold ~50 MB at most). A transposition computes its search key,
#: which asks this (`solver.guidance.endgame.tokens_dead`), so a search asks about one turn-16
#: start many times: measured on t1-h1 from turn 15 (300k nodes), 187k asks of 9.5k positions;
#: keeping 8 answers, the key took 63% of the search's time.
TAKEN_KEPT: Final = 1 << 13


def _learnable_later(st: GameState, facts: PoolFacts, present: set[int] | None = None,
                     memo: ReachMemo | None = None, lost_floor: int = 0) -> set[int] | None:
    """With no decline left: the technologies not yet learned that may still enter the
    collection, or None when every one may (no filter).

    A technology enters the collection by a Learn (the action or an effect's, section 5) or the
    Pyramid of the Niches (a Learn too: techeffects), each checking its requirement when it
    happens, or by Abu Simbel's decline effect (none after the last decline). Lost knowledge
    grows only when a monument declines (section 4C step 2; removals lower it, D22), so it never
    exceeds its current value again: a requirement that asks for at least (or exactly) ``k`` lost
    knowledge with ``k`` above it is never met again. The Past never changes again either (a
    card enters it only by declining, section 4C step 2, and never leaves it): a requirement
    that asks for at least (or exactly) ``k`` of a Past count with ``k`` above its value now is
    never met again. Lost knowledge never falls below `lost_floor` either (the caller's count
    of the removals still reachable, `solver.bounds.reachable`, taken from it): a requirement
    that asks for at most (or exactly) ``k`` lost knowledge with ``k`` below it is never met
    again. Candi Sukuh in the Timeline lowers one "at
    least" value by 1 (D19), so while a card with that special is out of the Past an "at least"
    ``k`` needs only ``k - 1``. A Learn that ignores requirements (an effect's step or one under
    way) can take any of them: then no filter, as long as such a card is out of the Past (a
    decline effect's, M34 Montguyon Dolmen's, never runs again: D8).
    `present`, when given (the last turn, `_in_play_by_the_end`): the builder cards that may be
    in play before the game ends; one out of play and not among them never acts, as one in the
    Past. `memo` keeps the technologies whose requirements pass by what they read (the Past,
    its rotations, lost knowledge, Candi Sukuh), which changes only at a decline or a removal."""
    past = set(st.past)
    cards = st.book.cards

    def may_act(c: int) -> bool:
        return c not in past and (present is None or c in present or cards[c].is_tech)

    relax = learn_relax(st, facts.free_learners, facts.candi, may_act)
    if relax is None:
        return None
    floor = min(max(0, lost_floor), st.lost)
    key = (tuple(st.past), st.rotated, st.lost, relax, floor)
    passing = memo.learnable.get(key) if memo is not None else None
    if passing is None:
        passing = frozenset(c for _, c in facts.techs_by_vp
                            if may_pass(st, cards[c].requirement, c, relax, floor))
        if memo is not None and len(memo.learnable) < memo.CAPACITY:
            memo.learnable[key] = passing
    known = set(st.techs)
    return {c for c in passing if c not in known}


def decline_phases_left(st: GameState) -> int:
    """Decline phases still to come that move monuments to the Past (the last turn's decline
    ends the game instead, D8)."""
    if st.over:
        return 0
    last = turns_for(st.setup.time_space)
    pending_now = st.in_decline or any(fr[0] == F_DECLINE_PHASE for fr in st.stack)
    later = max(0, last - max(st.turn, 1) - 1)
    now = 1 if pending_now and st.turn < last else 0
    return later + now


def last_decline_now(st: GameState) -> bool:
    """Whether the one decline phase still to come (`decline_phases_left`) is this turn's: the
    turn before the last, its decline phase not over."""
    if st.over:
        return False
    last = turns_for(st.setup.time_space)
    if max(st.turn, 1) != last - 1:
        return False
    return st.in_decline or any(fr[0] == F_DECLINE_PHASE for fr in st.stack)


def simple_upper_bound(st: GameState, facts: PoolFacts | None = None,
                       memo: ReachMemo | None = None, present_given: bool = False,
                       present: set[int] | None = None,
                       split_answer: SplitAnswer | None = None,
                       refine_above: float = -math.inf,
                       first_answer: FirstCards | None = None) -> int:
    """At the end, the exact score; before it, a bound no line can beat (see the module);
    `NO_LINE` when, after the last decline, no count of what is still reachable can meet every
    goal (`solver.bounds.goalreach`).
    `facts` (the game's `pool_facts`) saves recomputing the pool at every call, `memo` (kept
    with them by `PoolFactsCache`) the counts of `solver.bounds.reachable`.
    `present_given`: in the last turn, `present` (None: no restriction) replaces
    `_in_play_by_the_end`'s answer; it must hold every builder card that may be in play before
    the game ends (`solver.bounds.window` bounds several positions with one).
    `split_answer`, with `present_given`: for a split of the last turn's action choices, the
    builder cards that may be in play on its lines and the most cards that pass through the
    hand (at least `solver.bounds.splitplay.split_present`'s answer; None: no restriction);
    without `present_given`, that function's answer; `first_answer`, with it, the answer of
    `solver.bounds.splitplay.first_cards` or one holding more (None: not known; without
    `present_given`, that function's). `refine_above`: that refinement, split by split, is
    worked out only where the bound without it is above this value (a search's incumbent: at
    or below it the position is pruned either way; by default, everywhere)."""
    if st.over:
        return st.score().total
    if facts is None:
        facts = pool_facts(st)
    vp = facts.vp
    past_vp = sum(vp[c] for c in st.past)
    techs_vp = sum(vp[t] for t in st.techs)
    phases = decline_phases_left(st)
    past_set = set(st.past)
    future = [c for c in facts.monuments if c not in past_set]
    declines = 0
    if phases:  # the entries into space 1 during the phases (`solver.bounds.movers`)
        entered = phase_entries(st, facts.mover_facts)
        declines = len(future) if entered is None else min(len(future), 2 * phases + entered)
    near, late = future, 0
    if declines and facts.takes is not None and last_decline_now(st):
        near, declines, late = _decliners_this_turn(st, facts, facts.takes, future, declines, memo)
    if memo is None:
        memo = ReachMemo()
    summary = ReachSummary(st, facts.activators, phases, memo)  # every `reach` below reads it
    r = reach(st, facts.activators, phases, facts.poulnabrone, memo, summary=summary)
    if phases:
        present = None
    elif not present_given:
        present = _in_play_by_the_end(st, facts, memo)
    if present is not None and (r.creates or r.art_creates):  # else no card out of play acts
        r = reach(st, facts.activators, phases, facts.poulnabrone, memo, present=present,
                  summary=summary)
    floor = st.lost - r.lost_removed if r.lost_removed < UNBOUNDED else 0
    later = _learnable_later(st, facts, present, memo, floor) if phases == 0 else None
    techs_open = None
    if phases == 0 and r.learns < UNBOUNDED:
        techs_open = last_turn_techs(st, r.learns, facts.tile_takers, facts.chest_takers, present,
                                     later)
        if techs_open is not None:  # the last turn: only these can still enter the collection
            later = set(techs_open) if later is None else later & techs_open
            r = reach(st, facts.activators, phases, facts.poulnabrone, memo, present=present,
                      techs_open=techs_open, summary=summary)
    known_techs = frozenset(st.techs)
    tech_vps = [v for v, c in facts.techs_by_vp
                if c not in known_techs and (later is None or c in later)]
    rows = _OpenRows(st, facts, memo, present, floor, techs_open, known_techs, (later, tech_vps),
                     phases, declines, (near, future, late), past_vp + techs_vp)
    goals = rows.goals
    if r.splits:
        value = rows.largest(tuple((e, None) for e in r.splits))
        table = facts.takes
        if (value > refine_above and phases == 0 and table is not None
                and (split_answer is not None or not present_given)):
            # the last turn: each split with the cards it alone can bring into play
            split_memo = memo if memo is not None else ReachMemo()
            position = st.key() if split_answer is None else ()
            contexts: Contexts = {}  # what each split's count reads of `st`

            def own_answer(split: tuple[int, int, int],
                           learnable: frozenset[int] | None) -> tuple[set[int], int] | None:
                return split_present(st, facts.activators, facts.poulnabrone, table,
                                     split_memo, split, learnable, position, contexts)

            def own_first(e: Entry, learnable: frozenset[int] | None) -> set[int] | None:
                assert table is not None
                return first_cards(st, table, e, learnable, split_memo, contexts)

            answer = split_answer if split_answer is not None else own_answer
            first = first_answer if split_answer is not None else own_first
            # both are bounds: the refinement counts other things, not always fewer
            value = min(value, rows.largest(split_counts(
                st, facts.activators, facts.poulnabrone, split_memo, r.splits, techs_open,
                answer, None if later is None else frozenset(later), facts.learn_takers,
                first)))
        return value
    if goals and not goals_may_hold(st, r.creates, r.learns, r.art_creates, r.lost_removed):
        return NO_LINE
    return rows.fixed + rows.rest(r.learns, r.creates, r.lost_removed)


class _OpenRows:
    """`simple_upper_bound`'s rows that depend on the counts still reachable, for one position
    (an object rather than nested functions: those would close over one another, and each call
    would leave a reference cycle for the collector, `solver.search.collector`).

    :param choices: ``(later, tech_vps)``: the technologies whose requirements may pass (None:
        any) and the VP of those not learned, largest first.
    :param decliners: ``(near, future, late)`` of `_declined_max`.
    :param fixed: the VP of the Past and of the technologies learned.
    """

    def __init__(self, st: GameState, facts: PoolFacts, memo: ReachMemo | None,
                 present: set[int] | None, floor: int, techs_open: frozenset[int] | None,
                 known_techs: frozenset[int], choices: tuple[set[int] | None, list[int]],
                 phases: int, declines: int, decliners: tuple[list[int], list[int], int],
                 fixed: int) -> None:
        self.st, self.facts, self.memo, self.present, self.floor = st, facts, memo, present, floor
        self.techs_open, self.known_techs = techs_open, known_techs
        self.phases, self.declines, self.decliners, self.fixed = phases, declines, decliners, fixed
        # the last turn with the cards in play by its end known: each split's candidates by
        # the kinds of card it creates
        self.restrict = phases == 0 and present is not None
        self.in_timeline = sum(1 for sp in st.spaces for c in sp if c >= 0)
        self.goals = self.phases == 0 and bool(st.goal_chests)  # counters in known ranges
        # each split's candidates by the kinds of card it creates (`splitplay.entering`)
        # and by the technologies its lines may learn (`splitplay.learn_cases`, None: any)
        self.by_kinds: dict[tuple[tuple[bool, bool], frozenset[int] | None],
                            tuple[set[int] | None, list[int]]] = {(ALL_KINDS, None): choices}
        # `few_learns` by Learns left, without and with the technologies' removals (no split
        # reads more)
        self.joint_techs: dict[tuple[int, bool, tuple[bool, bool], frozenset[int] | None],
                               int | None] = {}
        #: `rest`'s answers by its arguments (`largest` asks again across calls)
        self.rests: dict[tuple[int, int, int, int, tuple[bool, bool], frozenset[int] | None],
                         int] = {}

    def learnable(self, kinds: tuple[bool, bool], only: frozenset[int] | None = None
                  ) -> tuple[set[int] | None, list[int]]:
        """The technologies that may still enter the collection on lines that create the
        `kinds` of card (None: any; within `only` when given) and the VP of those not learned,
        largest first (worked out once per kinds and `only`)."""
        if (kinds, only) not in self.by_kinds:
            st, facts = self.st, self.facts
            own: set[int] | None
            if only is not None:
                wider = self.learnable(kinds)[0]
                own = set(only) if wider is None else wider & only
            else:
                assert self.present is not None
                own = _learnable_later(st, facts, entering(st, self.present, kinds), self.memo,
                                       self.floor)
                if self.techs_open is not None:
                    own = set(self.techs_open) if own is None else own & self.techs_open
            self.by_kinds[kinds, only] = (own, [v for v, c in facts.techs_by_vp
                                                if c not in self.known_techs
                                                and (own is None or c in own)])
        return self.by_kinds[kinds, only]

    def joint(self, few: int, removing: bool, kinds: tuple[bool, bool],
              only: frozenset[int] | None) -> int | None:
        """`few_learns` with `few` Learns over `learnable(kinds, only)`, with the technologies'
        own removals when `removing` (None where they are not known; worked out once each)."""
        if (few, removing, kinds, only) not in self.joint_techs:
            st, facts = self.st, self.facts
            removals = tech_removals(st, facts.activators) if removing else None
            self.joint_techs[few, removing, kinds, only] = (
                None if removing and removals is None else
                few_learns(st, facts.tech_readers, facts.techs_by_vp, few,
                           self.learnable(kinds, only)[0], removals, self.memo))
        return self.joint_techs[few, removing, kinds, only]

    def rest(self, learns_left: int, creates: int, lost_removed: int, tech_lost: int = 0,
             kinds: tuple[bool, bool] = ALL_KINDS, only: frozenset[int] | None = None) -> int:
        """The rows that depend on the Learns, Creates and removals still reachable (of
        which `tech_lost` by the technologies' own effects), on lines that create monuments,
        artifacts as `kinds` allows (worked out once per arguments)."""
        key = (learns_left, creates, lost_removed, tech_lost, kinds, only)
        known = self.rests.get(key)
        if known is None:
            known = self.rests[key] = self._rest(*key)
        return known

    def _rest(self, learns_left: int, creates: int, lost_removed: int, tech_lost: int,
              kinds: tuple[bool, bool], only: frozenset[int] | None) -> int:
        """`rest` worked out."""
        st, phases, declines = self.st, self.phases, self.declines
        facts, cards = self.facts, self.st.book.cards
        tech_vps = self.learnable(kinds, only)[1]
        tech_future = sum(tech_vps[:learns_left])
        # End-game effects at their most optimistic: each card's rule at its best over the
        # range its counter can still reach (`CounterRanges`).
        lost_lo = 0 if lost_removed >= UNBOUNDED else max(0, st.lost - lost_removed)
        ranges = CounterRanges(st, declines, min(learns_left, len(tech_vps)), creates, lost_lo,
                               st.lost if phases == 0 else st.lost + LOST_CAP)
        effect_bound = 0
        tech_part = 0  # of it, the rules that read technology counters
        for c in st.past:
            if c in facts.endgame:
                worth = effect_max(cards[c], ranges)
                effect_bound += worth
                if c in facts.tech_readers:
                    tech_part += worth
        few = min(learns_left, len(tech_vps))
        others = effect_bound - tech_part  # the end-game rules that read no technology count
        if declines == 0 and 1 <= few <= FEW_LEARNS and tech_part:
            both = self.joint(few, False, kinds, only)
            if both is not None and both < tech_future + tech_part:
                tech_future, effect_bound = 0, others + both
        near, future, late = self.decliners
        declined = _declined_max(near, declines, facts, cards, ranges, future, late)
        timeline = min(TIMELINE_PLACES, self.in_timeline + creates)
        value = declined + effect_bound + tech_future + timeline - lost_lo
        if (phases == 0 and 1 <= few <= FEW_LEARNS and tech_lost
                and lost_removed < UNBOUNDED):
            # The technologies' removals take Learns too: each technology brings its VP and
            # its removal, and the lost knowledge left by every other removal is at most
            # ``left`` (`few_learns` with `removals`; a removal below 0 only counts more).
            left = st.lost - (lost_removed - tech_lost)
            rated = self.joint(few, True, kinds, only) if left > 0 else None
            if rated is not None:
                value = min(value, declined + others + rated + timeline - left)
        return value

    def largest(self, cases: tuple[Case, ...]) -> int:
        """The bound over `cases`, splits with the technologies their lines may learn (one
        action is not both a Create and a Learn: each split on its own)."""
        st, goals = self.st, self.goals
        restrict = self.restrict
        counts = list(dict.fromkeys(
            (learns, mon, lost, tech, (mon > 0, art > 0) if restrict else ALL_KINDS, only)
            for (_, _, _, mon, learns, art, lost, tech), only in cases
            if not goals or goals_may_hold(st, mon, learns, art, lost)))
        if not counts:
            return NO_LINE  # no split of the actions left can meet every goal
        # `rest` never falls as a count grows or a kind of Create is allowed (the
        # technologies' part of the removals held): only the splits no other one covers can
        # be largest
        return self.fixed + max(self.rest(*c) for c in counts if not any(
            o != c and o[0] >= c[0] and o[1] >= c[1] and o[2] >= c[2] and o[3] == c[3]
            and o[4][0] >= c[4][0] and o[4][1] >= c[4][1] and o[5] == c[5] for o in counts))


def as_bound(value: int) -> float:
    """`simple_upper_bound`'s answer as a bound of the search protocol: ``-inf`` for
    `NO_LINE`."""
    return -math.inf if value <= NO_LINE else float(value)


def _decliners_this_turn(st: GameState, facts: PoolFacts, table: TakeTable, future: list[int],
                         declines: int, memo: ReachMemo | None) -> tuple[list[int], int, int]:
    """Who can decline in this turn's decline phase, the last that moves monuments to the Past
    (`last_decline_now`): (the monuments of `future` that may be in play when this turn's
    Timeline phase begins, how many monuments can decline (at most `declines`), how many of
    them at most may be others: created after the action phase).

    A monument declines only from space 1 (RULES.md section 4C step 2), so only one in play
    then declines. A monument out of play enters play only by a Create, from the hand (section
    5), so from a card in hand now or taken from the builder deck's top in time: during the
    action phase, or by an effect that runs after it (`solver.bounds.takes.late_creates`
    bounds how many monuments those create; each declines at most once). The cards taken until
    the Timeline phase begins are bounded by `action_takes` given the cards that may enter
    play (`enterable`, the top of the deck down to that count): a count ``taken`` such that the
    bound with the cards of `enterable(taken)` is at most ``taken`` bounds every line (until
    more than ``taken`` cards left the deck, only those cards can have entered play, and they
    take at most ``taken``). The search goes up from 0 (`TAKE_ROUNDS` rounds at most; none
    closes: no restriction). The entries into space 1 during the decline phase
    (`solver.bounds.movers`: at most one per decline effect) come only from the decline
    effects of monuments in play then: those of `enterable`, and at most one each for those
    created late; when they are not known (a card with a trigger of another kind may act,
    `phase_entries`), they restrict nothing.

    The count of cards taken is `taken_before_timeline`."""
    if memo is None:
        memo = ReachMemo()
    mf = facts.mover_facts
    taken = taken_before_timeline(st, facts, table, memo)
    if taken >= UNBOUNDED:
        return future, declines, 0
    present = enterable(st, taken)
    late = late_creates(st, table, present, facts.poulnabrone, memo)
    if late >= UNBOUNDED:
        return future, declines, 0
    near = [c for c in future if c in present]
    entered = phase_entries(st, mf, present)
    if entered is None or (late and phase_entries(st, mf) is None):
        # a card acting by a trigger of another kind (or one among those created late): the
        # entries are not known
        return near, min(declines, len(near) + late), late
    return near, min(declines, len(near) + late, 2 + entered + late), late


def _in_play_by_the_end(st: GameState, facts: PoolFacts, memo: ReachMemo | None) -> set[int] | None:
    """In the last turn: the builder cards that may be in play before the game ends, or None
    (no restriction). The game ends at the start of this turn's decline phase (D8), so after the
    action phase only the Timeline phase runs; when no card can enter play then
    (`solver.bounds.takes.enters_after_actions`), a builder card acts only if it is in play by
    the end of the action phase: in play now, in hand, or among the cards the deck's top can
    yield until the Timeline phase begins (`taken_before_timeline`, `enterable`)."""
    table = facts.takes
    if table is None or st.over or max(st.turn, 1) != turns_for(st.setup.time_space):
        return None
    if memo is None:
        memo = ReachMemo()
    taken = taken_before_timeline(st, facts, table, memo)
    if taken >= UNBOUNDED:
        return None
    present = enterable(st, taken)
    return None if enters_after_actions(st, table, present, memo) else present


def taken_before_timeline(st: GameState, facts: PoolFacts, table: TakeTable,
                          memo: ReachMemo, position: tuple[object, ...] | None = None) -> int:
    """The most builder cards that can leave the deck from `st` until this turn's Timeline
    phase begins (0 once it began), or `UNBOUNDED`: the least count ``taken`` reached from 0
    whose `solver.bounds.actiontakes.action_takes`, with only the builder cards of
    `enterable(taken)` entering play (`reach` over the action phase with them), is at most
    ``taken``. Such a count bounds every line: until more than ``taken`` cards left the deck,
    only those cards can have entered play (a card enters play only from the hand, and the
    hand grows only from the deck's top, RULES.md section 5), and while they alone act at most
    ``taken`` cards leave it, so the (``taken`` + 1)-th never does. `TAKE_ROUNDS` rounds at
    most, and none past the whole deck. The answers are kept in `memo` by the position's exact
    key, in two generations of `TAKEN_KEPT` (when the new one is full it becomes the old one):
    the search key, the bound and the dominance rules ask about one position in turn, and a
    search meets one position again and again. `position`: `st.key()`, when the caller has
    it."""
    if not any(fr[0] == F_TIMELINE_PHASE for fr in st.stack):
        return 0
    key = st.key() if position is None else position
    known = memo.taken.get(key)
    if known is None:
        known = memo.taken_old.get(key)
    if known is not None:
        return known
    taken = closed_take(st, facts.activators, facts.poulnabrone, table, memo, TAKE_ROUNDS)
    if len(memo.taken) >= TAKEN_KEPT:
        memo.taken_old = memo.taken
        memo.taken = {}
    memo.taken[key] = taken
    return taken


def _declined_max(future: list[int], declines: int, facts: PoolFacts, cards: tuple[Card, ...],
                  ranges: CounterRanges, others: list[int] | None = None, late: int = 0) -> int:
    """The most the monuments still to decline add to the Past's rows (RULES.md section 7:
    row 1 the VP printed on each monument in the Past, row 2 the end-game effect of each),
    when at most `declines` of the `future` monuments decline: each declining card brings its
    own printed VP and its own end-game rule (at its best over `ranges`, `effect_max`), and a
    card that does not decline brings neither, so the sum of the `declines` largest of (VP +
    effect) bounds every choice of decliners. With `late`, at most that many of the decliners
    may instead be any of `others`: the best over how many do (``j``) of the ``declines - j``
    largest of `future` and the ``j`` largest of `others` bounds every such choice."""
    if declines <= 0 or not (future or others):
        return 0
    vp = facts.vp
    worth = {c: vp[c] + (effect_max(cards[c], ranges) if c in facts.endgame else 0)
             for c in (future if not late or others is None else (*future, *others))}
    values = sorted((worth[c] for c in future), reverse=True)
    if not late or others is None:
        return sum(values[:declines])
    extra = sorted((worth[c] for c in others), reverse=True)
    return max(sum(values[:declines - j]) + sum(extra[:j]) for j in range(min(late, declines) + 1))
