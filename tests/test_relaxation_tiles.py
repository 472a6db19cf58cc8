"""The last turn's technologies in the constraint layer (issue 13: t3-h2's and t3-h4's turn 16
proven at its start; `solver.bounds.cpsat.technologies`, `solver.bounds.cpsat.tiles`): Candi
Sukuh lowers a requirement only where the model has it in the Timeline, the tile refills need
Learns of the tiles' own cards, and no decline effect counts once no decline phase moves
monuments.

RULES.md D19 (Candi Sukuh: at a Learn while it is in the Timeline), section 5 (Learn: an
available technology; a tile left with one card is refilled with 3 from its level's deck; a
monument enters the Timeline only by a Create), section 4 and D8 (the last turn's decline phase
ends the game at once: no decline, no technology phase), section 4C step 2 (a decline effect
applies as its monument declines)."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

import pytest
from ortools.sat.python import cp_model

import solver.bounds.cpsat.relaxation as relaxation
import solver.bounds.cpsat.technologies as technologies
import solver.bounds.cpsat.tiles as tiles
from benchmarks.prove_from import given_lines
from solver.bounds.cpsat.reach import Reach
from solver.bounds.cpsat.relaxation import Relaxation, RelaxConfig
from solver.bounds.cpsat.schedule import phase_of
from solver.bounds.cpsat.variables import Variables
from solver.bounds.poolfacts import pool_facts
from solver.bounds.techrow import candi_cards, free_learners, refills, tile_learnable
from solver.engine import actions as A
from solver.engine.state import GameState
from tests.builder import idx, position
from tests.test_endgame import plain_optimum

LINES = Path(__file__).resolve().parent.parent / "benchmarks" / "lines" / "session8-t60.jsonl"
CFG = RelaxConfig(max_deterministic_time=1.0)
SIX_PYRAMIDS = ["P1", "P4", "P5", "P17", "P35", "P36"]


def model_solve(st: GameState, fix: Callable[[Relaxation, Variables], None] | None = None,
                cfg: RelaxConfig = CFG) -> tuple[int, float]:
    """CP-SAT's status and best value on the relaxation at `st` within `cfg`'s budget; `fix`
    may add constraints to the built model first."""
    phase = phase_of(st)
    assert phase is not None
    rel = Relaxation(st, phase, cfg)
    variables = rel.build()
    if fix is not None:
        fix(rel, variables)
    solver = cp_model.CpSolver()
    solver.parameters.num_workers = 1
    solver.parameters.max_deterministic_time = cfg.max_deterministic_time
    code = int(solver.solve(rel.model))
    return code, solver.objective_value


def optimum_within(st: GameState, seconds: float) -> float:
    """The relaxation's proven optimum at `st` within `seconds` of deterministic time (for the
    models `CFG`'s budget does not settle)."""
    code, value = model_solve(st, cfg=RelaxConfig(max_deterministic_time=seconds))
    assert code == cp_model.OPTIMAL
    return value


def model_optimum(st: GameState) -> float:
    """The relaxation's proven optimum at `st` (not the bound the search gets: that is also
    capped by the simple bound)."""
    code, value = model_solve(st)
    assert code == cp_model.OPTIMAL
    return value


def reach_of(st: GameState) -> Reach:
    phase = phase_of(st)
    assert phase is not None
    return Relaxation(st, phase, CFG).context.reach


def static_candi(ctx: object, monuments: object) -> int:
    """The old rule: every threshold 1 lower as soon as a Candi Sukuh can be reached."""
    return 1 if ctx.reach.candi else 0  # type: ignore[attr-defined]


def _plato_position(searches: int) -> GameState:
    """Turn 16, six pyramids in the Past, Plato (T29: 7 of one type) on tile C, Candi Sukuh
    (P19, locked in space 4, no cost) in hand."""
    st = position(hand=["P19"], past=SIX_PYRAMIDS,
                  tiles=["T3", "T4", None, "T10", "T11", "T12", "T29", "T38", "T39"],
                  time_space=1, time_visits=2, turn=16, deck_top=["C24", "C33", "M9"])
    for _ in range(searches):
        st.apply(A.ACT_SEARCH)
    return st


def test_candi_sukuh_lowers_only_once_created(monkeypatch: pytest.MonkeyPatch) -> None:
    """Two actions: create Candi Sukuh, then learn Plato with 6 of one type (the exact optimum
    has it). One action: Candi Sukuh is not in the Timeline at any Learn that can come, so Plato
    stays out of reach: the model's optimum is the exact one (the old rule counted Plato)."""
    two = _plato_position(0)
    complete, best = plain_optimum(two)
    assert complete and best is not None and model_optimum(two) >= best
    one = _plato_position(1)
    complete, best = plain_optimum(one)
    assert complete and best is not None
    assert model_optimum(one) == best
    monkeypatch.setattr(technologies, "candi_lowering", static_candi)
    assert model_optimum(one) > best


def _refill_position(cities: int) -> GameState:
    """Turn 16: tile B (Level II, flipped) holds Imhotep, Plato and Thoth (none learnable: no
    artifact, no 7 of a type, no lost knowledge), tile C Hermeticism and Ari-kat (5 cities; 3
    of each type); four pyramids in the Past, so Akhenaten (T32, 4 pyramids, 3 VP), second on
    the Level II deck, would be learnable if a refill dealt it."""
    past = ["P1", "P4", "P5", "P17", "C18", "C22", "C23", "C1", "C3"][:4 + cities]
    return position(hand=["C34"], past=past,
                    tiles=["T3", "T4", None, "T28", "T29", "T30", "T38", "T39", None],
                    tile_level=(1, 2, 2), midgame=True, time_space=1, time_visits=2, turn=16,
                    deck_top=["C24", "C33", "M9"])


def test_a_tile_whose_cards_no_learn_can_take_is_never_refilled() -> None:
    """Tile C (2 cards) is refilled after one removal, but in the last turn only Learns remove
    here, and neither of its cards can be learned: no refill, so Akhenaten is not dealt and
    the model's optimum is the exact one. With five cities in the Past Hermeticism can be
    learned: one Learn refills tile C."""
    st = _refill_position(0)
    facts = pool_facts(st)
    learnable = tile_learnable(st, facts.free_learners, facts.candi)
    assert learnable is not None and idx(st, "T38") not in learnable
    assert refills(st, 1, 2) == 1 and refills(st, 5, 2, learnable) == 0
    assert idx(st, "T32") not in reach_of(st).techs
    complete, best = plain_optimum(st)
    assert complete and model_optimum(st) == best
    five = _refill_position(5)
    learnable = tile_learnable(five, facts.free_learners, facts.candi)
    assert learnable is not None and idx(five, "T38") in learnable
    assert refills(five, 1, 2, learnable) == 1


def test_an_effect_that_takes_a_technology_opens_the_refill(
        monkeypatch: pytest.MonkeyPatch) -> None:
    """Candi Kethek (P35) in hand: created, it puts Hermeticism under the Level II deck, tile C
    is refilled, and Akhenaten (3 VP) can be learned with the second action. A line found by
    the plain search does it (9 VP); the model, counting P35's two removals once it is
    created, stays above it, and without them it would not (7)."""
    st = position(hand=["C34", "P35"], past=["P1", "P4", "P5", "P17"],
                  tiles=["T3", "T4", None, "T28", "T29", "T30", "T38", "T39", None],
                  tile_level=(1, 2, 2), midgame=True, time_space=1, time_visits=2, turn=16,
                  deck_top=["C24", "C33", "M9"])
    _, found = plain_optimum(st)
    assert found is not None and found >= 9
    assert model_optimum(st) >= found
    monkeypatch.setattr(tiles, "takes", lambda ctx, techs, mons: (0, 0))
    assert model_optimum(st) < found


def test_empty_tiles_are_never_refilled() -> None:
    """A tile with no card stays empty (its level's deck could not fill it): no removal
    refills it."""
    st = _refill_position(0)
    st.tiles[3:9] = [-1] * 6
    assert all(refills(st, r, 2) == 0 for r in range(6))


def test_free_learners_and_candi_of_the_pool() -> None:
    st = _refill_position(0)
    pool = st.setup.card_pool(st.book)
    assert idx(st, "P19") in candi_cards(st.book.cards, pool)
    assert idx(st, "M34") not in free_learners(st.book.cards, pool)  # a decline effect's


def test_no_decline_effect_in_the_last_turn() -> None:
    """Menhirs of Monteneuf (M11: "you may CREATE" as it declines) in hand at the last turn's
    start: it never declines, so no monument enters space 1 during a decline."""
    st = position(hand=["M11", "M34"], past=SIX_PYRAMIDS, time_space=1, time_visits=2, turn=16)
    assert reach_of(st).entries == 0
    turn15 = position(hand=["M11", "M34"], past=SIX_PYRAMIDS, time_space=2, time_visits=2,
                      turn=15)
    assert reach_of(turn15).entries > 0


@pytest.mark.parametrize(("deal", "vp"), [("t3-h2-s0", 78.0), ("t3-h4-s0", 70.0)])
def test_last_turn_starts_bounded_by_their_lines(deal: str, vp: float,
                                                 monkeypatch: pytest.MonkeyPatch) -> None:
    """The kept 60 s lines of t3-h2 (78 VP) and t3-h4 (70): at their turn-16 starts the
    model's optimum was 80 and 73. On t3-h2, Plato counted through a Candi Sukuh 38 cards down
    the deck that the model never creates, and Pythagoras through a refill of a Level II tile
    whose other cards no Learn can take; on t3-h4, Pythagoras through a refill only Candi
    Kethek (in the discard pile) or Latin Alphabet could cause, neither of them played. Now
    each is its line's VP (the search proves the line optimal at the start of its last turn);
    each old rule alone gives more."""
    for name, root, line in given_lines(LINES):
        if name != deal:
            continue
        st = root.clone()
        i = 0
        while st.turn < 16:
            st.apply(line[i])
            i += 1
        end = st.clone()
        for a in line[i:]:
            end.apply(a)
        assert end.value() == vp
        assert model_optimum(st) == vp
        with monkeypatch.context() as m:
            m.setattr(technologies, "candi_lowering", static_candi)
            assert model_optimum(st) > vp
        monkeypatch.setattr(relaxation, "limit_refills", lambda ctx, techs, mons: None)
        # (on t3-h2, the deals followed card by card, `techdeal`, also cut Pythagoras)
        monkeypatch.setattr(relaxation, "limit_deals", lambda ctx, techs, mons: None)
        assert model_optimum(st) > vp
        return
    pytest.fail(f"{deal} not among the kept lines")
