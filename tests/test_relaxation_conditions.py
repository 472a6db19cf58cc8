"""Effect conditions on the Timeline, and creations that land in a space (issue 13, session
49; `solver.bounds.cpsat.effects`'s `created_into`, and `fates.landings`).

RULES.md section 5: a monument enters the Timeline only by its creation (moves and swaps keep it
there), and a locked monument can be created only in its starting space. So an effect gated on
"at least N monuments (of a type) in the Timeline" can fire only if those there now and those
still to be created reach N (Disks of Bayan Kara Ula, A4: a city, a megalith and a pyramid;
likewise space 1's monuments, A27, a card's neighbours, C7 and C8, the Timeline's knowledge,
C10), and
a trigger on a creation that lands in space 5 or 6 (Genetic Disk, A24) counts no creation of a
monument locked elsewhere (Candi Sukuh, P19, locked in space 4). Session 49 found both in
t3-h3's turn-15 plan: A4 fired twice with no city to come, A24 once for P19."""

from __future__ import annotations

from collections.abc import Callable

import pytest
from ortools.sat.python import cp_model

import solver.bounds.cpsat.effects as effects
from solver.bounds.cpsat.context import LinExpr
from solver.bounds.cpsat.relaxation import Relaxation
from solver.bounds.cpsat.variables import Variables
from solver.engine.state import GameState
from tests.builder import position
from tests.test_relaxation_tiles import model_solve


def _can_fire(st: GameState, prefix: str, pick: Callable[[Variables], list[LinExpr]]) -> bool:
    """Whether the model lets the effect named `prefix` (its activations from `pick`) fire at
    least once from `st`."""

    def fire(rel: Relaxation, v: Variables) -> None:
        acts = pick(v)
        assert acts, prefix
        rel.model.add(sum(acts) >= 1)

    code, _ = model_solve(st, fire)
    assert code in (cp_model.OPTIMAL, cp_model.FEASIBLE, cp_model.INFEASIBLE)
    return code != cp_model.INFEASIBLE


def _fires_in_turn_16(code: str, hand: list[str], timeline: dict[int, list[str]],
                      tokens: dict[str, int], artifacts: tuple[str, ...] = ()) -> bool:
    """Whether the Timeline effect of `code` can fire in turn 16, the game's last, from this
    Timeline: more monuments come only from `hand` or the next card of the deck (an
    artifact)."""
    st = position(hand=hand, timeline=timeline, tokens=tokens, past=["C2"],
                  artifacts=list(artifacts), deck_top=["A1", "A2", "A3"], time_space=1,
                  time_visits=2, turn=16)
    return _can_fire(st, code, lambda v: [a for a, _, n in v.effects.timed
                                          if n.startswith(f"{code}_")])


def _disks_fire(hand: list[str]) -> bool:
    """Disks of Bayan Kara Ula (A4: "if your Timeline holds at least one city, one megalith
    and one pyramid, remove 1 knowledge"), a megalith and a pyramid in the Timeline, no city."""
    return _fires_in_turn_16("A4", hand, {3: ["M33"], 4: ["P5"]}, {"M33": 1, "P5": 2}, ("A4",))


def test_disks_fire_only_if_the_timeline_can_hold_every_type() -> None:
    """No city in the Timeline and none to come: A4 cannot fire; with Warangal (C11, a city
    of no cost) in hand to create, it can."""
    assert not _disks_fire([])
    assert _disks_fire(["C11"])


def test_without_the_rule_the_disks_fire_with_no_city(monkeypatch: pytest.MonkeyPatch) -> None:
    """The rule is what stops it: with `created_into` dropped, A4 fires with no city."""
    monkeypatch.setattr(effects, "created_into", lambda ctx, mons, events, b, clause: None)
    assert _disks_fire([])


def _genetic_disk_fires(hand: list[str]) -> bool:
    """Whether Genetic Disk (A24: "each time you create a monument that lands in space 5 or
    6, remove up to 2 knowledge") can fire in turn 16, whose two actions can create only what
    the hand holds and the next card of the deck (an artifact) brings."""
    st = position(hand=hand, timeline={3: ["M33"]}, tokens={"M33": 1}, artifacts=["A24"],
                  deck_top=["A1", "A2", "A3"], time_space=1, time_visits=2, turn=16)
    return _can_fire(st, "A24", lambda v: [v.effects.gains["remove"]])


def test_a_monument_locked_in_space_4_never_lands_in_space_5_or_6() -> None:
    """Candi Sukuh (P19) is locked in space 4: creating it does not trigger A24; Warangal
    (C11, space 5, no cost) does."""
    assert not _genetic_disk_fires(["P19"])
    assert _genetic_disk_fires(["C11"])


def test_an_unlocked_monument_may_land_beyond_its_starting_space() -> None:
    """Petra (C9, starting space 4, not locked) may be created in space 5 for one card more
    (RULES.md section 5: any space with a free place, ``|s - starting space|`` cards more; a
    Search brings that card): its creation there triggers A24."""
    assert _genetic_disk_fires(["C9"])


def test_without_the_rule_a_locked_monument_triggers_the_disk(
        monkeypatch: pytest.MonkeyPatch) -> None:
    """The rule is what stops it: counting every creation, P19's triggers A24."""
    monkeypatch.setattr(effects, "landings",
                        lambda ctx, monuments, spaces, kind: sum(monuments.created.values()))
    assert _genetic_disk_fires(["P19"])


def _parthenon_fires(hand: list[str]) -> bool:
    """Parthenon (C10: "if your Timeline holds 11 or more knowledge in all, remove up to 2
    knowledge"), with 6 knowledge in the Timeline now."""
    return _fires_in_turn_16("C10", hand, {3: ["C10"], 4: ["P5"]}, {"C10": 4, "P5": 2})


def test_parthenon_fires_only_if_the_timeline_can_hold_11_knowledge() -> None:
    """6 knowledge and none to come: C10 cannot fire; with Mohenjo-daro (C8, 9 knowledge, no
    cost) in hand to create, 15 can be there: it can."""
    assert not _parthenon_fires([])
    assert _parthenon_fires(["C8"])


def test_parthenon_counts_the_knowledge_to_come_exactly() -> None:
    """At the threshold: 2 knowledge in the Timeline now and Mohenjo-daro's 9 to come make 11,
    so the model lets C10 fire; with 1 now they make 10, and it does not."""
    assert _fires_in_turn_16("C10", ["C8"], {3: ["C10"], 4: ["P5"]}, {"C10": 1, "P5": 1})
    assert not _fires_in_turn_16("C10", ["C8"], {3: ["C10"], 4: ["P5"]}, {"C10": 1, "P5": 0})


def test_without_the_rule_parthenon_fires_with_6_knowledge(
        monkeypatch: pytest.MonkeyPatch) -> None:
    """With `created_into` dropped, C10 fires with 6 knowledge in the Timeline."""
    monkeypatch.setattr(effects, "created_into", lambda ctx, mons, events, b, clause: None)
    assert _parthenon_fires([])


def _luxor_fires(hand: list[str]) -> bool:
    """Luxor Temple (C7: "if at least 2 pyramids are adjacent to this card, it loses 3
    knowledge"), with one pyramid in the Timeline now."""
    return _fires_in_turn_16("C7", hand, {3: ["C7"], 4: ["P5"]}, {"C7": 6, "P5": 2})


def test_luxor_temple_needs_two_pyramids_that_can_be_there() -> None:
    """One pyramid and none to come: C7 cannot lose its knowledge; with Phimeanakas (P21, a
    pyramid of no cost) in hand to create, the model lets it (adjacency is not modelled)."""
    assert not _luxor_fires([])
    assert _luxor_fires(["P21"])


def test_mohenjo_daro_needs_two_neighbours_besides_itself() -> None:
    """Mohenjo-daro (C8: "if at least 2 of the monuments adjacent to this card share one type,
    it loses 2 knowledge") beside one pyramid and nothing to come: two neighbours need three
    monuments in the Timeline, the card itself one of them, so it cannot fire; with Warangal
    (C11) in hand to create, it can."""
    timeline, tokens = {3: ["C8"], 4: ["P5"]}, {"C8": 6, "P5": 2}
    assert not _fires_in_turn_16("C8", [], timeline, tokens)
    assert _fires_in_turn_16("C8", ["C11"], timeline, tokens)


def test_iron_pillar_needs_two_monuments_that_can_be_in_space_1() -> None:
    """Iron Pillar of Delhi (A27: "if space 1 holds two monuments, remove 1 knowledge") with one
    monument in the Timeline and nothing to come cannot fire; with Warangal (C11) in hand, the
    model lets it (the space is not modelled here)."""
    timeline, tokens = {1: ["M33"]}, {"M33": 1}
    assert not _fires_in_turn_16("A27", [], timeline, tokens, ("A27",))
    assert _fires_in_turn_16("A27", ["C11"], timeline, tokens, ("A27",))
