"""``heritage analyse`` on the lines of ``play``, ``solve`` and ``play --interactive``: the
JSON keys, losses never negative, reproducible with ``--node-limit`` whatever ``--workers``,
the table and summary, the PNG (its content read back) and bad input (issue 16)."""

from __future__ import annotations

import json
import subprocess
import sys
from functools import lru_cache
from itertools import pairwise
from pathlib import Path
from typing import Any

import pytest
from typer.testing import CliRunner

from cli.analyse import loss_words
from cli.app import app

ROOT = Path(__file__).resolve().parent.parent
RUNNER = CliRunner(env={"COLUMNS": "200", "NO_COLOR": "1"})
KEYS = {"turn", "best_vp", "best_goals_met", "best_status", "bound", "played_vp",
        "played_goals_met", "lost", "lost_proven", "lost_at_least", "alternative",
        "goals_reachable"}
DEAL = ("--trial", "1", "--seed", "3")


def run(*args: str) -> Any:
    return RUNNER.invoke(app, list(args))


@lru_cache(maxsize=4)
def _text(*args: str) -> str:
    result = run(*args)
    assert result.exit_code == 0, result.output
    text: str = result.stdout
    return text


def line_file(tmp_path: Path, name: str, *args: str) -> Path:
    path = tmp_path / name
    path.write_text(_text(*args), encoding="utf-8")
    return path


@lru_cache(maxsize=8)
def analysed(path: Path, *args: str) -> list[dict[str, Any]]:
    result = run("analyse", str(path), "--json", *args)
    assert result.exit_code == 0, result.output
    rows: list[dict[str, Any]] = json.loads(result.stdout)
    return rows


@pytest.fixture(scope="module")
def random_game(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return line_file(tmp_path_factory.mktemp("random"), "random.json", "play", *DEAL, "--json")


def check_rows(rows: list[dict[str, Any]], game: dict[str, Any]) -> None:
    """The promises of every analysis: the keys, the player's VP, no negative loss, the best
    line never below the player's own (goals first, then VP)."""
    vp = game["score"]["total"]
    met = all(g["met"] for g in game["goals"])
    assert rows
    for r in rows:
        assert set(r) == KEYS
        assert (r["played_vp"], r["played_goals_met"]) == (vp, met)
        assert r["lost"] >= 0
        assert (r["best_goals_met"], r["best_vp"]) >= (met, vp)
        assert r["best_status"] in ("OPTIMAL", "FEASIBLE", "INFEASIBLE", "UNKNOWN")
        assert r["bound"] is None or r["bound"] >= r["best_vp"] or not r["best_goals_met"]
        assert r["goals_reachable"] in (True, False, None)
        assert r["goals_reachable"] is not True or r["best_goals_met"]
        assert r["goals_reachable"] is not False or r["best_status"] == "INFEASIBLE"


def test_analyse_a_random_play_line_reproducibly(random_game: Path) -> None:
    path = random_game
    game = json.loads(path.read_text(encoding="utf-8"))
    one = analysed(path, "--node-limit", "1500", "--workers", "1")
    check_rows(one, game)
    assert [r["turn"] for r in one] == [t for t, turn in enumerate(game["line"]) if turn]
    assert one == analysed(path, "--node-limit", "1500", "--workers", "2")
    assert any(r["lost"] > 0 and r["alternative"] for r in one)


def test_analyse_a_solve_line(tmp_path: Path) -> None:
    path = tmp_path / "solved.json"
    result = run("solve", *DEAL, "--node-limit", "3000", "--bound", "simple", "--out", str(path),
                 "--json")
    assert result.exit_code == 0, result.output
    game = json.loads(path.read_text(encoding="utf-8"))
    rows = analysed(path, "--node-limit", "1000")
    check_rows(rows, game)
    assert all(r["best_goals_met"] and r["goals_reachable"] for r in rows)


def test_analyse_an_interactive_line(tmp_path: Path) -> None:
    path = tmp_path / "mine.json"
    proc = subprocess.run(
        [sys.executable, "-c", "from cli.app import main; main()", "play", "--interactive",
         *DEAL, "--out", str(path)], input="4\n" + "1\n" * 400, cwd=ROOT, capture_output=True,
        text=True, check=False, timeout=300)
    assert proc.returncode == 0, proc.stderr
    game = json.loads(path.read_text(encoding="utf-8"))
    assert game["line"][1][0] == "search"
    check_rows(analysed(path, "--node-limit", "1000", "--workers", "2"), game)


def test_every_decision_adds_the_decision_index(tmp_path: Path) -> None:
    path = line_file(tmp_path, "random.json", "play", "--seed", "6", "--json")
    game = json.loads(path.read_text(encoding="utf-8"))
    rows = analysed(path, "--node-limit", "100", "--every-decision", "--workers", "2")
    assert [(r["turn"], r["decision"]) for r in rows] == [
        (t, k) for t, turn in enumerate(game["line"]) for k in range(1, len(turn) + 1)]
    assert all(set(r) == KEYS | {"decision"} and r["lost"] >= 0 for r in rows)
    assert all(r["goals_reachable"] is True for r in rows)  # no trial: no goal to miss


def _lost(r: dict[str, Any]) -> str:
    """A JSON row's loss in the table's words (each form: `tests.test_analysis`)."""
    return loss_words(r["lost"], r["lost_proven"], r["lost_at_least"])


def test_the_table_and_summary(random_game: Path) -> None:
    path = random_game
    result = run("analyse", str(path), "--node-limit", "1500", "--workers", "2")
    assert result.exit_code == 0, result.output
    text = result.stdout
    rows = analysed(path, "--node-limit", "1500", "--workers", "1")
    assert "turn" in text and "best alternative" in text
    assert "Final score: 2 VP, a goal missed." in text
    left = max(0, rows[0]["best_vp"] - 2)
    least = "" if rows[0]["best_status"] == "OPTIMAL" else "at least "
    assert f"VP left on the table: {least}{left} (the best line found from turn 1 scores" in text
    costly = sorted((r for r in rows if r["lost"]), key=lambda r: (-r["lost"], r["turn"]))[:3]
    assert "Costliest turns: " + ", ".join(
        f"turn {r['turn']} ({_lost(r)} VP)" for r in costly) + "." in text
    # a loss is exact only between two proven positions (the last: the game's end)
    ends = [r["best_status"] == "OPTIMAL" for r in rows] + [True]
    assert [r["lost_proven"] for r in rows] == [a and b for a, b in pairwise(ends)]
    assert not all(ends) and least  # this budget proves not every position: the marks show
    assert "unwinnable" in text  # the game ended with the goal missed: proven at the end


def test_the_plot_draws_best_and_played_vp(random_game: Path, tmp_path: Path) -> None:
    pytest.importorskip("matplotlib", reason="matplotlib is an optional extra "
                        "(pip install 'heritage[plot]')")
    from PIL import Image

    path = random_game
    png = tmp_path / "vp.png"
    result = run("analyse", str(path), "--node-limit", "300", "--plot", str(png), "--json")
    assert result.exit_code == 0, result.output
    rows = json.loads(result.stdout)
    game = json.loads(path.read_text(encoding="utf-8"))
    image = Image.open(png)
    assert image.format == "PNG" and image.size == (800, 450)
    series = json.loads(image.info["Description"])
    final = game["score"]["total"]
    assert series["best_vp"] == [r["best_vp"] for r in rows] + [final]
    assert series["played_vp"] == [r["played_vp"] for r in rows] + [final]
    assert series["x"] == [float(r["turn"]) for r in rows] + [rows[-1]["turn"] + 1.0]
    counts = {colour: n for n, colour in image.convert("RGB").getcolors(1 << 20) or []}
    for colour in ((0x1F, 0x77, 0xB4), (0xD6, 0x27, 0x28)):  # best, played (cli.analyse)
        assert counts.get(colour, 0) > 200, colour  # both lines are drawn


def test_bad_input_is_one_line_exit_2(tmp_path: Path) -> None:
    unfinished = tmp_path / "part.json"
    game = json.loads(_text("play", *DEAL, "--json"))
    game["line"] = game["line"][:4]
    game["score"] = None
    unfinished.write_text(json.dumps(game), encoding="utf-8")
    for args, part in (((str(unfinished),), "ends before the game is over"),
                       ((str(tmp_path / "none.json"),), "none.json"),
                       ((str(unfinished), "--node-limit", "5", "--time-limit", "1"), "one budget"),
                       ((str(unfinished), "--workers", "-1"), "--workers")):
        result = run("analyse", *args)
        assert result.exit_code == 2, (args, result.output)
        assert result.stdout == ""
        lines = result.stderr.splitlines()
        assert len(lines) == 1 and lines[0].startswith("error: ") and part in lines[0], lines
