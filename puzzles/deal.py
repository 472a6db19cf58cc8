"""Setups from what a user gives: the deal options of ``heritage play``/``solve``/``check`` (a
premade or listed hand, seeds, a deck order, die rolls, the time card, the card sets, a
trial), and a line file's ``setup`` object (with the chest file it names loaded here, so that
the engine reads no files).

Errors are `DealError`s naming the option or file, then the field and the value, e.g.
``--dice: value 7 is outside 1-6`` or ``hand.txt: unknown builder card 'X99'``.
"""

from __future__ import annotations

import json
import re
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from puzzles.cardsets import load_book
from puzzles.chests import DEFAULT, load_chests
from puzzles.trials import with_trial
from solver.engine.cards import CardBook
from solver.engine.chestcards import ChestDataError
from solver.engine.coverage import card_implemented
from solver.engine.errors import HeritageError, SetupError
from solver.engine.record import GameRecord
from solver.engine.setup import Setup

#: The ``--hand`` values that are not files: premade hands 1-4, or draw 10 keep 6.
PREMADE = ("1", "2", "3", "4", "draw")

CardSets = tuple[tuple[str, str], ...]


class DealError(HeritageError, ValueError):
    """A deal that cannot be built from the options or files given: names the option or the
    file, the field and the value."""


def load_cards(names: Sequence[str] | None) -> tuple[CardBook, CardSets]:
    """The card book of the named sets (none named: ``base``) and, for a `Setup`, each name
    as given with its sha256.

    :raises CardDataError: a set cannot be read or is malformed."""
    chosen = list(names) if names else ["base"]
    book = load_book(chosen)
    return book, tuple((n, digest) for n, (_, digest) in zip(chosen, book.sets, strict=True))


def read_codes(path: Path, option: str) -> tuple[str, ...]:
    """Card codes or ids from a file: a JSON list (or an object with a ``cards`` list), or
    text with codes separated by spaces, commas or lines (``#`` starts a comment).

    :raises DealError: the file cannot be read or is not such a list (`option` names it)."""
    if not path.is_file():
        what = "1, 2, 3, 4, draw or a readable file" if option == "--hand" else "a readable file"
        raise DealError(f"{option}: {str(path)!r} is not {what}")
    try:
        text = path.read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError) as exc:
        raise DealError(f"{option}: cannot read {path} ({exc})") from None
    if text.lstrip().startswith(("[", "{")):
        try:
            data = json.loads(text)
        except json.JSONDecodeError as exc:
            raise DealError(f"{path}: not valid JSON (line {exc.lineno}: {exc.msg})") from None
        if isinstance(data, dict):
            data = data.get("cards")
        if not isinstance(data, list) or not all(isinstance(c, str) for c in data):
            raise DealError(
                f"{path}: expected a JSON list of card codes, or an object with a 'cards' list")
        return tuple(data)
    words: list[str] = []
    for row in text.splitlines():
        words += [w for w in re.split(r"[\s,]+", row.split("#", 1)[0]) if w]
    return tuple(words)


def parse_dice(text: str) -> tuple[int, ...]:
    """Die rolls written ``2,5,1,...`` (values are checked by `Setup`: 1-6, one per phase).

    :raises DealError: a value that is not a whole number."""
    values = []
    for word in (w.strip() for w in text.split(",")):
        if not word.lstrip("-").isdigit():
            raise DealError(
                f"--dice: {word!r} is not a whole number (expected values 1-6 like 2,5,1)")
        values.append(int(word))
    return tuple(values)


def left_out(book: CardBook) -> int:
    """How many cards of `book` have no implemented effect: a deal leaves them out
    (``restricted_to_implemented``)."""
    return sum(1 for c in book.cards if not card_implemented(c))


def left_out_note(book: CardBook) -> str | None:
    """The note a deal with `book` deserves when it leaves cards out (`left_out`), else None."""
    lacking = left_out(book)
    if not lacking:
        return None
    return (f"note: {lacking} card{'' if lacking == 1 else 's'} without an implemented effect "
            "left out of the deal (restricted_to_implemented)")


def build_setup(book: CardBook, card_sets: CardSets, *, hand: str = "1", seed: int = 0,
                die_seed: int | None = None, deck: Path | None = None, dice: str | None = None,
                time_space: int = 4, trial: int | None = None, chests: str = DEFAULT,
                trials: str = DEFAULT) -> Setup:
    """The `Setup` of the deal options (RULES.md section 3), dealt once to check the hand and
    the deck; with `trial`, that trial's chests placed (section 9, `puzzles.trials`).

    `hand` is a premade hand (`PREMADE`) or a file of 6 card codes; `deck` a file listing every
    remaining builder card, top first; `dice` the rolls as written on the command line. Cards
    without an implemented effect are left out of the deal (`left_out_note`).

    :raises DealError: a bad option or file, naming it (``--hand``, ``--dice``, the file...).
    :raises ChestDataError: a trial number not in the table, a bad chest or trial file."""
    hand_cards: tuple[str, ...] = ()
    hand_spec = hand
    if hand not in PREMADE:
        hand_cards = read_codes(Path(hand), "--hand")
        hand_spec = "list"
    deck_cards = read_codes(deck, "--deck") if deck is not None else None
    source = {"hand": hand if hand_spec == "list" else "--hand",
              "deck": str(deck), "dice": "--dice", "time_space": "--time-space"}
    try:
        setup = Setup(hand=hand_spec, hand_cards=hand_cards, seed=seed, die_seed=die_seed,
                      deck=deck_cards, dice=None if dice is None else parse_dice(dice),
                      time_space=time_space, card_sets=card_sets,
                      restricted=left_out(book) > 0)
        GameRecord.new(setup, book)  # deal once to check the hand and the deck
    except SetupError as exc:
        field, _, rest = str(exc).partition(": ")
        raise DealError(f"{source[field]}: {rest}" if field in source and rest
                        else str(exc)) from None
    if trial is not None:
        setup = with_trial(setup, trial, chests, trials)
    return setup


def describe_setup(setup: Setup) -> str:
    """One line naming the deal: the hand, the seeds, the deck and die if given, the time
    card's space and the card sets."""
    hand = {"draw": "draw 10, keep 6", "list": "from a file"}.get(setup.hand, f"premade {setup.hand}")
    die = "given" if setup.dice is not None else (
        f"seed {setup.seed if setup.die_seed is None else setup.die_seed}")
    deck = ", deck order given" if setup.deck is not None else ""
    sets = ", ".join(n for n, _ in setup.card_sets)
    return (f"Hand {hand}; seed {setup.seed}{deck}; die {die}; time card in space "
            f"{setup.time_space}; cards {sets}")


def setup_from_json(data: Any, where: str = "setup") -> Setup:
    """`Setup.from_json` with the chest file the setup names (``chests.file``) loaded.

    :raises SetupError: the setup is malformed or its chest file cannot be read."""
    chest_data = None
    if isinstance(data, dict):
        chests = data.get("chests")
        if isinstance(chests, dict) and (chests.get("goals") or chests.get("under")
                                         or chests.get("revealed")):
            name = chests.get("file")
            try:
                chest_data = load_chests("default" if name is None else str(name))
            except ChestDataError as exc:
                raise SetupError(f"{where}: {exc}") from None
    return Setup.from_json(data, where, chest_data=chest_data)
