"""Line files that travel and claims that are checked (issue 12).

* ``format``: written files carry the line-file format; files without it (format 1, written
  before) still verify: `tests/fixtures/format1` keeps three of them, written by the engine
  before the format existed.
* Data files are named relative to the line file, so a line file and its card set move
  together (``cd`` elsewhere and ``verify`` still works).
* ``verify`` recomputes every claim; an UNKNOWN result of ``solve --json`` holds its best failed
  line, labelled, which verifies as a failed trial (exit 1 with ``--require-goals``); OPTIMAL is
  "claimed, not verified".
* ``campaign record`` checks the whole setup against the campaign's next game.
"""

from __future__ import annotations

import json
import shutil
from pathlib import Path
from typing import Any

import pytest
from typer.testing import CliRunner

from cli.app import app
from cli.play import play_random
from puzzles.cardsets import DATA
from puzzles.deal import setup_from_json
from puzzles.lines import book_for
from solver.engine.record import LINE_FORMAT

ROOT = Path(__file__).resolve().parent.parent
FORMAT1 = Path(__file__).resolve().parent / "fixtures" / "format1"
RUNNER = CliRunner(env={"COLUMNS": "100", "NO_COLOR": "1"})


def run(*args: str) -> Any:
    return RUNNER.invoke(app, list(args))


def write(path: Path, data: Any) -> Path:
    path.write_text(json.dumps(data, ensure_ascii=False), encoding="utf-8")
    return path


# ------------------------------------------------------------------ format

def test_written_line_files_carry_the_format() -> None:
    result = run("play", "--seed", "2", "--json")
    assert result.exit_code == 0, result.output
    data = json.loads(result.stdout)
    assert data["format"] == LINE_FORMAT == 4
    assert next(iter(data)) == "format"


@pytest.mark.parametrize("name", sorted(p.name for p in FORMAT1.glob("*.json")))
def test_format_1_line_files_written_before_still_verify(
        name: str, monkeypatch: pytest.MonkeyPatch) -> None:
    """Three files written before ``format`` existed (one names a card-set file relative to the
    working directory, as format 1 did): each still verifies, with its claimed score."""
    monkeypatch.chdir(ROOT)
    data = json.loads((FORMAT1 / name).read_text(encoding="utf-8"))
    assert "format" not in data
    result = run("verify", str(FORMAT1 / name))
    assert result.exit_code == 0, result.output
    assert result.stdout.startswith(f"valid: 16 turns, {data['score']['total']} VP")


def test_an_unknown_format_is_refused(tmp_path: Path) -> None:
    data = json.loads(run("play", "--seed", "2", "--json").stdout)
    data["format"] = LINE_FORMAT + 1
    result = run("verify", str(write(tmp_path / "x.json", data)))
    assert result.exit_code == 2
    assert f"format: {LINE_FORMAT + 1}: this engine reads line-file formats 1 to {LINE_FORMAT}" \
        in result.stderr


# ------------------------------------------------------------------ files that travel

def test_a_line_file_and_its_card_set_move_together(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """``play --cards my-set.json --out out/game.json`` names the set relative to the line
    file (``../my-set.json``); from another working directory, and after moving both files
    together, ``verify`` finds it."""
    work = tmp_path / "work"
    (work / "out").mkdir(parents=True)
    shutil.copy(DATA / "example-user-set.json", work / "my-set.json")
    monkeypatch.chdir(work)
    result = run("play", "--cards", "base", "--cards", "my-set.json", "--seed", "4",
                 "--out", "out/game.json")
    assert result.exit_code == 0, result.output
    data = json.loads((work / "out" / "game.json").read_text(encoding="utf-8"))
    assert [s["name"] for s in data["setup"]["card_sets"]] == ["base", "../my-set.json"]
    monkeypatch.chdir(work / "out")
    assert run("verify", "game.json").exit_code == 0
    moved = tmp_path / "elsewhere"
    shutil.copytree(work, moved)
    monkeypatch.chdir(tmp_path)
    result = run("verify", str(moved / "out" / "game.json"))
    assert result.exit_code == 0, result.output


def test_a_deal_position_and_its_card_set_move_together(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """``deal --cards my-set.json --out out/deal.json`` writes a position of this engine's line
    format naming the set relative to it (``../my-set.json``, as a line file does), so ``solve
    --from`` reads it from another working directory after both files moved together; stdout's
    ``--json`` names the set from the working directory."""
    work = tmp_path / "work"
    (work / "out").mkdir(parents=True)
    shutil.copy(DATA / "example-user-set.json", work / "my-set.json")
    monkeypatch.chdir(work)
    result = run("deal", "--cards", "base", "--cards", "my-set.json", "--seed", "4", "--json",
                 "--out", "out/deal.json")
    assert result.exit_code == 0, result.output
    data = json.loads((work / "out" / "deal.json").read_text(encoding="utf-8"))
    assert data["format"] == LINE_FORMAT
    assert [s["name"] for s in data["setup"]["card_sets"]] == ["base", "../my-set.json"]
    printed = json.loads(result.stdout)
    assert [s["name"] for s in printed["setup"]["card_sets"]] == ["base", "my-set.json"]
    assert printed["deal"] == data["deal"]
    moved = tmp_path / "elsewhere"
    shutil.copytree(work, moved)
    monkeypatch.chdir(tmp_path)
    result = run("solve", "--from", str(moved / "out" / "deal.json"), "--node-limit", "50",
                 "--json")
    assert result.exit_code == 0, result.output


def test_a_card_set_named_by_an_absolute_path_keeps_it(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """``--cards /abs/my-set.json``: the line file names the set as given, on stdout and in
    ``--out`` alike, so the line file alone may move."""
    shutil.copy(DATA / "example-user-set.json", tmp_path / "my-set.json")
    absolute = str(tmp_path / "my-set.json")
    (tmp_path / "out").mkdir()
    monkeypatch.chdir(tmp_path / "out")
    result = run("play", "--cards", "base", "--cards", absolute, "--seed", "4", "--json",
                 "--out", "game.json")
    assert result.exit_code == 0, result.output
    data = json.loads((tmp_path / "out" / "game.json").read_text(encoding="utf-8"))
    assert [s["name"] for s in data["setup"]["card_sets"]] == ["base", absolute]
    assert json.loads(result.stdout.split("\nline written")[0])["setup"] == data["setup"]
    (tmp_path / "alone").mkdir()
    shutil.move(tmp_path / "out" / "game.json", tmp_path / "alone" / "game.json")
    monkeypatch.chdir(tmp_path)
    assert run("verify", str(tmp_path / "alone" / "game.json")).exit_code == 0


def test_json_on_stdout_names_data_files_from_the_working_directory(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    shutil.copy(DATA / "example-user-set.json", tmp_path / "my-set.json")
    monkeypatch.chdir(tmp_path)
    result = run("play", "--cards", "base", "--cards", "my-set.json", "--seed", "4", "--json")
    data = json.loads(result.stdout)
    assert [s["name"] for s in data["setup"]["card_sets"]] == ["base", "my-set.json"]
    (tmp_path / "game.json").write_text(result.stdout, encoding="utf-8")
    assert run("verify", "game.json").exit_code == 0


# ------------------------------------------------------------------ claims

def _solve_json(*args: str) -> tuple[int, dict[str, Any]]:
    result = run("solve", *args, "--bound", "simple", "--json")
    return result.exit_code, json.loads(result.stdout)


def test_unknown_solve_output_holds_its_best_failed_line_labelled(tmp_path: Path) -> None:
    """No goal-meeting line within the budget (exit 3): the line file's line is the best line
    found, ``goals_met: false``, ``vp: null``; ``verify`` accepts it as a legal game and says
    the trial is failed; ``--require-goals`` makes that exit 1."""
    code, data = _solve_json("--trial", "2", "--hand", "1", "--seed", "0", "--node-limit", "3000")
    assert code == 3 and data["status"] == "UNKNOWN"
    assert data["goals_met"] is False and data["vp"] is None and "best_failed" not in data
    assert data["score"] is not None and not all(g["met"] for g in data["goals"])
    path = write(tmp_path / "unknown.json", data)
    result = run("verify", str(path))
    assert result.exit_code == 0, result.output
    first = result.stdout.splitlines()[0]
    assert first.startswith("valid: 16 turns") and "FAILED TRIAL: goal not met: " in first
    result = run("verify", str(path), "--require-goals")
    assert result.exit_code == 1
    report = json.loads(run("verify", str(path), "--json", "--require-goals").stdout)
    assert report["goals_met"] is False and report["goals_missed"]


def test_feasible_solve_output_verifies_with_require_goals(tmp_path: Path) -> None:
    code, data = _solve_json("--trial", "1", "--hand", "2", "--seed", "1", "--node-limit", "3000")
    assert code == 0 and data["goals_met"] is True and data["status"] == "FEASIBLE"
    path = write(tmp_path / "feasible.json", data)
    result = run("verify", str(path), "--require-goals")
    assert result.exit_code == 0, result.output
    lines = result.stdout.splitlines()
    assert lines[0].endswith("every goal met")
    assert lines[1].startswith(f"claimed, not verified: bound {data['bound']}")


def test_optimal_is_claimed_not_verified(tmp_path: Path) -> None:
    """A replay cannot prove optimality: a status OPTIMAL (consistent with the line) is printed
    as "claimed, not verified", and the first line does not say "valid"."""
    code, data = _solve_json("--trial", "1", "--hand", "2", "--seed", "1", "--node-limit", "3000")
    data.update(status="OPTIMAL", bound=data["vp"], gap=0)
    result = run("verify", str(write(tmp_path / "optimal.json", data)))
    assert result.exit_code == 0, result.output
    first, second = result.stdout.splitlines()[:2]
    assert not first.startswith("valid") and first.startswith("legal, claims checked")
    assert second.startswith("claimed, not verified: status OPTIMAL")
    report = json.loads(run("verify", str(tmp_path / "optimal.json"), "--json").stdout)
    assert report["claimed_not_verified"] == ["status OPTIMAL"]


@pytest.mark.parametrize(("change", "words"), [
    ({"status": "OPTIMAL"}, "bound: the line claims OPTIMAL with bound"),
    ({"status": "INFEASIBLE"}, "status: the line claims INFEASIBLE"),
    ({"status": "SOLVED"}, "status: 'SOLVED' is not one of"),
    ({"goals_met": False}, "goals_met: the line claims false"),
    ({"vp": None}, "vp: the line claims no goal-meeting line (null)"),
    ({"bound": 1}, "bound: the line claims 1, below its own VP"),
])
def test_false_solve_claims_are_found(tmp_path: Path, change: dict[str, Any], words: str) -> None:
    _, data = _solve_json("--trial", "1", "--hand", "2", "--seed", "1", "--node-limit", "3000")
    data.update(change)
    result = run("verify", str(write(tmp_path / "t.json", data)))
    assert result.exit_code == 1
    assert result.stdout.startswith("invalid: ") and words in result.stdout, result.stdout


@pytest.mark.parametrize(("drop", "change", "words"), [
    (("vp", "gap"), {"bound": 1}, "bound: the line claims 1, below the"),
    (("vp", "gap"), {"status": "OPTIMAL", "bound": 1}, "bound: the line claims 1, below the"),
    ((), {"proven_from_turn": 99}, "proven_from_turn: 99 is not a turn of this game (1-16)"),
])
def test_claims_are_checked_against_the_replay_not_only_each_other(
        tmp_path: Path, drop: tuple[str, ...], change: dict[str, Any], words: str) -> None:
    """A bound of goal-meeting lines below the line's own score is false with or without a
    claimed ``vp``; a tail proof names a turn of the game."""
    _, data = _solve_json("--trial", "1", "--hand", "2", "--seed", "1", "--node-limit", "3000")
    for key in drop:
        del data[key]
    data.update(change)
    result = run("verify", str(write(tmp_path / "t.json", data)))
    assert result.exit_code == 1
    assert result.stdout.startswith("invalid: ") and words in result.stdout, result.stdout


def test_a_tail_proof_is_claimed_not_verified(tmp_path: Path) -> None:
    _, data = _solve_json("--trial", "1", "--hand", "2", "--seed", "1", "--node-limit", "3000")
    assert data["status"] == "FEASIBLE"
    data["proven_from_turn"] = 15
    result = run("verify", str(write(tmp_path / "t.json", data)))
    assert result.exit_code == 0, result.output
    assert "play from turn 15 on proven optimal" in result.stdout.splitlines()[1]
    data["proven_from_turn"] = "whatever"
    result = run("verify", str(write(tmp_path / "t.json", data)))
    assert result.exit_code == 2 and "proven_from_turn: expected a turn" in result.output


def test_infeasible_claims_no_bound(tmp_path: Path) -> None:
    code, data = _solve_json("--trial", "2", "--hand", "1", "--seed", "0", "--node-limit", "3000")
    assert code == 3 and data["bound"] is not None
    data.update(status="INFEASIBLE", gap=None)
    result = run("verify", str(write(tmp_path / "t.json", data)))
    assert result.exit_code == 1
    assert "bound: the line claims INFEASIBLE (no goal-meeting line) and a bound" in result.stdout


def test_a_trial_line_with_campaign_rules_is_refused(tmp_path: Path) -> None:
    """A trial is set up with the time card in space 4 and no Campaign rule (RULES.md sections 3
    and 9): a line file claiming trial 1 with the Campaign's goal revision is malformed, and
    the command line refuses to deal such a trial."""
    _, data = _solve_json("--trial", "1", "--hand", "2", "--seed", "1", "--node-limit", "3000")
    data["setup"]["chests"]["campaign"] = True
    result = run("verify", str(write(tmp_path / "t.json", data)))
    assert result.exit_code == 2
    assert "trial 1 is played with the time card in space 4 and no Campaign rule" in result.output
    result = run("deal", "--trial", "1", "--time-space", "3")
    assert result.exit_code == 2 and "not with the time card in space 3" in result.output


def test_a_solve_from_a_position_says_where_its_proofs_start(tmp_path: Path) -> None:
    """``solve --from`` a position with decisions taken: its status speaks of the lines from
    there (``solved_from`` in the line file, named by ``verify``), not of the deal."""
    _, data = _solve_json("--trial", "1", "--hand", "2", "--seed", "1", "--node-limit", "3000")
    position = {"setup": data["setup"], "line": data["line"][:16]}
    path = write(tmp_path / "pos.json", position)
    result = run("solve", "--from", str(path), "--node-limit", "3000", "--bound", "simple",
                 "--json")
    solved = json.loads(result.stdout)
    taken = sum(len(t) for t in position["line"])
    assert solved["solved_from"] == {"turn": 16, "decisions": taken}
    text = run("solve", "--from", str(path), "--node-limit", "3000", "--bound", "simple").stdout
    assert f"from the position solved from (turn 16, after {taken} decisions)" in text
    result = run("verify", str(write(tmp_path / "solved.json", solved)))
    assert f"solved from turn 16 after {taken} decisions" in result.stdout
    checked = run("check", "--from", str(path), "--node-limit", "3000", "--bound", "simple")
    assert checked.exit_code == 0
    assert (f"Winnable: yes (a witness line from the position solved from (turn 16, after "
            f"{taken} decisions) meets every goal)") in checked.stdout
    _, fresh = _solve_json("--trial", "1", "--hand", "2", "--seed", "1", "--node-limit", "300")
    assert "solved_from" not in fresh  # from the deal's start: nothing to name


def test_an_unknown_field_of_a_goal_is_named(tmp_path: Path) -> None:
    _, data = _solve_json("--trial", "1", "--hand", "2", "--seed", "1", "--node-limit", "3000")
    data["goals"][0]["note"] = "mine"
    result = run("verify", str(write(tmp_path / "t.json", data)))
    assert result.exit_code == 1
    assert "goals: the line's goal of chest А has a field the replay does not know: 'note'" \
        in result.stdout, result.stdout


def test_the_goals_difference_is_printed_whole(tmp_path: Path) -> None:
    _, data = _solve_json("--trial", "1", "--hand", "2", "--seed", "1", "--node-limit", "3000")
    data["goals"][0]["goal"] = "past.any >= 80"
    result = run("verify", str(write(tmp_path / "t.json", data)))
    assert result.exit_code == 1
    assert ("goals: the line claims chest А (past.any >= 80) met, the replay finds chest А "
            "(past.any >= 8) met") in result.stdout


# ------------------------------------------------------------------ campaign record

@pytest.mark.parametrize(("field", "value"), [("seed", 12345), ("die_seed", 7),
                                               ("extra_discards", 1)])
def test_campaign_record_refuses_a_game_of_another_deal(
        tmp_path: Path, field: str, value: Any) -> None:
    """``campaign record`` checks the whole setup of the game against the campaign's next game:
    a finished, legal game of another deal (another seed, die, rank discard) is refused (exit 2,
    naming the field), and nothing is recorded."""
    camp, game = tmp_path / "c.json", tmp_path / "g.json"
    assert run("campaign", "new", str(camp), "--seed", "3").exit_code == 0
    assert run("campaign", "next", str(camp)).exit_code == 0
    pending = json.loads(camp.read_text(encoding="utf-8"))["next_game"]
    setup = setup_from_json({**pending, field: value})
    record = play_random(setup, book_for(setup), 5)
    write(game, record.to_json())
    assert run("verify", str(game)).exit_code == 0  # a legal game, of another deal
    result = run("campaign", "record", str(camp), str(game))
    assert result.exit_code == 2, result.output
    assert f"setup.{field}" in result.stderr and len(result.stderr.splitlines()) == 1
    assert json.loads(camp.read_text(encoding="utf-8"))["games"] == []  # nothing recorded
