"""The engine's fast paths answer exactly as the plain rules they replace (issue 13, deliver 3).

The option generators of the hot decisions (the action phase, Learn, Create) and the score
sheet read shared counts once per call instead of once per card. Here the plain versions, as they
were before, are kept as reference functions, and many random games (fixed seeds; base and Heritage
cards, premade and drawn hands, trials with chests) are played twice in lockstep: once by the
engine's rules and once by a rule table whose option handlers are the references. Every decision
must offer the same options, every position must have the same key, and every game must end with the
same score. At every position the fast helpers are also compared with the references directly, for
every kind filter a nested Create can carry.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from dataclasses import replace

import pytest

from puzzles.cardsets import load_book
from puzzles.trials import trial_setup
from solver.engine import actions as A
from solver.engine import create, learn, turn
from solver.engine.cards import ARTIFACT, CITY, MEGALITH, PYRAMID, CardBook, Clause, Effect, Score
from solver.engine.chests import lightning_options
from solver.engine.conditions import COUNTERS, Counts, count, holds, requirement_met
from solver.engine.create import MONUMENT, any_creatable, creatable, create_cost, legal_spaces
from solver.engine.flow import PHASE_MODULES, Rules
from solver.engine.frames import (
    D_ACTION,
    D_CREATE_CARD,
    D_CREATE_SPACE,
    D_LEARN,
    D_ORDER,
    F_PLACE,
    F_TIMELINE_PHASE,
    Frame,
    Registry,
)
from solver.engine.groups import push_group
from solver.engine.learn import any_learnable, candi_sukuh_in_timeline, learnable
from solver.engine.newgame import new_game
from solver.engine.setup import Setup
from solver.engine.sheet import ScoreSheet
from solver.engine.state import CHEST_BASE, GameState
from solver.rng import Stream

# ---------------------------------------------------------------- the plain rules (references)


def ref_requirement_met(st: GameState, requirement: tuple[Clause, ...], relax_one: bool) -> bool:
    values = [COUNTERS[c.counter](st, -1) for c in requirement]
    failing = [i for i, c in enumerate(requirement) if not c.holds(values[i])]
    if not failing:
        return True
    if not relax_one or len(failing) > 1:
        return False
    c = requirement[failing[0]]
    return c.op == ">=" and values[failing[0]] >= max(0, c.value - 1)


def ref_learnable(st: GameState, ignore_requirements: bool) -> list[int]:
    techs = st.available_techs()
    if ignore_requirements:
        return sorted(techs)
    relax = candi_sukuh_in_timeline(st)
    return sorted(t for t in techs
                  if ref_requirement_met(st, st.book.cards[t].requirement, relax))


def ref_any_learnable(st: GameState) -> bool:
    return bool(ref_learnable(st, False))


def ref_legal_spaces(st: GameState, card: int, payable: int) -> list[int]:
    c = st.book.cards[card]
    spaces = (c.starting_space,) if c.locked else range(1, 7)
    return [s for s in spaces
            if st.has_free_place(s) and create_cost(c.discard_cost, c.starting_space, s) <= payable]


def ref_can_create(st: GameState, card: int, payable: int, kind: int | None,
                   mtype: int | None) -> bool:
    c = st.book.cards[card]
    if c.is_tech:
        return False
    if c.kind == ARTIFACT:
        if kind == MONUMENT:
            return False
        return st.free_artifact_space() >= 0 and c.discard_cost <= payable
    if kind == ARTIFACT or (mtype is not None and c.kind != mtype):
        return False
    return bool(ref_legal_spaces(st, card, payable))


def ref_creatable(st: GameState, kind: int | None, mtype: int | None) -> list[int]:
    payable = len(st.hand) - 1
    return [c for c in st.hand if ref_can_create(st, c, payable, kind, mtype)]


def ref_any_creatable(st: GameState) -> bool:
    return bool(ref_creatable(st, None, None))


def ref_action_options(st: GameState, fr: Frame) -> list[int]:
    out = []
    if ref_any_creatable(st):
        out.append(A.ACT_CREATE)
    if ref_any_learnable(st):
        out.append(A.ACT_LEARN)
    if st.hand:
        out.append(A.ACT_ARCHIVE)
    if len(st.past) > st.rotated:
        out.append(A.ACT_EXCAVATE)
    out.append(A.ACT_SEARCH)
    if st.chests_under:
        out.extend(lightning_options(st))
    return out


def ref_learn_options(st: GameState, fr: Frame) -> list[int]:
    _, optional, ignore, _ = fr
    opts = [A.code(A.CARD, t) for t in ref_learnable(st, ignore)]
    if optional and opts:
        opts.append(A.NO)
    return opts


def ref_create_card_options(st: GameState, fr: Frame) -> list[int]:
    _, kind, mtype, optional, _, source = fr
    if source:
        payable = len(st.hand)
        opts = [A.code(A.CARD, c) for c in source if ref_can_create(st, c, payable, kind, mtype)]
    else:
        opts = [A.code(A.CARD, c) for c in ref_creatable(st, kind, mtype)]
    if optional and opts:
        opts.append(A.NO)
    return opts


def ref_score_rule(st: GameState, rule: Score, source: int) -> int:
    if rule.per is not None:
        return rule.times * count(st, rule.per, source)
    if rule.tiers and rule.counter is not None:
        value = count(st, rule.counter, source)
        vp = 0
        for at_least, points in rule.tiers:
            if value >= at_least:
                vp = points
        return vp
    return rule.fixed


def ref_effect_vp(st: GameState, card: int) -> int:
    return sum(ref_score_rule(st, e.score, card) for e in st.book.cards[card].effects
               if e.score is not None)


def ref_score_sheet(st: GameState) -> ScoreSheet:
    cards = st.book.cards
    return ScoreSheet(
        past=sum(cards[c].vp for c in st.past),
        effects=sum(ref_effect_vp(st, c) for c in st.past),
        technologies=sum(cards[t].vp for t in st.techs),
        timeline=sum(1 for _ in st.monuments()),
        lost_knowledge=-st.lost,
    )


def ref_create_space_options(st: GameState, fr: Frame) -> list[int]:
    return [A.code(A.SPACE, s) for s in ref_legal_spaces(st, fr[1], len(st.hand))]


REFERENCE_OPTIONS = {D_ACTION: ref_action_options, D_LEARN: ref_learn_options,
                     D_CREATE_CARD: ref_create_card_options,
                     D_CREATE_SPACE: ref_create_space_options}


def _with_references(register: Callable[[], Registry]) -> Callable[[], Registry]:
    def patched() -> Registry:
        auto, options, choose = register()
        return auto, {k: REFERENCE_OPTIONS.get(k, f) for k, f in options.items()}, choose
    return patched


#: The rules with the plain option handlers in place of the fast ones.
REFERENCE_RULES = Rules(tuple(_with_references(r) for r in PHASE_MODULES))


def test_the_reference_table_replaces_the_hot_handlers() -> None:
    registered = {k for r in (turn.register, learn.register, create.register) for k in r()[1]}
    assert set(REFERENCE_OPTIONS) <= registered
    assert REFERENCE_RULES.options[D_LEARN] is ref_learn_options


# The plain scans over every effect of every card in play (before the book's per-card tables).


def ref_entering_knowledge(st: GameState, card: int) -> int:
    cards = st.book.cards
    c = cards[card]
    value = c.knowledge
    for e in c.effects:
        d = e.discount
        if d is not None and holds(st, e.condition, card):
            value -= d.fixed if d.per is None else d.times * count(st, d.per, card)
    for x in ref_monuments(st) + ref_board_artifacts(st):
        if x == card:
            continue
        for e in cards[x].effects:
            r = e.reduction
            if r is not None and (r.monument_type is None or r.monument_type == c.kind) \
                    and holds(st, e.condition, x):
                value -= r.amount
    return max(0, value)


def ref_create_group(st: GameState, card: int, space: int,
                     granted_by: int) -> list[tuple[int, int]]:
    """The "each time you CREATE" part of `place`'s group, scanning every effect in play."""
    c = st.book.cards[card]
    cards = st.book.cards
    group: list[tuple[int, int]] = []
    for x in ref_monuments(st) + ref_board_artifacts(st):
        if x == card:
            continue
        for i, e in enumerate(cards[x].effects):
            if e.special == "poulnabrone":
                if c.kind != ARTIFACT and granted_by != x and len(st.past) >= 11:
                    group.append((x, i))
                continue
            t = e.trigger
            if t is None or t.event != "create":
                continue
            if t.kind == ARTIFACT and c.kind != ARTIFACT:
                continue
            if t.kind == MONUMENT and c.kind == ARTIFACT:
                continue
            if t.monument_type is not None and c.kind != t.monument_type:
                continue
            if t.spaces and space not in t.spaces:
                continue
            group.append((x, i))
    return group


def ref_learn_trigger_group(st: GameState, tech: int) -> tuple[tuple[int, int], ...]:
    ttype = st.book.cards[tech].kind
    cards = st.book.cards
    group: list[tuple[int, int]] = []
    for x in ref_monuments(st) + ref_board_artifacts(st):
        for i, e in enumerate(cards[x].effects):
            t = e.trigger
            if (t is not None and t.event == "learn"
                    and (t.tech_type is None or t.tech_type == ttype)):
                group.append((x, i))
    return tuple(group)


def ref_timeline_queue(st: GameState) -> list[tuple[int, int]]:
    cards = st.book.cards
    return [(c, i) for c in ref_monuments(st) + ref_board_artifacts(st)
            for i, e in enumerate(cards[c].effects) if e.moment == "timeline"]


def _check_scans(st: GameState) -> None:
    """The scans that read the book's per-card tables against the plain scans."""
    for t in st.available_techs():
        assert learn.learn_trigger_group(st, t) == ref_learn_trigger_group(st, t)
    probe = st.clone()
    probe.stack = []
    probe.chests_under = []
    turn.timeline_phase(probe, (F_TIMELINE_PHASE,))
    queue = ref_timeline_queue(st)
    assert probe.stack == ([(D_ORDER, tuple(queue), True)] if queue else [])
    free = st.free_spaces()
    for c in st.hand:
        card = st.book.cards[c]
        if card.is_tech:
            continue
        space = 0 if card.kind == ARTIFACT else (free[0] if free else 0)
        if card.kind != ARTIFACT:
            if not space:
                continue
            assert create.entering_knowledge(st, c) == ref_entering_knowledge(st, c)
        elif st.free_artifact_space() < 0:
            continue
        granted_by = st.monuments()[0] if st.monuments() else -1
        fast, ref = st.clone(), st.clone()
        for probe in (fast, ref):
            probe.stack = []
            probe.hand.remove(c)
            probe.limbo.append(c)
        create.place(fast, (F_PLACE, c, space, granted_by))
        ref_place(ref, c, space, granted_by)
        assert fast.key() == ref.key()


def ref_place(st: GameState, card: int, space: int, granted_by: int) -> None:
    """`create.place` with the plain scans."""
    st.limbo.remove(card)
    c = st.book.cards[card]
    if c.kind == ARTIFACT:
        st.artifacts[st.free_artifact_space()] = card
    else:
        st.put_in_space(card, space)
        st.tokens[card] = ref_entering_knowledge(st, card)
    group: list[tuple[int, int]] = []
    for i, e in enumerate(c.effects):
        if e.moment == "immediate" and e.discount is None and not e.opponents_only:
            if e.special == "potala_skip_decline":
                if not st.in_decline:
                    st.potala = True
                continue
            group.append((card, i))
    push_group(st, group + ref_create_group(st, card, space, granted_by))


# ---------------------------------------------------------------- random games in lockstep

MTYPES = (None, CITY, MEGALITH, PYRAMID)
KINDS = (None, MONUMENT, ARTIFACT)


def ref_monuments(st: GameState) -> list[int]:
    return [c for items in st.spaces for c in items if c >= 0]


def ref_board_artifacts(st: GameState) -> list[int]:
    return [a for a in st.artifacts if 0 <= a < CHEST_BASE]


def ref_candi_sukuh_in_timeline(st: GameState) -> bool:
    cards = st.book.cards
    return any(e.special == "candi_sukuh" for c in ref_monuments(st) for e in cards[c].effects)


def _check_zones(st: GameState) -> None:
    """The zone scans of the state (joined places, builtin filters) against plain loops."""
    assert st.monuments() == ref_monuments(st)
    assert st.board_artifacts() == ref_board_artifacts(st)
    assert st.in_play() == ref_monuments(st) + ref_board_artifacts(st)
    assert st.free_spaces() == [s for s, items in enumerate(st.spaces, 1) if len(items) < 2]
    for c in range(len(st.book.cards)):
        assert st.in_timeline(c) == any(c in items for items in st.spaces)
    assert candi_sukuh_in_timeline(st) == ref_candi_sukuh_in_timeline(st)
    cards = st.book.cards
    zones = {"past": st.past, "techs": st.techs, "timeline": ref_monuments(st)}
    names = {"past": ("city", "megalith", "pyramid"), "timeline": ("city", "megalith", "pyramid"),
             "techs": ("ancient", "secret", "writing")}
    for zone, members in zones.items():
        for kind, name in enumerate(names[zone]):
            plain = sum(1 for c in members if cards[c].kind == kind)
            assert COUNTERS[f"{zone}.{name}"](st, -1) == plain
            assert Counts(st).of(f"{zone}.{name}") == plain
            if zone == "past":
                assert st.count_past(kind) == plain


def _check_helpers(st: GameState) -> None:
    """The fast helpers against the references on one position."""
    _check_zones(st)
    _check_scans(st)
    assert st.score() == ref_score_sheet(st)
    counts = Counts(st)
    for name in sorted(COUNTERS):  # every counter twice: computed, then remembered
        for _ in range(2):
            assert counts.of(name) == COUNTERS[name](st, -1), name
    assert learnable(st, False) == ref_learnable(st, False)
    assert learnable(st, True) == ref_learnable(st, True)
    assert any_learnable(st) == ref_any_learnable(st)
    assert any_creatable(st) == ref_any_creatable(st)
    for kind in KINDS:
        for mtype in MTYPES:
            assert creatable(st, kind, mtype) == ref_creatable(st, kind, mtype)
    for c in st.hand:
        if not st.book.cards[c].is_tech:
            for payable in range(len(st.hand) + 1):
                assert legal_spaces(st, c, payable) == ref_legal_spaces(st, c, payable)
    cards = st.book.cards
    for t in st.available_techs():
        for relax in (False, True):
            assert requirement_met(st, cards[t].requirement, relax) == \
                ref_requirement_met(st, cards[t].requirement, relax)


def _setups(book: CardBook, n: int) -> Iterator[Setup]:
    sets = tuple(book.sets)
    for g in range(n):
        match g % 4:
            case 0:
                yield Setup(hand="draw", seed=g, card_sets=sets)
            case 1:
                yield Setup(hand=str(1 + g % 3), seed=g, card_sets=sets)
            case 2:
                yield trial_setup(1 + g % 10, hand="draw", seed=g, card_sets=sets)
            case _:
                yield trial_setup(1 + g % 10, hand=str(1 + g % 4), seed=g, card_sets=sets)


def _lockstep(book: CardBook, setup: Setup, seed: int) -> int:
    """Play one random game by both rule tables; return the decisions played."""
    fast = new_game(setup, book)
    ref = fast.clone()
    stream = Stream(seed, "fast-paths", 0)
    decisions = 0
    while not fast.is_terminal():
        _check_helpers(fast)
        fr = fast.stack[-1]
        assert REFERENCE_RULES.options[fr[0]](ref, ref.stack[-1]) == fast.legal
        assert fast.key() == ref.key()
        legal = fast.legal
        action = legal[stream.below(len(legal))]
        fast.apply(action)
        REFERENCE_RULES.apply(ref, action)
        assert fast.legal == ref.legal
        decisions += 1
    assert ref.is_terminal()
    assert fast.key() == ref.key()
    assert fast.score() == ref.score() == ref_score_sheet(ref)
    assert fast.feasible() == ref.feasible()
    return decisions


@pytest.mark.parametrize("sets", [["base"], ["base", "heritage"]])
def test_random_games_play_alike_with_the_fast_and_the_plain_options(sets: list[str]) -> None:
    book = load_book(sets)
    played = sum(_lockstep(book, setup, 1000 + g) for g, setup in enumerate(_setups(book, 40)))
    assert played > 40 * 30  # whole games, not a few steps


def test_candi_sukuh_relaxes_a_requirement_in_both_versions() -> None:
    """Random games rarely hold Candi Sukuh while a requirement fails by one: force it (D19)."""
    book = load_book(["base"])
    candi = next(c.index for c in book.cards
                 if any(e.special == "candi_sukuh" for e in c.effects))
    checked = 0
    for g in range(30):
        st = new_game(Setup(hand="1", seed=g), book)
        stream = Stream(g, "candi", 0)
        while not st.is_terminal():
            if not st.in_timeline(candi):
                probe = st.clone()
                for s in range(1, 7):
                    if probe.has_free_place(s):
                        for zone in (probe.hand, probe.deck, probe.discard, probe.past):
                            if candi in zone:
                                zone.remove(candi)
                        probe.put_in_space(candi, s)
                        break
                if probe.in_timeline(candi):
                    _check_helpers(probe)
                    checked += 1
            st.apply(st.legal[stream.below(len(st.legal))])
    assert checked > 100


# ---------------------------------------------------------------- the remembered score sheet


def _late(book: CardBook, seed: int) -> GameState:
    """A random position late in the game (turn 14)."""
    st = new_game(Setup(hand="1", seed=seed), book)
    stream = Stream(seed, "memo", 0)
    while st.turn < 14:
        st.apply(st.legal[stream.below(len(st.legal))])
    return st


def test_the_remembered_sheet_follows_every_fact_of_its_key() -> None:
    """Each fact the sheet is keyed by, changed alone, gives a fresh sheet (not the memo)."""
    book = load_book(["base"])
    tested = 0
    for seed in range(10):
        st = _late(book, seed)
        if not (st.past and st.techs and st.monuments()):
            continue
        tested += 1
        changes: list[Callable[[GameState], object]] = [
            lambda s: setattr(s, "lost", s.lost + 3),
            lambda s: s.past.pop(0),
            lambda s: s.techs.pop(),
            lambda s: s.take_from_timeline(s.monuments()[0]),
            lambda s: s.past.append(s.monuments()[0]),  # a card in two zones: still re-counted
        ]
        for change in changes:
            probe = st.clone()
            assert probe.score() == ref_score_sheet(probe)  # remembered now
            change(probe)
            assert probe.score() == ref_score_sheet(probe)
            assert st.score() == ref_score_sheet(st)  # the original keeps its own sheet
    assert tested >= 5


def test_a_rule_reading_other_facts_is_never_remembered() -> None:
    """An end-game rule that reads the hand (not in the key) is computed at every call."""
    book = load_book(["base"])
    st = _late(book, 3)
    card = book.cards[st.past[0]]
    per_hand = Effect(moment="endgame", score=Score(per="hand", times=2))
    cards = list(book.cards)
    cards[card.index] = replace(card, effects=card.effects + (per_hand,))
    other = CardBook(tuple(cards), book.sets)
    st.book = other
    st.score_memo = None
    first = st.score()
    assert first == ref_score_sheet(st)
    assert st.score_memo is None
    st.hand.append(st.deck.pop() if st.deck else st.discard.pop())
    assert st.score() == ref_score_sheet(st) != first
