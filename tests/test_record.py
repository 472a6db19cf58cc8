"""Game records and line files (`solver.engine.record`), and their wording
(`solver.engine.describe`)."""

from __future__ import annotations

import json
from functools import lru_cache
from pathlib import Path
from typing import Any

import pytest

from puzzles.lines import load_position, replay
from solver.engine import actions as A
from solver.engine.cards import CardBook
from solver.engine.describe import describe_line, walk_state
from solver.engine.errors import IllegalActionError
from solver.engine.record import LINE_FORMAT, GameRecord, LineError, dumps
from solver.engine.setup import Setup
from solver.rng import Stream
from tests.builder import book as base_book

# Turn 1 of premade hand 1, seed 0: Create Toniná paying 2, then Archive 2 cards.
TURN1 = ["create", "P31", "s2", "A4", "archive", "C5", "M18", "done"]


def book() -> CardBook:
    return base_book(("base",))


def setup(hand: str = "1", seed: int = 0) -> Setup:
    return Setup(hand=hand, seed=seed, card_sets=(("base", book().sets[0][1]),))


def random_record(hand: str, seed: int, stop_after: int | None = None) -> GameRecord:
    """A game (or its first `stop_after` decisions) played with the CLI's random policy."""
    record = GameRecord.new(setup(hand, seed), book())
    stream = Stream(seed, "policy", 0)
    n = 0
    while not record.state.is_terminal() and (stop_after is None or n < stop_after):
        legal = record.state.legal_actions()
        record.apply(legal[stream.below(len(legal))])
        n += 1
    return record


@lru_cache(maxsize=8)
def game_text(hand: str, seed: int) -> str:
    return dumps(random_record(hand, seed).to_json())


def game(hand: str = "draw", seed: int = 7) -> dict[str, Any]:
    data: dict[str, Any] = json.loads(game_text(hand, seed))
    return data


# ------------------------------------------------------------------ the record and its JSON

def test_json_shape_and_turn_indexing() -> None:
    data = game("draw", 7)
    assert list(data) == ["format", "setup", "line", "score", "goals"]
    assert data["format"] == LINE_FORMAT == 4
    assert data["goals"] == []
    assert data["setup"]["hand"] == "draw" and data["setup"]["seed"] == 7
    assert data["setup"]["card_sets"] == [{"name": "base", "sha256": book().sets[0][1]}]
    line = data["line"]
    assert len(line) == 17  # turns 0..16: the game ends in turn 16's decline phase
    # Turn 0 holds only the keep decisions (cards), turn 1 starts with an action.
    assert 1 <= len(line[0]) <= 6 and all(book().lookup(c) is not None for c in line[0])
    assert line[1][0] in A.ACT_NAMES
    score = data["score"]
    assert list(score) == ["past", "effects", "technologies", "timeline", "lost_knowledge",
                           "total"]
    assert score["total"] == sum(v for k, v in score.items() if k != "total")


def test_premade_hand_has_an_empty_turn_zero() -> None:
    record = GameRecord.new(setup("1", 0), book())
    for move in TURN1:
        record.apply_notation(move)
    assert record.line == [[], TURN1, []]  # turn 2 has begun, nothing chosen yet
    assert record.to_json()["score"] is None  # not over


def test_decisions_are_written_under_the_turn_they_are_taken() -> None:
    record = random_record("draw", 3)
    replayed = GameRecord.new(record.setup, book())
    for t, _, text in record.decisions():
        assert replayed.state.turn == t
        replayed.apply_notation(text)
    assert replayed.state.key() == record.state.key()


def test_round_trip() -> None:
    text = game_text("draw", 7)
    data = json.loads(text)
    record, error = replay(data)
    assert error is None and record is not None
    assert record.state.is_terminal()
    assert record.to_json() == data
    assert dumps(record.to_json()) == text
    assert record.state.key() == random_record("draw", 7).state.key()


def test_same_seed_same_json_and_other_seed_differs() -> None:
    first = dumps(random_record("draw", 11).to_json())
    assert dumps(random_record("draw", 11).to_json()) == first
    assert dumps(random_record("draw", 12).to_json()) != first


def test_dumps_writes_one_turn_per_row() -> None:
    text = game_text("1", 2)
    rows = text.splitlines()
    assert rows[0] == "{" and rows[-1] == "}"
    turn_rows = [r for r in rows if r.startswith("    [")]
    assert len(turn_rows) == len(json.loads(text)["line"])


def test_illegal_apply_names_the_legal_options() -> None:
    record = GameRecord.new(setup("1", 0), book())
    with pytest.raises(IllegalActionError, match=r"'excavate' is not legal here \(legal: create, "
                       r"learn, archive, search\)"):
        record.apply_notation("excavate")
    with pytest.raises(IllegalActionError, match="'bogus' is not legal here"):
        record.apply_notation("bogus")
    assert record.line == [[], []]


# ------------------------------------------------------------------ replay refusals

def test_tampered_score_is_invalid() -> None:
    data = game()
    data["score"]["total"] += 1
    record, error = replay(data)
    assert record is not None
    assert error == (f"score: the line claims total {data['score']['total']}, the replay "
                     f"scores {data['score']['total'] - 1}")


def test_claimed_goals_must_match() -> None:
    data = game()
    data["goals"] = [{"chest": "A", "goal": "x", "met": True}]
    _, error = replay(data)
    assert error is not None and error.startswith("goals: the line claims")


def test_illegal_decision_names_turn_and_index() -> None:
    data = game("1", 0)
    data["line"][1] = ["create", "P31", "s2", "A4", "excavate"]
    record, error = replay(data)
    assert record is not None
    assert error == ("turn 1, decision 5: 'excavate' is not legal here (choose an action; "
                     "legal: create, learn, archive, search)")


def test_unreadable_decision_is_invalid() -> None:
    data = game("1", 0)
    data["line"][1][0] = "fly"
    record, error = replay(data)
    assert record is not None and error is not None
    assert error.startswith("turn 1, decision 1: 'fly' is not legal here (choose an action")


def test_line_must_reach_the_end() -> None:
    data = game("1", 0)
    data["line"] = data["line"][:5]
    record, error = replay(data)
    assert record is not None and error is not None
    assert error.startswith("turn 5: the line ends before the game is over (choose an action")


def test_decision_after_the_end_or_in_the_wrong_turn() -> None:
    data = game("1", 0)
    data["line"][-1].append("search")
    _, error = replay(data)
    assert error == (f"turn 16, decision {len(data['line'][-1])}: 'search' comes after the end of "
                     "the game")
    data = game("1", 0)
    data["line"][1].append(data["line"][2].pop(0))  # turn 2's first action written in turn 1
    _, error = replay(data)
    assert error == (f"turn 1, decision {len(data['line'][1])}: {data['line'][1][-1]!r} comes "
                     "after turn 1 ended (the game is at turn 2)")
    data = game("1", 0)
    data["line"][3] = data["line"][2] + data["line"][3]
    data["line"][2] = []
    _, error = replay(data)
    assert error is not None and error.startswith(
        "turn 2: the line gives no more decisions but the game waits (choose an action")


def test_changed_card_set_is_refused(tmp_path: Path) -> None:
    data = game()
    data["setup"]["card_sets"][0]["sha256"] = "0" * 64
    record, error = replay(data)
    assert record is None and error is not None
    assert "card set base has changed since this line was written" in error


def test_user_card_set_path_relative_to_the_line(tmp_path: Path) -> None:
    source = Path(__file__).parent.parent / "puzzles" / "data" / "cards" / "base.json"
    (tmp_path / "mycards.json").write_bytes(source.read_bytes())
    data = game()
    data["setup"]["card_sets"] = [{"name": "mycards.json", "sha256": book().sets[0][1]}]
    assert replay(data, base_dir=tmp_path)[1] is None
    record, error = replay(data)  # not found from the working directory
    assert record is None and error is not None and "mycards.json" in error


@pytest.mark.parametrize(("mutate", "message"), [
    (lambda d: d.pop("line"), "line: missing"),
    (lambda d: d.pop("setup"), "setup: missing"),
    (lambda d: d.__setitem__("line", {"a": 1}), 'line: expected a list of turns, got {"a": 1}'),
    (lambda d: d["line"].__setitem__(2, "search"),
     'line[2]: expected a list of decisions, got "search"'),
    (lambda d: d["line"][1].__setitem__(0, 7),
     "line[1][0]: expected a decision in notation, got 7"),
    (lambda d: d["setup"].__setitem__("hand", "9"),
     "setup: hand: '9' is not one of 1, 2, 3, 4, draw or a file"),
    (lambda d: d["setup"].__setitem__("card_sets", []),
     "setup.card_sets: empty; name the card sets the line was played with"),
    (lambda d: d.__setitem__("score", 12),
     "score: expected an object of the five rows and total, got 12"),
])
def test_malformed_files_have_no_record(mutate: Any, message: str) -> None:
    data = game("1", 0)
    mutate(data)
    assert replay(data) == (None, message)
    assert replay([1, 2]) == (None, "expected a JSON object with 'setup' and 'line', got [1, 2]")


# ------------------------------------------------------------------ positions

def test_positions_replay_to_the_same_state() -> None:
    full = random_record("draw", 5)
    total = sum(1 for _ in full.decisions())
    for cut in (0, 1, 6, total // 2, total - 1):
        partial = random_record("draw", 5, stop_after=cut)
        data = partial.to_json()
        assert data["score"] is None
        position = load_position(json.loads(dumps(data)))
        assert position.state.key() == partial.state.key()
        assert position.line == partial.line
        # Continuing the position with the rest of the game reaches the same end.
        rest = [text for t, k, text in full.decisions()][cut:]
        for text in rest:
            position.apply_notation(text)
        assert position.state.key() == full.state.key()
        assert position.line == full.line


def test_load_position_raises_on_an_illegal_step() -> None:
    data = {"setup": setup("1", 0).to_json(), "line": [[], ["learn", "T99"]]}
    with pytest.raises(LineError, match=r"turn 1, decision 2: 'T99' is not legal here") as err:
        load_position(data)
    assert not err.value.malformed
    with pytest.raises(LineError, match="line: missing") as err:
        load_position({"setup": setup().to_json()})
    assert err.value.malformed


# ------------------------------------------------------------------ describe

@pytest.mark.parametrize(("hand", "seed"), [("draw", s) for s in range(6)] + [("2", 9), ("4", 3)])
def test_describe_walker_follows_the_engine(hand: str, seed: int) -> None:
    record = random_record(hand, seed)
    assert walk_state(record.setup, book(), record.line).key() == record.state.key()
    reports = describe_line(record.setup, book(), record.line)
    assert [r.turn for r in reports] == ([0] if hand == "draw" else []) + list(range(1, 17))
    last = reports[-1]
    st = record.state
    assert last.over and (last.hand, last.lost) == (len(st.hand), st.lost)
    assert last.timeline_knowledge == st.timeline_tokens()
    assert last.events[-1].startswith("the time card is in space 1 for the third time")


def test_describe_turn_one_of_hand_one() -> None:
    line = [[], TURN1]
    (rep,) = describe_line(setup("1", 0), book(), line)[:1]
    assert rep.phrases == [
        "Create Toniná (P31) in space 2 with 4 knowledge, discarding Disks of Bayan Kara Ula "
        "(A4) and La Maná Pyramid (A8)",
        "Archive Ellora Caves (C5) and Dolmen of Menga (M18): remove 2 knowledge from Toniná "
        "(P31)",
        "Timeline phase: Toniná (P31): draw Janggun-chong (P36)",
    ]
    assert rep.notations == ["create P31 s2 A4", "archive C5 M18 done", ""]
    assert rep.events == ["technology phase: the die shows 4: discard Mummification (T12) from "
                          "tile B"]
    assert rep.summary().startswith("hand 2: ")
    assert rep.summary().endswith("; knowledge on the Timeline 2; lost knowledge 0")


def test_describe_the_keep() -> None:
    record = random_record("draw", 7, stop_after=7)
    reports = describe_line(record.setup, book(), record.line)
    kept = [book().cards[c].name for c in record.state.hand]
    assert reports[0].title == "Setup"
    assert reports[0].phrases[0].startswith("Setup: keep ")
    assert all(name in reports[0].phrases[0] for name in kept)
    assert ": discard " in reports[0].phrases[0]  # the four others are named


@pytest.mark.parametrize("trial", [1, 2, 5])
def test_describe_walker_follows_the_engine_in_trials(trial: int) -> None:
    """Trial games add chest decisions (solver.engine.chests); the walker must still follow."""
    from dataclasses import replace

    from puzzles.trials import trial_setup

    s = replace(trial_setup(trial, hand="draw", seed=trial), card_sets=setup().card_sets)
    record = GameRecord.new(s, book())
    stream = Stream(trial, "policy", 0)
    while not record.state.is_terminal():
        legal = record.state.legal_actions()
        record.apply(legal[stream.below(len(legal))])
    assert walk_state(s, book(), record.line).key() == record.state.key()
    replayed, error = replay(json.loads(dumps(record.to_json())))
    assert error is None and replayed is not None
    assert replayed.to_json()["goals"] == record.to_json()["goals"] != []
