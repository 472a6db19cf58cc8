"""Reading a data file a user gives, safely: one helper for every loader (card sets, chests,
trials, campaign states, line files, hands and decks).

Whatever the file holds, the reader answers with the data or with one error naming the file:

* at most `MAX_BYTES` (16 MB) are read, so ``/dev/zero`` or a huge file is refused at once;
* the bytes must be UTF-8 text (a binary file is named as such);
* the JSON must parse (the line and column of the first fault), without ``NaN`` or
  ``Infinity``, and nest at most `MAX_DEPTH` deep (no loader needs more than a few levels, and
  deeper nesting would exhaust Python's recursion).

The caller passes the exception type of its domain (`CardDataError`, `ChestDataError`,
`LineError`...), so the command line maps the error to exit code 2 like any bad input.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Iterable
from pathlib import Path
from typing import Any

#: The largest file read (bytes): line files, card sets and campaign states are far smaller.
MAX_BYTES = 16 * 1024 * 1024
#: The deepest nesting of JSON arrays and objects accepted (card effects nest about 8 deep).
MAX_DEPTH = 64

ErrorFactory = Callable[[str], Exception]


def read_bytes(path: Path, error: ErrorFactory, what: str = "file") -> bytes:
    """The bytes of `path`, at most `MAX_BYTES`.

    :raises: ``error(message)`` naming the file: missing, a folder, unreadable, too large."""
    try:
        with open(path, "rb") as f:
            raw = f.read(MAX_BYTES + 1)
    except IsADirectoryError:
        raise error(f"{path}: is a folder, not a {what}") from None
    except OSError as exc:
        raise error(f"{path}: cannot read {what} ({exc.strerror or exc})") from None
    if len(raw) > MAX_BYTES:
        raise error(f"{path}: larger than {MAX_BYTES // (1024 * 1024)} MB; not a {what}")
    return raw


def decode(raw: bytes, path: Path | str, error: ErrorFactory, what: str = "file") -> str:
    """`raw` as UTF-8 text (a leading byte-order mark, as some editors write, dropped), or
    ``error`` naming the file and the first byte that is not."""
    try:
        return raw.decode("utf-8").removeprefix("\ufeff")
    except UnicodeDecodeError as exc:
        raise error(f"{path}: not UTF-8 text (byte {exc.start}: 0x{raw[exc.start]:02x}); "
                    f"expected a {what}") from None


def read_text(path: Path, error: ErrorFactory, what: str = "file") -> str:
    """The UTF-8 text of `path` (`read_bytes`, `decode`)."""
    return decode(read_bytes(path, error, what), path, error, what)


def _refuse_constant(name: str) -> Any:
    raise ValueError(f"{name} is not a number JSON allows")


def parse_json(text: str, path: Path | str, error: ErrorFactory, what: str = "file") -> Any:
    """Parse JSON text, refusing faults, ``NaN``/``Infinity`` and nesting deeper than
    `MAX_DEPTH`; the error names the file."""
    try:
        data = json.loads(text, parse_constant=_refuse_constant)
    except json.JSONDecodeError as exc:
        raise error(f"{path}: not valid JSON (line {exc.lineno}, column {exc.colno}: "
                    f"{exc.msg}); expected a {what}") from None
    except RecursionError:
        raise error(f"{path}: JSON nested deeper than {MAX_DEPTH} levels; expected a "
                    f"{what}") from None
    except ValueError as exc:  # NaN/Infinity, or an integer of more than 4300 digits
        why = ("a number of more than 4300 digits" if "digits" in str(exc) else str(exc))
        raise error(f"{path}: not valid JSON ({why}); expected a {what}") from None
    if nesting(data) > MAX_DEPTH:
        raise error(f"{path}: JSON nested deeper than {MAX_DEPTH} levels; expected a {what}")
    return data


def read_json(path: Path, error: ErrorFactory, what: str = "file") -> tuple[Any, bytes]:
    """The parsed JSON of `path` and its bytes (a card set's sha256 is of the bytes).

    :raises: ``error(message)`` naming the file (see the module)."""
    raw = read_bytes(path, error, what)
    return parse_json(decode(raw, path, error, what), path, error, what), raw


def unknown_field(data: dict[str, Any], known: Iterable[str]) -> str | None:
    """The first field of `data` (in sorted order) that is not one of `known`, or None: every
    loader refuses such a field (a misspelt one would otherwise be read as absent)."""
    names = set(known)
    return min((key for key in data if key not in names), default=None)


def nesting(data: Any) -> int:
    """How deep arrays and objects nest in `data` (a scalar: 0), without recursion.

    >>> nesting({"a": [1, [2]]})
    3
    """
    deepest = 0
    todo: list[tuple[Any, int]] = [(data, 0)]
    while todo:
        value, depth = todo.pop()
        if isinstance(value, dict):
            children: Any = value.values()
        elif isinstance(value, list):
            children = value
        else:
            continue
        depth += 1
        if depth > deepest:
            deepest = depth
            if deepest > MAX_DEPTH:
                return deepest
        todo.extend((child, depth) for child in children)
    return deepest
