"""The bound through the last decline (`solver.bounds.window`): where turn 15's window (the rest
of its Timeline phase, its decline phase and its technology phase) can only draw, pay from the
hand and remove knowledge, the simple bound of the turn-16 start reached by declining every
optional effect, over the lost knowledge the window can leave, with the cards that may be in
play counted for every hand at once, bounds every line. Checked against exact searches (with
the window bound off) from positions reached by random play into the window, on kept lines and
on generated positions, and on crafted windows: what opens one, what closes it."""

from __future__ import annotations

import dataclasses
from pathlib import Path

import pytest

from puzzles.chests import load_chests
from solver.bounds import windowcards
from solver.bounds.bound import SimpleBound
from solver.bounds.poolfacts import PoolFactsCache, pool_facts
from solver.bounds.reachable import ReachMemo, reach
from solver.bounds.simple import as_bound, simple_upper_bound
from solver.bounds.simplegate import SimpleGate, SimpleGatePolicy
from solver.bounds.window import (
    ABOVE,
    archive_ask,
    last_window,
    last_windows,
    window_asked,
    window_bound,
)
from solver.bounds.windowcards import present_for_all
from solver.engine.actions import CHEST_LETTERS
from solver.engine.frames import (
    D_ACTION,
    D_ARCHIVE,
    D_DECLINE_ORDER,
    D_ORDER,
    D_REMOVE,
    F_DECLINE_PHASE,
    F_TECH_PHASE,
    F_TIMELINE_PHASE,
)
from solver.engine.state import GameState
from solver.game import HeritageGame
from solver.rng import Stream
from solver.search.exhaustive import SearchConfig, search
from solver.search.status import Status
from tests.builder import book, idx, names_of, play, position
from tests.test_turn_takes import line_at_turn

LINES = Path(__file__).resolve().parent.parent / "benchmarks" / "lines" / "session8-t60.jsonl"
NODES = 60_000  # an exact search from a window position (most take a few hundred nodes)


def _into_window(st: GameState, rng: Stream) -> GameState | None:
    """Random play from `st` (turn 15) that stops, with odds 1/2, at each decision where the
    window bound is asked and applies; None if turn 15 ends first."""
    s = st.clone()
    while not s.is_terminal() and s.turn == st.turn:
        if window_asked(s) and last_windows(s) is not None and rng.below(2) == 0:
            return s
        legal = s.legal_actions()
        s.apply(legal[rng.below(len(legal))])
    return None


def _optimum(st: GameState, window: bool) -> float | None:
    """The best goal-meeting VP from `st` (``-inf``: none), by an exact search with the simple
    bound, the window bound on or off; None if the search did not finish."""
    game = HeritageGame(SimpleBound(SimpleGatePolicy(window=window)))
    res = search(st.clone(), SearchConfig(max_nodes=NODES), game=game)
    if res.status is Status.UNKNOWN:
        return None
    return res.value if res.value is not None else float("-inf")


def _check(st: GameState) -> bool:
    """The window bound at `st` is at least the optimum, and a search with the window bound
    finds the optimum a search without finds; False if the search did not finish."""
    bound = window_bound(st, pool_facts(st), ReachMemo())
    assert bound is not None
    without = _optimum(st, window=False)
    if without is None:
        return False
    assert bound >= without
    assert _optimum(st, window=True) == without
    return True


@pytest.mark.parametrize("seed", range(8))
def test_at_least_the_optimum_on_kept_lines(seed: int) -> None:
    """From turn 15 of kept lines (real decks, hands and Timelines), random play into the
    window: the bound is at least the optimum there. Lines whose window never opens (a chest
    under the board, a decline effect that creates) are passed over."""
    checked = 0
    rng = Stream(seed, "window-lines", 0)
    for k in range(24):
        st = line_at_turn(LINES, seed * 5 + k, 15)
        for _ in range(12):
            pos = _into_window(st, rng)
            if pos is not None and _check(pos):
                checked += 1
                break
        if checked >= 2:
            break
    assert checked >= 2


#: Timeline effects that fit the window (draws, payments from the hand, removals), on artifacts
#: and on monuments; monuments for space 1, some with decline effects that fit it (M8, M12,
#: C21; C25 and C27, discarded if they decline with knowledge) and one that does not (M11: its
#: Create closes the window).
WINDOW_ARTIFACTS = ("A1", "A2", "A3", "A4", "A5", "A7", "A8", "A9", "A14", "A27")
WINDOW_MONUMENTS = ("P24", "P27", "P30", "M29")
SPACE1 = ("P5", "C3", "M1", "C33", "P17", "M12", "M8", "C21", "M11", "C14", "C25", "C27")
HAND = ("C2", "C4", "C5", "M7", "A11", "P2", "C7", "M2")


def generated(seed: int) -> GameState:
    """Turn 15 at the start of its Timeline phase: 2 or 3 of `WINDOW_ARTIFACTS`, maybe one of
    `WINDOW_MONUMENTS` in space 2, 1 or 2 of `SPACE1` with 0-3 knowledge each, 0-5 cards in
    hand, 0-8 lost knowledge."""
    rng = Stream(seed, "window-generated", 0)
    arts = rng.shuffled(list(WINDOW_ARTIFACTS))[:2 + rng.below(2)]
    space1 = rng.shuffled(list(SPACE1))[:1 + rng.below(2)]
    space2 = rng.shuffled(list(WINDOW_MONUMENTS))[:rng.below(2)]
    hand = rng.shuffled(list(HAND))[:rng.below(6)]
    tokens = {m: rng.below(4) for m in (*space1, *space2)}
    return position(hand=hand, timeline={1: space1, 2: space2, 3: ["C3" if "C3" not in space1
                                                                     else "C6"]},
                    tokens=tokens, past=["P1", "M3", "M4", "M5", "M6"], artifacts=arts,
                    lost=rng.below(9), techs=["T1", "T2", "T5"], time_space=2, time_visits=2,
                    turn=15, deck_top=["C8", "C9", "C10", "P3", "M9", "A12"], phase="timeline",
                    tiles=[None] * 9)


@pytest.mark.parametrize("seed", range(24))
def test_at_least_the_optimum_on_generated_positions(seed: int) -> None:
    """The same from generated positions (`generated`), by random play into the window."""
    _check_into_window(generated(seed), Stream(seed, "window-play", 0))


def _check_into_window(st: GameState, rng: Stream) -> None:
    """Random play from `st` into the window (8 tries): the bound there is at least the
    optimum (`_check`); where no try reaches one, none opens at `st` where it is asked."""
    for _ in range(8):
        pos = _into_window(st, rng)
        if pos is not None:
            assert _check(pos)
            return
    assert last_windows(st) is None or not window_asked(st)


#: Technologies for windows that learn: draws, looks, removals, a bury (T27), end-game ones
#: with requirements on lost knowledge (T30, T37, T44) and on the hand (T36).
LEARN_TILES = ("T3", "T4", "T9", "T13", "T17", "T23", "T24", "T27", "T30", "T36", "T37", "T44",
               "T28", "T43")


def generated_learning(seed: int) -> GameState:
    """Like `generated`, with Michaux Stone (A33) among the artifacts, 17-20 lost knowledge,
    7 monuments in the Past (the middle of the game passed: its flip would close the window)
    and 4 of `LEARN_TILES` available: the window may learn; with odds 1/2 chest К (archive)
    under the board."""
    rng = Stream(seed, "window-learning", 0)
    arts = ["A33", *rng.shuffled(list(WINDOW_ARTIFACTS))[:1 + rng.below(2)]]
    space1 = rng.shuffled(list(SPACE1))[:1 + rng.below(2)]
    hand = rng.shuffled(list(HAND))[:rng.below(6)]
    tiles = rng.shuffled(list(LEARN_TILES))[:4]
    tokens = {m: rng.below(4) for m in space1}
    chest = rng.below(2) == 0
    st = position(hand=hand, timeline={1: space1, 3: ["C3" if "C3" not in space1 else "C11"]},
                  tokens=tokens, past=["P1", "M3", "M4", "M5", "M6", "C11", "C12"],
                  artifacts=arts, lost=17 + rng.below(4), techs=["T1", "T2", "T5"], time_space=2,
                  time_visits=2, turn=15, deck_top=["C8", "C9", "C10", "P3", "M9", "A12"],
                  phase="timeline", tiles=[*tiles, *[None] * 5])
    return _with_chests(st, "К") if chest else st


@pytest.mark.parametrize("seed", range(8))
def test_at_least_the_optimum_where_the_window_learns(seed: int) -> None:
    """The same from generated positions where the window may learn (`generated_learning`)."""
    _check_into_window(generated_learning(seed), Stream(seed, "window-learning-play", 0))


def _timeline_phase(artifacts: list[str], space1: list[str], tokens: dict[str, int],
                    hand: list[str], lost: int = 0, timeline3: tuple[str, ...] = ("C3",),
                    deck_top: tuple[str, ...] = ("C6", "C9", "C8", "C10"),
                    tiles: tuple[str, ...] = (), past: tuple[str, ...] = ("P1", "M3"),
                    ) -> GameState:
    """Turn 15 (of 16) at the start of its Timeline phase, its effects queued; `tiles` the
    technologies available."""
    return position(hand=hand, timeline={1: space1, 3: list(timeline3)}, tokens=tokens,
                    past=list(past), artifacts=artifacts, lost=lost,
                    techs=["T1", "T2", "T5"], time_space=2, time_visits=2, turn=15,
                    deck_top=list(deck_top), phase="timeline",
                    tiles=[*tiles, *[None] * (9 - len(tiles))])


def test_planetary_stone_window() -> None:
    """Planetary Stone (A3: you may discard 2 cards, then remove up to 3 knowledge) and
    Tzolk'in (A9: you may remove 1): the monument of space 1 may decline with all its 3
    knowledge or none, so lost knowledge ends between 2 and 5; the hand may lose 2 of its 4
    cards; nothing is drawn. The bound holds the optimum."""
    st = _timeline_phase(["A3", "A9"], ["M1"], {"M1": 3}, ["C2", "C4", "C5", "M7"], lost=2)
    w = last_window(st)
    assert w is not None
    assert (w.lost_lo, w.lost_hi, w.draws, w.hand_least) == (2, 5, 0, 2)
    assert w.start.turn == 16 and w.start.lost == 5  # nothing removed on the passive way
    assert _check(st)


def test_conditions_that_cannot_hold_draw_nothing() -> None:
    """Sarcophagus of Saqqara (A2: with at least 3 cities in the Timeline, remove 1 knowledge
    and draw 1), queued with Tzolk'in (A9): the Timeline does not change in the Timeline phase,
    so with one city its draw is not counted; with three it is."""
    one = _timeline_phase(["A2", "A9"], ["M1"], {"M1": 1}, ["C2"])
    three = _timeline_phase(["A2", "A9"], ["C1", "C4"], {"C1": 1}, ["C2"])
    w1, w3 = last_window(one), last_window(three)
    assert w1 is not None and w3 is not None
    assert (w1.draws, w3.draws) == (0, 1)


@pytest.mark.skipif(not windowcards.__file__.endswith(".py"),
                    reason="a spy cannot reach into the compiled build's calls")
def test_the_cards_for_all_count_the_most_lost_knowledge(monkeypatch: pytest.MonkeyPatch) -> None:
    """Sarcophagus of Saqqara's removal is not optional: the passive line takes C1's knowledge,
    so its start holds less lost knowledge than a line that removes elsewhere. The cards that
    may be in play (`present_for_all`) are counted with lost knowledge at its most: the effects
    it gates may take more cards."""
    st = _timeline_phase(["A2", "A9"], ["C1", "C4"], {"C1": 1, "C3": 1}, ["C2"])
    w = last_window(st)
    assert w is not None and w.start.lost < w.lost_hi
    seen: list[int] = []

    def spy(s: GameState, *args: object, **kwargs: object) -> object:
        seen.append(s.lost)
        return reach(s, *args, **kwargs)  # type: ignore[arg-type]

    monkeypatch.setattr("solver.bounds.windowcards.reach", spy)
    present_for_all(w, st, pool_facts(st), ReachMemo())
    assert seen and set(seen) == {w.lost_hi}


def test_decline_effects_in_space_one() -> None:
    """A monument of space 1 whose decline effect draws (Statues of Ramesses, M12: 4 cards)
    opens the window with its draws counted; one whose decline effect creates (Menhirs of
    Monteneuf, M11) opens it with one start per card and space (tests/test_window_create.py),
    but not before the middle of the game where the card may decline into the Past (section
    6: its flip would follow)."""
    draws = last_window(_timeline_phase(["A9"], ["M12"], {"M12": 1}, ["C2"]))
    assert draws is not None and draws.draws == 4
    hand = ["M29", "C2", "C4", "C5"]  # M29 affordable in space 1
    assert last_windows(_timeline_phase(["A3", "A9"], ["M11"], {"M11": 1}, hand)) is None
    assert last_windows(_timeline_phase(["A3", "A9"], ["M11"], {"M11": 1}, hand,
                                        past=("P1", "M3", "M4", "M5", "M6", "C11", "C12")))


def test_a_monument_that_may_vanish() -> None:
    """C25 in space 1 with 2 knowledge is discarded if it declines with any, else goes to the
    Past: its knowledge never becomes lost knowledge. Planetary Stone (A3) may take it (pay 2
    cards, remove up to 3): one start where C25 goes to the Past, one where it is discarded;
    without the cards to pay, and with Tzolk'in (A9) removing 1 at most, only the second."""
    st = _timeline_phase(["A3"], ["C25"], {"C25": 2}, ["C2", "C4"], lost=4)
    windows = last_windows(st)
    assert windows is not None and len(windows) == 2
    cards = st.book.cards
    assert sorted("C25" in [cards[c].code for c in w.start.past] for w in windows) \
        == [False, True]
    assert {(w.lost_lo, w.lost_hi) for w in windows} == {(4, 4)}
    poor = last_windows(_timeline_phase(["A3", "A9"], ["C25"], {"C25": 2}, ["C2"], lost=2))
    assert poor is not None and len(poor) == 1
    assert (poor[0].lost_lo, poor[0].lost_hi) == (2, 2)
    assert "C25" not in [cards[c].code for c in poor[0].start.past]


def test_the_window_inside_the_decline_phase() -> None:
    """Asked at the order of declines (the decline phase under way), the window opens: the
    monuments left in space 1 still decline, their knowledge still to convert."""
    st = _timeline_phase([], ["M1", "C4"], {"M1": 1, "C4": 2}, ["C2"], lost=4)
    while st.stack[-1][0] != D_DECLINE_ORDER:
        st.apply(st.legal_actions()[0])
    windows = last_windows(st)
    assert windows is not None and len(windows) == 1
    assert (windows[0].lost_lo, windows[0].lost_hi) == (st.lost + 3, st.lost + 3)


def _with_chests(st: GameState, *letters: str) -> GameState:
    """`st` with the shipped chest data and these chests under the board."""
    st.setup = dataclasses.replace(st.setup, under=letters, chest_data=load_chests())
    st.chests_under = sorted(CHEST_LETTERS.index(ch) for ch in letters)
    return st


def test_a_chest_under_the_board() -> None:
    """A chest under the board whose effect fits the window (К: archive, cards from the hand
    for 1 knowledge each) may be used in it or kept: one start with it under the board, one
    without, and its removals counted (2 cards in hand: M1's 2 knowledge may all go, and the
    hand with them). A chest that creates (Ж) is followed where it may be used
    (`test_window_create`): here (no window before the phases: the position starts in the
    Timeline phase) at the window after the last decline (section 8, `solver.engine.chests`
    moment 4), where it creates the card it can pay for (C2 paying C4, space 4 before the slide), or
    kept for turn 16."""
    st = _with_chests(_timeline_phase(["A9"], ["M1"], {"M1": 2}, ["C2", "C4"], lost=2), "К")
    windows = last_windows(st)
    assert windows is not None and len(windows) == 2
    assert sorted(len(w.start.chests_under) for w in windows) == [0, 1]
    assert {(w.lost_lo, w.lost_hi, w.hand_least) for w in windows} == {(2, 4, 0)}
    kept = last_windows(_with_chests(
        _timeline_phase(["A9"], ["M1"], {"M1": 2}, ["C2", "C4"], lost=2), "Ж"))
    assert kept is not None and sorted(len(w.start.chests_under) for w in kept) == [0, 1]
    used = next(w for w in kept if not w.start.chests_under).start
    assert used.space_monuments(3) == [idx(used, "C2")] and not used.hand  # (C4 paid, slid)


def test_what_closes_the_window() -> None:
    """No window while an action choice is left, when a technology the window may learn does
    what the window cannot (Michaux Stone, A33, with 17 lost knowledge and T16 available: it
    swaps two monuments; with 3 lost knowledge A33 cannot run before the decline, which alone
    adds lost knowledge), or when a cost is paid from the board (Saqqara Vases, A31, discards
    itself to move a monument)."""
    action = position(hand=["C2"], timeline={1: ["M1"], 3: ["C3"]}, past=["P1", "M3"],
                      artifacts=["A9"], techs=["T1", "T2", "T5"], time_space=2, time_visits=2,
                      turn=15, tiles=[None] * 9)
    assert last_window(action) is None
    assert last_windows(_timeline_phase(["A33", "A9"], ["M1"], {"M1": 2}, ["C2"], lost=17,
                                        tiles=("T3", "T16"))) is None
    assert last_window(_timeline_phase(["A33", "A9"], ["M1"], {"M1": 2}, ["C2"], lost=3,
                                       tiles=("T3", "T16"))) is not None
    assert last_window(_timeline_phase(["A31", "A9"], ["M1"], {"M1": 2}, ["C2"])) is None


def _last_archive(artifacts: list[str], space1: list[str], tokens: dict[str, int],
                  hand: list[str], lost: int = 0) -> GameState:
    """Turn 15 (of 16) in its last action, an Archive just chosen (nothing picked yet)."""
    st = position(hand=hand, timeline={1: space1, 3: ["C3" if "C3" not in space1 else "C11"]},
                  tokens=tokens, past=["P1", "M3"], artifacts=artifacts, lost=lost,
                  techs=["T1", "T2", "T5"],
                  time_space=2, time_visits=2, turn=15, deck_top=["C6", "C9", "C8", "C10"],
                  tiles=[None] * 9,
                  pending=[(F_TECH_PHASE,), (F_DECLINE_PHASE,), (F_TIMELINE_PHASE,),
                           (D_ACTION, 0)])
    return play(st, "archive")


def test_the_last_action_archive_opens_a_window() -> None:
    """An Archive as turn 15's last action (RULES.md section 5, D2) discards any of the cards
    in hand and removes 1 knowledge for each, then the Timeline phase queues the effects of the
    cards in play (section 4B): the window opens at its first pick already. M1's 3 knowledge
    in space 1 may all be archived away (lost knowledge 2 to 5: Tzolk'in, A9, may remove one
    more only with at most 3 lost, which it is not before the decline), every card may leave the
    hand (the fewest at turn 16: none). The bound holds the optimum; asked at each pick and
    where the removal begins, not where an action choice is left."""
    st = _last_archive(["A9"], ["M1"], {"M1": 3, "C3": 1}, ["C2", "C4", "M7"], lost=2)
    assert archive_ask(st) and window_asked(st)
    w = last_window(st)
    assert w is not None
    assert (w.lost_lo, w.lost_hi, w.hand_least) == (2, 5, 0)
    assert _check(st)
    play(st, "C2", "done")  # one card archived: its removal begins (M1 or C3)
    assert st.stack[-1][0] == D_REMOVE and archive_ask(st)
    assert _check(st)
    first = position(hand=["C2"], timeline={1: ["M1"], 3: ["C3"]}, tokens={"M1": 1},
                     past=["P1", "M3"], artifacts=["A9"], techs=["T1", "T2", "T5"],
                     time_space=2, time_visits=2, turn=15, tiles=[None] * 9)
    play(first, "archive")  # the turn's first action: an action choice is left
    assert not archive_ask(first) and last_window(first) is None


def test_an_archive_with_cards_picked_still_removes_their_knowledge() -> None:
    """An Archive under way (RULES.md section 5, D2) with two cards of the hand already picked
    removes 1 knowledge for each of them once it is done, besides 1 for each card still to
    pick: the window counts both (M1's 3 knowledge in space 1 may still all go, so it may
    still decline). The bound holds the optimum there."""
    st = _last_archive(["A9"], ["M1"], {"M1": 3, "C3": 1}, ["C2", "C4", "M7"], lost=2)
    play(st, "C2", "C4")
    archive = [fr for fr in st.stack if fr[0] == D_ARCHIVE]
    assert len(archive) == 1 and archive[0][1] == 2 and archive_ask(st)
    assert names_of(st) == ["M7", "done"]
    assert _check(st)


@pytest.mark.parametrize("seed", range(12))
def test_at_least_the_optimum_from_a_last_action_archive(seed: int) -> None:
    """The same from generated positions in an Archive as turn 15's last action (the cards of
    `generated`, 1-5 in hand), by random play into the window (the Archive's picks
    included)."""
    rng = Stream(seed, "window-archive", 0)
    arts = rng.shuffled(list(WINDOW_ARTIFACTS))[:2 + rng.below(2)]
    space1 = rng.shuffled(list(SPACE1))[:1 + rng.below(2)]
    hand = rng.shuffled(list(HAND))[:1 + rng.below(5)]
    tokens = {m: rng.below(4) for m in space1}
    st = _last_archive(arts, space1, tokens, hand, lost=rng.below(9))
    _check_into_window(st, Stream(seed, "window-archive-play", 0))


def test_a_learn_opens_a_window_per_technology() -> None:
    """Michaux Stone (A33) with 17 lost knowledge may learn in the window: one window where it
    learns nothing and one per available technology whose requirement may hold (T37 asks for
    at most 3 lost knowledge: none), each from a start with that technology learned and with
    its immediate effect counted (T3 looks at 5 cards; T9 removes 2 lost knowledge)."""
    st = _timeline_phase(["A33", "A9"], ["M1"], {"M1": 2}, ["C2"], lost=17,
                         tiles=("T3", "T9", "T30", "T37"))
    windows = last_windows(st)
    assert windows is not None
    codes = st.book.cards
    learned = [sorted(codes[t].code for t in w.start.techs) for w in windows]
    assert learned == [["T1", "T2", "T5"], ["T1", "T2", "T3", "T5"], ["T1", "T2", "T5", "T9"],
                       ["T1", "T2", "T30", "T5"]]
    assert [w.draws for w in windows] == [0, 5, 0, 0]
    # M1's 2 knowledge declines (A9 removes none: it asks for at most 3 lost knowledge, and
    # T9's 2 removals leave 15); T9 may remove 2
    assert [(w.lost_lo, w.lost_hi) for w in windows] == [(19, 19), (19, 19), (17, 19), (19, 19)]
    assert last_window(st) is None  # more than one


def test_a_buried_technology_opens_a_window_per_choice() -> None:
    """T27 (learnable with 5 monuments in the Past) buries an available Level II technology:
    one window per technology it may bury, each start with it at the bottom of the pile."""
    st = _timeline_phase(["A33", "A9"], ["M1"], {"M1": 2}, ["C2"], lost=17,
                         tiles=("T27", "T30", "T44"),
                         past=("P1", "M3", "M4", "M5", "M6"))
    windows = last_windows(st)
    assert windows is not None
    cards = st.book.cards
    bury = [w for w in windows if any(cards[t].code == "T27" for t in w.start.techs)]
    assert len(windows) == 5 and len(bury) == 2
    # the buried one lies at the bottom of the Level II pile
    assert sorted(cards[w.start.tech_decks[1][0]].code for w in bury) == ["T30", "T44"]


def test_a_short_deck_closes_the_window() -> None:
    """When the window's draws could empty the deck the discard pile would come back (section
    5): no window."""
    st = _timeline_phase(["A9"], ["M12"], {"M12": 1}, ["C2"])
    st.deck = st.deck[-3:]
    assert last_window(st) is None


def test_the_window_bound_is_gated() -> None:
    """Like the simple bound before the last decline (`solver.bounds.simplegate`), the window
    bound is asked only while it prunes: after `calls` answers none of which pruned, only one
    call in `probe` asks; told an incumbent it cannot reach, it answers at once that it is above
    it (a bound still), without every value of lost knowledge."""
    st = _timeline_phase(["A3", "A9"], ["M1"], {"M1": 3}, ["C2", "C4", "C5", "M7"], lost=2)
    pool = PoolFactsCache()
    gate = SimpleGate(SimpleGatePolicy(calls=2, rate=0.5, probe=4))
    gate.start_search(-500.0)  # every bound is above this incumbent: nothing prunes
    exact = window_bound(st, pool.facts(st), pool.memo)
    assert exact is not None and exact > -500
    answers = [gate.window(st, pool) for _ in range(10)]
    assert answers[:2] == [ABOVE, ABOVE]
    assert answers[2:].count(None) == 6 and answers[2:].count(ABOVE) == 2
    open_gate = SimpleGate(SimpleGatePolicy(calls=2, rate=0.5, probe=4))
    open_gate.start_search(float(exact))  # the bound prunes: the gate stays open
    assert [open_gate.window(st, pool) for _ in range(6)] == [exact] * 6


def test_asks_with_no_window_close_the_gate() -> None:
    """An ask where no window opens costs as much as finding out (a passive run to turn 16):
    it counts as one that did not prune, so a search whose windows never open stops asking."""
    closed = _timeline_phase(["A31", "A9"], ["M1"], {"M1": 2}, ["C2"])
    st = _timeline_phase(["A3", "A9"], ["M1"], {"M1": 3}, ["C2", "C4", "C5", "M7"], lost=2)
    pool = PoolFactsCache()
    gate = SimpleGate(SimpleGatePolicy(calls=2, rate=0.5, probe=4))
    gate.start_search(100.0)  # every bound of `st` prunes against it
    assert [gate.window(closed, pool) for _ in range(2)] == [None, None]
    assert [gate.window(st, pool) for _ in range(4)].count(None) == 3


def test_asks_before_the_window_do_not_count() -> None:
    """Only asks at the window's moment (turn 15 with its decline to come, where an effect or a
    decline begins) count: decisions of the action phase before it never shut the gate."""
    action = position(hand=["C2"], timeline={1: ["M1"], 3: ["C3"]}, past=["P1", "M3"],
                      artifacts=["A9"], techs=["T1", "T2", "T5"], time_space=2, time_visits=2,
                      turn=15, tiles=[None] * 9)
    st = _timeline_phase(["A3", "A9"], ["M1"], {"M1": 3}, ["C2", "C4", "C5", "M7"], lost=2)
    pool = PoolFactsCache()
    gate = SimpleGate(SimpleGatePolicy(calls=2, rate=0.5, probe=4))
    gate.start_search(100.0)
    assert [gate.window(action, pool) for _ in range(5)] == [None] * 5
    assert gate.window_seen == [0, 0, 0]
    assert None not in [gate.window(st, pool) for _ in range(4)]


def test_a_better_incumbent_reaches_the_gate() -> None:
    """Told of a better incumbent during the search (`SimpleGate.improved`), the window bound
    weighs against it: started below the bound it answers "above" at once; once the incumbent
    reaches the bound it answers the bound (which prunes), and the calls count as prunes."""
    st = _timeline_phase(["A3", "A9"], ["M1"], {"M1": 3}, ["C2", "C4", "C5", "M7"], lost=2)
    pool = PoolFactsCache()
    exact = window_bound(st, pool.facts(st), pool.memo)
    assert exact is not None
    gate = SimpleGate(SimpleGatePolicy(calls=2, rate=0.5, probe=4))
    gate.start_search(float(exact) - 1)
    assert gate.window(st, pool) == ABOVE
    gate.improved(float(exact))
    gate.improved(float(exact) - 3)  # a lower value never lowers it
    assert [gate.window(st, pool) for _ in range(4)] == [exact] * 4
    assert gate.window_seen[:2] == [5, 4]


def test_a_learn_s_reactions_in_an_order_fit() -> None:
    """A Learn's "each time you LEARN" reactions wait in an order (section 5, D15; as
    `solver.engine.groups.push_group` queues them): their event came, so each runs once (the
    Nimrud Lens, A30: a removal; the Glozel Artifacts, A17: a draw), of the window's kinds,
    and the window opens there; the bound holds the optimum."""
    b = book(("base",))
    group = tuple((c, i) for c in (idx(b, "A17"), idx(b, "A30"))
                  for i, e in enumerate(b.cards[c].effects) if e.trigger is not None)
    assert len(group) == 2
    st = position(hand=["C2"], timeline={1: ["M1"], 3: ["C3"]}, tokens={"M1": 2},
                  past=["P1", "M3"], artifacts=["A9", "A17", "A30"], lost=3,
                  techs=["T1", "T2", "T5"], time_space=2, time_visits=2, turn=15,
                  deck_top=["C6", "C9", "C8", "C10"], tiles=[None] * 9,
                  pending=[(F_TECH_PHASE,), (F_DECLINE_PHASE,), (D_ORDER, group, True)])
    assert st.stack[-1][0] == D_ORDER
    assert last_window(st) is not None
    assert _check(st)


def test_tulum_s_discard_is_a_payment() -> None:
    """Tulum (C35) in the Timeline discards 1 card from the hand each Timeline phase (section
    4B): a payment of the window's kind, the hand at turn 16 one card fewer at least."""
    st = _timeline_phase(["A9"], ["M1"], {"M1": 2}, ["C2", "C4", "M7"], timeline3=("C35",))
    w = last_window(st)
    assert w is not None and w.hand_least == 2
    assert _check(st)


def test_the_learn_comes_first_in_the_passive_line() -> None:
    """Ħaġar Qim (M31) removes 1 lost knowledge in the Timeline phase: resolved first, it
    would leave 16, too few for Michaux Stone's Learn (at least 17). The passive line takes the
    Learn first (any order reaches the same start), so each technology's window opens."""
    st = _timeline_phase(["A33"], ["M1"], {"M1": 2}, ["C2"], lost=17, timeline3=("M31",),
                         tiles=("T3",))
    assert st.stack[-1][0] == D_ORDER
    assert st.action_to_string(st.legal_actions()[0]) == "!M31"
    ws = last_windows(st)
    assert ws is not None and len(ws) == 2
    assert _check(st)


def test_the_solver_s_simple_bound_asks_the_window() -> None:
    """`SimpleBound`, the bound the exact search is given, answers the window's bound at its
    moment (tighter there than the simple bound: which monument of space 1 declines is
    decided by the lost knowledge the effects leave), and passes the search's incumbent on:
    started one below the window's bound it answers "above" at once, started at it, the bound."""
    st = _timeline_phase(["A3", "A9"], ["M1"], {"M1": 3}, ["C2", "C4", "C5", "M7"], lost=2)
    pool = PoolFactsCache()
    exact = window_bound(st, pool.facts(st), pool.memo)
    assert exact is not None
    assert exact < as_bound(simple_upper_bound(st, pool.facts(st), pool.memo))
    below = SimpleBound()
    below.start_search(float(exact) - 1)
    assert below.upper_bound(st) == ABOVE
    at = SimpleBound()
    at.start_search(float(exact))
    assert at.upper_bound(st) == exact
