"""The Trial Table (RULES.md section 9) as data, and the setup of a trial game.

`puzzles/data/trials.json` lists trials 1-6 as printed and 7-10 as marked stand-ins (the rulebook
text cuts them). A user may pass a trial file of the same shape (``--trials FILE``). Errors are
`ChestDataError`s naming the file, the trial, the field and the value.
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from pathlib import Path
from typing import Any

from puzzles.chests import DEFAULT, check_format, chest_json, load_chests, to_letter
from puzzles.jsonfile import read_json, unknown_field
from solver.engine.actions import CHEST_LETTERS
from solver.engine.chestcards import ChestDataError, ChestSet
from solver.engine.chests import MAX_PER_ZONE
from solver.engine.errors import quote
from solver.engine.setup import TRIAL_MAX, Setup

DEFAULT_PATH = Path(__file__).parent / "data" / "trials.json"
TRIALS_FORMAT = "heritage-trials"


@dataclass(frozen=True)
class Trial:
    """One row of the Trial Table: goal chests (artifact spaces) and effect chests (under)."""

    number: int
    name: str
    goals: tuple[str, ...]
    under: tuple[str, ...]
    stand_in: bool = False
    reason: str = ""


#: The fields of a trial in a trial file.
TRIAL_FIELDS = ("number", "name", "goals", "under", "stand_in", "reason", "source")


def _fail(where: str, field: str, value: Any, why: str) -> ChestDataError:
    return ChestDataError(f"{where}: field {field!r} = {quote(value)}: {why}")


def _letters(where: str, field: str, v: Any) -> tuple[str, ...]:
    if not isinstance(v, list):
        raise _fail(where, field, v, "expected a list of chest letters")
    out = tuple(to_letter(x, where, field) for x in v)
    if len(out) > MAX_PER_ZONE:
        raise _fail(where, field, v, f"{len(out)} chests; at most {MAX_PER_ZONE} fit in one zone")
    if len(set(out)) != len(out):
        raise _fail(where, field, v, "a chest appears twice")
    return out


def _trial(path: str, d: Any, pos: int) -> Trial:
    if not isinstance(d, dict):
        raise _fail(path, f"trials[{pos}]", d, "expected an object")
    n = d.get("number")
    if not isinstance(n, int) or isinstance(n, bool) or not 1 <= n <= TRIAL_MAX:
        raise _fail(path, f"trials[{pos}].number", n,
                    f"expected a whole number from 1 to {TRIAL_MAX}")
    where = f"{path}: trial {n}"
    unknown = unknown_field(d, TRIAL_FIELDS)
    if unknown is not None:
        raise _fail(where, unknown, d[unknown],
                    f"unknown field (the fields: {', '.join(TRIAL_FIELDS)})")
    name = d.get("name")
    if not isinstance(name, str) or not name.strip():
        raise _fail(where, "name", name, "expected a non-empty string")
    goals = _letters(where, "goals", d.get("goals"))
    under = _letters(where, "under", d.get("under", []))
    if not goals:
        raise _fail(where, "goals", d.get("goals"), "a trial needs at least one goal chest")
    both = sorted(set(goals) & set(under))
    if both:
        raise _fail(where, "under", list(under), f"chest {both[0]} is also a goal of this trial")
    stand_in = d.get("stand_in", False)
    if not isinstance(stand_in, bool):
        raise _fail(where, "stand_in", stand_in, "expected true or false")
    reason = d.get("reason", d.get("source", ""))
    if not isinstance(reason, str):
        raise _fail(where, "reason", reason, "expected a string")
    if stand_in and not reason.strip():
        raise _fail(where, "reason", reason, "a stand-in needs a one-line reason")
    return Trial(n, name.strip(), goals, under, stand_in, reason)


def load_trials(name: str = DEFAULT) -> dict[int, Trial]:
    """The trial table of a file (``default``: the shipped one), by trial number."""
    path = DEFAULT_PATH if name == DEFAULT else Path(name)
    where = "puzzles/data/trials.json" if name == DEFAULT else str(path)
    data, _ = read_json(path, ChestDataError, "trial file")
    if not isinstance(data, dict) or not isinstance(data.get("trials"), list):
        raise ChestDataError(f"{where}: field 'trials' missing: a trial file is an object with "
                             "a list 'trials'")
    check_format(data, where, TRIALS_FORMAT)
    if not data["trials"]:
        raise _fail(where, "trials", [], "a trial table needs at least one trial")
    out: dict[int, Trial] = {}
    for pos, d in enumerate(data["trials"]):
        t = _trial(where, d, pos)
        if t.number in out:
            raise _fail(where, f"trials[{pos}].number", t.number, "appears twice")
        out[t.number] = t
    return out


def get_trial(number: int, trials: str = DEFAULT) -> Trial:
    table = load_trials(trials)
    if number not in table:
        raise ChestDataError(f"--trial: {number} is not in the trial table "
                             f"(trials {', '.join(str(n) for n in sorted(table))})")
    return table[number]


def trial_setup(number: int, *, hand: str = "1", hand_cards: tuple[str, ...] = (),
                seed: int = 0, die_seed: int | None = None, deck: tuple[str, ...] | None = None,
                dice: tuple[int, ...] | None = None, card_sets: tuple[tuple[str, str], ...] = (),
                restricted: bool = False, chests: str = DEFAULT,
                trials: str = DEFAULT) -> Setup:
    """The setup of trial `number` (RULES.md sections 3 and 9): its goal chests in the artifact
    spaces, its effect chests under the board, the time card in space 4, and the player's hand
    (a premade hand 1-4, draw 10 keep 6, or a list)."""
    t = get_trial(number, trials)
    data = load_chests(chests)
    return Setup(hand=hand, hand_cards=hand_cards, seed=seed, die_seed=die_seed, deck=deck,
                 dice=dice, card_sets=card_sets, restricted=restricted, trial=number,
                 chests=data.source, chests_sha256=data.sha256, goals=t.goals, under=t.under,
                 chest_data=data)


def with_trial(setup: Setup, number: int, chests: str = DEFAULT, trials: str = DEFAULT) -> Setup:
    """`setup` (hand, seeds, cards) made into trial `number`: its chests placed (section 9)."""
    t = get_trial(number, trials)
    data = load_chests(chests)
    return replace(setup, trial=number, chests=data.source, chests_sha256=data.sha256,
                   goals=t.goals, under=t.under, chest_data=data)


def trials_json(table: dict[int, Trial], chests: ChestSet) -> list[dict[str, Any]]:
    """The trial table with each trial's chests spelled out (`heritage trials --json`)."""
    def chest(ch: str) -> dict[str, Any]:
        return chest_json(chests[CHEST_LETTERS.index(ch)])

    return [{"number": t.number, "name": t.name, "stand_in": t.stand_in, "reason": t.reason,
             "goals": [chest(c) for c in t.goals], "under": [chest(c) for c in t.under]}
            for t in (table[n] for n in sorted(table))]
