"""The engine's narrow exceptions (the CLI turns them into messages and exit codes)."""

from __future__ import annotations


class HeritageError(Exception):
    """Base class of every error the project raises on purpose."""


class CardDataError(HeritageError, ValueError):
    """A card-set file is malformed: names the file, the card, the field and the value."""


class SetupError(HeritageError, ValueError):
    """A game setup cannot be built (bad hand, deck order, die sequence...)."""


class IllegalActionError(HeritageError, ValueError):
    """An action that is not legal at the pending decision."""


class EffectNotImplementedError(HeritageError, NotImplementedError):
    """A card's effect is needed but the engine does not implement it yet."""


#: The most characters of a bad value an error message quotes (a 6 MB value gives one short line).
QUOTE_LIMIT = 80


def quote(value: object, limit: int = QUOTE_LIMIT) -> str:
    """A value as an error message shows it: its ``repr``, cut to about `limit` characters
    (``null``, ``true``, ``false`` as JSON writes them: most values come from JSON files).

    >>> quote("X99")
    "'X99'"
    >>> quote("A" * 200)[-24:]
    "AAAA'... (202 characters)"
    """
    if value is None or isinstance(value, bool):  # read from JSON: its spelling
        return {None: "null", True: "true", False: "false"}[value]
    text = repr(value)
    if len(text) <= limit:
        return text
    return f"{text[:limit]}... ({len(text)} characters)"
