"""What a line file claims about its game, checked against the replay (`puzzles.lines.replay`).

A line file states more than its decisions: the score sheet, the goals and whether each is met,
the trial it plays; a solve's result adds ``status``, ``vp``, ``bound``, ``gap`` and
``goals_met``. Every claim a replay can decide is recomputed and compared, and the first false
one makes the line invalid:

* ``score``: the five rows and the total (required for a finished game: a line that claims no
  score claims nothing checkable about its result);
* ``goals``: each goal chest with its goal and whether it is met (required when the game has
  goal chests);
* ``setup.trial``: the trial of the trial table whose goal and effect chests the setup holds;
* ``vp``: the VP of a goal-meeting line (the score's total), or null when the line misses a goal;
* ``goals_met``: whether every goal chest is met;
* ``status``: FEASIBLE and OPTIMAL need a line that meets every goal, UNKNOWN and INFEASIBLE a
  line that misses one (or none at all);
* ``bound`` and ``gap``: the gap is the bound less the VP; the bound is at least the VP, and
  at least the score of the line itself when it meets every goal (a bound of goal-meeting lines
  below one of them is false whether or not ``vp`` is claimed); INFEASIBLE has no bound;
* ``proven_from_turn`` (a FEASIBLE solve's tail proof): a turn of the game.

Some claims cannot be decided by replaying one line: that no line scores more (``status``
OPTIMAL, the ``bound``), that no line meets every goal (INFEASIBLE), or that the line's play
from a turn on is the best there (``proven_from_turn``). They are reported as "claimed, not
verified", never as valid.
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from typing import Any

from puzzles.chests import DEFAULT
from puzzles.trials import load_trials
from solver.engine.chestcards import ChestDataError
from solver.engine.errors import quote
from solver.engine.goal_check import goals_json
from solver.engine.record import SCORE_ROWS, GameRecord
from solver.engine.setup import turns_for

STATUSES = ("OPTIMAL", "FEASIBLE", "INFEASIBLE", "UNKNOWN")


@dataclass(frozen=True)
class Claims:
    """The outcome of checking a line file's claims.

    :param error: the first false claim (None: every checkable claim holds).
    :param unverified: claims a replay cannot decide ("status OPTIMAL", "bound 52").
    :param goals_met: whether every goal chest is met (None: the game has none).
    :param missed: the goals not met, in words (``А: past.any >= 8``).
    """

    error: str | None = None
    unverified: tuple[str, ...] = ()
    goals_met: bool | None = None
    missed: tuple[str, ...] = field(default=())


def claim_shapes(data: dict[str, Any]) -> str | None:
    """What is malformed in the claims of a line file (a score that is not the five rows, a
    ``vp`` that is not a number...), or None: a file so shaped is refused as a whole, not
    compared."""
    score = data.get("score")
    if score is not None:
        if not isinstance(score, dict):
            return f"score: expected an object of the five rows and total, got {json_quote(score)}"
        unknown = sorted(set(score) - set(SCORE_ROWS))
        if unknown:
            return f"score: unknown row {quote(unknown[0])}"
        for row, value in score.items():
            if not isinstance(value, int) or isinstance(value, bool):
                return f"score.{row}: expected a whole number, got {json_quote(value)}"
    goals = data.get("goals")
    if goals is not None and (not isinstance(goals, list)
                              or not all(isinstance(g, dict) for g in goals)):
        return f"goals: expected a list of goal objects, got {json_quote(goals)}"
    for key, kinds in (("vp", (int,)), ("bound", (int,)), ("gap", (int,)), ("status", (str,)),
                       ("goals_met", (bool,)), ("proven_from_turn", (int,))):
        value = data.get(key)
        if value is None:
            continue
        if not isinstance(value, kinds) or (kinds == (int,) and isinstance(value, bool)):
            want = {"vp": "a whole number or null", "bound": "a whole number or null",
                    "gap": "a whole number or null", "status": "a status",
                    "goals_met": "true or false",
                    "proven_from_turn": "a turn (a whole number) or null"}[key]
            return f"{key}: expected {want}, got {json_quote(value)}"
    start = data.get("solved_from")
    if start is not None and not (isinstance(start, dict) and set(start) == {"turn", "decisions"}
                                  and all(_whole(v) and v >= 0 for v in start.values())):
        return (f"solved_from: expected {{\"turn\": T, \"decisions\": N}}, got "
                f"{json_quote(start)}")
    return None


def _whole(value: Any) -> bool:
    """A JSON whole number (``true`` and ``false`` are not)."""
    return isinstance(value, int) and not isinstance(value, bool)


def json_quote(value: Any) -> str:
    """A JSON value as a message quotes it (cut to about 80 characters)."""
    text = json.dumps(value, ensure_ascii=False)
    return text if len(text) <= 80 else f"{text[:80]}... ({len(text)} characters)"


def check_claims(data: dict[str, Any], record: GameRecord, trials: str = DEFAULT,
                 strict: bool = True) -> Claims:
    """Compare every claim of `data` (a line file of a finished game, its claims well shaped:
    `claim_shapes`) with `record`, its replay; `trials` is the trial table the trial number
    refers to (``--trials``). `strict` (``verify``): the score, and the goals when there are
    goal chests, must be claimed; otherwise absent claims are not compared."""
    goals = goals_json(record.state)
    missed = tuple(f"{g['chest']}: {g['goal']}" for g in goals if not g["met"])
    met = None if not goals else not missed
    unverified = _unverifiable(data)
    checks = (_score, _goals, _trial, _vp, _goals_met, _status, _bound, _proven_from)
    for check in checks:
        if not strict and check in (_score, _goals) and data.get(
                "score" if check is _score else "goals") is None:
            continue
        error = check(data, record, goals, trials)
        if error is not None:
            return Claims(error, unverified, met, missed)
    return Claims(None, unverified, met, missed)


def _total(record: GameRecord) -> int:
    return record.state.score().total


def _score(data: dict[str, Any], record: GameRecord, goals: list[dict[str, Any]],
           trials: str) -> str | None:
    have = record.state.score().as_dict()
    claimed = data.get("score")
    if claimed is None:
        return (f"score: the line claims no score ({'null' if 'score' in data else 'missing'});"
                f" the replay scores {have['total']} VP (a finished line states its score)")
    for row in SCORE_ROWS:
        if row not in claimed:
            return f"score: row {row!r} missing; the replay scores {have[row]}"
        if claimed[row] != have[row]:
            return (f"score: the line claims {row} {quote(claimed[row])}, the replay scores "
                    f"{have[row]}")
    return None


def _goals(data: dict[str, Any], record: GameRecord, goals: list[dict[str, Any]],
           trials: str) -> str | None:
    claimed = data.get("goals")
    if claimed is None and not goals:
        return None
    if not isinstance(claimed, list):
        return (f"goals: the line claims {quote(claimed)}, the replay has {len(goals)} goal "
                f"chest{'' if len(goals) == 1 else 's'}")
    if len(claimed) != len(goals):
        return (f"goals: the line claims {len(claimed)} goal chests, the replay has "
                f"{len(goals)}: {_goal_words(goals)}")
    for want, have in zip(claimed, goals, strict=True):
        if want != have:
            extra = sorted(set(want) - set(have)) if isinstance(want, dict) else []
            if extra and {k: v for k, v in want.items() if k in have} == have:
                return (f"goals: the line's goal of chest {have['chest']} has a field the replay "
                        f"does not know: {quote(extra[0])} (a goal has {', '.join(have)})")
            return f"goals: the line claims {_goal_word(want)}, the replay finds {_goal_word(have)}"
    return None


def _goal_word(g: Any) -> str:
    """One goal entry in words, whole (`{"chest": "А", "goal": "...", "met": true}`)."""
    if not isinstance(g, dict):
        return quote(g)
    met = g.get("met")
    state = "met" if met is True else "not met" if met is False else f"met = {quote(met)}"
    return f"chest {g.get('chest')} ({g.get('goal')}) {state}"


def _goal_words(goals: list[dict[str, Any]]) -> str:
    return "; ".join(_goal_word(g) for g in goals) or "none"


def _trial(data: dict[str, Any], record: GameRecord, goals: list[dict[str, Any]],
           trials: str) -> str | None:
    setup = record.setup
    if setup.trial is None:
        return None
    try:
        table = load_trials(trials)
    except ChestDataError as exc:
        return f"setup.trial: the trial table cannot be read ({exc})"
    t = table.get(setup.trial)
    if t is None:
        return (f"setup.trial: the line claims trial {setup.trial}, which is not in the trial "
                f"table (trials {', '.join(str(n) for n in sorted(table))})")
    if (t.goals, t.under) != (setup.goals, setup.under):
        return (f"setup.trial: the line claims trial {setup.trial} ({t.name}: goals "
                f"{' '.join(t.goals)}, effects {' '.join(t.under) or '-'}), but its chests are "
                f"goals {' '.join(setup.goals) or '-'}, effects {' '.join(setup.under) or '-'}")
    return None


def _vp(data: dict[str, Any], record: GameRecord, goals: list[dict[str, Any]],
        trials: str) -> str | None:
    if "vp" not in data:
        return None
    vp, total = data["vp"], _total(record)
    met = all(g["met"] for g in goals)
    if vp is None:
        if met:
            return (f"vp: the line claims no goal-meeting line (null), but its line meets every "
                    f"goal and scores {total}")
        return None
    if not met:
        return f"vp: the line claims {quote(vp)}, but its line misses a goal (no VP counts)"
    if vp != total:
        return f"vp: the line claims {quote(vp)}, the replay scores {total}"
    return None


def _goals_met(data: dict[str, Any], record: GameRecord, goals: list[dict[str, Any]],
               trials: str) -> str | None:
    if "goals_met" not in data:
        return None
    met = all(g["met"] for g in goals)
    if data["goals_met"] is not met:
        return (f"goals_met: the line claims {quote(data['goals_met'])}, the replay finds "
                f"{'every goal met' if met else 'a goal missed: ' + _goal_words(goals)}")
    return None


def _status(data: dict[str, Any], record: GameRecord, goals: list[dict[str, Any]],
            trials: str) -> str | None:
    if "status" not in data:
        return None
    status = data["status"]
    if status not in STATUSES:
        return f"status: {quote(status)} is not one of {', '.join(STATUSES)}"
    met = all(g["met"] for g in goals)
    if status in ("OPTIMAL", "FEASIBLE") and not met:
        return (f"status: the line claims {status} (a line meeting every goal), but its line "
                f"misses a goal: {_goal_words([g for g in goals if not g['met']])}")
    if status in ("UNKNOWN", "INFEASIBLE") and met:
        return (f"status: the line claims {status} (no goal-meeting line), but its line meets "
                f"every goal")
    return None


def _bound(data: dict[str, Any], record: GameRecord, goals: list[dict[str, Any]],
           trials: str) -> str | None:
    bound, gap, vp = data.get("bound"), data.get("gap"), data.get("vp")
    for name, value in (("bound", bound), ("gap", gap)):
        if value is not None and (not isinstance(value, int) or isinstance(value, bool)):
            return f"{name}: expected a whole number or null, got {quote(value)}"
    if isinstance(vp, int) and bound is not None and bound < vp:
        return f"bound: the line claims {bound}, below its own VP {vp}"
    met, total = all(g["met"] for g in goals), _total(record)
    if met and bound is not None and bound < total:
        return (f"bound: the line claims {bound}, below the {total} VP its own line scores "
                f"meeting every goal")
    if data.get("status") == "INFEASIBLE" and bound is not None:
        return f"bound: the line claims INFEASIBLE (no goal-meeting line) and a bound {bound}"
    if "gap" in data:
        want = None if not isinstance(vp, int) or bound is None else bound - vp
        if gap != want:
            return f"gap: the line claims {quote(gap)}; its bound less its VP is {quote(want)}"
    if data.get("status") == "OPTIMAL" and met and bound is not None and bound != total:
        return f"bound: the line claims OPTIMAL with bound {bound}, not its VP {total}"
    return None


def _proven_from(data: dict[str, Any], record: GameRecord, goals: list[dict[str, Any]],
                 trials: str) -> str | None:
    turn = data.get("proven_from_turn")
    if turn is None:
        return None
    last = turns_for(record.setup.time_space)
    if not 1 <= turn <= last:
        return f"proven_from_turn: {turn} is not a turn of this game (1-{last})"
    if data.get("status") != "FEASIBLE":
        return (f"proven_from_turn: a tail proof belongs to a FEASIBLE line, the line claims "
                f"status {quote(data.get('status'))}")
    return None


def _unverifiable(data: dict[str, Any]) -> tuple[str, ...]:
    """The claims a replay cannot decide (module docstring), after where a solve from a
    position with decisions taken started (``solved_from``): its claims speak of that position."""
    out = []
    status = data.get("status")
    start = data.get("solved_from")
    if isinstance(start, dict) and status is not None:
        out.append(f"solved from turn {start.get('turn')} after {start.get('decisions')} "
                   "decisions (the claims below speak of the lines from there)")
    if status in ("OPTIMAL", "INFEASIBLE"):
        out.append(f"status {status}")
    bound = data.get("bound")
    if _whole(bound) and status != "OPTIMAL":
        out.append(f"bound {bound}")
    turn = data.get("proven_from_turn")
    if _whole(turn):
        out.append(f"play from turn {turn} on proven optimal")
    return tuple(out)
