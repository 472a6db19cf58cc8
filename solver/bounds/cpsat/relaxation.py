"""A relaxation of the rest of the game as a CP-SAT model: its optimum bounds the final VP.

From a position at a phase boundary (`solver.bounds.cpsat.schedule.phase_of`), the model chooses,
for every monument that can still matter, its *fate*: declining into the Past in a given decline
phase, staying in the Timeline to the end, being discarded by its own decline effect (C25-C29),
or nothing; for every artifact whether it is created; for every technology whether it is
learned; and per remaining turn how many of its actions are Searches, Excavates, Archives,
Learns and Creates. Every constraint is a consequence of the rules (RULES.md sections 4-7) that
any line of the engine satisfies, so the model's optimum (and CP-SAT's proven bound on it, when
it stops early) is at least the final VP of every line that meets all goals. Where the model
proves that no assignment meets the goals, no line does: the position is infeasible.

The relaxations, and why each can only overestimate (each is a constraint the real game obeys,
with the real quantities as a solution; dropping the rest only widens the model):

1. **Schedule.** The time card moves by itself, so the turns left, their actions (2 each, D8's
   last turn included), the decline phases that move monuments and the one that ends the game
   are constants (`schedule.build_schedule`).
2. **Decline capacity.** Space 1 holds two monuments, one while the time card is in it (section
   2; D12's third row needs Potala Palace, so with Potala Palace still to create every
   capacity is 2). A monument can *enter* space 1 during a decline phase only by the decline
   effect of the card declining then (a Create, a move, or a Learn of a technology that
   moves), and while that effect resolves space 1 holds the declining card and at most one
   more: so a phase declines at most `cap` monuments plus one per such effect declining in it.
3. **Timing and cost.** A monument created in space s at turn u declines at u + s - 1 (the
   slides, `schedule.TimelineGraph`); the discard cost is ``discard_cost + |s - start|``
   (section 5). For each fate the model charges the smallest cost of any (turn, space) that
   leads there and asks the card to be available by the latest such turn (a decoupling: at
   least as permissive). Potala Palace (one skipped slide, only if it is created) and moves
   and swaps widen the fates: every fate reached only by a reposition, and every distance cost
   waived (at most 5 a monument), takes one of the move/swap activations of the cards played.
4. **Cards.** A card is created only if it can be in hand: in hand now, or at deck position p
   when at least p + 1 cards can have left the deck by that turn (every search, excavation,
   earlier decline draw, plus every other effect's draws and reveals whenever they happen); the
   discard pile only after a reshuffle (then cards that leave play may be created again). Per
   turn, the cards used by then (monuments due to decline by then with their discards, archived
   cards) never exceed the starting hand plus the cards drawn so far, and the cards banked from
   searches, excavations and earlier declines never exceed 10 (D4). Other effects' gains count
   from the start (earlier than the engine allows: an overestimate).
5. **Actions and effects.** Two actions a turn; Searches draw 1; Excavates rotate straight Past
   monuments (2 cards each, 3 with Phaistos Disc), at most those there now, declined in earlier
   turns, or straightened. Effects give at most their printed gains per activation
   (`solver.bounds.cpsat.resources`): immediate ones once per creation (or Learn), decline ones
   once per decline, Timeline ones once per Timeline phase in play (at most 6 by the slides
   alone; at most 12 monuments and the free artifact spaces are in play at a phase), triggers
   once per event while in play. An effect whose condition reads a counter that never goes
   down fires only if the final counter meets it, and a Timeline effect (or Poulnabrone's extra
   Create, M36) that needs a Past count fires only in turns where the Past already reached it.
6. **Knowledge.** Declining monuments hold, all together, at least their entering knowledge
   (printed, less the largest discount and every reducer that can be in play) minus every
   removal (archived cards and removal effects at their most), and at most their printed (or
   current) knowledge. Lost knowledge = lost now + knowledge of declined monuments - lost
   knowledge removed (never below 0). C25-C29 reach the Past only with all knowledge removed.
7. **Technologies.** Only those on the tiles or dealt by the refills the remaining departures
   can cause, in deck order (`Relaxation._tech_reach`). A technology is learned only if its
   requirement holds for the *final* counters (Past and technology counts never go down, so a
   requirement met when learned still holds at the end; "at most" clauses are dropped; lost
   knowledge uses its largest possible value, artifacts every artifact ever on the board), or
   by a Learn that ignores requirements (M34). Candi Sukuh (P19) lowers every threshold by 1.
   Learns are at most the Learn actions plus the granted Learns.
8. **Scoring.** The five rows of section 7 on the final counters; an end-game rule ``k per X``
   is at most ``k * X`` and at most ``k * cap`` when the card reaches the Past; a tiered rule
   pays a tier only if its threshold is reached.
9. **Goals.** Each goal chest's formula (`solver.engine.goals`) on the same final counters; campaign
   goals that the mid-game revision may still drop need only one of them met.

A card effect the model cannot bound (an unknown op or special) makes it give up
(`UnsupportedCardError`); the caller then uses the simple bound.
"""

from __future__ import annotations

import math
import time
from collections.abc import Iterable
from dataclasses import dataclass, field, fields, replace
from typing import Any

from ortools.sat.python import cp_model

from solver.bounds.cpsat.resources import (
    DECK_ALL,
    HAND_LIMIT,
    NOTHING,
    Gains,
    UnsupportedCardError,
    counter_cap,
    discards_artifacts,
    effect_gains,
    self_discard_artifact,
    specials,
    steps_gains,
    vanishes,
)
from solver.bounds.cpsat.schedule import (
    END,
    SPACES,
    Phase,
    Schedule,
    TechGraph,
    build_schedule,
)
from solver.engine.cards import (
    ARTIFACT,
    MONUMENT_KINDS,
    TECH_TYPE_NAMES,
    Card,
    Clause,
    Effect,
    Score,
)
from solver.engine.chests import chest_of
from solver.engine.goal_check import chest_goal
from solver.engine.goals import And, Goal
from solver.engine.state import EMPTY, GameState

KIND_KEYS = ("city", "megalith", "pyramid")
LinExpr = Any  # cp_model linear expressions (ints, IntVars and their sums)


@dataclass(frozen=True)
class RelaxConfig:
    """The deterministic budget of one CP-SAT call (tuned numbers in one place).

    :param max_deterministic_time: CP-SAT's deterministic time limit (reproducible, unlike
        wall-clock time); the bound it proves by then is returned.
    :param workers: CP-SAT workers (1: deterministic).
    :param seed: CP-SAT random seed.
    """

    max_deterministic_time: float = 0.1
    workers: int = 1
    seed: int = 0
    presolve: bool = False  # the model is small and linear; presolve costs more than it saves
    linearization: int = 2  # a full linear relaxation: the bound comes from it


@dataclass(frozen=True)
class PlanStep:
    """One step of the relaxation's plan: create `card` at `turn` in `space` (0 for an
    artifact); `fate` is the turn its decline is planned for, or None (stays to the end)."""

    turn: int
    card: int
    code: str
    space: int
    fate: int | None


@dataclass(frozen=True)
class Relaxed:
    """The outcome of one relaxation.

    :param bound: an upper bound on the final VP of every goal-meeting line (None when
        infeasible).
    :param infeasible: proven: no line from the position meets every goal.
    :param plan: the creations of the model's best assignment (hints, never a proof).
    :param techs: technologies learned in that assignment.
    :param optimal: CP-SAT proved its optimum (else `bound` is its best proven bound).
    """

    bound: int | None
    infeasible: bool
    plan: tuple[PlanStep, ...] = ()
    techs: tuple[int, ...] = ()
    optimal: bool = False
    stats: dict[str, float] = field(default_factory=dict)


# ------------------------------------------------------------------ card analysis

@dataclass
class Facts:
    """What the model needs to know about one card (read once from its data)."""

    card: Card
    immediate: Gains = NOTHING
    timeline: Gains = NOTHING
    decline: Gains = NOTHING
    triggers: list[tuple[Effect, Gains]] = field(default_factory=list)
    specials: frozenset[str] = frozenset()
    scores: list[Score] = field(default_factory=list)
    parts: list[tuple[Effect, Gains]] = field(default_factory=list)  # effects with gains
    frees_artifacts: bool = False  # pays by discarding artifacts from the board (P13)
    trig: Gains = NOTHING  # all triggered effects, one activation each
    buries: int = 0  # technologies put under their deck per activation (P35, T27)
    buries_timeline: bool = False
    niches: bool = False  # Pyramid of the Niches (P7)


def card_facts(card: Card, pool_size: int) -> Facts:
    f = Facts(card=card, specials=specials(card))
    for e in card.effects:
        if e.score is not None:
            f.scores.append(e.score)
            continue
        g = effect_gains(e, pool_size)
        if not g.empty:
            f.parts.append((e, g))
        if any(st.op == "pay" and st.cost == "discard_artifacts" for st in e.steps):
            f.frees_artifacts = True
        for step in e.steps:
            if step.op == "bury_tech":
                f.buries += max(1, step.count)
                f.buries_timeline = f.buries_timeline or e.moment == "timeline"
            f.niches = f.niches or step.op == "niches"
        if e.trigger is not None:
            if e.trigger.event not in ("create", "learn", "excavate"):
                raise UnsupportedCardError(f"{card.code}: trigger {e.trigger.event!r}")
            f.triggers.append((e, g))
            f.trig = f.trig + g
        elif e.moment == "immediate":
            f.immediate = f.immediate + g
        elif e.moment == "timeline":
            f.timeline = f.timeline + g
        elif e.moment == "decline":
            f.decline = f.decline + g
        elif e.moment in ("anytime", "endgame") and not g.empty:
            raise UnsupportedCardError(f"{card.code}: {e.moment} steps without a trigger")
    return f


_FACTS: dict[tuple[object, int, int], Facts] = {}  # by (card sets, card, pool size)
_POOL_TECHS: dict[object, list[int]] = {}


# ------------------------------------------------------------------ the position, read

@dataclass
class Reach:
    """The cards the rest of the game can still involve (a static over-approximation)."""

    positions: dict[int, int]  # builder card -> deck position (0 = top); -1: in hand
    in_timeline: list[int]
    on_board: list[int]
    techs: list[int]  # technologies not in the collection (tiles, decks, discards, held)
    reshuffle: bool  # the builder deck may run out (the discard pile comes back)
    potala: bool  # Potala Palace may still be created (C30)
    candi: bool  # Candi Sukuh may be in the Timeline at a Learn (P19)
    phaistos: bool
    movers: bool  # some move/swap step can still fire
    entries: int  # monuments that may enter space 1 during decline phases
    recycle_all: bool  # artifacts may leave the board by another card's effect (P13)


def _top(values: Iterable[int], k: int) -> int:
    """The sum of the `k` largest values."""
    return sum(sorted((v for v in values if v > 0), reverse=True)[:max(0, k)])


class Relaxation:
    """Builds and solves the model for one position (see the module)."""

    def __init__(self, st: GameState, phase: Phase, config: RelaxConfig) -> None:
        self.st = st
        self.phase = phase
        self.config = config
        self.cards = st.book.cards
        self.pool_size = len(st.setup.card_pool(st.book))
        self.facts: dict[int, Facts] = {}
        self.chest_gains = self._chest_gains()
        self.reach = self._reach()
        self.schedule = build_schedule(st, phase, self.reach.potala)
        self.m = cp_model.CpModel()

    # -------------------------------------------------------------- static reachability

    def fact(self, c: int) -> Facts:
        f = self.facts.get(c)
        if f is None:
            key = (self.st.book.sets, c, self.pool_size)
            f = _FACTS.get(key)
            if f is None:
                f = card_facts(self.cards[c], self.pool_size)
                _FACTS[key] = f
            self.facts[c] = f
        return f

    def _chest_gains(self) -> Gains:
        st = self.st
        if not st.chests_under:
            return NOTHING

        out = NOTHING
        for k in st.chests_under:
            out = out + steps_gains(chest_of(st, k).steps, self.pool_size)
        return out

    def _reach(self) -> Reach:
        """Which cards can still be drawn: a fixpoint on the deepest the deck can be dug.

        The depth is at most: one card per action (Search); the excavation rate times every
        monument that can be straight in the Past (there now, every decline still possible,
        every straightening); the reveals and draws of the effects that can fire, each at its
        most (immediate effects of at most as many cards as Creates remain, decline effects of
        at most as many as declines remain, Timeline effects every phase, triggers every event,
        technologies' effects for at most as many as Learns remain)."""
        st = self.st
        deck_pos = {c: len(st.deck) - 1 - k for k, c in enumerate(st.deck)}
        hand = set(st.hand)
        in_play = set(st.monuments()) | set(st.board_artifacts())
        pre = build_schedule(st, self.phase, True)
        actions = pre.actions
        phases = pre.timeline_phases
        declines = sum(s.cap for s in pre.slots if s.decline)
        straight = len(st.past) - st.rotated
        chest = self.chest_gains
        depth = 0
        reach: set[int] = hand | in_play
        techs = self._tech_reach(actions, pre, declines, reach)
        entries = 0
        for _ in range(10):
            new = sorted(reach - in_play)
            facts = [self.fact(c) for c in sorted(reach)]
            tech_facts = [self.fact(t) for t in techs]
            once = NOTHING  # immediate and decline effects of every reachable card, summed
            for c in sorted(reach):
                f = self.fact(c)
                if c not in in_play:
                    once = once + f.immediate
                once = once + f.decline + f.timeline.scaled(phases)
            once = once + chest
            c_max = actions + once.create_mon + once.create_art
            if any("poulnabrone" in f.specials for f in facts):
                c_max *= 2
            l_max = actions + once.learn + sum(g.learn for f in facts for _, g in f.triggers) * (
                actions + c_max)
            if any(g.learn for f in facts for e, g in f.triggers
                   if e.trigger is not None and e.trigger.event == "learn"):
                l_max = len(techs)
            l_max = min(l_max, len(techs))
            # Monuments entering space 1 during declines: one per decline effect that can
            # create or move (each card declines once; see `_flows`).
            moving_techs = any(f.immediate.moves or f.immediate.create_mon for f in tech_facts)
            entries = sum(1 for c in sorted(reach) if self.cards[c].is_monument and (
                self.fact(c).decline.create_mon or self.fact(c).decline.moves
                or (self.fact(c).decline.learn and moving_techs)))
            rate = 3 if any("phaistos_disc" in f.specials for f in facts) else 2
            dig = actions + rate * (straight + declines + entries + once.straighten)
            dig += _top((self.fact(c).immediate.depth for c in new), c_max)
            dig += _top((self.fact(c).decline.depth for c in sorted(reach)), declines + entries)
            dig += _top((self.fact(c).timeline.depth * phases for c in sorted(reach)),
                        c_max + len(in_play))
            for f in facts:
                for e, g in f.triggers:
                    t = e.trigger
                    assert t is not None
                    events = l_max if t.event == "learn" else actions if t.event == "excavate" \
                        else c_max
                    dig += g.depth * events
            dig += _top((f.immediate.depth for f in tech_facts), l_max) + chest.depth
            new_depth = DECK_ALL if dig >= len(st.deck) else dig
            new_reach = hand | in_play | {c for c, p in deck_pos.items() if p < new_depth}
            if new_depth >= DECK_ALL:
                new_reach |= set(st.discard)
            new_techs = self._tech_reach(l_max, pre, declines + entries, new_reach)
            if new_reach == reach and new_depth == depth and new_techs == techs:
                break
            reach, depth, techs = new_reach, new_depth, new_techs
        else:
            depth = DECK_ALL
            reach = hand | in_play | set(deck_pos) | set(st.discard)
        positions = {c: -1 for c in st.hand}
        for c in sorted(reach - hand - in_play):
            positions[c] = deck_pos.get(c, len(st.deck))
        playable = sorted(reach) + techs

        def has(special: str, among: Iterable[int]) -> bool:
            return any(special in self.fact(c).specials for c in among)

        movers = chest.moves > 0 or any(
            self.fact(c).immediate.moves or self.fact(c).timeline.moves
            or self.fact(c).decline.moves or any(g.moves for _, g in self.fact(c).triggers)
            for c in playable)
        return Reach(
            positions=positions,
            in_timeline=list(st.monuments()),
            on_board=st.board_artifacts(),
            techs=techs,
            reshuffle=depth >= DECK_ALL,
            potala=st.potala or has("potala_skip_decline", positions),
            candi=has("candi_sukuh", sorted(reach)),
            phaistos=has("phaistos_disc", sorted(reach)),
            movers=movers,
            entries=entries,
            recycle_all=any(discards_artifacts(self.cards[c]) for c in playable),
        )

    def _tech_reach(self, learns: int, sch: Schedule, declines: int,
                    builders: set[int]) -> list[int]:
        """Technologies that can still be learned: those on the tiles, those held on a card
        (Abu Simbel), and the next cards of each level's deck that refills can deal. A tile is
        refilled only when a departure (a Learn, a die roll, a card put under its deck) leaves
        it with one card (RULES.md sections 4D and 5), three cards a refill, in deck order; the
        middle-of-game flip deals 3 Level II cards, Pyramid of the Niches (P7) reveals the top 7
        of the Level II deck. A deck that can run out brings its discards back (reshuffle)."""
        st, cards = self.st, self.cards
        dice = sum(1 for sl in sch.slots if not sl.ends)
        buries = 0
        niches = False
        for c in sorted(builders | set(self._pool_techs())):
            f = self.fact(c)
            if f.buries:  # P35, T27: put technologies under their deck
                buries += f.buries * (sch.timeline_phases if f.buries_timeline else 1)
            niches = niches or (f.niches and c in builders)
        departures = learns + dice + buries
        flip = not st.midgame and len(st.past) + declines >= 7
        out = {c for c in st.tiles if c >= 0} | {t for _, t in st.held}
        for lv in (1, 2):
            live = any(st.tile_level[k] == lv and any(c >= 0 for c in st.tiles[3 * k:3 * k + 3])
                       for k in range(3))
            deal = 3 * departures if live else 0
            if lv == 2:
                if flip:
                    deal = 3 * departures + 3
                if niches:
                    deal += 7
            deck = st.tech_decks[lv - 1]
            out |= set(deck[len(deck) - min(deal, len(deck)):])
            if deal > len(deck):
                out |= set(st.tech_discards[lv - 1])
        return sorted(t for t in out if cards[t].is_tech and t not in st.techs)

    def _pool_techs(self) -> list[int]:
        cached = _POOL_TECHS.get(self.st.book.sets)
        if cached is None:
            pool = self.st.setup.card_pool(self.st.book)
            cached = [t for t in sorted(pool) if self.cards[t].is_tech]
            _POOL_TECHS[self.st.book.sets] = cached
        return cached

    def playable(self) -> list[int]:
        """Every card that can still act: reachable builders, cards in play, technologies."""
        r = self.reach
        return sorted(set(r.positions) | set(r.in_timeline) | set(r.on_board) | set(r.techs))

    # -------------------------------------------------------------- the model

    def build(self) -> None:
        """Variables and constraints (the numbered relaxations of the module)."""
        m, sch, reach = self.m, self.schedule, self.reach
        slots = sch.slots
        self.n = n = len(slots)
        self.decl = sch.decline_slots
        self.A = sch.actions
        # Relaxation 5: two actions a turn.
        self.S = [m.new_int_var(0, sl.actions, f"search{i}") for i, sl in enumerate(slots)]
        self.X = [m.new_int_var(0, sl.actions, f"excavate{i}") for i, sl in enumerate(slots)]
        self.AR = [m.new_int_var(0, sl.actions, f"archive{i}") for i, sl in enumerate(slots)]
        self.LR = [m.new_int_var(0, sl.actions, f"learn{i}") for i, sl in enumerate(slots)]
        self.CR = [m.new_int_var(0, sl.actions, f"create{i}") for i, sl in enumerate(slots)]
        max_rot = len(self.st.past) + sum(sl.cap for sl in slots) + reach.entries + 60
        self.RO = [m.new_int_var(0, max_rot, f"rotate{i}") for i in range(n)]
        self.ED = [m.new_int_var(0, 3 * max_rot, f"excavated{i}") for i in range(n)]
        self.AC = [m.new_int_var(0, HAND_LIMIT * sl.actions, f"archived{i}")
                   for i, sl in enumerate(slots)]
        rate = 3 if reach.phaistos else 2
        for i, sl in enumerate(slots):
            m.add(self.S[i] + self.X[i] + self.AR[i] + self.LR[i] + self.CR[i] <= sl.actions)
            m.add(self.RO[i] >= self.X[i])
            m.add(self.RO[i] <= max_rot * self.X[i])
            m.add(self.ED[i] <= rate * self.RO[i])
            m.add(self.AC[i] >= self.AR[i])
            m.add(self.AC[i] <= HAND_LIMIT * self.AR[i])
        # Relaxation 4: the discard pile comes back only once the deck is dug through.
        self.RESH = m.new_bool_var("reshuffle") if reach.reshuffle else None
        self._monuments()
        self._artifacts()
        self._technologies()
        self._pools()
        self._flows()
        self._knowledge()
        self._counters()
        self._conditions()
        self._requirements()
        self._score()
        self._goals()

    def _more_lives(self, name: str, first: LinExpr) -> LinExpr:
        """Creations after the first of a card that can leave play to the discard pile: only
        after a reshuffle, at most one per action left (each needs a Create)."""
        if self.RESH is None:
            return 0
        v = self.m.new_int_var(0, self.A, f"more_{name}")
        self.m.add(v <= self.A * self.RESH)
        if not isinstance(first, int):
            self.m.add(v <= self.A * first)
        return v

    # ---- monuments: fates (relaxations 2, 3)

    def _fates(self, c: int, space: int) -> dict[Fate, tuple[int | None, int, int]]:
        """``{fate: (least extra discard cost, latest creation slot, how)}`` where `how` is
        `NATURAL` (the slides alone), `SHIFTED` (only if Potala Palace holds the Timeline back
        one turn) or `MOVED` (only if the monument is moved or swapped; no distance cost).
        `space` > 0: the monument is in the Timeline there now."""
        card, g = self.cards[c], self.schedule.graph
        out: dict[Fate, tuple[int | None, int, int]] = {}

        def note(fate: Fate, extra: int | None, slot: int, how: int) -> None:
            old = out.get(fate)
            if old is None or how < old[2]:
                out[fate] = (extra, max(slot, old[1]) if old else slot, how)
            elif how == old[2] and extra is not None and old[0] is not None:
                out[fate] = (min(old[0], extra), max(old[1], slot), how)
            else:
                out[fate] = (old[0], max(old[1], slot), old[2])

        shift = (0, 1) if self.reach.potala else (0,)
        if space:
            for k in shift:
                note(g.fate(0, space + k), 0, 0, k)
        else:
            spaces = [card.starting_space] if card.locked else list(range(1, SPACES + 1))
            for i in range(self.n):
                for s in spaces:
                    for k in shift:
                        note(g.fate(i, s + k), abs(s - card.starting_space), i, k)
        if self.reach.movers:
            for j in self.decl:
                note(("past", j), None, 0 if space else j, MOVED)
            note(END, None, 0 if space else self.n - 1, MOVED)
        return out

    def _monuments(self) -> None:
        st, m, cards = self.st, self.m, self.cards
        self.existing = {c: st.place_of(c)[0] for c in self.reach.in_timeline}
        new = sorted(c for c in self.reach.positions if cards[c].is_monument)
        self.mons = sorted(self.existing) + new
        self.new_mons = new
        self.f: dict[int, dict[Fate, Any]] = {}
        self.info: dict[int, dict[Fate, tuple[int | None, int, int]]] = {}
        shifted: list[Any] = []
        self.created: dict[int, LinExpr] = {}  # creations still to come (activations)
        self.pf: dict[int, LinExpr] = {}
        self.endv: dict[int, LinExpr] = {}
        self.vanish: dict[int, LinExpr] = {}
        self.needs_move: list[Any] = []  # fates reached only by a move or a swap
        self.extra_terms: list[LinExpr] = []  # distance costs of the fates (section 5)
        for c in self.mons:
            card = cards[c]
            info = self._fates(c, self.existing.get(c, 0))
            self.info[c] = info
            fv = {fate: m.new_bool_var(f"f_{card.code}_{fate[-1]}") for fate in
                  sorted(info, key=str)}
            self.f[c] = fv
            self.pf[c] = sum(v for fate, v in fv.items() if fate != END)
            self.endv[c] = fv.get(END, 0)
            fates = sum(fv.values())
            m.add(fates <= 1)
            if vanishes(card):
                first = m.new_bool_var(f"vanish_{card.code}")
                more = self._more_lives(f"vanish_{card.code}", first)
                self.vanish[c] = first + more
                if c in self.existing:
                    m.add(fates + first >= 1)
                    if self.RESH is None:
                        m.add(fates + first <= 1)
                    self.created[c] = more + (fates if self.RESH is not None else 0)
                else:
                    if self.RESH is None:
                        m.add(fates + first <= 1)
                    self.created[c] = fates + first + more
            elif c in self.existing:
                m.add(fates == 1)
                self.created[c] = 0
            else:
                self.created[c] = fates
            shifted += [v for fate, v in fv.items() if info[fate][2] == SHIFTED]
            self.needs_move += [v for fate, v in fv.items() if info[fate][2] == MOVED]
            if c not in self.existing:
                self.extra_terms += [e * fv[fate] for fate, (e, _, _) in info.items() if e]
        # Fates that need a skipped slide: only if Potala Palace is created again (C30).
        potala = sum(self.created[c] for c in new if "potala_skip_decline" in self.fact(c).specials)
        for v in shifted:
            m.add(v <= potala)

    # ---- artifacts

    def _artifacts(self) -> None:
        m, cards, reach = self.m, self.cards, self.reach
        self.arts = sorted(c for c in reach.positions if cards[c].is_artifact)
        self.g1: dict[int, Any] = {}
        self.g: dict[int, LinExpr] = {}  # creations still to come
        freed: list[LinExpr] = []
        for a in self.arts:
            first = m.new_bool_var(f"art_{cards[a].code}")
            self.g1[a] = first
            recyclable = reach.recycle_all or self_discard_artifact(cards[a])
            self.g[a] = first + (self._more_lives(cards[a].code, first) if recyclable else 0)
            if self_discard_artifact(cards[a]):
                freed.append(self.g[a])
        self.again: dict[int, LinExpr] = {}  # artifacts on the board created again
        for a in reach.on_board:
            if reach.recycle_all or self_discard_artifact(cards[a]):
                self.again[a] = self._more_lives(f"again_{cards[a].code}", 1)
            if self_discard_artifact(cards[a]):
                freed.append(1 + self.again.get(a, 0))
        self.N_art = self._int(sum(self.g.values()) + sum(self.again.values()),
                               "created_artifacts")
        self.freed_self = freed

    # ---- technologies (relaxation 7)

    def _technologies(self) -> None:
        st, m, cards = self.st, self.m, self.cards
        tg = TechGraph(st.book, self.reach.techs)
        relax = 1 if self.reach.candi else 0
        free = self.chest_gains.learn_free + sum(
            self.fact(c).immediate.learn_free + self.fact(c).decline.learn_free
            + self.fact(c).timeline.learn_free + sum(g.learn_free for _, g in self.fact(c).triggers)
            for c in self.playable())
        self.techs = tg.learnable(self._static_caps(), st.techs, relax, free)
        self.z = {t: m.new_bool_var(f"z_{cards[t].code}") for t in self.techs}
        self.free: dict[int, Any] = {}
        if free:  # some Learn may ignore the requirement (M34): z <= requirement met + free
            self.req = {t: m.new_bool_var(f"req_{cards[t].code}") if cards[t].requirement
                        else self.z[t] for t in self.techs}
            self.free = {t: m.new_bool_var(f"free_{cards[t].code}") for t in self.techs
                         if cards[t].requirement}
            for t, fv in self.free.items():
                m.add(self.z[t] <= self.req[t] + fv)
        else:
            self.req = dict(self.z)

    def _static_caps(self) -> dict[str, int]:
        """The largest value each Past counter can reach (for the requirement graph)."""
        st, cards = self.st, self.cards
        declines = sum(s.cap for s in self.schedule.slots if s.decline) + self.reach.entries
        can = [c for c in self.mons if any(f != END for f in self.info[c])]
        caps = {}
        for k, name in zip(MONUMENT_KINDS, KIND_KEYS, strict=True):
            caps[f"past.{name}"] = st.count_past(k) + min(
                declines, sum(1 for c in can if cards[c].kind == k))
        caps["past.any"] = len(st.past) + min(declines, len(can))
        caps["past.max_type"] = max(caps[f"past.{n}"] for n in KIND_KEYS)
        caps["past.min_type"] = min(caps[f"past.{n}"] for n in KIND_KEYS)
        caps["past.endgame"] = caps["past.any"]
        caps["lost"] = st.lost + sum(st.tokens[c] for c in self.existing) + sum(
            cards[c].knowledge for c in can if c not in self.existing)
        caps["artifacts"] = 5
        caps["hand"] = HAND_LIMIT
        return caps

    # ---- resources of effects (relaxations 4, 5, 6)

    def _pools(self) -> None:
        """Sum, over every card that can be in play, its gains times its activations.

        Activations: an immediate effect once per creation (per Learn for a technology); a
        decline effect once per decline; a Timeline effect once per Timeline phase in play (at
        most 6 by the slides alone, and at most 12 monuments and the free artifact spaces in
        play per phase); a trigger once per event while in play. An effect whose condition
        reads a counter that never goes down (Past, technologies, artifacts ever on the board,
        the highest lost knowledge) fires only if the final counter meets it."""
        m, cards, reach, sch = self.m, self.cards, self.reach, self.schedule
        R_tl = sch.timeline_phases
        pool: dict[str, list[LinExpr]] = {k: [] for k in POOLS}
        self.conditions: list[tuple[Any, Effect]] = []
        self.timed: list[tuple[Any, Effect, str]] = []  # Timeline effects: (activations, ...)
        builders = len(self.st.deck) + len(self.st.discard)

        def add(g: Gains, act: LinExpr) -> None:
            if g.depth > builders:  # a reveal through the whole deck (P33) digs no deeper
                g = replace(g, depth=builders)
            for key in POOLS:
                v = getattr(g, key)
                if v:
                    pool[key].append(v * act)

        add(self.chest_gains, 1)
        self.DDraw: dict[int, list[LinExpr]] = {j: [] for j in self.decl}
        self.DDepth: dict[int, list[LinExpr]] = {j: [] for j in self.decl}
        flexible = reach.movers or reach.potala
        learns_of = {k: self._int(sum(self.z[t] for t in self.techs if cards[t].kind == k),
                                  f"learned_{name}") for k, name in enumerate(TECH_TYPE_NAMES)}
        self.learned = self._int(sum(self.z.values()), "learned")
        self.made_of = {k: self._int(sum(self.created[c] for c in self.mons
                                         if cards[c].kind == k), f"created_{name}")
                        for k, name in zip(MONUMENT_KINDS, KIND_KEYS, strict=True)}
        self.N_mon = self._int(sum(self.made_of.values()), "created_monuments")
        self.inplay: dict[int, LinExpr] = {}
        tl_mon: list[Any] = []
        tl_art: list[Any] = []
        self.freed_by_pay: list[LinExpr] = []
        self.entry: dict[int, bool] = {}
        moving_techs = any(self.fact(t).immediate.moves or self.fact(t).immediate.create_mon
                           for t in self.techs)
        for c in self.mons:
            f = self.fact(c)
            self.inplay[c] = self.created[c] + (1 if c in self.existing else 0)
            d = f.decline
            self.entry[c] = bool(d.create_mon or d.moves or (d.learn and moving_techs))
            for k, (e, g) in enumerate(f.parts):
                name = f"{cards[c].code}_{k}"
                if e.trigger is not None:
                    act = self._trigger_act(c, e, learns_of, name)
                elif e.moment == "immediate":
                    act = self._gate(self.created[c], self.A + 1, e, name)
                elif e.moment == "decline":
                    if not e.condition and c not in self.vanish and (g.draw or g.depth):
                        g = replace(g, depth=min(g.depth, builders))
                        for fate, v in self.f[c].items():
                            if fate != END:
                                self.DDraw[fate[1]].append(g.draw * v)
                                self.DDepth[fate[1]].append(g.depth * v)
                        g = replace(g, draw=0, depth=0)
                    act = self._gate(self.pf[c] + self.vanish.get(c, 0), self.A + 2, e, name)
                elif e.moment == "timeline":
                    cap = self._timeline_cap(c, flexible)
                    act = self._gate(cap * self.inplay[c], cap * (self.A + 2), e, name)
                    tl_mon.append(act)
                    self.timed.append((act, e, name))
                else:
                    continue
                add(g, act)
                if f.frees_artifacts and e.moment != "timeline":
                    self.freed_by_pay.append(5 * act)
        for a in reach.on_board + self.arts:
            f = self.fact(a)
            made = self.g.get(a, 0) + self.again.get(a, 0)
            self.inplay[a] = made + (1 if a in reach.on_board else 0)
            for k, (e, g) in enumerate(f.parts):
                name = f"{cards[a].code}_{k}"
                if e.trigger is not None:
                    act = self._trigger_act(a, e, learns_of, name)
                elif e.moment == "immediate":
                    act = self._gate(made, self.A + 1, e, name)
                elif e.moment == "timeline":
                    act = self._gate(R_tl * self.inplay[a], R_tl * (self.A + 2), e, name)
                    tl_art.append(act)
                    self.timed.append((act, e, name))
                else:
                    continue
                add(g, act)
        for t in self.techs:
            for k, (e, g) in enumerate(self.fact(t).parts):
                if e.moment == "immediate" and e.trigger is None:
                    add(g, self._gate(self.z[t], 1, e, f"{cards[t].code}_{k}"))
        # At most 12 monuments and the free artifact spaces are in play at each Timeline phase.
        if tl_mon:
            m.add(sum(tl_mon) <= 2 * SPACES * R_tl)
        if tl_art:
            spaces = 5 - len(self.st.goal_chests) + (
                max(0, len(self.st.goal_chests) - 1) if self.goal_letters()[1] else 0)
            m.add(sum(tl_art) <= spaces * R_tl)
        self.KENS: LinExpr = 0
        self.ELD_cap: list[LinExpr] = []
        self.POUL: LinExpr = 0
        self.poul_vars: list[Any] = []
        big = self.A + 60
        for c in sorted(self.inplay):
            sp = self.fact(c).specials
            if "kensington_runestone" in sp:
                kens = m.new_int_var(0, big, f"kens_{cards[c].code}")
                m.add(kens <= sum(self.X))
                m.add(kens <= big * self.inplay[c])
                self.KENS = self.KENS + kens
            if "elongated_skulls" in sp:
                self.ELD_cap.append(self.inplay[c])
            if "poulnabrone" in sp:
                # M36: one more Create per Create it did not grant, with 11 or more in the Past.
                p = m.new_int_var(0, big, f"poul_{cards[c].code}")
                m.add(2 * p <= self.N_mon)
                m.add(p <= big * self.inplay[c])
                self.poul_vars.append(p)
                self.POUL = self.POUL + p
        self.P = {k: sum(v) if v else 0 for k, v in pool.items()}

    def _gate(self, base: LinExpr, top: int, e: Effect, name: str) -> LinExpr:
        """The activations of effect `e`: at most `base`, and none unless its condition can
        hold at the end (see `_pools`)."""
        if not any(_monotone(c) for c in e.condition):
            return base
        b = self.m.new_bool_var(f"cond_{name}")
        act = self.m.new_int_var(0, max(1, top), f"act_{name}")
        self.m.add(act <= base)
        self.m.add(act <= max(1, top) * b)
        self.conditions.append((b, e))
        return act

    def _timeline_cap(self, c: int, flexible: bool) -> int:
        """Timeline phases a monument can spend in the Timeline: from its creation (or now) to
        its decline, at most 6 by the slides alone."""
        sch = self.schedule
        R_tl = sch.timeline_phases
        if flexible:
            return R_tl
        if c in self.existing:
            j = sch.graph.decline_slot(0, self.existing[c])
            return R_tl if j is None else sch.timeline_phases_through(j)
        return min(SPACES, R_tl)

    def _trigger_act(self, c: int, e: Effect, learns_of: dict[int, LinExpr], name: str) -> Any:
        """A triggered effect fires at most once per event, and only while its card is in play."""
        m = self.m
        t = e.trigger
        assert t is not None
        events: LinExpr
        lives = 1 + (self.A if self.RESH is not None else 0)
        if t.event == "learn":
            events = self.learned if t.tech_type is None else learns_of[t.tech_type]
            top = len(self.techs)
        elif t.event == "excavate":
            events = sum(self.X)
            top = self.A
        elif t.kind == ARTIFACT:
            events = self.N_art
            top = len(self.arts) * lives + len(self.again) * self.A
        else:
            events = self.N_mon if t.monument_type is None else self.made_of[t.monument_type]
            top = len(self.mons) * lives
            if t.kind is None:
                events = events + self.N_art
                top += len(self.arts) * lives + len(self.again) * self.A
        top = max(1, top)
        act = m.new_int_var(0, top, f"trig_{name}")
        m.add(act <= events)
        m.add(act <= top * self.inplay[c])
        if any(_monotone(cl) for cl in e.condition):
            b = m.new_bool_var(f"cond_{name}")
            m.add(act <= top * b)
            self.conditions.append((b, e))
        return act

    def _conditions(self) -> None:
        """Link each condition literal to the final counters (clauses that can only grow)."""
        for b, e in self.conditions:
            for clause in e.condition:
                if _monotone(clause):
                    self.m.add(self._monotone_expr(clause.counter) >= clause.value) \
                        .only_enforce_if(b)

    def _monotone_expr(self, counter: str) -> LinExpr:
        if counter == "lost":
            return self.lost_peak
        if counter == "artifacts":
            return self.art_ever
        return self.cnt[counter]

    # ---- cards, actions and the deck over the turns (relaxations 4, 5)

    def _cumulative(self, per_slot: list[LinExpr], name: str, top: int) -> list[Any]:
        """Running totals ``T[i] = per_slot[0] + ... + per_slot[i]`` as variables (so that
        each term appears in one constraint, not once per later turn)."""
        out: list[Any] = []
        for i, x in enumerate(per_slot):
            v = self.m.new_int_var(0, top, f"{name}{i}")
            self.m.add(v == (out[-1] if out else 0) + x)
            out.append(v)
        return out

    def _flows(self) -> None:
        st, m, reach, cards = self.st, self.m, self.reach, self.cards
        n, P = self.n, self.P
        H0 = self.phase.hand
        big = 10 * (self.A + 10) + len(st.deck) + len(st.discard) + len(st.hand)
        self.G_eff = m.new_int_var(0, big, "effect_draws")
        self.D_eff = m.new_int_var(0, big, "effect_depth")
        self.ELD = m.new_int_var(0, big, "elongated_draws")
        m.add(self.G_eff <= P["draw"] + self.ELD)
        m.add(self.D_eff <= P["depth"] + self.ELD)
        DD: list[LinExpr] = []
        DDd: list[LinExpr] = []
        for i in range(n):
            if self.DDraw.get(i):
                d = m.new_int_var(0, big, f"decline_draws{i}")
                dd = m.new_int_var(0, big, f"decline_depth{i}")
                m.add(d <= sum(self.DDraw[i]))
                m.add(dd <= sum(self.DDepth[i]))
                DD.append(d)
                DDd.append(dd)
            else:
                DD.append(0)
                DDd.append(0)
        # Per decline slot: new monuments due (created by then), their cards, all declines.
        due_n: list[LinExpr] = [0] * n
        due_cost: list[LinExpr] = [0] * n
        declined: list[LinExpr] = [0] * n
        for c in self.mons:
            for fate, v in self.f[c].items():
                if fate == END:
                    continue
                j = fate[1]
                declined[j] = declined[j] + v
                if c not in self.existing:
                    due_n[j] = due_n[j] + v
                    due_cost[j] = due_cost[j] + (1 + cards[c].discard_cost) * v
        cum_cr = self._cumulative(self.CR, "creates_by", 2 * n)
        cum_due = self._cumulative(due_n, "due_by", big)
        cum_cost = self._cumulative(due_cost, "due_cards_by", big)
        cum_ac = self._cumulative(self.AC, "archived_by", big)
        cum_drawn = self._cumulative([self.S[i] + self.ED[i] for i in range(n)], "drawn_by", big)
        cum_dd = self._cumulative(DD, "decline_drawn_by", big)
        cum_depth = self._cumulative([self.S[i] + self.ED[i] + DDd[i] for i in range(n)],
                                     "dug_by", big)
        cum_past = self._cumulative(declined, "declined_by", big)
        cum_ro = self._cumulative(self.RO, "rotated_by", big)
        self._timed_conditions(declined, cum_past)
        # Creates: actions plus granted ones.
        self.AC_free = m.new_int_var(0, big, "archived_free")
        m.add(self.AC_free <= HAND_LIMIT * P["archive"])
        granted_mon = P["create_mon"] + self.POUL
        m.add(self.N_mon <= cum_cr[-1] + granted_mon)
        m.add(self.N_art <= cum_cr[-1] + P["create_art"])
        m.add(self.N_mon + self.N_art <= cum_cr[-1] + granted_mon + P["create_art"])
        self.CONS = [m.new_int_var(0, big, f"used{i}") for i in range(n)]
        straight0 = len(st.past) - st.rotated
        for i in range(n):
            if i:
                m.add(self.CONS[i] >= self.CONS[i - 1])
            m.add(cum_cr[i] + granted_mon >= cum_due[i])
            m.add(self.CONS[i] >= cum_cost[i] + cum_ac[i])
            m.add(self.CONS[i] <= H0 + cum_drawn[i] + cum_dd[i] + self.G_eff)
            m.add(H0 + cum_drawn[i] + (cum_dd[i - 1] if i else 0) - self.CONS[i] <= HAND_LIMIT)
            # Excavation rotates straight Past monuments only (D7): those declined before.
            m.add(cum_ro[i] <= straight0 + (cum_past[i - 1] if i else 0) + P["straighten"])
        # A moved monument takes a fate the slides alone do not reach, or saves the distance
        # part of its discard cost (at most 5: spaces 1-6).
        waived: LinExpr = 0
        if self.needs_move or (self.reach.movers and self.extra_terms):
            waived = m.new_int_var(0, len(self.mons), "moved_to_save")
            m.add(sum(self.needs_move) + waived <= P["moves"])
        extra_top = 5 * len(self.mons)
        self.extra = m.new_int_var(0, extra_top, "distance_costs")
        m.add(self.extra >= sum(self.extra_terms) - 5 * waived)
        # Ancient Greek creates its artifact from the revealed cards, not from the hand.
        greek = sum(self.z[t] for t in self.techs
                    if any(s.op == "ancient_greek" for e in cards[t].effects for s in e.steps))
        used = (sum((1 + cards[c].discard_cost) * self.created[c] for c in self.new_mons)
                + self.extra
                + sum((1 + cards[a].discard_cost) * self.g[a] for a in self.arts)
                + cum_ac[-1] + self.AC_free - greek)
        m.add(self.CONS[n - 1] >= used)
        self.hand_final = m.new_int_var(0, HAND_LIMIT, "hand_final")
        m.add(self.hand_final == H0 + cum_drawn[-1] + cum_dd[-1] + self.G_eff - self.CONS[n - 1])
        self.rotations = cum_ro[-1]
        # Repositioned monuments: at most the move/swap activations (relaxation 3).
        # Learns.
        m.add(sum(self.z.values()) <= sum(self.LR) + P["learn"])
        if self.free:
            m.add(sum(self.free.values()) <= P["learn_free"])
        # Artifact spaces: 5, less the goal chests; a space frees when its artifact leaves.
        free = sum(1 for x in st.artifacts if x == EMPTY)
        chests = max(0, len(st.goal_chests) - 1) if self.goal_letters()[1] else 0
        m.add(self.N_art <= free + sum(self.freed_self) + sum(self.freed_by_pay) + chests)
        # Relaxation 2: decline capacity. A monument enters space 1 during a decline phase
        # only by the decline effect of the card declining then (a Create, a move, or a Learn
        # of a technology that moves), one per such effect: space 1 holds the declining card
        # and at most one more while its effect resolves.
        entering: dict[int, LinExpr] = {j: 0 for j in self.decl}
        vanish_entries: LinExpr = 0
        for c in self.mons:
            if self.entry.get(c):
                for fate, v in self.f[c].items():
                    if fate != END:
                        entering[fate[1]] = entering[fate[1]] + v
                vanish_entries = vanish_entries + self.vanish.get(c, 0)
        for j in self.decl:
            if not isinstance(declined[j], int):
                m.add(declined[j] <= self.schedule.slots[j].cap + entering[j] + vanish_entries)
        third = any(len(s) > 2 for s in st.spaces)
        m.add(sum(self.endv[c] for c in self.mons)
              <= 2 * SPACES - 1 + (1 if reach.potala or third else 0))
        # Relaxation 4: a card deep in the deck needs the deck dug that far by its turn.
        dug = [cum_depth[i] + self.D_eff for i in range(n)]
        # Cards revealed in a decline phase help only a Create made later in that phase (a
        # decline effect's Create, M11): without one, count them from the next turn on.
        same = [dug[i] - (DDd[i] if not reach.entries else 0) for i in range(n)]
        for c in self.new_mons:
            p = reach.positions[c]
            if p < 0:
                continue
            for fate, v in self.f[c].items():
                i = self.info[c][fate][1]
                m.add((same[i] if fate != END else dug[i]) >= (p + 1) * v)
            if c in self.vanish:
                first = self.vanish[c] if self.RESH is None else self._positive(c)
                m.add(dug[-1] >= (p + 1) * first)
        for a in self.arts:
            p = reach.positions[a]
            if p >= 0:
                m.add(dug[-1] >= (p + 1) * self.g1[a])
        if self.RESH is not None:
            m.add(dug[-1] >= (len(st.deck) + 1) * self.RESH)

    def _timed_conditions(self, declined: list[LinExpr], cum_past: list[Any]) -> None:
        """Effects that need a Past count fire only in turns where the Past has reached it: the
        monuments there now plus those declined in earlier decline phases (RULES.md section
        4C: the Timeline phase and every Create of a turn come before its decline phase).
        Timeline effects: one activation per such turn. Poulnabrone Dolmen (M36): one extra
        Create per Create action of such a turn, or per granted Create once it holds."""
        st, m, cards, n = self.st, self.m, self.cards, self.n
        slots = self.schedule.slots
        counts: dict[str, list[LinExpr]] = {"past.any": [len(st.past)] + [
            len(st.past) + cum_past[i] for i in range(n - 1)]}
        wanted = {cl.counter for _, e, _ in self.timed for cl in e.condition}
        for k, name in zip(MONUMENT_KINDS, KIND_KEYS, strict=True):
            key = f"past.{name}"
            if key not in wanted:
                continue
            per: list[LinExpr] = [0] * n
            for c in self.mons:
                if cards[c].kind == k:
                    for fate, v in self.f[c].items():
                        if fate != END:
                            per[fate[1]] = per[fate[1]] + v
            cum = self._cumulative(per, f"declined_{name}_by", 10**4)
            counts[key] = [st.count_past(k)] + [st.count_past(k) + cum[i] for i in range(n - 1)]

        def holds_by(name: str, clauses: list[Clause]) -> list[Any]:
            out = []
            for i, sl in enumerate(slots):
                if not sl.timeline and not sl.actions:
                    continue
                h = m.new_bool_var(f"holds_{name}_{i}")
                for cl in clauses:
                    m.add(counts[cl.counter][i] >= cl.value).only_enforce_if(h)
                out.append((i, h))
            return [h for _, h in out]

        for act, e, name in self.timed:
            clauses = [cl for cl in e.condition if _monotone(cl) and cl.counter in counts]
            if clauses:
                hs = [h for (i, sl), h in zip(
                    [(i, sl) for i, sl in enumerate(slots) if sl.timeline or sl.actions],
                    holds_by(name, clauses), strict=True) if sl.timeline]
                m.add(act <= sum(hs))
        if self.poul_vars:
            eleven = Clause("past.any", ">=", 11)
            hs = holds_by("poulnabrone", [eleven])
            act_slots = [i for i, sl in enumerate(slots) if sl.timeline or sl.actions]
            per_slot = []
            for i, h in zip(act_slots, hs, strict=True):
                q = m.new_int_var(0, 2, f"poulnabrone_{i}")
                m.add(q <= self.CR[i])
                m.add(q <= 2 * h)
                per_slot.append(q)
            rest = m.new_int_var(0, self.A + 60, "poulnabrone_granted")
            m.add(rest <= self.P["create_mon"])
            m.add(rest <= (self.A + 60) * hs[-1] if hs else rest == 0)
            m.add(sum(per_slot) + rest >= self.POUL)

    def _positive(self, c: int) -> Any:
        """The first vanishing of a card (its first creation) as a Boolean."""
        first = self.vanish[c]
        assert not isinstance(first, int)
        b = self.m.new_bool_var(f"vanished_{self.cards[c].code}")
        self.m.add(first <= self.A * b + b)
        return b

    # ---- knowledge and lost knowledge (relaxation 6)

    def _knowledge(self) -> None:
        st, m, cards = self.st, self.m, self.cards
        reducers: list[tuple[int, int, int]] = []  # (card, monument type or -1, amount)
        for x in self.playable():
            for e in cards[x].effects:
                r = e.reduction
                if r is not None:
                    reducers.append((x, -1 if r.monument_type is None else r.monument_type,
                                     r.amount))
        # Knowledge on declining monuments, in aggregate: at least the entering knowledge of
        # each less all removals used, at most the printed (or current) knowledge; a card that
        # vanishes with knowledge (C25-C29) reaches the Past only with all of it removed.
        low: list[LinExpr] = []
        high: list[LinExpr] = []
        need: list[LinExpr] = []
        for c in self.mons:
            card = cards[c]
            if c in self.existing:
                kmax = kmin = st.tokens[c]
            else:
                kmax = card.knowledge
                cut = self._largest_discount(card) + sum(
                    a for x, t, a in reducers if x != c and t in (-1, card.kind))
                kmin = max(0, kmax - cut)
            if kmin:
                low.append(kmin * self.pf[c])
            if c in self.vanish:
                if kmin:
                    need.append(kmin * self.pf[c])
            elif kmax:
                high.append(kmax * self.pf[c])
        removal = sum(self.AC) + self.AC_free + self.P["remove"] + 6 * self.KENS
        top = sum(st.tokens[c] for c in self.existing) + sum(cards[c].knowledge
                                                            for c in self.new_mons)
        used = m.new_int_var(0, top, "removed")
        m.add(used <= removal)
        if need:
            m.add(used >= sum(need))
        self.converted = m.new_int_var(0, top, "converted")
        m.add(self.converted <= sum(high) if high else self.converted == 0)
        if low:
            m.add(self.converted >= sum(low) - used)
        converted = self.converted
        self.lost_peak = st.lost + converted
        self.L = m.new_int_var(0, st.lost + top, "lost_final")
        lost_used = m.new_int_var(0, st.lost + top, "lost_removed")
        m.add(lost_used <= self.P["lost"])
        m.add(st.lost + converted - lost_used == self.L)
        if self.ELD_cap:
            now = st.converted if self.phase.declining else 0
            m.add(2 * (converted + now) >= 3 * self.ELD)
            m.add(10**4 * sum(self.ELD_cap) >= self.ELD)
        else:
            m.add(self.ELD == 0)

    def _largest_discount(self, card: Card) -> int:
        cut = 0
        for e in card.effects:
            d = e.discount
            if d is not None:
                cut += d.fixed if d.per is None else d.times * counter_cap(d.per, self.pool_size)
        return cut

    # ---- final counters (relaxations 7, 8, 9)

    def _counters(self) -> None:
        st, m, cards = self.st, self.m, self.cards
        cnt: dict[str, LinExpr] = {}
        for k, name in zip(MONUMENT_KINDS, KIND_KEYS, strict=True):
            cnt[f"past.{name}"] = st.count_past(k) + sum(
                self.pf[c] for c in self.mons if cards[c].kind == k)
            cnt[f"timeline.{name}"] = sum(self.endv[c] for c in self.mons if cards[c].kind == k)
        cnt["past.any"] = len(st.past) + sum(self.pf[c] for c in self.mons)
        cnt["past.endgame"] = sum(1 for c in st.past if cards[c].activation == "endgame") + sum(
            self.pf[c] for c in self.mons if cards[c].activation == "endgame")
        cnt["timeline.any"] = sum(self.endv[c] for c in self.mons)
        for k, name in enumerate(TECH_TYPE_NAMES):
            cnt[f"techs.{name}"] = sum(1 for t in st.techs if cards[t].kind == k) + sum(
                self.z[t] for t in self.techs if cards[t].kind == k)
        cnt["techs.any"] = len(st.techs) + sum(self.z.values())
        for lv in (1, 2):
            cnt[f"techs.level{lv}"] = sum(1 for t in st.techs if cards[t].level == lv) + sum(
                self.z[t] for t in self.techs if cards[t].level == lv)
        for key in list(cnt):
            cnt[key] = self._int(cnt[key], key.replace(".", "_"))
        for zone, keys in (("past", KIND_KEYS), ("timeline", KIND_KEYS),
                           ("techs", TECH_TYPE_NAMES)):
            vals = [cnt[f"{zone}.{k}"] for k in keys]
            lo = m.new_int_var(0, 500, f"{zone}_min")
            m.add_min_equality(lo, vals)
            cnt[f"{zone}.min_type"] = lo
            hi = m.new_int_var(0, 500, f"{zone}_max")
            m.add_max_equality(hi, vals)
            cnt[f"{zone}.max_type"] = hi
        cnt["lost"] = self.L
        self.art_ever = len(self.reach.on_board) + self.N_art
        art = m.new_int_var(0, 5, "artifacts_final")
        m.add(art <= self.art_ever)
        cnt["artifacts"] = art
        cnt["hand"] = self.hand_final
        hand_art = m.new_int_var(0, HAND_LIMIT, "hand_artifacts")
        m.add(hand_art <= self.hand_final)
        cnt["hand.artifact"] = hand_art
        tl_tok = m.new_int_var(0, 500, "timeline_tokens")
        m.add(tl_tok <= sum((st.tokens[c] if c in self.existing else cards[c].knowledge)
                            * self.endv[c] for c in self.mons))
        cnt["tl_tokens"] = tl_tok
        rot = m.new_int_var(0, 500, "rotated_final")
        m.add(rot <= st.rotated + self.rotations)
        m.add(rot <= cnt["past.any"])
        cnt["past.rotated"] = rot
        cnt["space1"] = m.new_int_var(0, 2, "space1_final")
        for name in ("self.tokens", "adj.city", "adj.megalith", "adj.pyramid", "adj.any",
                     "adj.max_type"):
            cnt[name] = 0  # a Past card holds no knowledge and has no neighbours
        self.cnt = cnt

    def _int(self, expr: LinExpr, name: str) -> Any:
        """A variable equal to a linear expression (CP-SAT then reads it once)."""
        v = self.m.new_int_var(-10**5, 10**5, name)
        self.m.add(v == expr)
        return v

    def _requirements(self) -> None:
        """Relaxation 7: a requirement met when learned still holds on the final monotone
        counters (Past, technologies, artifacts ever on the board, the highest lost knowledge);
        "at most" clauses and counters that go down are dropped."""
        m, cards, cnt = self.m, self.cards, self.cnt
        relax = 1 if self.reach.candi else 0
        for t in self.techs:
            card = cards[t]
            own = (f"techs.{TECH_TYPE_NAMES[card.kind]}", "techs.any")
            for clause in card.requirement:
                if clause.op == "<=":
                    continue
                counter, value = clause.counter, clause.value - relax
                if value <= 0:
                    continue
                if counter.startswith(("past.", "techs.")) and counter in cnt:
                    extra = 1 if counter in own else 0
                    m.add(cnt[counter] >= (value + extra) * self.req[t])
                elif counter == "lost":
                    m.add(self.lost_peak >= value * self.req[t])
                elif counter == "artifacts":
                    m.add(self.art_ever >= value * self.req[t])
                elif counter_cap(counter, self.pool_size) < value:
                    m.add(self.req[t] == 0)

    # ---- the objective: the five rows (relaxation 8)

    def _score(self) -> None:
        st, m, cards = self.st, self.m, self.cards
        past_vp = sum(cards[c].vp for c in st.past) + sum(cards[c].vp * self.pf[c]
                                                          for c in self.mons)
        effects: list[LinExpr] = []
        for c in st.past:
            effects += self._score_card(c, 1)
        for c in self.mons:
            if self.fact(c).scores:
                effects += self._score_card(c, self.pf[c])
        techs = sum(cards[t].vp for t in st.techs) + sum(cards[t].vp * self.z[t]
                                                         for t in self.techs)
        self.vp = past_vp + sum(effects) + techs + self.cnt["timeline.any"] - self.L
        self.cnt["vp"] = self.vp
        m.maximize(self.vp)

    def _score_card(self, c: int, flag: LinExpr) -> list[LinExpr]:
        """An end-game rule of a (possibly) Past card, at most what the final counters pay."""
        m = self.m
        out: list[LinExpr] = []
        for k, r in enumerate(self.fact(c).scores):
            name = f"score_{self.cards[c].code}_{k}"
            if r.per is not None:
                cap = max(0, r.times * counter_cap(r.per, self.pool_size))
                v = m.new_int_var(0, cap, name)
                m.add(v <= r.times * self.cnt[r.per])
                m.add(v <= cap * flag)
                out.append(v)
            elif r.tiers and r.counter is not None:
                chosen = []
                for i, (at_least, vp) in enumerate(r.tiers):
                    b = m.new_bool_var(f"{name}_tier{i}")
                    m.add(self.cnt[r.counter] >= at_least).only_enforce_if(b)
                    chosen.append((b, vp))
                m.add(sum(b for b, _ in chosen) <= flag)
                out.append(sum(vp * b for b, vp in chosen))
            else:
                out.append(r.fixed * flag)
        return out

    # ---- goals (relaxation 9)

    def goal_letters(self) -> tuple[list[int], bool]:
        """The goal chests a line must meet, and whether one of them is enough (a campaign's
        mid-game revision may still discard the others, RULES.md section 6)."""
        st = self.st
        letters = list(st.goal_chests)
        if self.phase.choosing_goals:
            letters += [k for k in st.setup.revealed_indices() if k not in letters]
        one = st.setup.campaign and (self.phase.revising_goals or self.phase.choosing_goals
                                     or not st.midgame)
        return letters, one

    def _goals(self) -> None:

        letters, one = self.goal_letters()
        if not letters:
            return
        lits = [self._goal(chest_goal(self.st, k)) for k in letters]
        if one:
            self.m.add_bool_or(lits)
        else:
            for b in lits:
                self.m.add(b == 1)

    def _goal(self, goal: Goal) -> Any:
        """A literal that, when true, forces the goal on the final counters."""
        m = self.m
        b = m.new_bool_var("goal")
        if isinstance(goal, Clause):
            expr, v = self.cnt[goal.counter], goal.value
            bounds = {">=": (v, None), ">": (v + 1, None), "<=": (None, v), "<": (None, v - 1),
                      "==": (v, v)}[goal.op]
            if bounds[0] is not None:
                m.add(expr >= bounds[0]).only_enforce_if(b)
            if bounds[1] is not None:
                m.add(expr <= bounds[1]).only_enforce_if(b)
            return b
        parts = [self._goal(p) for p in goal.parts]
        if isinstance(goal, And):
            for p in parts:
                m.add_implication(b, p)
        else:
            m.add_bool_or(parts).only_enforce_if(b)
        return b

    # -------------------------------------------------------------- solve

    def solve(self) -> Relaxed:
        started = time.perf_counter()
        self.build()
        built = time.perf_counter()
        solver = cp_model.CpSolver()
        p = solver.parameters
        p.num_workers = self.config.workers
        p.random_seed = self.config.seed
        p.max_deterministic_time = self.config.max_deterministic_time
        p.cp_model_presolve = self.config.presolve
        p.linearization_level = self.config.linearization
        p.symmetry_level = 0
        code = solver.solve(self.m)
        stats = {"build_s": built - started, "solve_s": time.perf_counter() - built,
                 "deterministic_time": solver.deterministic_time,
                 "variables": float(len(self.m.proto.variables)),
                 "constraints": float(len(self.m.proto.constraints))}
        if code == cp_model.MODEL_INVALID:
            raise RuntimeError(f"CP-SAT rejected the relaxation: {self.m.validate()}")
        if code == cp_model.INFEASIBLE:
            return Relaxed(bound=None, infeasible=True, optimal=True, stats=stats)
        searched = solver.num_branches > 0 or solver.response_proto.num_lp_iterations > 0
        if code == cp_model.UNKNOWN and not searched:
            # Stopped before the search began: CP-SAT then reports a bound of 0, which proves
            # nothing. (Once the search runs, its bound is proven: the LP or propagation.)
            return Relaxed(bound=None, infeasible=False, stats=stats)
        bound = math.floor(solver.best_objective_bound + 1e-6)
        if code == cp_model.UNKNOWN:
            return Relaxed(bound=bound, infeasible=False, stats=stats)
        return Relaxed(bound=bound, infeasible=False, plan=self._plan(solver),
                       techs=tuple(t for t in self.techs if solver.boolean_value(self.z[t])),
                       optimal=code == cp_model.OPTIMAL, stats=stats)

    def _plan(self, solver: cp_model.CpSolver) -> tuple[PlanStep, ...]:
        """The creations of the model's assignment, each at the turn and space that reach its
        fate at the least cost (a hint for move ordering, not a line)."""
        cards, sch = self.cards, self.schedule
        steps: list[PlanStep] = []
        for c in self.new_mons:
            for fate, v in self.f[c].items():
                if solver.boolean_value(v):
                    slot, space = self._where(c, fate)
                    steps.append(PlanStep(sch.slots[slot].turn, c, cards[c].code, space,
                                          None if fate == END else sch.slots[fate[1]].turn))
        for a in self.arts:
            if solver.boolean_value(self.g1[a]):
                steps.append(PlanStep(sch.slots[0].turn, a, cards[a].code, 0, None))
        steps.sort(key=lambda s: (s.turn, s.card))
        return tuple(steps)

    def _where(self, c: int, fate: Fate) -> tuple[int, int]:
        card, g = self.cards[c], self.schedule.graph
        spaces = [card.starting_space] if card.locked else list(range(1, SPACES + 1))
        best = min(((abs(s - card.starting_space), i, s) for i in range(self.n) for s in spaces
                    if g.fate(i, s) == fate), default=None)
        if best is None:
            return (fate[1] if fate != END else self.n - 1), card.starting_space
        return best[1], best[2]


POOLS = tuple(f.name for f in fields(Gains))
NATURAL, SHIFTED, MOVED = 0, 1, 2
MONOTONE = ("past.", "techs.")


def _monotone(clause: Clause) -> bool:
    """A ``>=`` clause on a counter whose final (or largest) value bounds every earlier one."""
    return clause.op in (">=", "==") and clause.value > 0 and (
        clause.counter.startswith(MONOTONE) or clause.counter in ("lost", "artifacts"))
Fate = tuple[Any, ...]


def relax(st: GameState, phase: Phase, config: RelaxConfig | None = None) -> Relaxed:
    """Build and solve the relaxation of a position at a phase boundary (see the module).

    :raises UnsupportedCardError: a card that can still be played has an effect the model
        cannot bound.
    """
    return Relaxation(st, phase, config or RelaxConfig()).solve()
