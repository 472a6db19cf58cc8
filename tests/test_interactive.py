"""``heritage play --interactive`` end to end, in a subprocess with piped answers (no terminal):
numbered options, undo, hint with a tiny budget, save, quit, the end of the input, going on
``--from`` a saved game, and a finished game whose ``--out`` file ``heritage verify`` accepts
(issue 16)."""

from __future__ import annotations

import json
import re
import subprocess
import sys
from pathlib import Path

import pytest
from typer.testing import CliRunner

from cli.app import app

ROOT = Path(__file__).resolve().parent.parent
DEAL = ("--trial", "1", "--seed", "3")
FIRSTS = "1\n" * 400  # more answers than a game has decisions: always the first option


def heritage(*args: str, answers: str = "", cwd: Path = ROOT) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-c", "from cli.app import main; main()", *args],
        input=answers, cwd=cwd, capture_output=True, text=True, check=False, timeout=300,
        env={"PATH": "/usr/bin:/bin", "PYTHONPATH": str(ROOT), "COLUMNS": "100"})


def line_of(path: Path) -> list[list[str]]:
    line: list[list[str]] = json.loads(path.read_text(encoding="utf-8"))["line"]
    return line


@pytest.fixture(scope="module")
def first_options_game(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A whole game taking option 1 at every decision."""
    out = tmp_path_factory.mktemp("firsts") / "game.json"
    proc = heritage("play", "--interactive", *DEAL, "--out", str(out), answers=FIRSTS)
    assert proc.returncode == 0, proc.stderr
    assert "The game is over." in proc.stdout
    return out


def test_a_piped_game_is_played_to_the_end_and_verifies(first_options_game: Path) -> None:
    data = json.loads(first_options_game.read_text(encoding="utf-8"))
    assert data["score"] is not None and data["goals"][0]["chest"] == "А"
    check = heritage("verify", str(first_options_game))
    assert check.returncode == 0, check.stdout + check.stderr
    assert f"{data['score']['total']} VP" in check.stdout


def test_the_referee_tells_every_step_and_event_of_the_log_in_order(
        first_options_game: Path) -> None:
    """At the table the player must hear what the engine did on its own: the forced choices
    and draws of each step, die rolls, refills, reshuffles, the time card. Every line of the
    game's log (``verify --log``: the phrases and events, not the turn summaries) appears in
    the interactive game's output, in the same order."""
    proc = heritage("play", "--interactive", *DEAL, "--out", "/dev/null", answers=FIRSTS)
    log = heritage("verify", "--log", str(first_options_game))
    items = [x for x in log.stdout.splitlines() if x.startswith("  ") and not x.startswith("  = ")]
    assert any("the die shows" in x for x in items) and len(items) > 40
    told = proc.stdout.splitlines()
    at = 0
    for item in items:
        assert item in told[at:], item
        at = told.index(item, at) + 1


def test_position_options_undo_hint_save_in_one_session(first_options_game: Path,
                                                        tmp_path: Path) -> None:
    """A wrong answer, a number out of range, help, show, undo, a hint on 300 nodes and a save,
    then option 1 to the end: the game is the all-first-options game (undo took back the
    detour), and the saved file is the position at the save."""
    saved = tmp_path / "pos.json"
    out = tmp_path / "game.json"
    answers = ("frobnicate\n99\nhelp\nshow\n2\n1\nundo\nundo\nhint\n"
               f"save {saved}\n1\n1\n" + FIRSTS)
    proc = heritage("play", "--interactive", *DEAL, "--hint-nodes", "300", "--out", str(out),
                    answers=answers)
    assert proc.returncode == 0, proc.stderr
    text = proc.stdout
    assert "=== Turn 1: time card in space 4" in text  # the position, plain (no terminal)
    for zone in ("Timeline: space 1:", "Past: 0 monuments", "Hand: Ellora Caves (C5)",
                 "Artifacts: chest А (goal)", "Tiles: tile A (Level I):", "Lost knowledge: 0",
                 "Score so far: 0 VP", "Goal А: past.any >= 8 (not met now)"):
        assert zone in text, zone
    assert "Turn 1: Choose an action" in text
    assert "   1. Create: a monument in the Timeline" in text and "[create]" in text
    assert "? 'frobnicate' is not an option here" in text
    assert "? '99': choose a number from 1 to 5" in text
    assert text.count("Took back the last decision.") == 2
    hint = next(row for row in text.splitlines() if row.startswith("Hint: "))
    spent = re.search(r"\(best found, ([0-9,]+) nodes\)$", hint)  # NRPA ends its playout
    assert "its line scores" in hint and spent and int(spent[1].replace(",", "")) >= 300
    assert "Saved the game so far (0 decisions)" in text
    assert "\x1b[" not in text  # no terminal: no colour codes
    assert line_of(out) == line_of(first_options_game)
    assert line_of(saved) == [[], []]


def test_quit_saves_the_game_so_far_and_from_goes_on(first_options_game: Path,
                                                     tmp_path: Path) -> None:
    out = tmp_path / "game.json"
    proc = heritage("play", "--interactive", *DEAL, "--out", str(out), answers="1\n1\nquit\n")
    assert proc.returncode == 0, proc.stderr
    assert "resume with 'heritage play --interactive --from" in proc.stderr
    data = json.loads(out.read_text(encoding="utf-8"))
    assert data["score"] is None and data["line"] == [[], ["create", "C5"]]
    unfinished = heritage("verify", str(out))
    assert unfinished.returncode == 1 and "ends before the game is over" in unfinished.stdout
    done = tmp_path / "done.json"
    proc = heritage("play", "--interactive", "--from", str(out), "--out", str(done),
                    answers=FIRSTS)
    assert proc.returncode == 0, proc.stderr
    assert line_of(done) == line_of(first_options_game)
    assert heritage("verify", str(done)).returncode == 0


def test_the_end_of_the_input_saves_to_a_free_default_file(tmp_path: Path) -> None:
    (tmp_path / "heritage-game.json").write_text("taken", encoding="utf-8")
    proc = heritage("play", "--interactive", *DEAL, answers="3\n", cwd=tmp_path)
    assert proc.returncode == 0, proc.stderr
    assert "the input ended" in proc.stderr
    assert (tmp_path / "heritage-game.json").read_text(encoding="utf-8") == "taken"
    assert line_of(tmp_path / "heritage-game-2.json") == [[], ["archive"]]


def test_interactive_option_errors_are_one_line_exit_2(tmp_path: Path) -> None:
    runner = CliRunner()
    for args, part in ((("--from", str(tmp_path / "x.json")), "--from needs --interactive"),
                       (("--interactive", "--json"), "--json"),
                       (("--interactive", "--hint-nodes", "0"), "--hint-nodes"),
                       (("--interactive", "--hint-time", "inf"), "at most 1e+06"),
                       (("--interactive", "--from", str(tmp_path / "x.json")), "x.json")):
        result = runner.invoke(app, ["play", *args], input="quit\n")
        assert result.exit_code == 2, (args, result.output)
        assert result.stdout == ""
        assert result.stderr.count("\n") == 1 and part in result.stderr, result.stderr


def test_leaving_never_replaces_a_file_already_at_out(tmp_path: Path) -> None:
    """``--out`` naming a file that exists (an earlier game): quitting early saves the game so
    far beside it, not over it (a finished game would replace it, as asked); resuming a game
    saved at ``--out`` itself (``--from`` the same file) goes on saving there."""
    earlier = tmp_path / "game.json"
    earlier.write_text("an earlier game", encoding="utf-8")
    proc = heritage("play", "--interactive", *DEAL, "--out", str(earlier), answers="3\n",
                    cwd=tmp_path)
    assert proc.returncode == 0, proc.stderr
    assert earlier.read_text(encoding="utf-8") == "an earlier game"
    assert line_of(tmp_path / "game-2.json") == [[], ["archive"]]
    resumed = tmp_path / "game-2.json"
    proc = heritage("play", "--interactive", "--from", str(resumed), "--out", str(resumed),
                    answers="", cwd=tmp_path)
    assert proc.returncode == 0, proc.stderr
    assert line_of(resumed) == [[], ["archive"]] and not (tmp_path / "game-3.json").exists()


def test_a_hint_before_the_campaign_goals_are_chosen_says_if_its_line_meets_them(
        tmp_path: Path) -> None:
    """A Campaign game starts with revealed chests and no goal yet: the hint at the goal choice
    still says whether its line meets every goal it takes (it had said nothing, and a line
    missing one ends the campaign)."""
    state, game = tmp_path / "c.json", tmp_path / "next.json"
    for args in (("campaign", "new", str(state), "--seed", "1"),
                 ("campaign", "next", str(state), "--out", str(game))):
        proc = heritage(*args)
        assert proc.returncode == 0, proc.stdout + proc.stderr
    proc = heritage("play", "--interactive", "--from", str(game), "--hint-nodes", "20",
                    "--out", str(tmp_path / "left.json"), answers="hint\nquit\n")
    hint = next(row for row in proc.stdout.splitlines() if row.startswith("Hint: "))
    assert "as a goal" in hint and (", a goal missed" in hint or ", every goal met" in hint), hint


def test_interactive_prints_the_deal_and_refuses_what_it_cannot_use(tmp_path: Path) -> None:
    """``--deal`` prints the whole deal before the game (to stack the physical one);
    ``--notation`` and ``--policy-seed`` mean nothing to a game played by hand: refused, not
    silently ignored."""
    proc = heritage("play", "--interactive", "--deal", *DEAL, "--out", str(tmp_path / "g.json"),
                    answers="quit\n")
    assert proc.returncode == 0, proc.stderr
    assert "Builder deck, top first" in proc.stdout and "Die rolls" in proc.stdout
    for option in (["--notation"], ["--policy-seed", "4"]):
        bad = heritage("play", "--interactive", *option, *DEAL, answers="quit\n")
        assert bad.returncode == 2 and bad.stderr.startswith(f"error: {option[0]}: not with")
