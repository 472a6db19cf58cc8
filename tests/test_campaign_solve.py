"""``heritage campaign solve`` and ``campaign next --out``: the next game of a campaign solved
with its goal choice and mid-game revision as decisions, and a position that ``solve --from``
accepts."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from typer.testing import CliRunner

from cli.app import app
from solver.engine.record import LINE_FORMAT

RUNNER = CliRunner(env={"COLUMNS": "100", "NO_COLOR": "1"})


def run(*args: str) -> Any:
    return RUNNER.invoke(app, list(args))


def campaign(tmp_path: Path) -> tuple[Path, list[str]]:
    camp = tmp_path / "camp.json"
    assert run("campaign", "new", str(camp), "--seed", "3").exit_code == 0
    result = run("campaign", "next", str(camp), "--out", str(tmp_path / "g1.json"))
    assert result.exit_code == 0, result.output
    state = json.loads(camp.read_text(encoding="utf-8"))
    return camp, state["next_game"]["chests"]["revealed"]


def test_campaign_next_out_is_a_position_solve_from_accepts(tmp_path: Path) -> None:
    _, revealed = campaign(tmp_path)
    position = json.loads((tmp_path / "g1.json").read_text(encoding="utf-8"))
    assert position["line"] == [[]] and position["setup"]["chests"]["revealed"] == revealed
    assert position["format"] == LINE_FORMAT  # read as this engine's line format
    result = run("solve", "--from", str(tmp_path / "g1.json"), "--node-limit", "1500", "--json")
    assert result.exit_code in (0, 3), result.output
    data = json.loads(result.stdout)
    chosen = [t for t in data["line"][0] if t.startswith("chest:")]
    assert chosen and all(t[len("chest:"):] in revealed for t in chosen)  # chosen in the solve


def test_campaign_solve_with_a_goal_choice_in_latin_letters(tmp_path: Path) -> None:
    camp, revealed = campaign(tmp_path)
    assert revealed[:2] == ["Г", "Д"]
    out = tmp_path / "line.json"
    result = run("campaign", "solve", str(camp), "--goals", "g, D", "--node-limit", "4000",
                 "--out", str(out))
    assert result.exit_code == 0, result.output
    assert "Campaign game" in result.stdout
    assert "take chest Г (Standard of Ur, goal: at least 6 pyramids in the Past) and chest Д" \
           in result.stdout
    data = json.loads(out.read_text(encoding="utf-8"))
    assert data["line"][0][:3] == ["chest:Г", "chest:Д", "done"]
    assert data["status"] in ("OPTIMAL", "FEASIBLE")
    recorded = run("campaign", "record", str(camp), str(out), "--json")
    assert recorded.exit_code == 0, recorded.output
    assert json.loads(recorded.stdout)["games_played"] == 1


def test_campaign_solve_bad_goals_exit_2_naming_the_letter(tmp_path: Path) -> None:
    camp, revealed = campaign(tmp_path)
    twice = f"{revealed[0]},{revealed[0]}"
    for goals, part in (("Q", "'Q' is not a chest letter"), ("П", "chest П is not revealed"),
                        (twice, f"chest {revealed[0]} is given twice")):
        result = run("campaign", "solve", str(camp), "--goals", goals)
        assert result.exit_code == 2 and part in result.stderr, result.output
        assert len(result.stderr.splitlines()) == 1
    fresh = tmp_path / "fresh.json"
    assert run("campaign", "new", str(fresh)).exit_code == 0
    result = run("campaign", "solve", str(fresh))
    assert result.exit_code == 2 and "campaign next" in result.stderr
