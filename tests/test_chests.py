"""Chest cards (RULES.md section 8, D11, D14, D16): the goal language, goal chests checked at the
end, effect chests under the board (lightning windows, Timeline moment, used once), the chest
file and its errors."""

from __future__ import annotations

import dataclasses
import json
from pathlib import Path

import pytest

from puzzles.cardsets import load_book
from puzzles.chests import DEFAULT_PATH, letter_index, load_chests
from puzzles.deal import setup_from_json
from solver.engine import actions as A
from solver.engine import flow
from solver.engine.actions import CHEST_LETTERS
from solver.engine.cards import Clause
from solver.engine.chestcards import ChestDataError
from solver.engine.chests import SINCE_BETWEEN, SINCE_STEPS, place_goal, window_since
from solver.engine.errors import SetupError
from solver.engine.frames import (
    D_ACTION,
    D_CHEST_WINDOW,
    D_FLIP,
    F_DECLINE_PHASE,
    F_TECH_PHASE,
    F_TIMELINE_PHASE,
    F_TURN_END,
)
from solver.engine.goal_check import evaluate, goal_shortfall, goals_json, goals_met, shortfall
from solver.engine.goals import COUNTERS, And, GoalError, Or, counters_of, parse_goal, to_json
from solver.engine.newgame import new_game
from solver.engine.setup import Setup
from solver.engine.state import CHEST_BASE, EMPTY, GameState
from tests.builder import STOP, idx, names_of, play, position

BOOK = load_book(["base"])


def L(ch: str) -> int:
    return CHEST_LETTERS.index(ch)


def with_chests(st: GameState, goals: tuple[str, ...] = (), under: tuple[str, ...] = (),
                campaign: bool = False, chests: str = "default") -> GameState:
    """Give a built position the chest data of `chests` (a chest file; the shipped one by
    default) and these chests (as `new_game` deals them: goals in artifact spaces from the
    left, effects under the board), then re-settle."""
    st.setup = dataclasses.replace(st.setup, goals=goals, under=under, campaign=campaign,
                                   chest_data=load_chests(chests))
    for ch in goals:
        place_goal(st, L(ch))
    st.chests_under = sorted(L(ch) for ch in under)
    flow.settle(st)
    return st


def resume(st: GameState, *frames: tuple[int, ...]) -> GameState:
    """Run the position from the given phase frames (bottom first) on."""
    st.stack = [(F_TURN_END,), *frames]
    flow.settle(st)
    return st


# ------------------------------------------------------------------ the goal language

def test_goal_text_parses_with_and_binding_tighter_than_or() -> None:
    g = parse_goal("past.pyramid >= 6 or timeline.any >= 5 and past.any >= 10")
    assert g == Or((Clause("past.pyramid", ">=", 6),
                    And((Clause("timeline.any", ">=", 5), Clause("past.any", ">=", 10)))))
    g2 = parse_goal("(past.pyramid >= 6 or timeline.any >= 5) and lost <= 4")
    assert g2 == And((Or((Clause("past.pyramid", ">=", 6), Clause("timeline.any", ">=", 5))),
                      Clause("lost", "<=", 4)))
    assert str(g2) == "(past.pyramid >= 6 or timeline.any >= 5) and lost <= 4"
    assert parse_goal(str(g)) == g and parse_goal(str(g2)) == g2
    assert counters_of(g2) == frozenset({"past.pyramid", "timeline.any", "lost"})


def test_goal_json_tree_round_trips_and_accepts_card_clauses() -> None:
    g = parse_goal("techs.level2 >= 2 and (artifacts > 1 or vp == 60)")
    tree = to_json(g)
    assert tree == {"and": [{"counter": "techs.level2", "op": ">=", "value": 2},
                            {"or": [{"counter": "artifacts", "op": ">", "value": 1},
                                    {"counter": "vp", "op": "==", "value": 60}]}]}
    assert parse_goal(tree) == g
    assert parse_goal(json.loads(json.dumps(tree))) == g
    assert parse_goal(["past.any", ">=", 10]) == Clause("past.any", ">=", 10)


@pytest.mark.parametrize(("text", "fragment"), [
    ("", "empty"),
    ("past.anything >= 3", "unknown counter 'past.anything'"),
    ("past.any => 3", "cannot read '=> 3'"),
    ("past.any 3", "expected a comparison (>= <= == > <) after past.any, got '3'"),
    ("past.any >= three", "expected a whole number"),
    ("past.any >= 3 and", "ends too early"),
    ("past.any >= 3 lost <= 2", "unexpected 'lost'"),
    ("(past.any >= 3", "ends too early"),
    ("past.any >= 3 # 4", "cannot read"),
    ("past.any >= 99999999999999999999", "the number 99999999999999999999 must be at most 10,000"),
    ("lost > -10001", "must be at most 10,000 (either sign)"),
])
def test_a_goal_that_does_not_parse_names_what_is_wrong(text: str, fragment: str) -> None:
    with pytest.raises(GoalError) as err:
        parse_goal(text)
    assert fragment in str(err.value)


def test_every_counter_says_what_it_counts_for_a_constraint_model() -> None:
    """The CP-SAT layer compiles a comparison from the counter's spec: zone, selection,
    aggregate."""
    assert COUNTERS["past.pyramid"].zone == "past"
    assert (COUNTERS["past.pyramid"].attr, COUNTERS["past.pyramid"].value) == ("type", "pyramid")
    assert COUNTERS["past.pyramid"].agg == "count"
    assert COUNTERS["techs.level2"].attr == "level" and COUNTERS["techs.level2"].value == 2
    assert COUNTERS["techs.max_type"].agg == "max_type"
    assert COUNTERS["lost"].agg == "value" and COUNTERS["vp"].zone == "score"
    assert all(s.text for s in COUNTERS.values())


def test_counters_count_the_position() -> None:
    st = position(past=["C1", "C2", "P1", "P2", "P3", "M1"], rotated=2,
                  timeline={2: ["P4"], 3: ["C5"]}, techs=["T19", "T20", "T1", "T28", "T40"],
                  artifacts=["A1"], lost=3)
    st.artifacts[1] = CHEST_BASE + L("В")  # a chest is not an artifact (D11)
    values = {name: evaluate(Clause(name, "==", 0), st) for name in COUNTERS}
    assert values["hand"] and not values["past.any"]
    want = {"past.any": 6, "past.pyramid": 3, "past.city": 2, "past.rotated": 2,
            "timeline.any": 2, "techs.any": 5, "techs.writing": 3, "techs.max_type": 3,
            "techs.level1": 3, "techs.level2": 2, "artifacts": 1, "lost": 3,
            "vp": st.score().total}
    for name, n in want.items():
        assert evaluate(Clause(name, "==", n), st), name


# ------------------------------------------------------------------ goal chests at the end

def _ended(timeline_count: int, past_count: int) -> GameState:
    past = ["C1", "C2", "C3", "C4", "C5", "M1", "M3", "M4", "M5", "M6", "M7"][:past_count]
    places = ["P1", "P2", "P3", "P4", "P5", "P6"][:timeline_count]
    timeline = {2 + i // 2: places[i:i + 2] for i in range(0, len(places), 2)}
    timeline[1] = ["TIME"]
    st = position(past=past, timeline=timeline, time_visits=2, tile_level=(1, 2, 2), turn=16)
    with_chests(st, goals=("В", "Л"))
    return resume(st, (F_DECLINE_PHASE,))


def test_mirina_and_hataui_are_met_with_5_in_the_timeline_and_10_in_the_past() -> None:
    """The rulebook's worked example (D14): В and Л on the board, 5 Timeline and 10 Past
    monuments at the end: both goals met, the trial passed."""
    st = _ended(5, 10)
    assert st.is_terminal()
    assert goals_json(st) == [
        {"chest": "В", "goal": "timeline.any >= 5", "met": True},
        {"chest": "Л", "goal": "past.any >= 10", "met": True},
    ]
    assert goals_met(st) and st.feasible()
    data = load_chests()
    assert data[L("В")].name == "Chest from Mirina" and data[L("Л")].name == "Chest of Hataui"
    assert data[L("В")].inferred and data[L("Л")].inferred


@pytest.mark.parametrize(("tl", "past", "met"), [(4, 10, [False, True]), (5, 9, [True, False])])
def test_one_monument_short_fails_that_goal(tl: int, past: int, met: list[bool]) -> None:
    st = _ended(tl, past)
    assert [g["met"] for g in goals_json(st)] == met
    assert not st.feasible()


def test_standard_of_ur_needs_six_pyramids_in_the_past() -> None:
    data = load_chests()
    ur = data[L("Г")]
    assert ur.name == "Standard of Ur" and str(ur.goal) == "past.pyramid >= 6"
    assert ur.goal_part.inferred  # the rulebook's goal; its letter the project's choice
    five = position(past=["P1", "P2", "P3", "P4", "P5", "C1"])
    six = position(past=["P1", "P2", "P3", "P4", "P5", "P6"])
    assert not evaluate(ur.goal, five) and evaluate(ur.goal, six)


def test_goal_chests_take_artifact_spaces_from_the_left() -> None:
    st = new_game(Setup(hand="1", seed=0, goals=("Г", "А"), under=("Б",),
                        chest_data=load_chests()), BOOK)
    assert st.artifacts == [CHEST_BASE + L("Г"), CHEST_BASE + L("А"), EMPTY, EMPTY, EMPTY]
    assert st.goal_chests == [L("Г"), L("А")] and st.chests_under == [L("Б")]
    assert st.board_artifacts() == []  # D11
    assert [g["chest"] for g in goals_json(st)] == ["Г", "А"]


# ------------------------------------------------------------------ lightning chests

def test_a_lightning_chest_is_offered_before_each_action_and_used_once() -> None:
    """Б (lightning, RULES.md section 8): discarded at the action choice to apply its effect
    (remove up to 3 knowledge); using it is not an action; it is then gone (D16)."""
    st = position(hand=["C1"], timeline={3: ["C7"], 5: ["M1"]}, tokens={"C7": 4, "M1": 2})
    with_chests(st, under=("Б",))
    assert names_of(st) == ["archive", "search", "!chest:Б"]
    play(st, "!chest:Б")
    assert names_of(st) == ["@C7", "@M1", "done"]
    play(st, "@C7", "@C7", "@M1")
    assert st.tokens[idx(st, "C7")] == 2 and st.tokens[idx(st, "M1")] == 1
    assert st.chests_under == []
    assert st.pending() == (D_ACTION, 0)  # still the first action
    assert names_of(st) == ["archive", "search"]


def test_lightning_effects_of_goal_chests_cannot_be_used() -> None:
    """Trial 4 has Б as a goal: its lightning effect is never offered."""
    st = new_game(Setup(hand="1", seed=0, goals=("Б", "Ж"), under=("И", "К"),
                        chest_data=load_chests()), BOOK)
    assert "!chest:Б" not in names_of(st) and "!chest:Ж" not in names_of(st)
    # К (lightning) is under the board; И is a Timeline chest
    assert names_of(st)[-1] == "!chest:К"


def test_lightning_windows_open_at_the_start_of_each_phase() -> None:
    """Besides the action choices, a window (the chests, or done) opens before the Timeline,
    Decline and Technology phases; none during setup (keep 6 of 10)."""
    st = new_game(Setup(hand="draw", seed=0, under=("Л",), chest_data=load_chests()), BOOK)
    assert all(not n.startswith("!chest") for n in names_of(st))  # setup: keep 6 of 10
    while st.turn == 0:
        st.apply(st.legal[0])
    assert names_of(st)[-1] == "!chest:Л"
    play(st, "search", "search")
    assert st.pending() == (D_CHEST_WINDOW,) and names_of(st) == ["!chest:Л", "done"]
    kinds = []
    while st.turn == 1:
        top = st.pending()
        assert top is not None
        kinds.append(top[0])
        st.apply(A.DONE if top[0] == D_CHEST_WINDOW else st.legal[0])
    assert kinds.count(D_CHEST_WINDOW) == 3  # before Timeline, Decline and Technology phases
    hand = len(st.hand)
    play(st, "!chest:Л")  # draw 3, turn 2, first action choice
    assert len(st.hand) == min(10, hand + 3)
    play(st, "search", "search")
    assert st.pending() != (D_CHEST_WINDOW,)  # nothing left to offer: no window


def test_a_lightning_chest_may_be_used_between_two_timeline_effects() -> None:
    """"At any moment" (RULES.md section 8) includes between two Timeline effects: each checks
    its condition when it resolves. With 6 lost knowledge, Ishibutai Kofun (M29, at least 5:
    remove 1) first, then chest В (discard 3 lost), then Petra (C9, at most 2 lost and a Past
    monument: draw 1): lost 2 and a card drawn. No other moment reaches both: В before the
    phase leaves 3 lost (M29's "at least 5" and Petra's "at most 2" both fail), and after both
    effects Petra has already failed."""
    st = position(hand=["C1"], timeline={3: ["M29"], 4: ["C9"]}, past=["C2"], lost=6,
                  phase="decline")
    st = with_chests(st, under=("В",))
    st.stack = [STOP, (D_CHEST_WINDOW,), (F_TIMELINE_PHASE,), (D_CHEST_WINDOW,)]
    flow.settle(st)
    hand = len(st.hand)
    play(st, "done", "!M29")  # no chest before the phase; Ishibutai Kofun first: 6 -> 5
    assert st.lost == 5 and st.pending() == (D_CHEST_WINDOW, SINCE_BETWEEN)
    assert names_of(st) == ["!chest:В", "done"]  # the window between the two effects
    play(st, "!chest:В")  # 5 -> 2, then Petra resolves: at most 2 lost, one Past monument
    assert st.lost == 2 and len(st.hand) == hand + 1


def test_a_lightning_chest_may_be_used_between_two_declines() -> None:
    """"At any moment" (RULES.md section 8) includes between two monuments that decline
    (section 4C step 2): Ellora Caves (C5) declines first and frees a place in space 1, chest Ж
    creates Osirion (C1) there, and Osirion declines in the same phase, reaching the Past of
    turn 15 (before the phase space 1 is full; after it, Osirion would only decline in turn
    16, whose decline phase never comes, D8)."""
    st = position(hand=["C1", "C2", "C3", "C4", "C6", "C7", "C8", "C9"],
                  timeline={1: ["C5", "M1"]}, tokens={"C5": 1, "M1": 1}, phase="decline",
                  turn=15)
    assert not st.has_free_place(1)
    with_chests(st, under=("Ж",))
    assert names_of(st) == ["!C5", "!M1"]  # the decline order: no window before the first
    play(st, "!C5")
    assert names_of(st) == ["!chest:Ж", "done"]  # the window between the two declines
    play(st, "!chest:Ж", "C1", "s1", "C2", "C3", "C4", "C6")  # cost 1, +3 left of space 4
    assert names_of(st) == ["!M1", "!C1"]  # Osirion declines in this phase too
    play(st, "!M1")
    assert [st.book.cards[c].id for c in st.past] == ["C1_Osirion", "C5_ElloraCaves",
                                                      "M1_Stonehenge"]
    assert st.turn == 16


def test_a_lightning_chest_may_be_used_after_the_last_decline() -> None:
    """After the last monument of space 1 has declined and before Elongated Skulls and the
    slide (RULES.md section 4C steps 2-3) is a moment too (section 8; format 4): chest Ж
    creates Osirion (C1) in space 1, emptied by the declines, and it declines in this phase
    (a monument that enters space 1 during the phase declines too); at the technology phase's
    window it could only go to space 1 after the slide, to decline a turn later."""
    st = position(hand=["C1", "C2", "C3", "C4", "C6", "C7", "C8", "C9"],
                  timeline={1: ["C5", "M1"]}, tokens={"C5": 1, "M1": 1}, phase="decline",
                  turn=15)
    with_chests(st, under=("Ж",))
    play(st, "!C5", "done")  # done: the window between the two declines; M1 declines
    assert st.stack[-1] == (D_CHEST_WINDOW, SINCE_STEPS) and window_since(st) == 4
    assert names_of(st) == ["!chest:Ж", "done"]  # the window after the last decline
    play(st, "!chest:Ж", "C1", "s1", "C2", "C3", "C4", "C6")
    assert [st.book.cards[c].id for c in st.past] == ["C1_Osirion", "C5_ElloraCaves",
                                                      "M1_Stonehenge"]
    assert st.turn == 16


def test_done_after_the_last_decline_ends_the_phase() -> None:
    """``done`` at the window after the last decline (RULES.md section 8): the slide (section 4C
    step 3), the technology phase, the next turn."""
    st = position(hand=["C1"], timeline={1: ["C5", "M1"], 3: ["M2"]},
                  tokens={"C5": 1, "M1": 1}, phase="decline")
    with_chests(st, under=("Б",))
    play(st, "!C5", "done")
    assert st.space_monuments(1) == [] and window_since(st) == 4
    play(st, "done")
    assert st.space_monuments(2) == [idx(st, "M2")] and st.turn == 2  # the slide, turn 2


def test_a_lightning_chest_may_be_used_where_the_time_card_left_space_1() -> None:
    """Step 1 of the decline phase takes the time card out of space 1 (its 1st visit, to the
    Past): a moment before the first decline (section 8; format 4), where chest Ж creates
    Osirion in the place the time card freed, and it declines in this phase. At the phase's
    start the space was full."""
    st = position(hand=["C1", "C2", "C3", "C4", "C6", "C7", "C8", "C9"],
                  timeline={1: ["M1", "TIME"]}, tokens={"M1": 1}, turn=5)
    with_chests(st, under=("Ж",))
    assert not st.has_free_place(1)
    resume(st, (F_TECH_PHASE,), (F_DECLINE_PHASE,))
    assert st.time_space == 0 and st.has_free_place(1)
    assert window_since(st) == 4 and names_of(st) == ["!chest:Ж", "done"]
    play(st, "!chest:Ж", "C1", "s1", "C2", "C3", "C4", "C6")
    assert names_of(st) == ["!M1", "!C1"]  # both decline in this phase, in the player's order
    play(st, "!C1")  # (no chest left: no window between the two) then Stonehenge declines
    assert sorted(st.book.cards[c].id for c in st.past) == ["C1_Osirion", "M1_Stonehenge"]


def test_lightning_chest_at_the_window_before_the_decline_phase() -> None:
    """A use between the second action and the decline: О (remove 1 knowledge from each
    Timeline monument) saves knowledge of the monument that declines from space 1."""
    st = position(hand=["C1", "C2"], timeline={1: ["C5"], 3: ["M1"]}, tokens={"C5": 2, "M1": 1})
    with_chests(st, under=("О",))
    resume(st, (F_TECH_PHASE,), (F_DECLINE_PHASE,), (D_CHEST_WINDOW,))
    assert names_of(st) == ["!chest:О", "done"]
    play(st, "!chest:О")
    assert st.lost == 1 and idx(st, "C5") in st.past  # 2 - 1 knowledge became lost
    assert st.tokens[idx(st, "M1")] == 0


def test_a_game_without_chest_data_offers_no_chest() -> None:
    st = position(hand=["C1"])
    st.chests_under = [L("Б")]
    flow.settle(st)
    assert "!chest:Б" not in names_of(st)


# ------------------------------------------------------------------ Timeline chests

def test_a_timeline_chest_joins_the_timeline_order_and_may_be_kept() -> None:
    """И (Timeline: remove 2 knowledge from one monument) is ordered with Tonina's Timeline
    effect (D15); the player may use it now or keep it for a later Timeline phase (D16)."""
    st = position(hand=["C1"], timeline={3: ["C5"], 4: ["M31"]}, tokens={"C5": 5}, lost=2)
    with_chests(st, under=("И",))
    resume(st, (F_TECH_PHASE,), (F_DECLINE_PHASE,), (F_TIMELINE_PHASE,))
    assert names_of(st) == ["!M31", "!chest:И"]
    play(st, "!chest:И", "no")  # kept; Ħaġar Qim then resolves alone
    assert st.chests_under == [L("И")] and st.lost == 1
    st = run_to_timeline(st)
    play(st, "!chest:И", "yes")
    assert st.tokens[idx(st, "C5")] == 3
    assert st.chests_under == []


def run_to_timeline(st: GameState) -> GameState:
    """Search twice and stop at the next Timeline-phase order."""
    while st.pending() != (D_ACTION, 0):
        st.apply(st.legal[0])
    play(st, "search", "search")
    return st


def test_unused_chests_are_discarded_at_the_end() -> None:
    st = position(timeline={1: ["TIME"]}, time_visits=2, tile_level=(1, 2, 2))
    with_chests(st, goals=("А",), under=("Б", "Е"))
    resume(st, (F_DECLINE_PHASE,))
    assert st.is_terminal() and st.chests_under == [] and st.goal_chests == [L("А")]


# ------------------------------------------------------------------ notation and setup

def test_chest_notation_round_trips() -> None:
    n = A.Notation(BOOK)
    for k in range(15):
        for text in (f"!chest:{CHEST_LETTERS[k]}", f"chest:{CHEST_LETTERS[k]}"):
            assert n.render(n.parse(text)) == text
    assert n.parse("!chest:Б") == A.code(A.CHEST, 1)
    assert n.parse("chest:Б") == A.code(A.CHEST, A.CHEST_PICK + 1)
    assert (letter_index("ZH") == L("Ж") and letter_index("b") == L("Б")
            and letter_index("Q") is None)


def test_setup_json_carries_the_chests_and_their_hash() -> None:
    s = Setup(hand="2", seed=5, trial=2, goals=("В", "Г"), under=("Б", "Д"),
              chest_data=load_chests())
    data = s.to_json()
    assert data["trial"] == 2
    assert data["chests"]["goals"] == ["В", "Г"] and data["chests"]["under"] == ["Б", "Д"]
    assert data["chests"]["file"] == "default"
    assert data["chests"]["sha256"] == load_chests().sha256
    again = setup_from_json(json.loads(json.dumps(data)))
    assert again.to_json() == data
    bad = json.loads(json.dumps(data))
    bad["chests"]["sha256"] = "0" * 64
    with pytest.raises(SetupError, match="has changed since this setup was written"):
        setup_from_json(bad)
    assert "chests" not in Setup(hand="1").to_json()  # no trial: the setup is unchanged


EARLIER = Path(__file__).resolve().parent / "fixtures" / "chests" / "chests-329fc589.json"


def test_an_earlier_revision_of_the_same_game_still_loads() -> None:
    """The shipped file marks the Standard of Ur's letter Г inferred (the rulebook names the card
    and its goal, not its letter); its earlier revision, declared ``same_game_as``, differs in
    those marks only, so line and campaign files written with it still load."""
    now, before = load_chests(), load_chests(str(EARLIER))
    assert before.sha256 in now.same_game_as and now.matches(before.sha256)
    for a, b in zip(now, before, strict=True):
        assert (a.letter, a.name, a.goal, a.moment, a.steps, a.effect_text) == (
            b.letter, b.name, b.goal, b.moment, b.steps, b.effect_text)
    changed = [a.letter for a, b in zip(now, before, strict=True)
               if (a.name_part, a.goal_part, a.effect_part) != (b.name_part, b.goal_part,
                                                               b.effect_part)]
    assert changed == ["Г"]
    g = now[CHEST_LETTERS.index("Г")]
    assert (g.goal_part.inferred and g.name_part.inferred
            and "project's choice" in g.goal_part.reason)
    old = Setup(hand="2", seed=5, trial=2, goals=("В", "Г"), under=("Б", "Д"),
                chest_data=load_chests()).to_json()
    old["chests"]["sha256"] = before.sha256
    assert setup_from_json(old).chests_sha256 == now.sha256  # read, and written anew


def test_same_game_as_must_be_hashes(tmp_path: Path) -> None:
    data = json.loads(DEFAULT_PATH.read_text(encoding="utf-8"))
    data["same_game_as"] = ["abc"]
    path = tmp_path / "c.json"
    path.write_text(json.dumps(data, ensure_ascii=False), encoding="utf-8")
    with pytest.raises(ChestDataError, match="field 'same_game_as' = \\['abc'\\]"):
        load_chests(str(path))


@pytest.mark.parametrize(("kw", "fragment"), [
    ({"goals": ("X",)}, "chests.goals: 'X' is not a chest letter"),
    ({"goals": ("А",), "under": ("А",)}, "chest А is also in chests.goals"),
    ({"under": tuple("АБВГДЕ")}, "chests.under: 6 chests, at most 5"),
    ({"goals": ("А",), "revealed": ("Б",)}, "goals are chosen in the game"),
])
def test_bad_chest_setups_name_the_field_and_value(kw: dict[str, tuple[str, ...]],
                                                  fragment: str) -> None:
    with pytest.raises(SetupError) as err:
        setup_from_json({"hand": "1", "chests": {k: list(v) for k, v in kw.items()}})
    assert fragment in str(err.value)


# ------------------------------------------------------------------ the chest file

def _write(tmp_path: Path, mutate: object) -> Path:
    data = json.loads(DEFAULT_PATH.read_text(encoding="utf-8"))
    mutate(data)  # type: ignore[operator]
    path = tmp_path / "chests.json"
    path.write_text(json.dumps(data, ensure_ascii=False), encoding="utf-8")
    return path


def test_the_shipped_chest_file_marks_every_stand_in_with_a_reason() -> None:
    data = load_chests()
    assert [c.letter for c in data] == list(CHEST_LETTERS)
    for c in data:
        for part in (c.name_part, c.goal_part, c.effect_part):
            assert not part.stand_in or part.reason.strip()
    known = {c.letter for c in data if not c.name_part.stand_in}
    assert known == {"В", "Л"}  # printed with their letters
    assert data[L("Б")].moment == "lightning"
    assert [c.letter for c in data if not c.goal_part.stand_in] == []
    # inferred: В and Л from the worked example (D14), Г's letter for the Standard of Ur
    assert [c.letter for c in data if c.goal_part.inferred] == ["В", "Г", "Л"]
    assert [c.letter for c in data if c.name_part.inferred] == ["Г"]


def test_a_user_chest_file_replaces_the_shipped_one(tmp_path: Path) -> None:
    def mutate(d: dict[str, list[dict[str, object]]]) -> None:
        d["chests"][0] = {"letter": "A", "name": "My chest", "goal": "lost <= 2",
                          "effect": {"moment": "timeline", "text": "Draw 1.",
                                     "steps": [{"op": "draw", "n": 1}]}}
    path = _write(tmp_path, mutate)
    data = load_chests(str(path))
    assert data[0].name == "My chest" and str(data[0].goal) == "lost <= 2"
    assert not data[0].goal_part.stand_in and data.source == str(path)
    s = Setup(hand="1", chests=str(path), goals=("А",), chest_data=load_chests(str(path)))
    assert s.chests_sha256 == data.sha256 != load_chests().sha256


@pytest.mark.parametrize(("mutate", "fragment"), [
    (lambda d: d["chests"][0].update(letter="Щ"), "field 'letter' = 'Щ': not a chest letter"),
    (lambda d: d["chests"][3]["goal"].update(text="pyramids >= 6"),
     "chest Г: field 'goal' = 'pyramids >= 6'"),
    (lambda d: d["chests"].pop(), "letter П is missing"),
    (lambda d: d["chests"][1].update(letter="А"),
     "chest А: field 'letter' = 'А': appears twice"),
    (lambda d: d["chests"][2]["effect"].update(moment="dawn"),
     "chest В: field 'effect.moment' = 'dawn'"),
    (lambda d: d["chests"][2]["effect"].update(steps=[{"op": "fly"}]), "'fly'"),
    (lambda d: d["chests"][2]["effect"].update(
        steps=[{"op": "remove_knowledge", "amount": 1, "target": "self"}]),
     "field 'effect.steps[0].target' = 'self'"),
    (lambda d: d["chests"][4]["goal"].update(reason=""), "chest Д: field 'goal.reason'"),
])
def test_bad_chest_files_name_file_field_and_value(tmp_path: Path, mutate: object,
                                                   fragment: str) -> None:
    path = _write(tmp_path, mutate)
    with pytest.raises(ChestDataError) as err:
        load_chests(str(path))
    assert str(path) in str(err.value) and fragment in str(err.value)


def test_shortfall_measures_how_far_a_goal_is_from_being_met() -> None:
    st = position(past=["P1", "P2", "P3", "C1"], timeline={2: ["M1"]}, lost=6)
    assert shortfall(parse_goal("past.pyramid >= 6"), st) == 3
    assert shortfall(parse_goal("lost <= 4 and timeline.any >= 3"), st) == 2 + 2
    assert shortfall(parse_goal("past.pyramid >= 6 or lost < 7"), st) == 0
    assert shortfall(parse_goal("past.any == 2"), st) == 2
    with_chests(st, goals=("Г", "О"))
    assert goal_shortfall(st) == 3 + 4 and not goals_met(st)


def test_a_lightning_chest_may_be_used_before_the_middle_of_game_flip() -> None:
    """Between the 7th monument's entering the Past and the flip (RULES.md section 6) is a
    moment too (section 8; format 4). Khufu's pyramid (P1) declines as the 7th: Melchizedek
    (T7, tile A) and Astronomy (T18, tile B) both need a pyramid in the Past, and the flip
    discards one of their tiles; chest Д learns T7 before the flip, tile A flips, and T18 is
    still there to learn in turn 16: 6 technologies, chest Б's goal met (no window reaches
    that: before the decline neither is learnable, after the flip one is gone)."""
    st = position(hand=[], timeline={1: ["P1"], 2: ["TIME"]},
                  past=["C22", "M9", "M10", "M14", "M15", "M17"], techs=["T3", "T4", "T5", "T6"],
                  tiles=["T7", "T1", "T23", "T18", "T2", "T15", "T43", "T44", "T28"],
                  deck_top=["C2", "C3", "M6", "M7", "P2", "P3"], time_visits=2, turn=15,
                  midgame=False, pending=[STOP])
    with_chests(st, goals=("Б",), under=("Д",))
    resume(st, (F_TECH_PHASE,), (D_CHEST_WINDOW,), (F_DECLINE_PHASE,))
    assert len(st.past) == 7 and st.stack[-2] == (D_FLIP,)
    assert window_since(st) == 4 and names_of(st) == ["!chest:Д", "done"]
    play(st, "!chest:Д")
    assert names_of(st) == ["T7", "T18"]
    play(st, "T7", "tileA")
    assert st.turn == 16
    play(st, "learn")  # T18 the one technology to learn: taken at once
    assert sorted(st.card(t).code for t in st.techs) == ["T18", "T3", "T4", "T5", "T6", "T7"]
