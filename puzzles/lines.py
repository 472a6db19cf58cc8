"""Reading and writing line files: the card sets and chest file a line names, its setup dealt
again, its decisions replayed and its claims checked (the line-file contract is
`solver.engine.record`; the claims, `puzzles.claims`).

Files that travel: a line file of format 2 names its data files (a card-set file, a chest file)
by paths relative to its own folder (`relocate` writes them so), so a line file and its data
files can be moved together; a data file named by an absolute path keeps it. In memory a setup
names them as the working directory sees them (`resolve_data_files` reads them so). A line file
without ``format`` is format 1: its paths were written as given on the command line, relative
to the working directory; both places are tried, and the sha256 of each file decides.
"""

from __future__ import annotations

import os
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from puzzles.cardsets import BUILTIN_SETS, load_book
from puzzles.chests import DEFAULT
from puzzles.claims import Claims, check_claims, claim_shapes, json_quote
from puzzles.deal import setup_from_json
from puzzles.jsonfile import read_json
from solver.engine.actions import DONE, NotationError
from solver.engine.cards import CardBook
from solver.engine.chests import window_since
from solver.engine.errors import CardDataError, SetupError, quote
from solver.engine.record import (
    LINE_FORMAT,
    GameRecord,
    LineError,
    legal_text,
    pending_name,
)
from solver.engine.setup import Setup, turns_for
from solver.engine.state import GameState


def _malformed(message: str) -> LineError:
    return LineError(message, malformed=True)


def line_format(data: dict[str, Any]) -> int:
    """The format of a line file: its ``format`` (1 to `LINE_FORMAT`), 1 when absent.

    :raises LineError: (malformed) any other value."""
    fmt = data.get("format", 1)
    if not isinstance(fmt, int) or isinstance(fmt, bool) or not 1 <= fmt <= LINE_FORMAT:
        raise _malformed(f"format: {quote(fmt)}: this engine reads line-file formats 1 to "
                         f"{LINE_FORMAT}")
    return fmt


def _found(name: str, base_dir: Path | None, fmt: int) -> str:
    """The path of a data file a line file names, as the working directory sees it: format 2
    names it relative to the line file (then the working directory is tried), format 1 the
    other way round; an absolute path is itself."""
    path = Path(name)
    if path.is_absolute() or base_dir is None:
        return name
    beside = base_dir / path
    order = [beside, path] if fmt >= 2 else [path, beside]
    for candidate in order:
        if candidate.exists():
            return str(candidate)
    return str(order[0])


def resolve_data_files(setup: Any, base_dir: Path | None, fmt: int) -> Any:
    """A copy of a line file's ``setup`` object with its data files (card-set files, the chest
    file) named as the working directory sees them (module docstring)."""
    if not isinstance(setup, dict):
        return setup
    out = dict(setup)
    sets = out.get("card_sets")
    if isinstance(sets, list):
        out["card_sets"] = [
            {**s, "name": _found(s["name"], base_dir, fmt)}
            if isinstance(s, dict) and isinstance(s.get("name"), str)
            and s["name"] not in BUILTIN_SETS else s
            for s in sets]
    chests = out.get("chests")
    if isinstance(chests, dict) and isinstance(chests.get("file"), str) \
            and chests["file"] != DEFAULT:
        out["chests"] = {**chests, "file": _found(chests["file"], base_dir, fmt)}
    return out


def _check_dice(setup: Any) -> None:
    """Format 2: one die roll per technology phase, no more (format 1 let extra rolls
    through; they are never used)."""
    if not isinstance(setup, dict):
        return
    dice, time_space = setup.get("dice"), setup.get("time_space", 4)
    if isinstance(dice, list) and time_space in (3, 4) and len(dice) > turns_for(time_space) - 1:
        raise _malformed(f"setup.dice: {len(dice)} values given, the game needs "
                         f"{turns_for(time_space) - 1} (one per technology phase)")


def _relative(name: str, folder: Path) -> str:
    """`name` (a path as the working directory sees it) as a line file in `folder` names it:
    relative to that folder; an absolute path stays absolute (the user named the file wherever
    the line file goes)."""
    path = Path(name)
    if path.is_absolute():
        return name
    try:
        return os.path.relpath(Path.cwd() / path, folder)
    except ValueError:  # another drive (Windows)
        return str(Path.cwd() / path)


def relocate(data: dict[str, Any], dest: Path | None) -> dict[str, Any]:
    """The line-file object `data` as written to `dest`: its data files named relative to the
    folder of `dest` (None: printed on stdout, so relative to the working directory, where a
    redirected file usually lands)."""
    setup = data.get("setup")
    if dest is None or not isinstance(setup, dict):
        return data
    folder = dest.absolute().parent
    new = dict(setup)
    sets = new.get("card_sets")
    if isinstance(sets, list):
        new["card_sets"] = [
            {**s, "name": _relative(s["name"], folder)}
            if isinstance(s, dict) and isinstance(s.get("name"), str)
            and s["name"] not in BUILTIN_SETS else s
            for s in sets]
    chests = new.get("chests")
    if isinstance(chests, dict) and isinstance(chests.get("file"), str) \
            and chests["file"] != DEFAULT:
        new["chests"] = {**chests, "file": _relative(chests["file"], folder)}
    out = dict(data)
    out["setup"] = new
    return out


def book_for(setup: Setup, base_dir: Path | None = None) -> CardBook:
    """The card book a setup was dealt with, refusing changed card sets.

    Names ``base`` and ``heritage`` are the built-in sets; any other name is a file path
    (relative paths are tried from the working directory, then from `base_dir`).

    :raises LineError: no card set named, a set unreadable or malformed, or its sha256 differs."""
    if not setup.card_sets:
        raise _malformed("setup.card_sets: empty; name the card sets the line was played with")
    paths = [name if name in BUILTIN_SETS else _found(name, base_dir, 1)
             for name, _ in setup.card_sets]
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


def _setup_of(data: Any, base_dir: Path | None) -> Setup:
    if not isinstance(data, dict):
        raise _malformed(f"expected a JSON object with 'setup' and 'line', got {quote(data)}")
    fmt = line_format(data)
    if "setup" not in data:
        raise _malformed("setup: missing")
    if fmt >= 2:
        _check_dice(data["setup"])
    try:
        return setup_from_json(resolve_data_files(data["setup"], base_dir, fmt))
    except SetupError as exc:
        raise _malformed(f"setup: {exc}" if not str(exc).startswith("setup")
                         else str(exc)) from None


def _line_of(data: dict[str, Any]) -> list[list[str]]:
    if "line" not in data:
        raise _malformed("line: missing")
    line = data["line"]
    if not isinstance(line, list):
        raise _malformed(f"line: expected a list of turns, got {json_quote(line)}")
    for t, turn in enumerate(line):
        if not isinstance(turn, list):
            raise _malformed(f"line[{t}]: expected a list of decisions, got {json_quote(turn)}")
        for k, text in enumerate(turn):
            if not isinstance(text, str):
                raise _malformed(f"line[{t}][{k}]: expected a decision in notation, "
                                 f"got {json_quote(text)}")
    return line


def _deal(data: Any, base_dir: Path | None) -> tuple[GameRecord, list[list[str]], int]:
    """The record of the deal, the line to follow and the line file's format."""
    setup = _setup_of(data, base_dir)
    line = _line_of(data)
    book = book_for(setup)
    try:
        record = GameRecord.new(setup, book)
    except SetupError as exc:
        raise _malformed(f"setup: {exc}") from None
    return record, line, line_format(data)


def _close_unknown_windows(record: GameRecord, fmt: int) -> None:
    """A line of format `fmt` was written before the lightning windows of later formats existed
    (`solver.engine.chests.window_since`: between two effects or declines, format 3; the other
    decline-phase windows and the one before the flip, format 4): no chest was used there, so
    ``done`` is taken for each (and written into the record, which is then a line of the
    current format)."""
    st = record.state
    while window_since(st) > fmt:
        record.apply(DONE)


def actions_of_format(root: GameState, actions: Sequence[int], fmt: int) -> list[int]:
    """The actions of a line written by an engine of line-file format `fmt` (a raw action list,
    e.g. a benchmark table's), as this engine plays them from `root`: ``done`` at each
    lightning window that format did not know (`_close_unknown_windows`). The actions are not
    checked (a replay that follows the result does)."""
    if fmt >= LINE_FORMAT:
        return list(actions)
    st = root.clone()
    out: list[int] = []
    for a in [*actions, None]:  # (None: the windows after the last action)
        while window_since(st) > fmt:
            out.append(DONE)
            st.apply(DONE)
        if a is not None:
            out.append(a)
            st.apply(a)
    return out


def _follow(record: GameRecord, line: Sequence[Sequence[str]], fmt: int = LINE_FORMAT) -> None:
    """Apply the decisions of `line` (of line-file format `fmt`) to `record`, each under the
    turn it is written in.

    :raises LineError: (not malformed) at the first decision that is not legal there."""
    st = record.state
    for t, turn in enumerate(line):
        for k, text in enumerate(turn, start=1):
            where = f"turn {t}, decision {k}"
            _close_unknown_windows(record, fmt)
            if st.is_terminal():
                raise LineError(f"{where}: {quote(text)} comes after the end of the game", False)
            if st.turn < t:
                raise LineError(
                    f"turn {st.turn}: the line gives no more decisions but the game waits "
                    f"({pending_name(st)}; legal: {legal_text(st)})", False)
            if st.turn > t:
                raise LineError(
                    f"{where}: {quote(text)} comes after turn {t} ended (the game is at turn "
                    f"{st.turn})", False)
            try:
                action = st.string_to_action(text)
            except NotationError:
                action = -1
            if action not in st.legal:
                raise LineError(
                    f"{where}: {quote(text)} is not legal here ({pending_name(st)}; legal: "
                    f"{legal_text(st)})", False)
            record.apply(action)
    _close_unknown_windows(record, fmt)


def load_position(data: Any, base_dir: Path | None = None) -> GameRecord:
    """A position: the setup dealt and a prefix of its line applied (it may be unfinished).

    :raises LineError: a malformed file (``malformed``) or an illegal decision (not)."""
    record, line, fmt = _deal(data, base_dir)
    _follow(record, line, fmt)
    return record


def read_line_file(path: Path) -> Any:
    """The JSON data of a line file (or any JSON file a command reads), read safely
    (`puzzles.jsonfile`: at most 16 MB of UTF-8 JSON, nested at most 64 deep).

    :raises LineError: (malformed) naming the file: it cannot be read, is not UTF-8 or not JSON."""
    data, _ = read_json(path, _malformed, "line file")
    return data


def load_position_file(path: Path) -> GameRecord:
    """`load_position` of a position file (the data files it names are looked for beside it).

    :raises LineError: naming the file: it cannot be read, or is not a legal position."""
    data = read_line_file(path)
    try:
        return load_position(data, path.parent)
    except LineError as exc:
        raise LineError(f"{path}: not a legal position: {exc}", exc.malformed) from None


@dataclass(frozen=True)
class Verdict:
    """A line file checked (`verify_line`): the replay (None when the file itself is unusable),
    the first illegal step or false claim (`error`), and the claims (`puzzles.claims.Claims`)."""

    record: GameRecord | None
    error: str | None
    claims: Claims


def verify_line(data: Any, base_dir: Path | None = None, trials: str = DEFAULT,
                strict: bool = True) -> Verdict:
    """Check a whole game: deal the setup, apply every decision checking its legality, require
    the end of the game, then check every claim of the file (`puzzles.claims.check_claims`;
    `trials` is the trial table its trial number refers to; `strict`: a finished line must
    claim its score and goals)."""
    try:
        record, line, fmt = _deal(data, base_dir)
    except LineError as exc:
        return Verdict(None, str(exc), Claims())
    shape = claim_shapes(data)
    if shape is not None:
        return Verdict(None, shape, Claims())
    try:
        _follow(record, line, fmt)
    except LineError as exc:
        return Verdict(record, str(exc), Claims())
    st = record.state
    if not st.is_terminal():
        return Verdict(record, (
            f"turn {st.turn}: the line ends before the game is over ({pending_name(st)}; "
            f"legal: {legal_text(st)})"), Claims())
    claims = check_claims(data, record, trials, strict)
    return Verdict(record, claims.error, claims)


def replay(data: Any, base_dir: Path | None = None) -> tuple[GameRecord | None, str | None]:
    """`verify_line` as a pair, comparing the claims the data makes (a score or goals left out
    are not required): ``(record, None)`` for a valid line; otherwise the error message, with
    ``None`` as the record when the file itself is unusable (malformed, card set changed), else
    the record as far as it could be replayed."""
    verdict = verify_line(data, base_dir, strict=False)
    return verdict.record, verdict.error
