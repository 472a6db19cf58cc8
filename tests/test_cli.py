"""The `heritage` command line: every command, the line-file round trip, exit codes, and
one-line errors for bad input."""

from __future__ import annotations

import json
import subprocess
import sys
from functools import lru_cache
from pathlib import Path
from typing import Any

import pytest
from rich.console import Console
from typer.testing import CliRunner

import cli.cards
import puzzles.deal
from cli.app import app
from cli.common import Output
from tests.builder import book

ROOT = Path(__file__).resolve().parent.parent
RUNNER = CliRunner(env={"COLUMNS": "100", "NO_COLOR": "1"})
BASE_CARDS = ROOT / "puzzles" / "data" / "cards" / "base.json"


def run(*args: str) -> Any:
    return RUNNER.invoke(app, list(args))


@lru_cache(maxsize=4)
def played_json(*args: str) -> str:
    result = run("play", *args, "--json")
    assert result.exit_code == 0, result.output
    text: str = result.stdout
    return text


def write(path: Path, data: Any) -> Path:
    path.write_text(data if isinstance(data, str) else json.dumps(data), encoding="utf-8")
    return path


def assert_one_line_error(result: Any, *parts: str) -> None:
    """Exit 2, nothing on stdout, one ``error:`` line on stderr containing every part."""
    assert result.exit_code == 2, result.output
    assert result.stdout == ""
    lines = result.stderr.splitlines()
    assert len(lines) == 1 and lines[0].startswith("error: "), result.stderr
    for part in parts:
        assert part in lines[0], (part, lines[0])


# ------------------------------------------------------------------ help

def test_help_lists_every_command() -> None:
    result = run("--help")
    assert result.exit_code == 0
    for command in ("cards", "play", "verify", "trials", "campaign", "antike"):
        assert command in result.stdout
    for command in ("cards", "play", "verify"):
        sub = run(command, "--help")
        assert sub.exit_code == 0 and "Usage" in sub.stdout


@pytest.mark.parametrize("command", [["solve"], ["campaign", "solve"], ["analyse"]])
def test_help_names_the_plot_extra(command: list[str]) -> None:
    """The install hint of ``--plot`` keeps its extra's name (Rich would read ``[plot]`` as
    markup and drop it)."""
    text = " ".join(run(*command, "--help").stdout.split())
    assert "pip install 'heritage[plot]'" in text.replace("│ ", "").replace(" │", "")


def test_no_arguments_shows_help() -> None:
    result = run()
    assert "Usage" in result.output and "play" in result.output


# ------------------------------------------------------------------ cards

def test_cards_table() -> None:
    result = run("cards")
    assert result.exit_code == 0, result.output
    lines = result.stdout.splitlines()
    assert lines[0] == "Builder cards (144)"
    assert lines[1].split() == ["code", "name", "type", "cost", "space", "knowledge", "VP",
                                "activation", "text"]
    ellora = next(line for line in lines if line.startswith("C5 "))
    c5 = book().cards[book().lookup("C5").index]  # type: ignore[union-attr]
    assert ellora.split()[:9] == ["C5", "Ellora", "Caves", "city", str(c5.discard_cost),
                                  str(c5.starting_space), str(c5.knowledge), str(c5.vp),
                                  c5.activation]
    assert ellora.endswith(c5.text)
    assert "Technologies (45)" in lines
    techs = lines[lines.index("Technologies (45)") + 1].split()
    assert techs == ["code", "name", "type", "level", "requirement", "VP", "activation", "text"]
    assert run("cards").stdout == result.stdout  # stable


def test_cards_type_filter_and_json() -> None:
    result = run("cards", "--type", "megalith", "--json")
    assert result.exit_code == 0
    data = json.loads(result.stdout)
    assert len(data) == 36 and {c["type"] for c in data} == {"megalith"}
    assert ({"code", "name", "cost", "space", "knowledge", "vp", "activation", "text"}
            <= set(data[0]))
    techs = json.loads(run("cards", "--type", "ancient", "--json").stdout)
    assert len(techs) == 15 and {c["level"] for c in techs} == {1, 2}
    assert {"level", "requirement", "vp"} <= set(techs[0])
    text = run("cards", "--type", "artifact").stdout
    assert text.startswith("Builder cards (36)\n") and "Technologies" not in text
    assert len(json.loads(run("cards", "--json").stdout)) == len(book())


def test_cards_missing_prints_nothing_when_all_are_implemented() -> None:
    result = run("cards", "--missing")
    assert result.exit_code == 0
    assert result.stdout == ""
    assert json.loads(run("cards", "--missing", "--json").stdout) == []


def test_cards_with_a_user_set_file(tmp_path: Path) -> None:
    user = write(tmp_path / "copy.json", BASE_CARDS.read_text(encoding="utf-8"))
    result = run("cards", "--cards", str(user), "--no-base", "--type", "pyramid", "--json")
    assert result.exit_code == 0 and len(json.loads(result.stdout)) == 36


def test_cards_rejects_unknown_type() -> None:
    result = run("cards", "--type", "temple")
    assert result.exit_code == 2
    assert "'temple' is not one of 'city'" in result.stderr and "Value error" not in result.stderr
    assert run("cards", "--type", "Pyramid", "--json").stdout == run(
        "cards", "--type", "pyramid", "--json").stdout  # any case


# ------------------------------------------------------------------ play

def test_play_prints_the_log_and_the_score_sheet() -> None:
    result = run("play", "--hand", "1", "--seed", "0")
    assert result.exit_code == 0, result.output
    out = result.stdout
    lines = out.splitlines()
    assert lines[0].startswith("Hand (premade hand 1): Ellora Caves (C5), ")
    assert lines[1] == "Deal seed 0; die seed 0; time card in space 4 (16 turns); cards base"
    assert lines[2] == "Turn 1"
    assert "Turn 16" in lines
    assert any(line.startswith("  = hand ") for line in lines)
    assert any(line.startswith("  - technology phase: the die shows ") for line in lines)
    sheet = lines[lines.index("Score sheet"):]
    assert [row.rsplit(None, 1)[0] for row in sheet[2:]] == [
        "Monuments in the Past", "End-game effects", "Technologies",
        "Monuments in the Timeline", "Lost knowledge", "Total"]
    data = json.loads(played_json("--hand", "1", "--seed", "0"))
    assert sheet[-1].split() == ["Total", str(data["score"]["total"])]
    assert run("play", "--hand", "1", "--seed", "0").stdout == out  # deterministic


def test_play_json_is_accepted_by_verify(tmp_path: Path) -> None:
    text = played_json("--hand", "draw", "--seed", "4")
    data = json.loads(text)
    assert data["setup"]["hand"] == "draw" and data["setup"]["seed"] == 4
    line = write(tmp_path / "game.json", text)
    result = run("verify", str(line))
    assert result.exit_code == 0, result.output
    assert result.stdout.splitlines()[0] == f"valid: 16 turns, {data['score']['total']} VP"
    verdict = json.loads(run("verify", str(line), "--json").stdout)
    assert verdict == {"valid": True, "error": None, "turns": 16, "score": data["score"],
                       "goals_met": None, "goals_missed": [], "claimed_not_verified": []}
    logged = run("verify", str(line), "--log").stdout
    assert logged.startswith("Setup\n  Setup: keep ")


def test_play_out_file_matches_json(tmp_path: Path) -> None:
    out = tmp_path / "line.json"
    result = run("play", "--hand", "2", "--seed", "3", "--out", str(out))
    assert result.exit_code == 0
    assert out.read_text(encoding="utf-8") == played_json("--hand", "2", "--seed", "3")
    assert f"line written to {out}" in result.stderr


def test_play_options_reach_the_setup(tmp_path: Path) -> None:
    dice = ",".join(["6"] * 15)
    data = json.loads(played_json("--seed", "1", "--die-seed", "9", "--time-space", "3",
                                  "--policy-seed", "5"))
    assert (data["setup"]["die_seed"], data["setup"]["time_space"]) == (9, 3)
    assert len(data["line"]) == 16  # 15 turns from space 3
    with_dice = json.loads(played_json("--seed", "1", "--dice", dice))
    assert with_dice["setup"]["dice"] == [6] * 15
    other_policy = json.loads(played_json("--seed", "1", "--die-seed", "9", "--time-space", "3",
                                          "--policy-seed", "6"))
    assert other_policy["line"] != data["line"]


def test_play_hand_and_deck_files(tmp_path: Path) -> None:
    hand = write(tmp_path / "hand.txt", "# my hand\nC5 M2, P1\nA1 C7 M3\n")
    data = json.loads(played_json("--hand", str(hand)))
    assert data["setup"]["hand"] == "list"
    assert data["setup"]["hand_cards"] == ["C5", "M2", "P1", "A1", "C7", "M3"]
    b = book()
    rest = [c.code for c in b.builders if c.code not in data["setup"]["hand_cards"]]
    hand_json = write(tmp_path / "hand.json", ["C5", "M2", "P1", "A1", "C7", "M3"])
    deck = write(tmp_path / "deck.json", {"cards": rest})
    result = run("play", "--hand", str(hand_json), "--deck", str(deck), "--json")
    assert result.exit_code == 0, result.output
    played = json.loads(result.stdout)
    assert played["setup"]["deck"] == rest
    line = write(tmp_path / "game.json", result.stdout)
    assert run("verify", str(line)).exit_code == 0


def test_rich_output_on_a_terminal() -> None:
    console = Console(force_terminal=True, width=60, record=True, color_system=None)
    out = Output(console)
    assert out.rich
    out.table("Score sheet", ["row", "VP"], [["Total", "47"]], right=("VP",))
    text = console.export_text()
    assert "Score sheet" in text and "┃ row" in text and "47 │" in text


# ------------------------------------------------------------------ verify: invalid lines

def test_verify_tampered_score_exits_1(tmp_path: Path) -> None:
    data = json.loads(played_json("--hand", "1", "--seed", "0"))
    data["score"]["past"] += 3
    result = run("verify", str(write(tmp_path / "t.json", data)))
    assert result.exit_code == 1
    assert result.stdout.splitlines() == [
        f"invalid: score: the line claims past {data['score']['past']}, the replay scores "
        f"{data['score']['past'] - 3}"]


def test_verify_illegal_step_exits_1_naming_it(tmp_path: Path) -> None:
    data = json.loads(played_json("--hand", "1", "--seed", "0"))
    data["line"][1][0] = "excavate"
    result = run("verify", str(write(tmp_path / "t.json", data)))
    assert result.exit_code == 1
    assert result.stdout == ("invalid: turn 1, decision 1: 'excavate' is not legal here "
                             "(choose an action; legal: create, learn, archive, search)\n")
    verdict = json.loads(run("verify", str(tmp_path / "t.json"), "--json").stdout)
    assert verdict["valid"] is False and verdict["error"].startswith("turn 1, decision 1")


# ------------------------------------------------------------------ bad input: exit 2, one line

def test_bad_line_files(tmp_path: Path) -> None:
    data = json.loads(played_json("--hand", "1", "--seed", "0"))
    broken = write(tmp_path / "broken.json", "{\"setup\": ")
    assert_one_line_error(run("verify", str(broken)), "broken.json", "not valid JSON")
    assert_one_line_error(run("verify", str(tmp_path / "none.json")), "none.json", "cannot read")
    data["line"][2][1] = 5
    assert_one_line_error(run("verify", str(write(tmp_path / "m.json", data))),
                          "m.json", "line[2][1]", "5")
    data = json.loads(played_json("--hand", "1", "--seed", "0"))
    data["setup"]["card_sets"][0]["sha256"] = "f" * 64
    assert_one_line_error(run("verify", str(write(tmp_path / "c.json", data))), "c.json",
                          "card set base has changed since this line was written")
    data = json.loads(played_json("--hand", "1", "--seed", "0"))
    data["setup"]["dice"] = [1, 9]
    assert_one_line_error(run("verify", str(write(tmp_path / "d.json", data))), "d.json",
                          "dice", "9")


def test_bad_hand_files(tmp_path: Path) -> None:
    unknown = write(tmp_path / "h1.txt", "C1 C2 C3 C4 C5 X99")
    assert_one_line_error(run("play", "--hand", str(unknown)), "h1.txt", "X99")
    short = write(tmp_path / "h2.txt", "C1 C2 C3 C4 C5")
    assert_one_line_error(run("play", "--hand", str(short)), "h2.txt", "6 distinct")
    twice = write(tmp_path / "h3.json", ["C1", "C1", "C2", "C3", "C4", "C5"])
    assert_one_line_error(run("play", "--hand", str(twice)), "h3.json", "6 distinct")
    tech = write(tmp_path / "h4.txt", "C1 C2 C3 C4 C5 T1")
    assert_one_line_error(run("play", "--hand", str(tech)), "h4.txt", "T1")
    bad_json = write(tmp_path / "h5.json", {"cards": [1, 2]})
    assert_one_line_error(run("play", "--hand", str(bad_json)), "h5.json", "card codes")
    assert_one_line_error(run("play", "--hand", "7"), "--hand", "'7'")


def test_bad_deck_dice_and_cards(tmp_path: Path) -> None:
    deck = write(tmp_path / "deck.txt", "C1 C2")
    assert_one_line_error(run("play", "--deck", str(deck)), "deck.txt",
                          "not a permutation of the deck")
    assert_one_line_error(run("play", "--dice", ",".join(["7"] * 15)), "--dice", "7", "1-6")
    assert_one_line_error(run("play", "--dice", "1,x"), "--dice", "'x'")
    assert_one_line_error(run("play", "--dice", "1,2"), "--dice", "15")
    bad = write(tmp_path / "cards.json",
                {"set": "mine", "builders": [{"id": "Z1", "type": "temple"}]})
    assert_one_line_error(run("cards", "--cards", str(bad)), "cards.json", "Z1", "type", "temple")
    assert_one_line_error(run("play", "--cards", str(bad)), "cards.json", "temple")
    assert_one_line_error(run("play", "--cards", str(tmp_path / "no.json")), "no.json")


def test_usage_errors_exit_2() -> None:
    assert run("play", "--time-space", "5").exit_code == 2
    assert run("play", "--policy", "greedy").exit_code == 2
    assert run("play", "--seed", "x").exit_code == 2
    assert run("frobnicate").exit_code == 2


def test_console_script_errors_are_one_line_without_traceback() -> None:
    """The real entry point (not the test runner): bad input is one line and exit 2."""
    proc = subprocess.run(
        [sys.executable, "-c", "from cli.app import main; main()", "play", "--dice", "0"],
        cwd=ROOT, capture_output=True, text=True, check=False)
    assert proc.returncode == 2
    assert proc.stdout == ""
    assert proc.stderr == "error: --dice: value 0 is outside 1-6\n"


@pytest.mark.parametrize("hand", ["3", "4"])
def test_premade_hands_play_and_verify(hand: str, tmp_path: Path) -> None:
    line = write(tmp_path / "g.json", played_json("--hand", hand, "--seed", "8"))
    assert run("verify", str(line)).exit_code == 0


def test_unimplemented_cards_restrict_the_deal(monkeypatch: pytest.MonkeyPatch) -> None:
    """A card without an engine implementation: --missing lists it, play restricts the deal."""
    def lacks_c5(card: Any) -> bool:
        return bool(card.code != "C5")

    monkeypatch.setattr(cli.cards, "card_implemented", lacks_c5)
    monkeypatch.setattr(puzzles.deal, "card_implemented", lacks_c5)
    missing = run("cards", "--missing")
    assert missing.exit_code == 0
    assert [row.split()[0] for row in missing.stdout.splitlines()[2:]] == ["C5"]
    result = run("play", "--hand", "draw", "--json")
    assert result.exit_code == 0
    assert json.loads(result.stdout)["setup"]["restricted_to_implemented"] is True
    assert "1 card without an implemented effect left out of the deal" in result.stderr


def test_benchmark_counts_are_deterministic() -> None:
    from benchmarks.engine import run as bench

    first, second = bench(3, 5), bench(3, 5)
    assert set(first) == {"games", "decisions", "seconds", "games_per_second",
                          "decisions_per_second"}
    assert first["games"] == 3 and first["decisions"] == second["decisions"] > 3 * 16


# ---------------------------------------------------------------- solve and check (issue: Solver)

def test_solve_smoke_json_is_verified(tmp_path: Path) -> None:
    """`solve --json` prints a line file with the solve's figures that `verify` accepts."""
    result = RUNNER.invoke(app, ["solve", "--trial", "1", "--hand", "1", "--seed", "0",
                                 "--node-limit", "3000", "--json"])
    assert result.exit_code == 0, result.output
    data = json.loads(result.stdout)
    assert data["status"] in ("OPTIMAL", "FEASIBLE")
    assert data["vp"] == data["score"]["total"]
    assert data["bound"] >= data["vp"] and data["gap"] == data["bound"] - data["vp"]
    assert all(g["met"] for g in data["goals"]) and data["goals"]
    line = tmp_path / "line.json"
    line.write_text(result.stdout, encoding="utf-8")
    check = RUNNER.invoke(app, ["verify", str(line)])
    assert check.exit_code == 0, check.output
    # the default bound is the constraint layer's (cli.options.SOLVE_BOUND): its root bound
    # stands far below the simple bound's (438 against 552 on this deal)
    simple = RUNNER.invoke(app, ["solve", "--trial", "1", "--hand", "1", "--seed", "0",
                                 "--node-limit", "3000", "--bound", "simple", "--json"])
    assert data["bound"] < json.loads(simple.stdout)["bound"] - 50


def test_solve_text_output_names_status_and_goals() -> None:
    result = RUNNER.invoke(app, ["solve", "--trial", "1", "--seed", "0", "--node-limit", "3000"])
    assert result.exit_code == 0, result.output
    assert "Best line (all goals met)" in result.stdout
    assert "Trial 1: New Era" in result.stdout
    assert any(row.split()[:1] == ["А"] and "at least 8 monuments in the Past" in row
               for row in result.stdout.splitlines())
    assert "FEASIBLE" in result.stdout or "OPTIMAL" in result.stdout


def test_solve_is_deterministic_with_a_node_limit() -> None:
    args = ["solve", "--trial", "2", "--hand", "2", "--seed", "4", "--node-limit", "3000", "--json"]
    a = json.loads(RUNNER.invoke(app, args).stdout)
    b = json.loads(RUNNER.invoke(app, args).stdout)
    assert a["line"] == b["line"] and a["vp"] == b["vp"] and a["nodes"] == b["nodes"]


def test_check_answers_yes_with_a_witness() -> None:
    result = RUNNER.invoke(app, ["check", "--trial", "1", "--seed", "0", "--node-limit", "5000",
                                 "--json"])
    assert result.exit_code == 0, result.output
    data = json.loads(result.stdout)
    assert data["winnable"] == "yes" and all(g["met"] for g in data["goals"])


def test_check_without_a_trial_is_refused() -> None:
    """A deal with no goal chest has no trial to win: a forgotten --trial is bad input (exit 2),
    not a vacuous "yes"."""
    result = RUNNER.invoke(app, ["check", "--node-limit", "10", "--bound", "simple"])
    assert result.exit_code == 2, result.output
    assert result.stderr.startswith("error: check: this deal has no goal chest")
    assert "--trial" in result.stderr and result.stdout == ""


def test_solve_from_a_position_proves_the_last_turn(tmp_path: Path) -> None:
    """`--from POSITION.json`: solve the rest of a game; near the end it is proven OPTIMAL."""
    played = json.loads(RUNNER.invoke(app, ["play", "--hand", "1", "--seed", "3", "--json"]).stdout)
    played["line"] = played["line"][:16]
    played["score"] = None
    pos = tmp_path / "pos.json"
    pos.write_text(json.dumps(played), encoding="utf-8")
    result = RUNNER.invoke(app, ["solve", "--from", str(pos), "--node-limit", "200000", "--json"])
    assert result.exit_code == 0, result.output
    data = json.loads(result.stdout)
    assert data["status"] == "OPTIMAL" and data["bound"] == data["vp"]
    assert data["line"][:16] == played["line"][:16]


@pytest.mark.parametrize("args, field", [
    (["--node-limit", "-5"], "--node-limit"),
    (["--time-limit", "0"], "--time-limit"),
    (["--trial", "99"], "--trial"),
    (["--workers", "0"], "--workers"),
    (["--hand", "nonexistent-file.txt"], "--hand"),
    (["--time-limit", "5", "--node-limit", "5"], "--time-limit"),
])
def test_solve_bad_input_exits_2_with_one_line(args: list[str], field: str) -> None:
    result = RUNNER.invoke(app, ["solve", *args])
    assert result.exit_code == 2
    assert field in result.stderr and len(result.stderr.strip().splitlines()) == 1


def test_solve_from_an_illegal_position_exits_2(tmp_path: Path) -> None:
    played = json.loads(RUNNER.invoke(app, ["play", "--hand", "1", "--seed", "3", "--json"]).stdout)
    played["line"][1][0] = "s6"
    pos = tmp_path / "pos.json"
    pos.write_text(json.dumps(played), encoding="utf-8")
    result = RUNNER.invoke(app, ["solve", "--from", str(pos)])
    assert result.exit_code == 2
    assert "not a legal position" in result.stderr
