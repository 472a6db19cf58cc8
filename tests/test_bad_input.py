"""Every input kind the command line reads, and its malformed variants: each answers with exit
code 2 (1 for a well-formed line file whose claims are false), one line on stderr naming the
file, the field or the value, and never a traceback (README "Exit codes"; issue 12).

The rows are (id, command line, exit code, words the message must contain); ``{name}`` in a
command line is the path of a file of `BAD_FILES` (or of a valid file derived from a command's
output), written once per session.
"""

from __future__ import annotations

import json
import math
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from typer.testing import CliRunner

from cli.app import app
from puzzles.cardsets import DATA

ROOT = Path(__file__).resolve().parent.parent
RUNNER = CliRunner(env={"COLUMNS": "100", "NO_COLOR": "1"})
CHESTS = ROOT / "puzzles" / "data" / "chests.json"
TRIALS = ROOT / "puzzles" / "data" / "trials.json"
USER_SET = DATA / "example-user-set.json"
SEED_MAX = 2**64 - 1
#: An error line quotes at most ~80 characters of a bad value; with the file name and the
#: field the whole line stays short.
LONGEST_LINE = 400


def run(args: list[str]) -> Any:
    return RUNNER.invoke(app, args)


def deep(n: int) -> str:
    return "[" * n + "]" * n


def deep_object(n: int) -> str:
    return '{"a": ' * n + "1" + "}" * n


def _json(path: Path) -> Any:
    return json.loads(path.read_text(encoding="utf-8"))


def _with(data: Any, change: Callable[[Any], None]) -> str:
    copy = json.loads(json.dumps(data))
    change(copy)
    return json.dumps(copy, ensure_ascii=False)


def _set(path: str, value: Any) -> Callable[[Any], None]:
    """Set a dotted field (``setup.seed``, ``chests.0.effect.steps.0.n``)."""
    keys = path.split(".")

    def change(data: Any) -> None:
        for k in keys[:-1]:
            data = data[int(k)] if isinstance(data, list) else data[k]
        last = keys[-1]
        if isinstance(data, list):
            data[int(last)] = value
        elif value is _DELETE:
            del data[last]
        else:
            data[last] = value
    return change


_DELETE = object()


def _nested_goal(n: int) -> str:
    return "(" * n + "past.any >= 1" + ")" * n


@pytest.fixture(scope="session")
def files(tmp_path_factory: pytest.TempPathFactory) -> dict[str, str]:
    """Every file the rows name, by name (valid files from the commands themselves)."""
    d = tmp_path_factory.mktemp("bad-input")
    out: dict[str, str] = {"folder": str(d), "missing": str(d / "missing.json"),
                           "nofolder": str(d / "no-such-folder" / "x.json"),
                           "zero": "/dev/zero"}

    def put(name: str, content: str | bytes) -> None:
        path = d / name
        if isinstance(content, bytes):
            path.write_bytes(content)
        else:
            path.write_text(content, encoding="utf-8")
        out[name] = str(path)

    put("deep3000.json", deep(3000))
    put("deep100.json", deep_object(100))
    put("binary.json", bytes(range(256)) * 8)
    put("latin1.json", '{"set": "caf\u00e9"}'.encode("latin-1"))
    put("nan.json", '{"setup": NaN, "line": []}')
    put("hand6mb.txt", "X" * 6_000_000)
    put("hand-deep.json", deep(3000))
    # a finished game of the base set, and a trial line written by solve
    played = run(["play", "--seed", "3", "--hand", "draw", "--json"])
    assert played.exit_code == 0, played.output
    line = json.loads(played.stdout)
    put("line.json", played.stdout)
    solved = run(["solve", "--trial", "1", "--hand", "2", "--seed", "1", "--node-limit", "3000",
                  "--bound", "simple", "--json"])
    assert solved.exit_code == 0, solved.output
    trial_line = json.loads(solved.stdout)
    for name, field, value in [
        ("seed-null", "setup.seed", None), ("seed-big", "setup.seed", 2**64),
        ("seed-negative", "setup.seed", -1), ("trial-x", "setup.trial", "x"),
        ("dice-5", "setup.dice", 5), ("card-sets-base", "setup.card_sets", "base"),
        ("hand-7", "setup.hand", 7), ("time-space-x", "setup.time_space", "4"),
        ("format-99", "format", 99), ("die-seed-float", "setup.die_seed", 1.5),
    ]:
        put(f"line-{name}.json", _with(line, _set(field, value)))
    put("line-seed-misspelt.json",
        _with(line, lambda d: d["setup"].update(sed=d["setup"].pop("seed"))))
    put("line-chests-goal.json", _with(trial_line, lambda d: d["setup"]["chests"].update(
        goal=d["setup"]["chests"].pop("goals"))))
    put("line-chests-file-5.json", _with(trial_line, _set("setup.chests.file", 5)))
    for name, field, value in [
        ("trial-2", "setup.trial", 2), ("trial-99", "setup.trial", 99),
        ("vp", "vp", trial_line["vp"] + 1), ("score-null", "score", None),
        ("score-missing", "score", _DELETE), ("goals", "goals.0.met", False),
        ("status-unknown", "status", "UNKNOWN"), ("gap", "gap", 0),
    ]:
        put(f"tampered-{name}.json", _with(trial_line, _set(field, value)))
    # campaign states
    camp = d / "camp.json"
    made = run(["campaign", "new", str(camp), "--seed", "4"])
    assert made.exit_code == 0, made.output
    campaign = _json(camp)
    out["camp.json"] = str(camp)
    for name, field, value in [("seed-null", "seed", None), ("version-2", "version", 2),
                               ("rank", "rank", "Emperor"), ("seed-big", "seed", 2**64),
                               ("status", "status", 3), ("decks", "decks", "all")]:
        put(f"camp-{name}.json", _with(campaign, _set(field, value)))
    # chest files
    chests = _json(CHESTS)
    chest_changes: list[tuple[str, str, Any]] = [
        ("version-2", "version", 2), ("format", "format", "cards"),
        ("n-negative", "chests.0.effect.steps.0.n", -5),
        ("n-huge", "chests.0.effect.steps.0.n", 1e30),
        ("n-text", "chests.0.effect.steps.0.n", "2"),
        ("goal-float", "chests.0.goal", {"counter": "past.any", "op": ">=", "value": 8.5}),
        ("goal-huge", "chests.0.goal", "past.any >= 99999999999999999999999999"),
        ("goal-parens", "chests.0.goal.text", _nested_goal(5000)),
        ("goal-parens-60", "chests.0.goal.text", _nested_goal(60)),
        ("goal-unicode", "chests.0.goal.text", "past.any >= \u00b2"),
    ]
    for name, field, value in chest_changes:
        put(f"chests-{name}.json", _with(chests, _set(field, value)))
    put("trials-version-2.json", _with(_json(TRIALS), _set("version", 2)))
    # card sets
    user = _json(USER_SET)
    for code in ("done", "s3", "create", "#3", "tileA", "yes", "@X1", "!X1", "chest:A"):
        put(f"cards-code-{code.replace('#', 'hash').replace('!', 'bang').replace(':', '-')}"
            ".json", _with(user, _set("builders.0.code", code)))
    put("cards-version-2.json", _with(user, _set("version", 2)))
    put("cards-tech-score.json", _with(user, _set(
        "technologies.0.effects", [{"moment": "endgame", "score": {"per": "past.any"}}])))
    put("cards-tech-timeline.json", _with(user, _set("technologies.0.effects.0.moment",
                                                      "timeline")))
    put("cards-then-on-removal.json", _with(user, _set(
        "builders.0.effects.0.steps.0.then", [{"op": "draw", "n": 2}])))
    put("cards-endgame-steps.json", _with(user, _set("builders.0.effects.0.moment", "endgame")))
    put("cards-anytime-untriggered.json", _with(user, _set("builders.0.effects.0.moment",
                                                            "anytime")))
    put("cards-score-timeline.json", _with(user, _set("builders.1.effects.0.moment", "timeline")))
    return out


DICE15 = ",".join(["1"] * 15)
ROWS: list[tuple[str, list[str], int, list[str]]] = [
    # ---- line files (verify): unreadable or malformed
    ("line-deep3000", ["verify", "{deep3000.json}"], 2, ["deep3000.json", "nested"]),
    ("line-deep100", ["verify", "{deep100.json}"], 2, ["deep100.json", "nested"]),
    ("line-binary", ["verify", "{binary.json}"], 2, ["binary.json", "UTF-8"]),
    ("line-latin1", ["verify", "{latin1.json}"], 2, ["latin1.json", "UTF-8"]),
    ("line-nan", ["verify", "{nan.json}"], 2, ["nan.json", "NaN"]),
    ("line-dev-zero", ["verify", "{zero}"], 2, ["/dev/zero", "16 MB"]),
    ("line-folder", ["verify", "{folder}"], 2, ["folder"]),
    ("line-missing", ["verify", "{missing}"], 2, ["missing.json"]),
    ("line-seed-null", ["verify", "{line-seed-null.json}"], 2, ["setup.seed", "null"]),
    ("line-seed-2^64", ["verify", "{line-seed-big.json}"], 2,
     ["setup.seed", "18446744073709551616"]),
    ("line-seed-negative", ["verify", "{line-seed-negative.json}"], 2, ["setup.seed", "-1"]),
    ("line-trial-x", ["verify", "{line-trial-x.json}"], 2, ["setup.trial", "'x'"]),
    ("line-dice-5", ["verify", "{line-dice-5.json}"], 2, ["setup.dice", "5"]),
    ("line-card-sets-text", ["verify", "{line-card-sets-base.json}"], 2, ["setup.card_sets"]),
    ("line-hand-7", ["verify", "{line-hand-7.json}"], 2, ["setup.hand", "7"]),
    ("line-time-space-text", ["verify", "{line-time-space-x.json}"], 2, ["setup.time_space"]),
    ("line-die-seed-float", ["verify", "{line-die-seed-float.json}"], 2, ["setup.die_seed", "1.5"]),
    ("line-format-99", ["verify", "{line-format-99.json}"], 2, ["format", "99"]),
    ("line-seed-misspelt", ["verify", "{line-seed-misspelt.json}"], 2,
     ["line-seed-misspelt.json", "setup", "unknown field 'sed'"]),
    ("line-chests-goal", ["verify", "{line-chests-goal.json}"], 2,
     ["line-chests-goal.json", "setup.chests", "unknown field 'goal'"]),
    ("solve-from-seed-misspelt", ["solve", "--from", "{line-seed-misspelt.json}"], 2,
     ["line-seed-misspelt.json", "unknown field 'sed'"]),
    ("line-chests-file-5", ["verify", "{line-chests-file-5.json}"], 2,
     ["line-chests-file-5.json", "setup.chests", "'file'", "5"]),
    # ---- line files: well formed, false claims (exit 1)
    ("tampered-trial-2", ["verify", "{tampered-trial-2.json}"], 1, ["trial"]),
    ("tampered-trial-99", ["verify", "{tampered-trial-99.json}"], 1, ["trial", "99"]),
    ("tampered-vp", ["verify", "{tampered-vp.json}"], 1, ["vp"]),
    ("tampered-score-null", ["verify", "{tampered-score-null.json}"], 1, ["score"]),
    ("tampered-score-missing", ["verify", "{tampered-score-missing.json}"], 1, ["score"]),
    ("tampered-goals", ["verify", "{tampered-goals.json}"], 1, ["goals"]),
    ("tampered-status", ["verify", "{tampered-status-unknown.json}"], 1, ["status", "UNKNOWN"]),
    ("tampered-gap", ["verify", "{tampered-gap.json}"], 1, ["gap"]),
    # ---- positions (solve --from)
    ("from-deep3000", ["solve", "--from", "{deep3000.json}", "--node-limit", "10"], 2, ["nested"]),
    ("from-binary", ["solve", "--from", "{binary.json}", "--node-limit", "10"], 2, ["UTF-8"]),
    ("from-seed-null", ["solve", "--from", "{line-seed-null.json}", "--node-limit", "10"], 2,
     ["setup.seed"]),
    ("from-dice-5", ["solve", "--from", "{line-dice-5.json}", "--node-limit", "10"], 2,
     ["setup.dice"]),
    # ---- campaign states
    ("camp-deep3000", ["campaign", "show", "{deep3000.json}"], 2, ["nested"]),
    ("camp-binary", ["campaign", "show", "{binary.json}"], 2, ["UTF-8"]),
    ("camp-latin1", ["campaign", "show", "{latin1.json}"], 2, ["UTF-8"]),
    ("camp-dev-zero", ["campaign", "show", "{zero}"], 2, ["16 MB"]),
    ("camp-seed-null", ["campaign", "show", "{camp-seed-null.json}"], 2, ["seed", "null"]),
    ("camp-seed-2^64", ["campaign", "show", "{camp-seed-big.json}"], 2, ["seed"]),
    ("camp-version-2", ["campaign", "show", "{camp-version-2.json}"], 2, ["version", "2"]),
    ("camp-rank", ["campaign", "show", "{camp-rank.json}"], 2, ["rank", "Emperor"]),
    ("camp-status-number", ["campaign", "show", "{camp-status.json}"], 2, ["status"]),
    ("camp-decks-text", ["campaign", "show", "{camp-decks.json}"], 2, ["decks"]),
    ("camp-new-missing-folder", ["campaign", "new", "{nofolder}"], 2, ["no-such-folder"]),
    ("camp-new-onto-folder", ["campaign", "new", "{folder}"], 2, ["folder"]),
    ("camp-new-onto-folder-force", ["campaign", "new", "{folder}", "--force"], 2, ["folder"]),
    ("camp-record-deep", ["campaign", "record", "{camp.json}", "{deep3000.json}"], 2, ["nested"]),
    # ---- chest files
    ("chests-deep3000", ["trials", "--chests", "{deep3000.json}"], 2, ["nested"]),
    ("chests-binary", ["trials", "--chests", "{binary.json}"], 2, ["UTF-8"]),
    ("chests-dev-zero", ["trials", "--chests", "{zero}"], 2, ["16 MB"]),
    ("chests-version-2", ["trials", "--chests", "{chests-version-2.json}"], 2, ["version", "2"]),
    ("chests-format", ["trials", "--chests", "{chests-format.json}"], 2, ["format", "cards"]),
    ("chests-draw-n-negative", ["trials", "--chests", "{chests-n-negative.json}"], 2,
     ["'n'", "-5"]),
    ("chests-draw-n-1e30", ["trials", "--chests", "{chests-n-huge.json}"], 2, ["'n'", "1e+30"]),
    ("chests-draw-n-text", ["trials", "--chests", "{chests-n-text.json}"], 2, ["'n'", "'2'"]),
    ("chests-goal-value-8.5", ["trials", "--chests", "{chests-goal-float.json}"], 2,
     ["goal", "8.5", "whole number"]),
    ("chests-goal-5000-parens", ["trials", "--chests", "{chests-goal-parens.json}"], 2,
     ["goal", "nest"]),
    ("chests-goal-60-parens", ["trials", "--chests", "{chests-goal-parens-60.json}"], 2,
     ["goal", "nest"]),
    ("chests-goal-unicode-digit", ["trials", "--chests", "{chests-goal-unicode.json}"], 2,
     ["goal"]),
    ("chests-play", ["play", "--trial", "1", "--chests", "{chests-version-2.json}"], 2,
     ["version"]),
    ("chests-campaign-new", ["campaign", "new", "{missing}", "--chests",
                             "{chests-n-negative.json}"], 2, ["'n'"]),
    ("trials-version-2", ["trials", "--trials", "{trials-version-2.json}"], 2, ["version", "2"]),
    ("trials-deep3000", ["trials", "--trials", "{deep3000.json}"], 2, ["nested"]),
    # ---- card sets
    ("cards-deep3000", ["cards", "--cards", "{deep3000.json}"], 2, ["nested"]),
    ("cards-binary", ["cards", "--cards", "{binary.json}"], 2, ["UTF-8"]),
    ("cards-latin1", ["cards", "--cards", "{latin1.json}"], 2, ["UTF-8"]),
    ("cards-dev-zero", ["cards", "--cards", "{zero}"], 2, ["16 MB"]),
    ("cards-version-2", ["cards", "--cards", "{cards-version-2.json}"], 2, ["version", "2"]),
    # a technology's effect the engine would never run, or a score it would never count
    ("cards-tech-score", ["cards", "--cards", "{cards-tech-score.json}"], 2,
     ["XT1", "effects", "end-game score", "never count"]),
    ("cards-tech-timeline", ["solve", "--cards", "{cards-tech-timeline.json}"], 2,
     ["XT1", "effects", "'timeline'", "never count"]),
    # a builder's step, or a score, the engine would never run or would count at another moment
    ("cards-then-on-removal", ["cards", "--cards", "{cards-then-on-removal.json}"], 2,
     ["X1", "'then'", "'remove_knowledge'", "never run"]),
    ("cards-endgame-steps", ["play", "--cards", "{cards-endgame-steps.json}"], 2,
     ["X1", "'moment'", "'endgame'", "never run"]),
    ("cards-anytime-untriggered", ["cards", "--cards", "{cards-anytime-untriggered.json}"], 2,
     ["X1", "'moment'", "'anytime'", "'trigger'"]),
    ("cards-score-timeline", ["cards", "--cards", "{cards-score-timeline.json}"], 2,
     ["X2", "'moment'", "'timeline'", "end of the game"]),
    *[(f"cards-code-{c}", ["play", "--cards", "{cards-code-" + f + ".json}"], 2,
       ["code", repr(c)])
      for c, f in (("done", "done"), ("s3", "s3"), ("create", "create"), ("#3", "hash3"),
                   ("tileA", "tileA"), ("yes", "yes"), ("@X1", "@X1"), ("!X1", "bangX1"),
                   ("chest:A", "chest-A"))],
    # ---- hand and deck files
    ("hand-6mb", ["play", "--hand", "{hand6mb.txt}"], 2, ["hand6mb.txt", "XXXX"]),
    ("hand-binary", ["play", "--hand", "{binary.json}"], 2, ["UTF-8"]),
    ("hand-deep", ["play", "--hand", "{hand-deep.json}"], 2, ["nested"]),
    ("hand-dev-zero", ["play", "--hand", "{zero}"], 2, ["/dev/zero"]),
    ("deck-binary", ["play", "--deck", "{binary.json}"], 2, ["UTF-8"]),
    ("deck-deep", ["play", "--deck", "{hand-deep.json}"], 2, ["nested"]),
    # ---- die rolls
    ("dice-unicode-digit", ["play", "--dice", "\u00b2," + ",".join(["1"] * 14)], 2,
     ["--dice", "'\u00b2'"]),
    ("dice-16", ["play", "--dice", DICE15 + ",1"], 2, ["--dice", "16", "15"]),
    ("dice-100", ["play", "--dice", ",".join(["1"] * 100)], 2, ["--dice", "100", "15"]),
    ("dice-16-space-3", ["play", "--time-space", "3", "--dice", DICE15 + ",1"], 2,
     ["--dice", "16", "14"]),
    ("dice-7", ["play", "--dice", "7," + ",".join(["1"] * 14)], 2, ["--dice", "7"]),
    ("dice-empty", ["play", "--dice", ""], 2, ["--dice"]),
    # ---- seeds and numbers
    ("seed-2^64", ["play", "--seed", str(2**64)], 2, ["--seed", str(2**64), "0 to 2^64 - 1"]),
    ("seed-negative", ["play", "--seed", "-1"], 2, ["--seed", "-1"]),
    ("die-seed-2^64", ["play", "--die-seed", str(2**64)], 2, ["--die-seed"]),
    ("policy-seed-2^64", ["play", "--policy-seed", str(2**64)], 2, ["--policy-seed"]),
    ("solve-seed-2^64", ["solve", "--seed", str(2**64), "--node-limit", "10"], 2, ["--seed"]),
    ("campaign-seed-2^64", ["campaign", "new", "{missing}", "--seed", str(2**64)], 2, ["--seed"]),
    ("campaign-next-seed-negative", ["campaign", "next", "{camp.json}", "--seed", "-1"], 2,
     ["--seed", "-1"]),
    ("bench-seed-negative", ["bench", "--seed", "-1"], 2, ["--seed", "-1"]),
    ("time-limit-0", ["solve", "--time-limit", "0"], 2, ["--time-limit"]),
    ("time-limit-nan", ["solve", "--time-limit", "nan"], 2, ["--time-limit"]),
    ("time-limit-inf", ["solve", "--time-limit", "inf"], 2, ["--time-limit"]),
    ("time-limit-1e300", ["solve", "--time-limit", "1e300"], 2, ["--time-limit"]),
    ("node-limit-0", ["solve", "--node-limit", "0"], 2, ["--node-limit"]),
    ("node-limit-1e30", ["solve", "--node-limit", str(10**30)], 2, ["--node-limit"]),
    ("workers-0", ["solve", "--workers", "0", "--node-limit", "10"], 2, ["--workers"]),
    ("bound-x", ["solve", "--bound", "x", "--node-limit", "10"], 2, ["--bound"]),
    ("gold-2^63", ["antike", "plan", "--gold", str(2**63)], 2, ["--gold", str(2**63)]),
    ("gold-negative", ["antike", "plan", "--gold", "-1"], 2, ["--gold"]),
    ("gold-arabic-digits", ["antike", "plan", "--gold", "\u0663"], 2, ["--gold"]),
    # ---- output files, checked before any work
    ("out-missing-folder", ["solve", "--node-limit", "10", "--out", "{nofolder}"], 2,
     ["--out", "no-such-folder"]),
    ("out-folder", ["solve", "--node-limit", "10", "--out", "{folder}"], 2, ["--out"]),
    ("play-out-missing-folder", ["play", "--out", "{nofolder}"], 2, ["--out"]),
    ("next-out-missing-folder", ["campaign", "next", "{camp.json}", "--out", "{nofolder}"], 2,
     ["--out"]),
    # ---- the commands added later: deal, analyse, sweep, interactive play, campaign solve
    ("deal-dice-unicode", ["deal", "--dice", "\u00b2," + ",".join(["1"] * 14)], 2, ["--dice"]),
    ("deal-seed-2^64", ["deal", "--seed", str(2**64)], 2, ["--seed"]),
    ("deal-cards-binary", ["deal", "--cards", "{binary.json}"], 2, ["UTF-8"]),
    ("deal-hand-6mb", ["deal", "--hand", "{hand6mb.txt}"], 2, ["hand6mb.txt"]),
    ("analyse-deep3000", ["analyse", "{deep3000.json}"], 2, ["nested"]),
    ("analyse-binary", ["analyse", "{binary.json}"], 2, ["UTF-8"]),
    ("analyse-dev-zero", ["analyse", "{zero}"], 2, ["16 MB"]),
    ("sweep-report-binary-db", ["sweep", "report", "--db", "{binary.json}"], 2, ["--db"]),
    ("sweep-run-seeds-huge", ["sweep", "run", "--db", "{missing}", "--node-limit", "10",
                              "--seeds", "0-" + "9" * 30], 2, ["--seeds"]),
    ("sweep-run-node-limit-0", ["sweep", "run", "--db", "{missing}", "--node-limit", "0"], 2,
     ["--node-limit"]),
    # ---- found by a new user's audit (session 38): limits, pictures, files
    ("chests-goal-huge", ["trials", "--chests", "{chests-goal-huge.json}"], 2,
     ["goal", "at most 10,000"]),
    ("analyse-node-limit-huge", ["analyse", "{line.json}", "--node-limit", "9" * 20], 2,
     ["--node-limit", "9" * 20]),
    ("analyse-time-limit-huge", ["analyse", "{line.json}", "--time-limit", "1e9"], 2,
     ["--time-limit"]),
    ("sweep-run-node-limit-huge", ["sweep", "run", "--db", "{missing}", "--node-limit", "9" * 20],
     2, ["--node-limit"]),
    ("sweep-run-time-limit-huge", ["sweep", "run", "--db", "{missing}", "--time-limit", "1e300"],
     2, ["--time-limit"]),
    ("sweep-run-seed-2^63", ["sweep", "run", "--db", "{missing}", "--node-limit", "10",
                             "--seeds", str(2**63)], 2, ["--seeds", str(2**63), "64-bit"]),
    ("sweep-export-seed-2^64-1", ["sweep", "export", "--db", "{missing}", "--trial", "1",
                                  "--hand", "1", "--seed", str(SEED_MAX)], 2, ["--seed"]),
    ("verify-trials-missing", ["verify", "{line.json}", "--trials", "{missing}"], 2,
     ["missing.json", "trial file"]),
    ("solve-plot-not-png", ["solve", "--node-limit", "10", "--plot", "pic.xyz"], 2,
     ["--plot", "pic.xyz", ".png"]),
    ("solve-plot-folder", ["solve", "--node-limit", "10", "--plot", "{folder}"], 2,
     ["--plot", "folder"]),
    ("sweep-report-plot-folder", ["sweep", "report", "--db", "{missing}", "--plot", "{folder}"],
     2, ["--plot", "folder"]),
    ("analyse-plot-pdf", ["analyse", "{line.json}", "--plot", "pic.pdf"], 2, ["--plot", ".png"]),
    ("deal-tech-deck-missing-file", ["deal", "--tech-deck-1", "nosuchfile.txt"], 2,
     ["--tech-deck-1", "nosuchfile.txt", "readable file"]),
    ("solve-from-with-deal-options", ["solve", "--from", "{line.json}", "--trial", "2",
                                      "--hand", "3", "--node-limit", "10"], 2,
     ["--from", "--hand, --trial", "its own deal"]),
    ("play-hint-without-interactive", ["play", "--hint-time", "5"], 2,
     ["--hint-time", "--interactive"]),
    ("interactive-from-with-seed", ["play", "--interactive", "--from", "{line.json}", "--seed",
                                    "3"], 2, ["--from", "--seed"]),
    ("interactive-from-deep", ["play", "--interactive", "--from", "{deep3000.json}"], 2,
     ["nested"]),
    ("interactive-dice-7", ["play", "--interactive", "--dice", "7," + ",".join(["1"] * 14)], 2,
     ["--dice"]),
    ("campaign-solve-deep", ["campaign", "solve", "{deep3000.json}", "--node-limit", "10"], 2,
     ["nested"]),
    ("campaign-solve-seed-null", ["campaign", "solve", "{camp-seed-null.json}"], 2, ["seed"]),
    # ---- usage errors: one line, not a box
    ("usage-trial-x", ["play", "--trial", "x"], 2, ["--trial", "'x'"]),
    ("usage-time-space-5", ["play", "--time-space", "5"], 2, ["--time-space", "5"]),
    ("usage-unknown-option", ["play", "--colour"], 2, ["--colour"]),
    ("usage-missing-argument", ["verify"], 2, ["LINE.json"]),
    ("usage-unknown-command", ["frobnicate"], 2, ["frobnicate"]),
    # ---- chest and trial files without a trial: nothing would read them
    ("solve-chests-without-trial", ["solve", "--chests", "{missing}", "--node-limit", "5"], 2,
     ["--chests", "missing.json", "no --trial"]),
    ("check-trials-without-trial", ["check", "--trials", str(TRIALS), "--node-limit", "5"], 2,
     ["--trials", "trials.json", "no --trial"]),
    ("deal-both-without-trial", ["deal", "--chests", str(CHESTS), "--trials", str(TRIALS)], 2,
     ["--chests", "--trials", "no --trial", "leave them out"]),
    ("play-chests-without-trial", ["play", "--chests", str(CHESTS)], 2,
     ["--chests", "chests.json", "no --trial"]),
]


def _args(template: list[str], files: dict[str, str]) -> list[str]:
    out = []
    for word in template:
        if word.startswith("{") and word.endswith("}"):
            word = files[word[1:-1]]
        out.append(word)
    return out


@pytest.mark.parametrize(("args", "code", "parts"), [r[1:] for r in ROWS],
                         ids=[r[0] for r in ROWS])
def test_bad_input_is_answered_in_one_line(files: dict[str, str], args: list[str], code: int,
                                           parts: list[str]) -> None:
    result = run(_args(args, files))
    assert result.exception is None or isinstance(result.exception, SystemExit), (
        f"{type(result.exception).__name__}: {result.exception}")
    assert "Traceback" not in result.output
    assert result.exit_code == code, result.output
    if code == 2:
        lines = result.stderr.splitlines()
        assert len(lines) == 1, result.stderr
        message = lines[0]
        assert message.startswith("error: "), message
        assert result.stdout == "", result.stdout
    else:  # a negative answer: the first false claim, on stdout
        message = result.stdout.splitlines()[0]
        assert message.startswith("invalid: "), result.stdout
    assert len(message) <= LONGEST_LINE, message[:LONGEST_LINE]
    for part in parts:
        assert part in message, (part, message)


def test_every_row_has_a_distinct_id() -> None:
    ids = [r[0] for r in ROWS]
    assert len(ids) == len(set(ids))
    assert not math.isnan(len(ids))


def test_a_number_too_long_for_python_is_named_without_python_advice(tmp_path: Path) -> None:
    """JSON with an integer of more than 4300 digits: Python's own message advises
    ``sys.set_int_max_str_digits``, which means nothing to a user; the error names the file and
    the fault."""
    path = tmp_path / "long.json"
    path.write_text('{"setup": {"seed": ' + "9" * 5000 + '}, "line": []}', encoding="utf-8")
    result = run(["verify", str(path)])
    assert result.exit_code == 2
    assert "long.json" in result.stderr and "more than 4300 digits" in result.stderr
    assert "set_int_max_str_digits" not in result.stderr
