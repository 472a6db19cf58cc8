"""Trial mode (RULES.md section 9): the trial table as data, the setup of a trial, `heritage
trials`, `heritage play --trial N` and `verify` of trial lines, and bad trial files."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from typer.testing import CliRunner

from cli.app import app
from cli.trials import chest_rows
from puzzles.cardsets import load_book
from puzzles.chests import load_chests
from puzzles.lines import replay
from puzzles.trials import DEFAULT_PATH, load_trials, trial_setup
from solver.engine.actions import CHEST_LETTERS
from solver.engine.chestcards import ChestDataError
from solver.engine.goal_check import goals_json
from solver.engine.newgame import new_game
from solver.engine.record import GameRecord
from solver.engine.setup import Setup
from solver.engine.state import CHEST_BASE, EMPTY
from solver.rng import Stream

BOOK = load_book(["base"])
CARD_SETS = tuple(BOOK.sets)
runner = CliRunner()

PRINTED = {
    1: ("New Era", ("А",), ("Б",)),
    2: ("Buried Artifacts", ("В", "Г"), ("Б", "Д")),
    3: ("Vicissitudes of Fate", ("А", "Е"), ("В", "Ж", "З")),
    4: ("Great Deeds", ("Б", "Ж"), ("И", "К")),
    5: ("Long-Forgotten Knowledge", ("В", "Л"), ("М", "Н")),
    6: ("Keeper of Knowledge", ("З", "О"), ("В", "Д")),
}


def L(ch: str) -> int:
    return CHEST_LETTERS.index(ch)


def test_trials_1_to_6_are_as_printed_and_7_to_10_are_marked_stand_ins() -> None:
    table = load_trials()
    assert sorted(table) == list(range(1, 11))
    for n, (name, goals, under) in PRINTED.items():
        t = table[n]
        assert (t.name, t.goals, t.under, t.stand_in) == (name, goals, under, False)
    for n in range(7, 11):
        assert table[n].stand_in and table[n].reason.strip()
        assert 1 <= len(table[n].goals) <= 5 and len(table[n].under) <= 5


def test_a_trial_setup_places_its_chests() -> None:
    """Trial 2: В and Г in the artifact spaces from the left, Б and Д under the board."""
    s = trial_setup(2, hand="3", seed=11, card_sets=CARD_SETS)
    assert (s.trial, s.goals, s.under) == (2, ("В", "Г"), ("Б", "Д"))
    st = new_game(s, BOOK)
    assert st.artifacts == [CHEST_BASE + L("В"), CHEST_BASE + L("Г"), EMPTY, EMPTY, EMPTY]
    assert st.chests_under == [L("Б"), L("Д")]
    assert [st.card(c).starting_hand for c in st.hand] == [3] * 6
    assert st.time_space == 4


def _random_line(setup: Setup, seed: int) -> dict[str, object]:
    record = GameRecord.new(setup, BOOK)
    stream = Stream(seed, "policy", 0)
    while not record.state.is_terminal():
        legal = record.state.legal_actions()
        record.apply(legal[stream.below(len(legal))])
    return record.to_json()


@pytest.mark.parametrize("trial", range(1, 11))
def test_every_trial_plays_to_the_end_and_replays(trial: int) -> None:
    """A random game of each trial ends; its line replays with the same goals (verify)."""
    setup = trial_setup(trial, hand="draw", seed=trial, card_sets=CARD_SETS)
    data = json.loads(json.dumps(_random_line(setup, trial)))
    goals = data["goals"]
    assert [g["chest"] for g in goals] == list(load_trials()[trial].goals)
    record, error = replay(data)
    assert error is None and record is not None
    assert goals_json(record.state) == goals
    assert record.state.chests_under == []  # unused effect chests discarded at the end
    record.state.zone_of_every_card()


def test_a_changed_claim_about_the_goals_is_caught() -> None:
    data = _random_line(trial_setup(5, hand="1", seed=2, card_sets=CARD_SETS), 2)
    goals = data["goals"]
    assert isinstance(goals, list)
    goals[0]["met"] = not goals[0]["met"]
    _, error = replay(data)
    assert error is not None and error.startswith("goals: the line claims")


# ------------------------------------------------------------------ the command line

def test_trials_command_lists_the_table() -> None:
    result = runner.invoke(app, ["trials"])
    assert result.exit_code == 0
    assert "Long-Forgotten Knowledge" in result.output
    assert "В~ timeline.any >= 5; Л~ past.any >= 10" in result.output
    assert "Standard of Ur" in result.output


def test_trials_chest_table_marks_the_letter_of_ur_inferred_not_a_stand_in() -> None:
    """The rulebook names the Standard of Ur and its goal, not its letter: the letter Г is the
    project's inference (``~``), not a stand-in for text the rulebook leaves out (``*``)."""
    rows = {row[1]: row for row in chest_rows(load_chests())}
    assert rows["Standard of Ur"][0] == "Г~"
    assert not any(row[0].endswith("~") for name, row in rows.items() if name != "Standard of Ur")


def test_trials_json_gives_each_trial_with_its_chests() -> None:
    result = runner.invoke(app, ["trials", "--json"])
    assert result.exit_code == 0
    data = json.loads(result.output)
    assert data["chests_sha256"] == load_chests().sha256
    trials = data["trials"]
    assert [t["number"] for t in trials] == list(range(1, 11))
    t2 = trials[1]
    assert [c["letter"] for c in t2["goals"]] == ["В", "Г"]
    assert t2["goals"][1]["name"] == "Standard of Ur"
    assert t2["goals"][1]["goal"] == "past.pyramid >= 6"
    assert t2["goals"][0]["inferred"] == {"name": False, "goal": True}
    assert t2["goals"][1]["inferred"] == {"name": True, "goal": True}  # Г: the letter chosen
    assert [c["letter"] for c in t2["under"]] == ["Б", "Д"]
    assert t2["under"][0]["moment"] == "lightning"
    assert [t["stand_in"] for t in trials] == [False] * 6 + [True] * 4


def test_play_trial_json_is_accepted_by_verify(tmp_path: Path) -> None:
    result = runner.invoke(app, ["play", "--trial", "2", "--hand", "draw", "--seed", "3", "--json"])
    assert result.exit_code == 0, result.output
    data = json.loads(result.output)
    assert data["setup"]["trial"] == 2
    assert data["setup"]["chests"]["goals"] == ["В", "Г"]
    assert [g["chest"] for g in data["goals"]] == ["В", "Г"]
    line = tmp_path / "line.json"
    line.write_text(result.output, encoding="utf-8")
    assert runner.invoke(app, ["verify", str(line)]).exit_code == 0
    data["goals"][1]["met"] = not data["goals"][1]["met"]
    line.write_text(json.dumps(data, ensure_ascii=False), encoding="utf-8")
    assert runner.invoke(app, ["verify", str(line)]).exit_code == 1


def test_play_trial_prints_the_goals() -> None:
    result = runner.invoke(app, ["play", "--trial", "1", "--seed", "0"])
    assert result.exit_code == 0, result.output
    lines = result.output.splitlines()
    goals = lines[lines.index("Goals") + 2]
    assert goals.split()[:4] == ["А", "Chest", "of", "Tutankhamun*"]
    assert "at least 8 monuments in the Past*" in goals  # a stand-in goal, marked
    assert ("Trial passed" in result.output) != ("Trial failed" in result.output)


def test_play_with_an_unknown_trial_exits_2() -> None:
    result = runner.invoke(app, ["play", "--trial", "11"])
    assert result.exit_code == 2
    assert "--trial: 11 is not in the trial table" in result.output


# ------------------------------------------------------------------ bad trial files

def _write(tmp_path: Path, mutate: object) -> Path:
    data = json.loads(DEFAULT_PATH.read_text(encoding="utf-8"))
    mutate(data)  # type: ignore[operator]
    path = tmp_path / "trials.json"
    path.write_text(json.dumps(data, ensure_ascii=False), encoding="utf-8")
    return path


@pytest.mark.parametrize(("mutate", "fragment"), [
    (lambda d: d["trials"][0].update(goals=["А", "Ы"]),
     "trial 1: field 'goals' = 'Ы': not a chest letter"),
    (lambda d: d["trials"][1].update(under=["А", "Б", "Д", "Е", "Ж", "З"]),
     "trial 2: field 'under' = ['А', 'Б', 'Д', 'Е', 'Ж', 'З']: 6 chests; at most 5"),
    (lambda d: d["trials"][2].update(under=["А"]),
     "trial 3: field 'under' = ['А']: chest А is also a goal"),
    (lambda d: d["trials"][3].update(goals=[]), "trial 4: field 'goals' = []: a trial needs"),
    (lambda d: d["trials"][4].update(number=1), "field 'trials[4].number' = 1: appears twice"),
    (lambda d: d["trials"][7].update(reason=""), "trial 8: field 'reason' = ''"),
    (lambda d: d["trials"][0].update(stand_in="no"),
     "trial 1: field 'stand_in' = 'no': expected true or false"),
    (lambda d: d["trials"][0].update(stand_in=1), "trial 1: field 'stand_in' = 1"),
    (lambda d: d["trials"][0].update(goal=["А"]), "trial 1: field 'goal' = ['А']: unknown field"),
    (lambda d: d["trials"][0].update(number=10**20),
     "field 'trials[0].number' = 100000000000000000000: expected a whole number from 1 to 10000"),
    (lambda d: d.update(trials=[]), "field 'trials' = []: a trial table needs at least one"),
])
def test_bad_trial_files_name_file_field_and_value(tmp_path: Path, mutate: object,
                                                   fragment: str) -> None:
    path = _write(tmp_path, mutate)
    with pytest.raises(ChestDataError) as err:
        load_trials(str(path))
    assert str(path) in str(err.value) and fragment in str(err.value)


def test_a_bad_trial_file_exits_2_with_one_line(tmp_path: Path) -> None:
    path = _write(tmp_path, lambda d: d["trials"][0].update(goals=["Ы"]))
    result = runner.invoke(app, ["trials", "--trials", str(path)])
    assert result.exit_code == 2
    lines = [ln for ln in result.output.splitlines() if ln.strip()]
    assert len(lines) == 1 and "field 'goals' = 'Ы'" in lines[0]


def test_a_bad_chest_file_exits_2_with_one_line(tmp_path: Path) -> None:
    data = json.loads((DEFAULT_PATH.parent / "chests.json").read_text(encoding="utf-8"))
    data["chests"][3]["goal"]["text"] = "past.pyramid >>= 6"
    path = tmp_path / "chests.json"
    path.write_text(json.dumps(data, ensure_ascii=False), encoding="utf-8")
    for args in (["trials", "--chests", str(path)],
                 ["play", "--trial", "2", "--chests", str(path)]):
        result = runner.invoke(app, args)
        assert result.exit_code == 2
        lines = [ln for ln in result.output.splitlines() if ln.strip()]
        assert len(lines) == 1 and "chest Г: field 'goal' = 'past.pyramid >>= 6'" in lines[0]
