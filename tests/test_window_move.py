"""The window with one move in it (`solver.bounds.windowwork.moved`): a decline effect of space 1
that moves another monument (C15 Ajanta Caves, P12 Gunung Padang) or a technology that Michaux
Stone (A33) may learn in the Timeline phase and that moves one (T10 Planetary Grid). Every
outcome of the move is a start of its own; a monument may move into space 1 (its knowledge
converts, its decline effects run) or out of it. Checked against exact searches from crafted and
generated positions; two moves, or a move with a monument that may be discarded for its
knowledge, keep the window shut."""

from __future__ import annotations

import pytest

from solver.bounds.window import last_windows
from solver.rng import Stream
from tests.test_window import WINDOW_ARTIFACTS, _check, _check_into_window, _timeline_phase


def test_a_decline_move_opens_a_window() -> None:
    """C15 declines first in the passive line (any order reaches what another does) and moves
    another monument: M1 (2 knowledge) out of space 1, or C3 (3) elsewhere (not into space 1:
    C15 and M1 fill it while C15's effect runs). Lost knowledge ends at most 3 + 1 + 2 = 6,
    read start by start from the monuments new in its Past (the range of the whole window,
    9 with C3's knowledge, is not reached); one start per target and space; the bound holds
    the optimum."""
    st = _timeline_phase(["A9"], ["C15", "M1"], {"C15": 1, "M1": 2, "C3": 3}, ["C2"], lost=3)
    ws = last_windows(st)
    assert ws is not None and len(ws) > 1
    assert max(w.lost_hi for w in ws) == 6
    assert len({tuple(w.start.past) for w in ws}) > 1  # M1 declines, or not
    assert _check(st)


def test_a_learned_move_opens_a_window() -> None:
    """With 17 lost knowledge A33 may learn T10 in the Timeline phase, whose move may take C3
    (3 knowledge) into space 1: the window opens (one start per learned technology and, for
    T10, per target and space), lost knowledge at most 17 + 2 + 3."""
    st = _timeline_phase(["A33", "A9"], ["M1"], {"M1": 2, "C3": 3}, ["C2"], lost=17,
                         tiles=("T3", "T10"))
    ws = last_windows(st)
    assert ws is not None and len(ws) > 3
    assert max(w.lost_hi for w in ws) == 22
    assert _check(st)


def test_two_moves_or_a_vanisher_close_the_window() -> None:
    """Two moves (C15 and P12 in space 1), or a move with C25 in space 1 (discarded if it
    declines with knowledge), fall outside the window."""
    assert last_windows(_timeline_phase(["A9"], ["C15", "P12"], {"C3": 1}, ["C2"])) is None
    assert last_windows(_timeline_phase(["A9"], ["C15", "C25"], {"C25": 2}, ["C2"])) is None


#: Monuments for space 1 with the movers among them, and for space 3 (what may move in).
SPACE1 = ("C15", "P12", "C15", "P12", "P5", "M1", "M8", "C21", "P17")
SPACE3 = ("C3", "M12", "P24", "C19", "M29")


@pytest.mark.parametrize("seed", range(12))
def test_at_least_the_optimum_where_a_monument_may_move(seed: int) -> None:
    """From generated Timeline phases (a mover in space 1 on most, A33 with 17-20 lost knowledge
    and T10 available on the others), random play into the window: the bound is at least the
    optimum."""
    rng = Stream(seed, "window-move", 0)
    learn = rng.below(3) == 0
    arts = [*(["A33"] if learn else []), *rng.shuffled(list(WINDOW_ARTIFACTS))[:1 + rng.below(2)]]
    space1 = sorted(set(rng.shuffled(list(SPACE1))[:1 + rng.below(2)]))
    if not learn and not {"C15", "P12"} & set(space1):
        space1 = ["C15", *space1][:2]
    space3 = rng.shuffled(list(SPACE3))[:1 + rng.below(2)]
    tokens = {m: rng.below(4) for m in (*space1, *space3)}
    st = _timeline_phase(arts, space1, tokens, ["C2", "C4", "M7"][:rng.below(4)],
                         lost=17 + rng.below(4) if learn else rng.below(9),
                         timeline3=tuple(space3), tiles=("T3", "T10") if learn else ())
    _check_into_window(st, Stream(seed, "window-move-play", 0))
