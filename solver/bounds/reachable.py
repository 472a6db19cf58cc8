"""How many Creates, Learns and lost-knowledge removals a position can still reach: the counts
that tighten the simple bound (`solver.bounds.simple`) near the end.

Every count is an over-estimate, built from what can still happen (RULES.md sections 4-5):

* **action choices**: the pending action decisions of this turn plus two a later turn (4A);
  each can be one Create or one Learn (5);
* **work in flight**: the stack holds what is being resolved: a Create or Learn under way
  (``D_CREATE_CARD``, ``D_CREATE_SPACE``, ``F_PLACE``, ``D_LEARN`` with its count, Pyramid of the
  Niches' ``D_BOTTOM``/``D_TECH_PICK``), lost knowledge being chosen (``D_NUMBER``), and the
  steps still to run of effects queued or resolving (``F_STEPS``, ``D_YESNO``, ``F_EFFECT``,
  ``D_ORDER``, ``F_LEARN_TRIGGERS``, and the rest of an effect waiting for its "up to"
  payment, ``D_DISCARD_VAR``, ``D_ARTIFACT_PAY``): each of their ``create``, ``learn``/``niches``/
  ``gain_held_tech`` and ``discard_lost`` steps counts once, and a queued Poulnabrone Dolmen
  entry (the extra Create of a Create already made, section 5) as a Create of a monument;
* **effects still to activate**, card by card (a card in the Past never acts again: only
  its end-game score counts, section 7): a Timeline effect once a Timeline phase whose queue
  is not yet formed (4B), a decline effect once a decline phase still to come (4C); an immediate
  effect once if the card can still be created (a technology not yet learned: the collection
  never loses one; a monument not in the Timeline: a monument leaves the Timeline only by
  declining, so one in the Timeline is never created again, and one in the Past never; a card
  that can go round again (an artifact, paid away to the discard pile, or a monument that
  vanishes at its decline, C25-C29) is not bounded); a trigger once per event (a Create: the
  Creates above; an Excavate: the action choices and Excavates under way; anything else: not
  bounded); Poulnabrone Dolmen (M36) grants one more Create per Create of a monument while
  in play with 11 or more cards in the Past (at most doubles them; the Past never shrinks and
  grows only in decline phases); out of play, it doubles nothing until a Create of it, which
  is a Create of a monument whose card is not yet chosen (`_split`);
* **chests** under the board (section 8, D16): each effect once.

**Conditions on lost knowledge**: an effect resolves only if its condition holds when it
resolves (section 4B/D15: the engine checks it then). Lost knowledge grows only when a monument
declines (section 4C step 2: its knowledge becomes lost knowledge; every other change is a
removal, D22), so once no decline is left it never exceeds its current value: an effect whose
condition asks for at least ``k`` (or exactly ``k``) lost knowledge with ``k`` above it can
never resolve again, and its gains are left out (`reach`'s ``lost_max``).

`UNBOUNDED` stands for "no useful bound": the caller then falls back to its loose count.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Final

from solver.bounds.activators import (
    ARTIFACT_CREATE,
    LEARN,
    LOST,
    MONUMENT,
    NONE,
    Activator,
    Gains,
    add_gains,
    lost_needed,
    step_gains,
    with_gated,
)
from solver.bounds.techtakes import TechTakes
from solver.engine import actions as A
from solver.engine.cards import ARTIFACT, Step
from solver.engine.frames import (
    D_ACTION,
    D_ARTIFACT_PAY,
    D_BOTTOM,
    D_CHEST_USE,
    D_CREATE_CARD,
    D_CREATE_SPACE,
    D_DISCARD_VAR,
    D_EXCAVATE,
    D_LEARN,
    D_NUMBER,
    D_ORDER,
    D_TECH_PICK,
    D_YESNO,
    F_EFFECT,
    F_EXCAVATE_TRIGGERS,
    F_LEARN_TRIGGERS,
    F_PLACE,
    F_STEPS,
    F_TIMELINE_PHASE,
)
from solver.engine.setup import turns_for
from solver.engine.state import CHEST_BASE, GameState
from solver.frozen import Frozen

UNBOUNDED: Final = 1_000_000
POULNABRONE_PAST: Final = 11


@dataclass(frozen=True)
class Reach(Frozen):
    """What a position can still reach (see the module); each count an over-estimate.

    :param creates: Creates of a monument. :param learns: Learns.
    :param lost_removed: lost knowledge removed.
    :param art_creates: Creates of an artifact.
    :param splits: with few action choices left (`SPLIT_ACTIONS`), each split of them into
        Creates, Learns and other actions with its own counts: (Create actions, Learn actions,
        other actions, Creates of monuments, Learns, Creates of artifacts, lost knowledge
        removed, of it the most the immediate effects of technologies learned remove); each
        count above is the largest over the splits. Empty when not split.
    """

    creates: int
    learns: int
    lost_removed: int
    art_creates: int = UNBOUNDED
    splits: tuple[tuple[int, int, int, int, int, int, int, int], ...] = ()


class ReachMemo:
    """What `reach` remembers between calls about one game (kept by the bound object, never
    module state): the gains of step tuples (by identity, the tuple kept alive with them) and
    the counts already worked out for a summary of a position (`reach`). Both only save time:
    a memo answers what the computation would."""

    CAPACITY: Final = 200_000

    def __init__(self) -> None:
        self.steps: dict[int, tuple[tuple[Step, ...], Gains]] = {}
        self.counts: dict[tuple[object, ...], Reach] = {}
        self.resolved: dict[int, tuple[Activator, ...]] = {}
        #: `solver.bounds.simple._learnable_later`'s technologies whose requirements may pass
        self.learnable: dict[tuple[object, ...], frozenset[int]] = {}
        #: `solver.bounds.simple.taken_before_timeline`'s answers, by `GameState.key()`: the
        #: newer generation and the older one
        self.taken: dict[tuple[object, ...], int] = {}
        self.taken_old: dict[tuple[object, ...], int] = {}
        #: `solver.bounds.splitplay.split_taken`'s answers, by position key and split
        self.split_taken: dict[tuple[object, ...], int] = {}
        #: `solver.bounds.window`'s simple bounds of passive starts, by the start's key (less
        #: what that bound does not read) and the cards that may be in play
        self.window: dict[tuple[object, ...], int] = {}
        #: `solver.bounds.window.present_for_all`'s answers, by what they read
        self.present: dict[tuple[object, ...], tuple[frozenset[int], int] | None] = {}
        #: `solver.bounds.techjoint.few_learns`' answers, by what they read of a position
        self.tech_rows: dict[tuple[object, ...], int | None] = {}
        #: `TechTakes`, by what they read (`solver.bounds.actiontakes.TakeContext`'s `parts`)
        self.tech_takes: dict[tuple[object, ...], TechTakes] = {}

    def gains(self, steps: tuple[Step, ...]) -> Gains:
        hit = self.steps.get(id(steps))
        if hit is not None and hit[0] is steps:
            return hit[1]
        g = step_gains(steps)
        if len(self.steps) < self.CAPACITY:
            self.steps[id(steps)] = (steps, g)
        return g


def pending_steps(st: GameState) -> list[tuple[Step, ...]]:
    """The steps of the work on the stack still to run: an effect resolving (``F_STEPS``, from
    its next step), a "you may" asked (``D_YESNO``), the effects queued (``F_EFFECT``,
    ``D_ORDER``, ``F_LEARN_TRIGGERS``; a chest's by its index past `CHEST_BASE`), a chest being
    used (``D_CHEST_USE``), the rest of an effect paying "up to" (``D_DISCARD_VAR``,
    ``D_ARTIFACT_PAY``). Chests under the board are not on the stack (`GameState.chests_under`)."""
    out: list[tuple[Step, ...]] = []
    cards = st.book.cards
    data = st.setup.chest_data
    for fr in st.stack:
        kind = fr[0]
        if kind == F_STEPS:
            out.append(fr[2][fr[3]:])
        elif kind == D_YESNO:
            out.append(fr[2])
        elif kind in (F_EFFECT, D_ORDER, F_LEARN_TRIGGERS):
            items = ((fr[1], fr[2]),) if kind == F_EFFECT else fr[1] if kind == D_ORDER else fr[2]
            for c, i in items:
                if c < CHEST_BASE:
                    out.append(cards[c].effects[i].steps)
                elif data is not None:
                    out.append(data.chests[c - CHEST_BASE].steps)
        elif kind == D_CHEST_USE and data is not None:
            out.append(data.chests[fr[1]].steps)
        elif kind in (D_DISCARD_VAR, D_ARTIFACT_PAY):
            out.append(fr[2])
    return out


def in_flight(st: GameState, memo: ReachMemo, lost_max: int = UNBOUNDED) -> tuple[Gains, int]:
    """Gains of the work on the stack (see the module) and the Excavates under way; an effect
    queued but not yet resolving whose condition needs more than `lost_max` lost knowledge
    brings none (its condition is checked when it resolves)."""
    gains = NONE
    excavates = 0
    cards = st.book.cards
    data = st.setup.chest_data
    for fr in st.stack:
        kind = fr[0]
        if kind == F_STEPS:
            if fr[3] == 0:
                gains = add_gains(gains, memo.gains(fr[2]))
            else:
                gains = add_gains(gains, step_gains(fr[2][fr[3]:]))
        elif kind in (D_YESNO, D_DISCARD_VAR, D_ARTIFACT_PAY):  # asked, or after a payment
            gains = add_gains(gains, memo.gains(fr[2]))
        elif kind in (F_EFFECT, D_ORDER, F_LEARN_TRIGGERS):
            items = ((fr[1], fr[2]),) if kind == F_EFFECT else fr[1] if kind == D_ORDER else fr[2]
            for c, i in items:
                if c < CHEST_BASE:
                    effect = cards[c].effects[i]
                    if lost_max < UNBOUNDED and lost_needed(effect) > lost_max:
                        continue
                    if effect.special == "poulnabrone":  # its extra Create, not yet asked
                        gains = add_gains(gains, (1, 0, 0, 0))
                    gains = add_gains(gains, memo.gains(effect.steps))
                elif data is not None:
                    gains = add_gains(gains, memo.gains(data.chests[c - CHEST_BASE].steps))
        elif kind == D_CREATE_CARD:
            art = fr[1] is None or fr[1] == ARTIFACT
            gains = add_gains(gains, (0 if fr[1] == ARTIFACT else 1, 1 if art else 0, 0, 0))
        elif kind == D_CREATE_SPACE:
            gains = add_gains(gains, (1, 0, 0, 0))
        elif kind == F_PLACE:
            art = cards[fr[1]].kind == ARTIFACT
            gains = add_gains(gains, (0 if art else 1, 1 if art else 0, 0, 0))
        elif kind == D_LEARN:
            gains = add_gains(gains, (0, 0, fr[3], 0))
        elif kind in (D_BOTTOM, D_TECH_PICK):
            gains = add_gains(gains, (0, 0, 1, 0))
        elif kind == D_NUMBER:
            gains = add_gains(gains, (0, 0, 0, fr[1]))
        elif kind == D_CHEST_USE and data is not None:
            gains = add_gains(gains, memo.gains(data.chests[fr[1]].steps))
        elif kind in (D_EXCAVATE, F_EXCAVATE_TRIGGERS):
            excavates += 1
    if st.chests_under and data is not None:
        for k in st.chests_under:
            gains = add_gains(gains, memo.gains(data.chests[k].steps))
    return gains, excavates


def _top(values: list[int], n: int) -> int:
    """The sum of the `n` largest of `values`."""
    return 0 if n <= 0 else sum(values) if n >= len(values) else sum(sorted(values)[-n:])


#: Poulnabrone Dolmen's doubling of the Creates of monuments (`_split`).
NOT_DOUBLED: Final = 0
DOUBLED: Final = 1
LATER: Final = 2
#: Up to this many action choices left, every split of them into Creates, Learns and other
#: actions is bounded on its own (tighter: one action is not both a Create and a Learn).
SPLIT_ACTIONS: Final = 4
PAST: Final = 0
IN_PLAY: Final = 1
OUT: Final = 2
CREATING: Final = 3


class ReachSummary:
    """What `reach` reads of a position whatever cards may enter play or technologies may
    enter the collection: the action choices and Timeline phases left, the work on the stack
    (`in_flight`), the activators with the gated effects that lost knowledge can still meet,
    the cards in the Past, learned and in play, the cards being created and the Creates under
    way whose card is chosen. Worked out once where several calls ask about one position (the
    rounds of `solver.bounds.splitplay.closed_take`)."""

    def __init__(self, st: GameState, acts: tuple[Activator, ...], declines: int,
                 memo: ReachMemo, action_phase: bool = False) -> None:
        self.declines, self.action_phase = declines, action_phase
        turn = max(st.turn, 0)
        last = turn if action_phase else turns_for(st.setup.time_space)
        stack = st.stack
        actions = 2 * max(0, last - turn) + sum(1 for fr in stack if fr[0] == D_ACTION)
        phases = 0 if action_phase else max(0, last - turn) + (
            1 if any(fr[0] == F_TIMELINE_PHASE for fr in stack) else 0)
        lost_max = st.lost if declines == 0 else UNBOUNDED
        flight, excavates = in_flight(st, memo, lost_max)
        level = 0
        if any(a.gated for a in acts):
            needs = sorted({need for a in acts for need, _, _ in a.gated})
            level = sum(1 for need in needs if need <= lost_max)
            resolved = memo.resolved.get(level)
            if resolved is None:
                resolved = memo.resolved[level] = tuple(with_gated(a, lost_max) for a in acts)
            acts = resolved
        past = set(st.past)  # sets: each activator asks
        techs = set(st.techs)
        in_play = set(st.artifacts)
        for sp in st.spaces:
            in_play.update(sp)
        cards = st.book.cards
        known_mon = known_art = 0
        being_created: set[int] = set()
        for fr in stack:
            if fr[0] in (F_PLACE, D_CREATE_SPACE):
                being_created.add(fr[1])
                if cards[fr[1]].kind == ARTIFACT:
                    known_art += 1
                else:
                    known_mon += 1
        if stack and stack[-1][0] == D_CREATE_CARD:
            # The pending choice of the card to create: it is one of its options (section 5: a
            # card in hand, or one of those an effect turned up), each counted as being created.
            for option in st.legal_actions():
                if A.kind_of(option) == A.CARD:
                    being_created.add(A.value_of(option))
            kind = stack[-1][1]
            known_mon += 0 if kind == ARTIFACT else 1
            known_art += 1 if kind is None or kind == ARTIFACT else 0
        self.actions, self.phases = actions, phases
        self.flight, self.excavates, self.level, self.acts = flight, excavates, level, acts
        self.past, self.techs, self.in_play = past, techs, in_play
        self.being_created, self.known = being_created, (known_mon, known_art)


def reach(st: GameState, acts: tuple[Activator, ...], declines: int,
          poulnabrone: tuple[int, ...], memo: ReachMemo | None = None,
          action_phase: bool = False, present: set[int] | None = None,
          techs_open: frozenset[int] | None = None,
          summary: ReachSummary | None = None) -> Reach:
    """The `Reach` of `st`: `acts` are the game's activators, `declines` the decline phases
    still to come (`solver.bounds.simple.decline_phases_left`), `poulnabrone` the pool's cards
    with that special; `memo` saves work between calls. With no decline left, lost knowledge
    never exceeds its current value (see the module): effects whose condition needs more are
    left out.

    A Create whose card is being chosen (``D_CREATE_CARD`` the pending decision) creates one of
    its options: each option counts as being created (its gains once, whether it is created now
    or by a later Create: a card is created once while it stays in play, and a card that can go
    round again leaves the count unbounded), and the Create is not open to the other cards out
    of play. A builder card in play (Timeline or board) activates as the module says. A builder card
    out of play (hand, deck, discard pile, being created) activates only once created, and each
    such card takes a Create of its own (of a monument, or of an artifact): so the out-of-play
    cards add at most the sum of their largest contributions, one per Create of their kind
    (each counted as if created now). A technology not yet learned takes a Learn of its own.
    Each count is bounded on its own (the sum of separate maxima bounds any joint choice);
    Creates and Learns that grant more of themselves are counted to a fixed point. Each action
    choice is one action (section 4A): with few left, each split of them into Creates, Learns
    and Excavates is bounded and the largest of each count kept; with many, every action counts
    as each.

    `action_phase`: count only what can happen until this turn's Timeline phase begins (its
    action choices left and the work on the stack; `declines` is then 0): later phases and
    turns add their action choices and effects, which this leaves out.
    `present`, when given: the builder cards that may enter play by then (`solver.bounds.takes`);
    a builder card out of play and not among them never acts, as one in the Past.
    `techs_open`, when given: the technologies that may still enter the collection
    (`solver.bounds.techrow`); one not among them never acts, as one already learned.
    `summary`: `ReachSummary(st, acts, declines, memo, action_phase)`, when the caller keeps
    one for several calls."""
    if memo is None:
        memo = ReachMemo()
    sm = summary if summary is not None else ReachSummary(st, acts, declines, memo, action_phase)
    assert sm.declines == declines and sm.action_phase == action_phase
    acts, past, techs, in_play = sm.acts, sm.past, sm.techs, sm.in_play
    being_created = sm.being_created
    status = []
    for a in acts:
        c = a.card
        if a.tech:
            status.append(PAST if c in techs or (techs_open is not None and c not in techs_open)
                          else OUT)
        elif c in past:
            status.append(PAST)
        elif c in in_play:
            status.append(IN_PLAY)
        elif c in being_created:
            status.append(CREATING)
        elif present is not None and c not in present:
            status.append(PAST)
        else:
            status.append(OUT)
    live = [c for c in poulnabrone if c not in past and (present is None or c in present)]
    doubled = NOT_DOUBLED
    if live and (declines > 0 or len(past) >= POULNABRONE_PAST):
        doubled = DOUBLED if any(c in in_play or c in being_created for c in live) else LATER
    key = (sm.actions, sm.phases, sm.flight, sm.excavates, declines, doubled, sm.level, sm.known,
           tuple(status))
    hit = memo.counts.get(key)
    if hit is not None:
        return hit
    result = _count(acts, status, sm.actions, sm.phases, sm.flight, sm.excavates, declines,
                    doubled, sm.known)
    if len(memo.counts) < memo.CAPACITY:
        memo.counts[key] = result
    return result


def _count(acts: tuple[Activator, ...], status: list[int], actions: int, phases: int,
           flight: Gains, excavates: int, declines: int, doubled: int,
           known: tuple[int, int] = (0, 0)) -> Reach:
    """`reach` once the position is summed up; `known`: the Creates under way whose card is
    chosen (monuments, artifacts; see `_split`)."""
    in_play: list[Activator] = []
    creating: list[Activator] = []
    out_mon: list[Activator] = []
    out_art: list[Activator] = []
    out_tech: list[Activator] = []
    for a, where in zip(acts, status, strict=True):
        if where == PAST:
            continue
        if a.tech:
            out_tech.append(a)
            continue
        if a.unbounded or (a.cycles and a.immediate != NONE):
            return Reach(UNBOUNDED, UNBOUNDED, UNBOUNDED, UNBOUNDED)  # no useful count
        if where == IN_PLAY:
            in_play.append(a)
        elif where == CREATING:
            creating.append(a)
        elif a.artifact:
            out_art.append(a)
        else:
            out_mon.append(a)
    every = (actions, actions, actions)  # with many left, every action counts as each
    splits = split_choices(actions) if actions <= SPLIT_ACTIONS else [every]
    best = (0, 0, 0, 0)
    each: list[tuple[int, int, int, int, int, int, int, int]] = []
    for creating_now, learning, digging in splits:
        r = _split(in_play, out_mon, out_art, out_tech, creating_now, learning,
                   digging + excavates, phases, flight, declines, doubled, creating, known)
        best = (max(best[0], r[0]), max(best[1], r[1]), max(best[2], r[2]), max(best[3], r[3]))
        if actions <= SPLIT_ACTIONS:
            each.append((creating_now, learning, digging, r[0], r[1], r[3], r[2], r[4]))
    return Reach(best[0], best[1], best[2], best[3], tuple(each))


def split_choices(actions: int) -> list[tuple[int, int, int]]:
    """Every split of `actions` action choices into (Create actions, Learn actions, other
    actions), in the order `Reach.splits` lists them."""
    return [(c, k, actions - c - k) for c in range(actions + 1) for k in range(actions + 1 - c)]


def _gains_of(a: Activator, created: bool, mon: int, art: int,
              times: tuple[int, int, int]) -> Gains:
    """`_split`'s gains of `a` with ``times`` = (Timeline phases, declines, Excavates); not a
    closure there: that would be a reference cycle a call (`solver.search.collector`)."""
    g = add_gains(add_gains(a.immediate if created else NONE, a.timeline, times[0]), a.decline,
                  times[1])
    if a.on_create != NONE:
        g = add_gains(g, a.on_create, art if a.on_create_kind == ARTIFACT else mon + art)
    if a.on_excavate != NONE:
        g = add_gains(g, a.on_excavate, times[2])
    return g


def _split(in_play: list[Activator], out_mon: list[Activator], out_art: list[Activator],
           out_tech: list[Activator], creating: int, learning: int, excavations: int,
           phases: int, flight: Gains, declines: int, doubled: int,
           chosen: list[Activator] | None = None, known: tuple[int, int] = (0, 0),
           ) -> tuple[int, int, int, int, int]:
    """(Creates of monuments, Learns, lost removed, Creates of artifacts, of the lost removed
    the part of the technologies learned) with `creating` Create actions, `learning` Learn
    actions and `excavations` Excavates. The technologies' part is the sum of the largest
    removals of their own effects, one per Learn counted: the rest of the lost removed comes
    from other cards, the stack and the chests, whichever technologies are learned.

    A Create under way whose card is already chosen (``D_CREATE_SPACE``, ``F_PLACE``: RULES.md
    section 5, the card is picked first and its immediate effect resolves once it is placed)
    creates that card: it counts as a Create (for the Timeline and the "each time you CREATE"
    triggers) and brings that card's own gains (`chosen`), but it is not a Create any other
    card out of play could take: of the Creates counted, `known` (monuments, artifacts) are
    not open to the out-of-play cards.

    `doubled`: Poulnabrone Dolmen doubles the Creates of monuments (`DOUBLED`), or not
    (`NOT_DOUBLED`), or only once it is created (`LATER`: out of play). Until it enters play
    no Create is doubled (it grants its Create only while in play, and not for itself:
    `solver.engine.create.place`), and it enters play only by a Create of it: a Create of a
    monument not among the `known` ones (its card not yet chosen). So the counts without
    doubling bound every line in which it stays out of play; when they leave no such Create
    open, it never enters play and they bound every line."""
    chosen = chosen or []
    if doubled == LATER:
        alone = _split(in_play, out_mon, out_art, out_tech, creating, learning, excavations,
                       phases, flight, declines, NOT_DOUBLED, chosen, known)
        if alone[0] <= known[0]:
            return alone
        doubled = DOUBLED

    times = (phases, declines, excavations)

    def totals(mon: int, art: int, learns: int) -> tuple[int, int, int, int, int]:
        """The `Gains` with these counts, then the technologies' part of the lost removed."""
        total = flight
        for a in in_play:
            total = add_gains(total, _gains_of(a, False, mon, art, times))
        for a in chosen:
            total = add_gains(total, _gains_of(a, True, mon, art, times))
        mons = [_gains_of(a, True, mon, art, times) for a in out_mon]
        arts = [_gains_of(a, True, mon, art, times) for a in out_art]
        tech = [_gains_of(a, True, mon, art, times) for a in out_tech]
        open_mon = max(0, mon - known[0])
        open_art = max(0, art - known[1])
        out = [0, 0, 0, 0]
        techs = [0, 0, 0, 0]
        for k in range(4):
            techs[k] = _top([g[k] for g in tech], learns)
            out[k] = (total[k] + _top([g[k] for g in mons], open_mon)
                      + _top([g[k] for g in arts], open_art) + techs[k])
        return out[0], out[1], out[2], out[3], techs[LOST]

    mon = art = creating
    learns = learning
    g = totals(mon, art, learns)
    for _ in range(len(in_play) + len(chosen) + len(out_mon) + len(out_art) + len(out_tech) + 2):
        new_mon = creating + g[MONUMENT]
        new_art = creating + g[ARTIFACT_CREATE]
        if doubled:
            new_mon *= 2
        new_learns = learning + g[LEARN]
        if (new_mon, new_art, new_learns) == (mon, art, learns):
            break
        mon, art, learns = (min(max(mon, new_mon), UNBOUNDED), min(max(art, new_art), UNBOUNDED),
                            min(max(learns, new_learns), UNBOUNDED))
        g = totals(mon, art, learns)
    else:
        return UNBOUNDED, UNBOUNDED, UNBOUNDED, UNBOUNDED, 0
    lost = min(g[LOST], UNBOUNDED)
    return mon, learns, lost, art, min(g[4], lost)
