"""The proof code's dominance rules (`solver.guidance.dominance`), tests that a mutation run found
missing: each rule's edge on a small hand-built position, where pruning an option would lose a
better line (so `prune` must keep every option) or where the rule is argued to prune (so it
does), and the helpers that decide what commutes (`footprint`, `_reads`, `_meets`,
`_pure_draw`) on the effects of the shipped cards.

Positions are in the last turn (RULES.md section 4, D8: the game ends at its decline phase, so
the Timeline phase's effects are the last ones) unless a rule needs an earlier one.
"""

from __future__ import annotations

import inspect
from collections.abc import Mapping, Sequence

import pytest

from solver.engine import actions as A
from solver.engine import flow
from solver.engine.cards import Clause, Effect, Step
from solver.engine.frames import (
    D_ARCHIVE,
    D_DECLINE_ORDER,
    D_ORDER,
    D_PAY,
    D_REMOVE,
    D_TARGET,
)
from solver.engine.state import CHEST_BASE, GameState
from solver.game import HeritageGame
from solver.guidance.dominance import (
    DRAW,
    EVERYTHING,
    INERT,
    LOST_REMOVAL,
    OTHER,
    _meets,
    _pure_draw,
    _reads,
    footprint,
    prune,
)
from solver.guidance.endgame import token_readers, tokens_dead
from solver.search.exhaustive import SearchConfig, search
from solver.search.protocol import PlainGame
from solver.search.status import Status
from tests.builder import book, idx, names_of, play, position


def kept(st: GameState) -> list[str]:
    """The options of the pending decision the game's dominance rules keep, in notation."""
    legal = st.legal_actions()
    return [st.action_to_string(a) for a in HeritageGame().dominance.prune(st, legal)]


def timeline_phase(timeline: Mapping[int, Sequence[str]], artifacts: Sequence[str] = (),
                   lost: int = 0, hand: Sequence[str] = (),
                   tokens: Mapping[str, int] | None = None) -> GameState:
    """The last turn's Timeline phase with its queue formed (one monument in the Past, which
    C9 and A10 ask for)."""
    st = position(hand=list(hand), timeline=timeline, artifacts=list(artifacts), lost=lost,
                  tokens=tokens, past=["C20"], time_space=1, time_visits=2, turn=16,
                  phase="timeline")
    assert st.stack[-1][0] == D_ORDER and st.stack[-1][2]
    return st


def after(st: GameState, *moves: str) -> GameState:
    """`st` after `moves`, then the first option of every decision until the game ends."""
    out = play(st.clone(), *moves)
    while not out.is_terminal():
        out.apply(out.legal_actions()[0])
    return out


def optima(st: GameState) -> tuple[float | None, float | None]:
    """The proven optima of complete searches from `st`: with the game's hooks and dominance
    rules, and with none (no bound, no dominance, the exact key)."""
    game = HeritageGame()
    res = search(st.clone(), SearchConfig(max_nodes=20_000), order=game.order(st, []),
                 game=game)
    plain = search(st.clone(), SearchConfig(max_nodes=20_000), game=PlainGame())
    assert res.status == plain.status == Status.OPTIMAL
    return res.value, plain.value


def effect(code: str, i: int = 0) -> Effect:
    b = book()
    return b.cards[idx(b, code)].effects[i]


# ------------------------------------------------------------------ Rule 1: decline order


def test_decline_order_kept_when_a_decline_effect_reads_what_the_other_decline_changes() -> None:
    """Rule 1 only thins the decline order of monuments with no decline effect (section 4C
    step 2, D15). Step Pyramid (M13: remove 15 lost knowledge if there are 20 or more) and
    C16 (draw 4) in space 1, 16 lost, 5 knowledge on C16: C16 first makes 21 lost, then M13
    removes 15 (6 lost); M13 first finds 16 and does nothing (21 lost). M13 is the first
    option, so keeping only it would lose 15 VP."""
    st = position(hand=["C1"], timeline={1: ["M13", "C16"], 3: ["C3"]},
                  tokens={"C16": 5, "C3": 1}, lost=16, time_space=3, turn=8, phase="decline")
    assert st.stack[-1][0] == D_DECLINE_ORDER
    assert names_of(st) == ["!M13", "!C16"]
    assert kept(st) == ["!M13", "!C16"]
    declined = [play(st.clone(), first) for first in ("!M13", "!C16")]
    assert [s.turn for s in declined] == [9, 9]  # both declines resolved
    assert [s.lost for s in declined] == [21, 6]


def test_decline_order_thinned_without_decline_effects() -> None:
    """Rule 1: two monuments in space 1 whose declines only move their knowledge to lost
    knowledge and the card to the Past (C5: an end-game score; M9: a decline effect that only
    targets opponents, nothing in solo, section 4) reach the same state in either order: one
    option is searched."""
    st = position(hand=["C1"], timeline={1: ["M9", "C5"], 3: ["C3"]},
                  tokens={"M9": 2, "C5": 3, "C3": 1}, lost=4, time_space=3, turn=8,
                  phase="decline")
    assert names_of(st) == ["!M9", "!C5"]
    assert kept(st) == ["!M9"]
    a, b = (play(st.clone(), first) for first in ("!M9", "!C5"))
    assert a.key() == b.key()


# ------------------------------------------------------------------ Rules 2 and 3: Timeline order


def test_two_lost_removals_one_reading_lost_keep_both_orders() -> None:
    """M29 removes 1 lost knowledge if there are at least 5, M31 removes 1: with 5 lost, M29
    first removes 2 in all, M31 first only 1 (M29 then reads 4). Neither is a pure draw (Rule 2)
    and M29's condition reads what M31 changes (Rule 3), so both orders stay; M31 is the first
    option. The proven optimum is the line with M29 first (3 lost, -3 VP)."""
    st = timeline_phase({2: ["M31"], 3: ["M29"]}, lost=5)
    assert names_of(st) == ["!M31", "!M29"]
    assert kept(st) == ["!M31", "!M29"]
    assert after(st, "!M31").lost == 4 and after(st, "!M29").lost == 3
    best = after(st, "!M29").score().total
    assert after(st, "!M31").score().total == best - 1
    assert optima(st) == (best, best)


def test_a_draw_reading_lost_and_a_lost_removal_keep_both_orders() -> None:
    """C9 draws 1 if there are at most 2 lost knowledge; M31 removes 1 lost knowledge. With 3
    lost, M31 first lets C9 draw, C9 first does not: C9 reads what M31 changes (Rule 3: a draw
    and a lost removal commute only when neither reads what the other changes), so neither
    option is searched alone."""
    st = timeline_phase({2: ["C9"], 3: ["M31"]}, lost=3, hand=["C1"])
    assert kept(st) == ["!C9", "!M31"]
    assert len(after(st, "!M31").hand) == 2 and len(after(st, "!C9").hand) == 1


@pytest.mark.parametrize("spaces", [("C9", "P31", "M31"), ("P31", "C9", "M31")])
def test_rule3_searches_alone_the_effect_that_commutes_with_every_other(
        spaces: tuple[str, ...]) -> None:
    """Rule 3 (D15): P31 (draw 1) commutes with C9 (draw 1 with at most 2 lost, a condition
    that reads no hand) and with M31 (remove 1 lost), so only P31's option is searched, wherever
    it stands in the queue; C9 does not commute with M31 (with 3 lost the order decides whether
    C9 draws), so neither of them may be the one option kept."""
    st = timeline_phase({2 + k: [code] for k, code in enumerate(spaces)}, lost=3, hand=["C1"])
    assert names_of(st) == [f"!{c}" for c in spaces]
    assert kept(st) == ["!P31"]


def test_rule2_prunes_a_queue_of_pure_draws() -> None:
    """Rule 2 (section 4B, D4): P31 (draw 1) and A5 (draw 1 with 3 artifacts on the board) are
    both pure draws: only fixed draws, no condition on the hand; one order is searched. (Rule 3
    alone would keep both: A5's condition reads a counter it does not place, so everything.)"""
    st = timeline_phase({2: ["P31"]}, artifacts=["A5"])
    assert names_of(st) == ["!P31", "!A5"]
    assert kept(st) == ["!P31"]


def test_a_draw_with_a_hand_condition_is_no_pure_draw() -> None:
    """A35 draws 1 if the hand holds 0 or 1 card: with one card in hand, A35 before P31 draws
    2 cards in all, after P31 only 1. A condition on the hand makes A35 no pure draw (Rule 2)
    and keeps it from commuting with a draw (Rule 3): both orders stay."""
    st = timeline_phase({2: ["P31"]}, artifacts=["A35"], hand=["C1"])
    assert kept(st) == ["!P31", "!A35"]
    assert len(after(st, "!A35").hand) == 3 and len(after(st, "!P31").hand) == 2


def test_rule3_prunes_lost_removals_whose_conditions_read_the_past() -> None:
    """Rule 3 (D22): M30 (remove 1 lost knowledge if the Past holds 3 megaliths; a condition
    on the Past) and M31 (remove 1): ``max(0, lost - 1 - 1)`` in either order; one is searched."""
    st = timeline_phase({2: ["M30"], 3: ["M31"]}, lost=5)
    assert kept(st) == ["!M30"]


def test_rule3_with_dead_tokens_leaves_knowledge_removals_out() -> None:
    """Rule 3 once the tokens are dead (after the last decline, nothing reads them): P30 only
    removes knowledge (inert), and A2's removal is left out of its footprint (a draw whose
    condition reads the Timeline), so P31 (draw 1) commutes with both and is searched alone."""
    st = timeline_phase({2: ["P31"], 3: ["P30"], 4: ["C3"]}, artifacts=["A2"], tokens={"C3": 2})
    assert tokens_dead(st, token_readers(st))
    assert names_of(st) == ["!P31", "!P30", "!A2"]
    assert kept(st) == ["!P31"]


def test_rule3_asks_whether_tokens_are_dead_for_a_removal_inside_another_effect() -> None:
    """Rule 3 with dead tokens and no effect of the queue that only removes knowledge: A2 draws
    and removes knowledge; its removal, dead, is left out of its footprint, so P31 (draw 1)
    commutes with it and is searched alone; and the search keeps the optimum."""
    st = timeline_phase({2: ["P31"], 4: ["C3"]}, artifacts=["A2"], tokens={"C3": 2})
    assert tokens_dead(st, token_readers(st))
    assert names_of(st) == ["!P31", "!A2"]
    assert kept(st) == ["!P31"]
    best, plain = optima(st)
    assert best == plain


def test_a_chest_effect_in_the_queue_commutes_with_nothing() -> None:
    """A Timeline chest under the board joins the queue after the cards' effects (source
    ``CHEST_BASE + k``, RULES.md section 8, D15, D16) and counts as reading and changing
    everything: next to two draws that commute with each other, no option is searched alone."""
    st = timeline_phase({2: ["P31"], 3: ["C9"]}, lost=1)
    queue = (*st.stack[-1][1], (CHEST_BASE, 0))
    st.stack[-1] = (D_ORDER, queue, True)
    flow.settle(st)
    legal = st.legal_actions()
    assert [A.kind_of(a) for a in legal] == [A.ORDER, A.ORDER, A.CHEST]
    assert list(prune(st, legal)) == list(legal)
    assert list(HeritageGame().dominance.prune(st, legal)) == list(legal)



def test_a_create_group_with_dead_tokens_searches_the_removal_alone() -> None:
    """Rule 3 in a Create's group (section 5 Create, D15: the created card's immediate effect
    and the "each time you CREATE" effects resolve in the player's order): in the last turn P18's
    removal only changes tokens, and they are dead (A13, a Timeline reader of tokens, is in the
    deck too deep to be drawn before the Timeline phase: the game's deck takes), so it commutes
    with A22's draw (a trigger: everything) and is searched alone. Without the takes count A13
    might still enter play and both stay."""
    st = position(hand=["P18", "C1"], timeline={2: ["C3"], 3: ["M3"]}, tokens={"C3": 2, "M3": 2},
                  artifacts=["A22"], past=["C20"], time_space=1, time_visits=2, turn=16)
    play(st, "create", "P18", "s1")
    assert st.stack[-1][0] == D_ORDER and names_of(st) == ["!P18", "!A22"]
    assert list(prune(st, st.legal_actions())) == st.legal_actions()
    assert kept(st) == ["!P18"]


# ------------------------------------------------------------------ Rule 4: dead removals


def test_dead_removal_with_a_timeline_reader_deep_in_the_deck() -> None:
    """Rule 4 with the game's deck takes: in the last turn an Archive's removal may go to C3 or
    C4; A13 (a Timeline reader of tokens) is in the deck but too deep to be drawn before the
    Timeline phase, so the tokens are dead and one option is searched (without the takes count,
    A13 might enter play: both stay)."""
    st = position(hand=["C1", "C2"], timeline={2: ["C3"], 3: ["C4"]}, tokens={"C3": 2, "C4": 2},
                  past=["C20"], time_space=1, time_visits=2, turn=16)
    play(st, "archive", "C1", "done")
    assert st.stack[-1][0] in (D_REMOVE, D_TARGET)
    assert names_of(st) == ["@C3", "@C4"]
    game = HeritageGame()
    assert not tokens_dead(st, token_readers(st))
    assert tokens_dead(st, token_readers(st), game.readers.takes)
    assert [st.action_to_string(a) for a in game.dominance.prune(st, st.legal_actions())] == [
        "@C3"]


# ------------------------------------------------------------------ Rule 5: cards alike


def last_turn_one_action(hand: Sequence[str]) -> GameState:
    """The last turn with one action left (no Create can follow it: the cards are alike)."""
    st = position(hand=list(hand), timeline={2: ["M3"], 3: ["P4"]}, tokens={"M3": 1, "P4": 2},
                  past=["C9", "M9", "P9"], time_space=1, time_visits=2, turn=16,
                  deck_top=["C10", "C11", "M10"])
    st.stack.pop()
    return st


def test_rule5_keeps_done_and_the_next_smallest_card() -> None:
    """Rule 5 (section 5 Archive): once the cards are alike, each pick offers the smallest card
    left and ``done`` stays, so every number of cards archived is still searched."""
    st = last_turn_one_action(["C3", "C4", "C5", "C6"])
    play(st, "archive")
    assert st.stack[-1][0] == D_ARCHIVE
    assert kept(st) == ["C3"]
    play(st, "C3")
    assert names_of(st) == ["C4", "C5", "C6", "done"]
    assert kept(st) == ["C4", "done"]


def test_rule5_after_a_larger_card_was_paid_keeps_one_option() -> None:
    """Rule 5 (section 5 Create): a payment that passed over the smallest card (C4 stays in hand
    while C5 was paid) is a set searched elsewhere: of the cards offered, one option is kept."""
    st = last_turn_one_action(["C3", "C4", "C5", "C6", "C7"])
    play(st, "create", "C3")
    st.apply(next(a for a in st.legal_actions() if A.value_of(a) == 5))  # its own space
    assert st.stack[-1][0] == D_PAY
    play(st, "C5")
    assert names_of(st) == ["C6", "C7"]
    assert kept(st) == ["C6"]


# ------------------------------------------------------------------ what commutes


def test_reads_maps_each_counter_to_its_zone() -> None:
    """`_reads` (Rule 3): a condition's counter reads its zone (RULES.md section 2): the hand,
    lost knowledge, tokens, the Past, the Timeline, the technologies; any other counter
    (artifacts on the board, space 1, adjacent monuments) reads everything."""
    assert {c: _reads(c) for c in ("hand", "hand.artifact", "lost", "tl_tokens", "self.tokens",
                                    "past.megalith", "past.any", "timeline.city",
                                    "timeline.min_type", "techs.writing", "techs.any",
                                    "artifacts", "space1", "adj.pyramid")} == {
        "hand": "hand", "hand.artifact": "hand", "lost": "lost", "tl_tokens": "tokens",
        "self.tokens": "tokens", "past.megalith": "past", "past.any": "past",
        "timeline.city": "timeline", "timeline.min_type": "timeline", "techs.writing": "techs",
        "techs.any": "techs", "artifacts": EVERYTHING, "space1": EVERYTHING,
        "adj.pyramid": EVERYTHING}


def test_everything_meets_any_zone() -> None:
    """`_meets`: "everything" meets every non-empty set of zones, on either side; nothing meets
    nothing."""
    every, lost = frozenset({EVERYTHING}), frozenset({"lost"})
    assert _meets(every, lost) and _meets(lost, every)
    assert _meets(frozenset({"past", EVERYTHING}), lost)
    assert _meets(lost, frozenset({"hand", EVERYTHING}))
    assert not _meets(frozenset(), every) and not _meets(every, frozenset())
    assert not _meets(lost, frozenset({"hand", "deck"}))


def test_footprints_of_shipped_effects() -> None:
    """`footprint` (Rule 3): a fixed draw reads its condition's zones and the hand and deck and
    changes the hand and deck; a lost removal reads its condition's zones and lost knowledge;
    once the tokens are dead a knowledge removal is left out (A2: a draw; P30: inert); a
    trigger (A17: draw 2 each time you learn a writing technology), a special or an effect
    with no steps counts as everything."""
    c9 = footprint(effect("C9"), False)
    assert (c9.kind, c9.condition) == (DRAW, frozenset({"lost", "past"}))
    assert c9.reads == frozenset({"lost", "past", "hand", "deck"})
    assert c9.writes == frozenset({"hand", "deck"})
    m30 = footprint(effect("M30"), False)
    assert (m30.kind, m30.reads, m30.writes) == (
        LOST_REMOVAL, frozenset({"past", "lost"}), frozenset({"lost"}))
    a2_dead = footprint(effect("A2"), True)
    assert (a2_dead.kind, a2_dead.reads) == (DRAW, frozenset({"timeline", "hand", "deck"}))
    assert footprint(effect("A2"), False).kind == OTHER
    assert footprint(effect("P30"), True).kind == INERT
    assert footprint(effect("A17"), True).kind == OTHER
    draw = Step(op="draw", n=1)
    assert footprint(Effect(moment="timeline", special="phaistos_disc", steps=(draw,)),
                     True).kind == OTHER
    assert footprint(Effect(moment="timeline"), True).kind == OTHER


def test_pure_draws_of_shipped_effects() -> None:
    """`_pure_draw` (Rule 2): fixed draws with no condition on the hand (P31; C9 and A5 with
    other conditions); not a draw with a hand condition (A35), a trigger (A17), a lost removal
    (M31), a removal and a draw (A2), a payment (A8), an optional effect or step."""
    assert all(_pure_draw(effect(c)) for c in ("P31", "C9", "A5", "A10"))
    assert not any(_pure_draw(effect(c)) for c in ("A35", "A17", "M31", "A2", "A8"))
    draw = Step(op="draw", n=1)
    assert not _pure_draw(Effect(moment="timeline", steps=(draw,), optional=True))
    assert not _pure_draw(Effect(moment="timeline", steps=(Step(op="draw", n=1,
                                                                 optional=True),)))
    assert not _pure_draw(Effect(moment="timeline",
                                 condition=(Clause("hand.artifact", ">=", 1),), steps=(draw,)))
    assert not _pure_draw(Effect(moment="timeline", steps=(Step(op="draw", per="paid"),)))


# ------------------------------------------------------------------ the readers kept per game


@pytest.mark.skipif(not inspect.isfunction(prune),
                    reason="a patched module name cannot reach the compiled build's calls")
def test_rules_3_and_4_read_the_token_readers_the_game_keeps(
        monkeypatch: pytest.MonkeyPatch) -> None:
    """Rules 3 and 4 ask whether the tokens are dead (`tokens_dead`) with the token readers the
    game keeps (`Dominance.readers`, worked out once per game): working them out again at every
    removal and every queue with a removal gives the same options but costs about 125 us each
    (it made a small end-game search 2.4 times slower). The calls are counted by replacing the
    module's name `token_readers`, which only the pure build sees (skipped on the compiled
    one)."""
    calls: list[GameState] = []

    def counted(st: GameState) -> object:
        calls.append(st)
        return token_readers(st)

    monkeypatch.setattr("solver.guidance.dominance.token_readers", counted)
    removal = position(hand=["C1", "C2"], timeline={2: ["C3"], 3: ["C4"]},
                       tokens={"C3": 2, "C4": 2}, past=["C20"], time_space=1, time_visits=2,
                       turn=16)
    play(removal, "archive", "C1", "done")
    queue = timeline_phase({2: ["P31"], 3: ["P30"], 4: ["C3"]}, artifacts=["A2"],
                           tokens={"C3": 2})
    game = HeritageGame()
    assert [removal.action_to_string(a)
            for a in game.dominance.prune(removal, removal.legal_actions())] == ["@C3"]
    assert [queue.action_to_string(a)
            for a in game.dominance.prune(queue, queue.legal_actions())] == ["!P31"]
    assert calls == []
    prune(queue, queue.legal_actions())  # no readers given: `prune` works them out
    assert len(calls) == 1
