"""Reading line files: the card sets and chest file a line names, its setup dealt again, its
decisions replayed and its claims checked (the line-file contract is `solver.engine.record`).
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from puzzles.cardsets import load_book, resolve_set
from puzzles.deal import setup_from_json
from solver.engine.actions import NotationError
from solver.engine.cards import CardBook
from solver.engine.errors import CardDataError, SetupError
from solver.engine.goal_check import goals_json
from solver.engine.record import SCORE_ROWS, GameRecord, LineError, legal_text, pending_name
from solver.engine.setup import Setup


def _malformed(message: str) -> LineError:
    return LineError(message, malformed=True)


def _card_set_path(name: str, base_dir: Path | None) -> Path:

    path = resolve_set(name)
    if base_dir is not None and not path.is_absolute() and not path.exists():
        alt = base_dir / path
        if alt.exists():
            return alt
    return path


def book_for(setup: Setup, base_dir: Path | None = None) -> CardBook:
    """The card book a setup was dealt with, refusing changed card sets.

    Names ``base`` and ``heritage`` are the built-in sets; any other name is a file path
    (relative paths are tried from the working directory, then from `base_dir`).

    :raises LineError: no card set named, a set unreadable or malformed, or its sha256 differs."""
    if not setup.card_sets:
        raise _malformed("setup.card_sets: empty; name the card sets the line was played with")
    paths = [str(_card_set_path(name, base_dir)) for name, _ in setup.card_sets]
    try:
        book = load_book(paths)
    except CardDataError as exc:
        raise _malformed(f"setup.card_sets: {exc}") from None
    for (name, want), (_, have) in zip(setup.card_sets, book.sets, strict=True):
        if want != have:
            raise _malformed(
                f"setup.card_sets: card set {name} has changed since this line was written "
                f"(sha256 {have[:12]}..., the line expects {want[:12]}...)")
    return book


def _setup_of(data: Any) -> Setup:
    if not isinstance(data, dict):
        raise _malformed(f"expected a JSON object with 'setup' and 'line', got {_short(data)}")
    if "setup" not in data:
        raise _malformed("setup: missing")
    try:
        return setup_from_json(data["setup"])
    except SetupError as exc:
        raise _malformed(f"setup: {exc}" if not str(exc).startswith("setup") else str(exc)) from None


def _line_of(data: dict[str, Any]) -> list[list[str]]:
    if "line" not in data:
        raise _malformed("line: missing")
    line = data["line"]
    if not isinstance(line, list):
        raise _malformed(f"line: expected a list of turns, got {_short(line)}")
    for t, turn in enumerate(line):
        if not isinstance(turn, list):
            raise _malformed(f"line[{t}]: expected a list of decisions, got {_short(turn)}")
        for k, text in enumerate(turn):
            if not isinstance(text, str):
                raise _malformed(f"line[{t}][{k}]: expected a decision in notation, got {_short(text)}")
    return line


def _short(value: Any) -> str:
    text = json.dumps(value, ensure_ascii=False) if value is not None else "null"
    return text if len(text) <= 40 else text[:37] + "..."


def _deal(data: Any, base_dir: Path | None) -> tuple[GameRecord, list[list[str]]]:
    setup = _setup_of(data)
    line = _line_of(data)
    book = book_for(setup, base_dir)
    try:
        record = GameRecord.new(setup, book)
    except SetupError as exc:
        raise _malformed(f"setup: {exc}") from None
    return record, line


def _follow(record: GameRecord, line: Sequence[Sequence[str]]) -> None:
    """Apply the decisions of `line` to `record`, each under the turn it is written in.

    :raises LineError: (not malformed) at the first decision that is not legal there."""
    st = record.state
    for t, turn in enumerate(line):
        for k, text in enumerate(turn, start=1):
            where = f"turn {t}, decision {k}"
            if st.is_terminal():
                raise LineError(f"{where}: {text!r} comes after the end of the game", False)
            if st.turn < t:
                raise LineError(
                    f"turn {st.turn}: the line gives no more decisions but the game waits "
                    f"({pending_name(st)}; legal: {legal_text(st)})", False)
            if st.turn > t:
                raise LineError(
                    f"{where}: {text!r} comes after turn {t} ended (the game is at turn "
                    f"{st.turn})", False)
            try:
                action = st.string_to_action(text)
            except NotationError:
                action = -1
            if action not in st.legal:
                raise LineError(
                    f"{where}: {text!r} is not legal here ({pending_name(st)}; legal: "
                    f"{legal_text(st)})", False)
            record.apply(action)


def load_position(data: Any, base_dir: Path | None = None) -> GameRecord:
    """A position: the setup dealt and a prefix of its line applied (it may be unfinished).

    :raises LineError: a malformed file (``malformed``) or an illegal decision (not)."""
    record, line = _deal(data, base_dir)
    _follow(record, line)
    return record


def read_line_file(path: Path) -> Any:
    """The JSON data of a line file (or any JSON file a command reads).

    :raises LineError: (malformed) naming the file: it cannot be read, is not UTF-8 or not JSON."""
    try:
        text = path.read_text(encoding="utf-8")
    except OSError as exc:
        raise _malformed(f"{path}: cannot read ({exc.strerror})") from None
    except UnicodeDecodeError:
        raise _malformed(f"{path}: not UTF-8 text") from None
    try:
        return json.loads(text)
    except json.JSONDecodeError as exc:
        raise _malformed(f"{path}: not valid JSON (line {exc.lineno}: {exc.msg})") from None


def load_position_file(path: Path) -> GameRecord:
    """`load_position` of a position file (card-set files it names are also looked for beside
    it).

    :raises LineError: naming the file: it cannot be read, or is not a legal position."""
    data = read_line_file(path)
    try:
        return load_position(data, path.parent)
    except LineError as exc:
        raise LineError(f"{path}: not a legal position: {exc}", exc.malformed) from None


def replay(data: Any, base_dir: Path | None = None) -> tuple[GameRecord | None, str | None]:
    """Check a whole game: deal the setup, apply every decision checking its legality, require
    the end of the game, compare the claimed score and goals with the recomputed ones.

    Returns ``(record, None)`` for a valid line. Otherwise the error message, with ``None`` as
    the record when the file itself is unusable (malformed, card set changed), else the record
    as far as it could be replayed."""
    try:
        record, line = _deal(data, base_dir)
    except LineError as exc:
        return None, str(exc)
    try:
        _follow(record, line)
    except LineError as exc:
        return record, str(exc)
    st = record.state
    if not st.is_terminal():
        return record, (
            f"turn {st.turn}: the line ends before the game is over ({pending_name(st)}; "
            f"legal: {legal_text(st)})")
    claimed = data.get("score")
    if claimed is not None:
        if not isinstance(claimed, dict):
            return None, f"score: expected an object of the five rows and total, got {_short(claimed)}"
        have = st.score().as_dict()
        for row in SCORE_ROWS:
            if row in claimed and claimed[row] != have[row]:
                return record, (
                    f"score: the line claims {row} {_short(claimed[row])}, the replay scores "
                    f"{have[row]}")
        unknown = sorted(set(claimed) - set(SCORE_ROWS))
        if unknown:
            return None, f"score: unknown row {unknown[0]!r}"
    claimed_goals = data.get("goals")
    if claimed_goals is not None:
        have_goals = goals_json(st)
        if claimed_goals != have_goals:
            return record, (
                f"goals: the line claims {_short(claimed_goals)}, the replay gives "
                f"{_short(have_goals)}")
    return record, None
