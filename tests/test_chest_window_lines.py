"""The lightning window between two effects that resolve in the player's order (RULES.md
section 8 "at any moment", D15; `solver.engine.chests`, moment 3) and what it changes outside
the engine: line files of format 1 and 2, written before it existed, are read with ``done``
there (`puzzles.lines`, format 3); raw action lists of benchmark tables likewise
(`puzzles.lines.actions_of_format`); the turn's phrase tells a chest used there; and the
dominance rules that reorder a queue hold only while no lightning chest is usable."""

from __future__ import annotations

import copy
from typing import Any

from puzzles.deal import build_setup, load_cards
from puzzles.lines import actions_of_format, replay
from solver.bounds.windowwork import early_create
from solver.engine import actions as A
from solver.engine import flow
from solver.engine.actions import CHEST_LETTERS
from solver.engine.chests import SINCE_BETWEEN, SINCE_STEPS, window_between, window_since
from solver.engine.describe import describe_line
from solver.engine.frames import (
    D_CHEST_WINDOW,
    D_ORDER,
    F_DECLINE_PHASE,
    F_TECH_PHASE,
    F_TIMELINE_PHASE,
    F_TURN_END,
)
from solver.engine.record import LINE_FORMAT, GameRecord
from solver.guidance.dominance import prune
from solver.rng import Stream
from tests.builder import idx, position
from tests.test_chests import with_chests

BOOK, SETS = load_cards(["base"])


def _to_window(use: str | None) -> tuple[GameRecord, list[int], list[int]]:
    """Trial 1 (chest Б under the board), hand 1, seed 16: random play reaches a window
    between two Timeline effects in turn 1; `use` is taken there (``!chest:Б`` or ``done``),
    then the first option of every decision to the end. Also the actions and the positions
    (indices into them) taken at windows between two effects."""
    setup = build_setup(BOOK, SETS, hand="1", seed=16, trial=1)
    rec = GameRecord.new(setup, BOOK)
    st, rng = rec.state, Stream(16, "t")
    actions: list[int] = []
    at_windows: list[int] = []
    while not window_between(st):
        a = st.legal[rng.below(len(st.legal))]
        actions.append(a)
        rec.apply(a)
    while not st.is_terminal():
        if window_between(st):
            at_windows.append(len(actions))
            a = st.string_to_action(use) if use is not None and len(at_windows) == 1 \
                else A.DONE
        else:
            a = st.legal[0]
        actions.append(a)
        rec.apply(a)
    return rec, actions, at_windows


def test_the_window_opens_between_two_timeline_effects_of_a_real_deal() -> None:
    """RULES.md section 8 ("at any moment") and D15 (effects in the player's order): on a dealt
    trial game the window opens between two waiting Timeline effects, offering the usable
    lightning chest or ``done``, and a line answering it replays to the end."""
    rec, _, at_windows = _to_window("done")
    assert at_windows  # (the first one is in turn 1)
    replayed = GameRecord.new(rec.setup, BOOK)
    seen = 0
    for turn in rec.line:
        for text in turn:
            st = replayed.state
            if window_between(st):
                assert st.stack[-1] == (D_CHEST_WINDOW, SINCE_BETWEEN)
                assert st.stack[-2][0] == D_ORDER
                assert st.legal == [A.code(A.CHEST, CHEST_LETTERS.index("Б")), A.DONE]
                seen += 1
            replayed.apply_notation(text)
    assert seen == len(at_windows) and replayed.state.is_terminal()


def _without_window_decisions(rec: GameRecord) -> list[list[str]]:
    """The line of `rec` as an engine of format 2 wrote it: the ``done`` answers at windows
    between two effects left out."""
    out: list[list[str]] = []
    walk = GameRecord.new(rec.setup, BOOK)
    for turn in rec.line:
        kept = []
        for text in turn:
            if not (window_between(walk.state) and text == "done"):
                kept.append(text)
            walk.apply_notation(text)
        out.append(kept)
    return out


def test_a_format_2_line_is_read_with_done_between_two_effects() -> None:
    rec, _, _ = _to_window("done")
    new = rec.to_json()
    assert new["format"] == LINE_FORMAT == 4
    old: dict[str, Any] = copy.deepcopy(new)
    old["format"] = 2
    old["line"] = _without_window_decisions(rec)
    assert old["line"] != new["line"]
    record, error = replay(old)
    assert error is None and record is not None
    assert record.line == new["line"]  # read as the current format writes it
    # The same decisions claimed as format 3 miss the window's answer.
    claimed3 = dict(old, format=3)
    _, error = replay(claimed3)
    assert error is not None and "use a lightning chest" in error


def test_a_raw_line_of_an_older_table_gets_done_at_each_window() -> None:
    rec, actions, at_windows = _to_window("done")
    old = [a for i, a in enumerate(actions) if i not in set(at_windows)]
    root = GameRecord.new(rec.setup, BOOK).state
    assert actions_of_format(root, old, 2) == actions
    assert actions_of_format(root, actions, 3) == actions


def _keeping_the_chests(trial: int, seed: int) -> tuple[GameRecord, list[int], list[int]]:
    """A dealt game of `trial` in random play that never uses a chest (``done`` at every
    window, no chest before an action); also its actions and the positions (indices into
    them) taken at the windows of line-file format 4 (`solver.engine.chests.SINCE_STEPS`)."""
    setup = build_setup(BOOK, SETS, hand="1", seed=seed, trial=trial)
    rec = GameRecord.new(setup, BOOK)
    st, rng = rec.state, Stream(seed, "keep")
    actions: list[int] = []
    at_new: list[int] = []
    while not st.is_terminal():
        if window_since(st) == SINCE_STEPS:
            at_new.append(len(actions))
        legal = [a for a in st.legal if A.kind_of(a) != A.CHEST]
        a = A.DONE if A.DONE in legal and st.stack[-1][0] == D_CHEST_WINDOW else legal[
            rng.below(len(legal))]
        actions.append(a)
        rec.apply(a)
    return rec, actions, at_new


def test_a_format_3_line_is_read_with_done_at_the_decline_phase_windows() -> None:
    """Line files of format 3 were written before the windows where the time card left space 1,
    after the last decline and before the flip (format 4): read with ``done`` there, as a
    line file and as a raw action list."""
    rec, actions, at_new = _keeping_the_chests(3, 5)
    assert len(at_new) >= 2  # (the time card leaves space 1 twice; declines every turn)
    old = [a for i, a in enumerate(actions) if i not in set(at_new)]
    root = GameRecord.new(rec.setup, BOOK).state
    assert actions_of_format(root, old, 3) == actions
    assert actions_of_format(root, actions, 4) == actions
    new = rec.to_json()
    claimed3: dict[str, Any] = dict(copy.deepcopy(new), format=3)
    walk = GameRecord.new(rec.setup, BOOK)
    claimed3["line"] = []
    for turn in rec.line:
        kept = []
        for text in turn:
            if window_since(walk.state) != SINCE_STEPS:
                kept.append(text)
            walk.apply_notation(text)
        claimed3["line"].append(kept)
    record, error = replay(claimed3)
    assert error is None and record is not None and record.line == new["line"]


def test_a_chest_used_between_two_effects_is_told_in_the_phase_phrase() -> None:
    rec, _, _ = _to_window("!chest:Б")
    reports = describe_line(rec.setup, BOOK, rec.line)
    phrases = [p for r in reports if r.turn == 1 for p in r.phrases]
    timeline = [p for p in phrases if p.startswith("Timeline phase: ")]
    assert len(timeline) == 1
    used = timeline[0].index("Use chest Б")
    assert 0 < used < timeline[0].index("Then ")  # between the first effect and the next
    assert not any(p.startswith("Use chest") for p in phrases)  # no phrase of its own


def test_a_pure_draw_queue_is_searched_in_full_while_a_lightning_chest_is_usable() -> None:
    """Rule 2 (and 3) of `solver.guidance.dominance`: two Timeline draws commute, so one order
    is searched; with chest Б usable between them (it may change anything) both are."""
    def queued(chests: bool) -> list[int]:
        st = position(hand=["C1"], timeline={3: ["P31"]}, artifacts=["A5"],
                      phase="decline")
        if chests:
            with_chests(st, under=("Б",))
        st.stack = [*st.stack[:1], (D_ORDER, ((idx(st, "P31"), 0), (idx(st, "A5"), 0)), True)]
        legal = [A.ORDER_CODE | idx(st, "P31"), A.ORDER_CODE | idx(st, "A5")]
        return list(prune(st, legal))
    assert len(queued(False)) == 1
    assert len(queued(True)) == 2


def test_no_window_between_effects_without_a_chest_under_the_board() -> None:
    """Section 8: the window offers chests under the board; with none, the Timeline phase's
    effects (section 4B, D15) follow one another with no decision between them."""
    st = position(hand=["C1"], timeline={3: ["P31"]}, artifacts=["A5"], phase="decline")
    st.stack = [*st.stack[:1], (F_TIMELINE_PHASE,)]
    flow.settle(st)
    assert st.stack[-1][0] == D_ORDER
    st.apply(st.legal[0])
    assert not window_between(st) and all(fr[0] != D_CHEST_WINDOW for fr in st.stack)


def test_the_window_bound_takes_a_chest_create_between_two_effects_as_early() -> None:
    """`solver.bounds.windowwork.early_create`: with Timeline effects still waiting in an
    order, chest Ж may create a monument in the window between two of them, so the later
    effects' conditions on the Timeline's counts are taken as holding."""
    def mid_queue(under: tuple[str, ...]) -> bool:
        st = position(hand=["C1", "C2"], timeline={3: ["P31"]}, artifacts=["A5"],
                      phase="decline")
        if under:
            with_chests(st, under=under)
        st.stack = [(F_TURN_END,), (F_TECH_PHASE,), (D_CHEST_WINDOW,), (F_DECLINE_PHASE,),
                    (D_CHEST_WINDOW,),  # the Timeline phase under way: its order
                    (D_ORDER, ((idx(st, "P31"), 0), (idx(st, "A5"), 0)), True)]
        return early_create(st)
    assert mid_queue(("Ж",))
    assert not mid_queue(("Б",))  # no chest that creates


def test_the_decline_order_is_searched_in_full_while_a_lightning_chest_is_usable() -> None:
    """Rule 1 of `solver.guidance.dominance`: two monuments without decline effects decline in
    either order to the same state, so one order is searched; with chest Б usable in the
    window between the two declines, both are."""
    def orders(under: tuple[str, ...]) -> int:
        st = position(hand=["C1"], timeline={1: ["C5", "M1"]}, tokens={"C5": 1, "M1": 1},
                      phase="decline")
        if under:
            with_chests(st, under=under)
        assert len(st.legal) == 2
        return len(prune(st, st.legal))
    assert orders(()) == 1
    assert orders(("Б",)) == 2
