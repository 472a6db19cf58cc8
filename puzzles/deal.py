"""Setups from what a user gives: the deal options of ``heritage play``/``solve``/``check`` (a
premade or listed hand, seeds, a deck order, die rolls, the time card, the card sets, a
trial), and a line file's ``setup`` object (with the chest file it names loaded here, so that
the engine reads no files).

Errors are `DealError`s naming the option or file, then the field and the value, e.g.
``--dice: value 7 is outside 1-6`` or ``hand.txt: unknown builder card 'X99'``.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from puzzles.cardsets import load_book
from puzzles.chests import DEFAULT, load_chests
from puzzles.jsonfile import parse_json, read_text
from puzzles.trials import with_trial
from solver.engine.cards import CardBook
from solver.engine.chestcards import ChestDataError
from solver.engine.coverage import card_implemented
from solver.engine.errors import HeritageError, SetupError, quote
from solver.engine.record import GameRecord
from solver.engine.setup import DRAW_SIZE, HAND_SIZE, Setup, turns_for

#: The ``--hand`` values that are not files: premade hands 1-4, or draw 10 keep 6.
PREMADE = ("1", "2", "3", "4", "draw")

CardSets = tuple[tuple[str, str], ...]


class DealError(HeritageError, ValueError):
    """A deal that cannot be built from the options or files given: names the option or the
    file, the field and the value."""


def card_set_names(names: Sequence[str] | None, no_base: bool = False) -> list[str]:
    """The card sets a game uses: the named sets are added to ``base`` (``--cards heritage``
    is base + Heritage), unless `no_base` (``--no-base``) or ``base`` is named itself.

    :raises DealError: ``--no-base`` with no set named."""
    chosen = list(names or [])
    if no_base:
        if not chosen:
            raise DealError("--no-base: name the card sets to play with (--cards SET)")
        return chosen
    return chosen if "base" in chosen else ["base", *chosen]


def load_cards(names: Sequence[str] | None, no_base: bool = False) -> tuple[CardBook, CardSets]:
    """The card book of the sets `card_set_names` gives and, for a `Setup`, each name as
    given with its sha256.

    :raises CardDataError: a set cannot be read or is malformed.
    :raises DealError: ``--no-base`` without a set."""
    chosen = card_set_names(names, no_base)
    book = load_book(chosen)
    return book, tuple((n, digest) for n, (_, digest) in zip(chosen, book.sets, strict=True))


def check_playable(book: CardBook, hand: str = "draw") -> None:
    """Refuse card sets that leave no game to play (RULES.md section 3): the hand must be
    dealt (10 builder cards to draw, or a premade hand's 6), and the three technology tiles
    filled (6 Level I and 3 Level II technologies).

    :raises DealError: naming ``--cards`` and what is missing."""
    cards = [c for c in book.cards if card_implemented(c)] if left_out(book) else list(book.cards)
    builders = sum(1 for c in cards if not c.is_tech)
    level1 = sum(1 for c in cards if c.is_tech and c.level == 1)
    level2 = sum(1 for c in cards if c.is_tech and c.level == 2)
    sets = " + ".join(name for name, _ in book.sets)
    need = HAND_SIZE + 1 if hand in PREMADE[:4] or hand not in PREMADE else DRAW_SIZE
    if builders < need or level1 < 6 or level2 < 3:
        raise DealError(
            f"--cards: the sets {sets} hold {builders} builder cards, {level1} Level I and "
            f"{level2} Level II technologies; a game needs at least {need} builder cards, 6 "
            "Level I and 3 Level II technologies (add the base set: drop --no-base)")


def read_order(text: str, option: str) -> tuple[str, ...]:
    """Card codes, top first, given on the command line (``T3,T17``) or in a file
    (`read_codes`).

    :raises DealError: an unreadable file, or no card given."""
    path = Path(text)
    if not path.is_file() and re.search(r"[/\\.]", text):  # no card code holds these
        raise DealError(f"{option}: {quote(text)} is not a readable file (nor card codes, top "
                        "first, like T3,T17)")
    codes = read_codes(path, option) if path.is_file() else tuple(
        w for w in re.split(r"[\s,]+", text) if w)
    if not codes:
        raise DealError(f"{option}: no card given (expected codes top first, like T3,T17)")
    return codes


def read_codes(path: Path, option: str) -> tuple[str, ...]:
    """Card codes or ids from a file: a JSON list (or an object with a ``cards`` list), or
    text with codes separated by spaces, commas or lines (``#`` starts a comment).

    :raises DealError: the file cannot be read or is not such a list (`option` names it)."""
    if not path.is_file():
        what = "1, 2, 3, 4, draw or a readable file" if option == "--hand" else "a readable file"
        raise DealError(f"{option}: {quote(str(path))} is not {what}")
    def error(message: str) -> DealError:
        return DealError(f"{option}: {message}")

    text = read_text(path, error, "list of card codes")
    if text.lstrip().startswith(("[", "{")):
        data = parse_json(text, path, error, "list of card codes")
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
        if not re.fullmatch(r"-?[0-9]{1,9}", word):
            raise DealError(
                f"--dice: {quote(word)} is not a whole number (expected values 1-6 like 2,5,1)")
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
                trials: str = DEFAULT, tech_deck_1: str | None = None,
                tech_deck_2: str | None = None) -> Setup:
    """The `Setup` of the deal options (RULES.md section 3), dealt once to check the hand and
    the deck; with `trial`, that trial's chests placed (section 9, `puzzles.trials`).

    `hand` is a premade hand (`PREMADE`) or a file of 6 card codes; `deck` a file listing every
    remaining builder card, top first; `dice` the rolls as written on the command line;
    `tech_deck_1`/`tech_deck_2` the top of a technology deck (`read_order`: codes or a file),
    the rest shuffled from the seed. Cards without an implemented effect are left out of the
    deal (`left_out_note`).

    :raises DealError: a bad option or file, naming it (``--hand``, ``--dice``, the file...).
    :raises ChestDataError: a trial number not in the table, a bad chest or trial file."""
    hand_cards: tuple[str, ...] = ()
    hand_spec = hand
    if hand not in PREMADE:
        hand_cards = read_codes(Path(hand), "--hand")
        hand_spec = "list"
    deck_cards = read_codes(deck, "--deck") if deck is not None else None
    tech1 = None if tech_deck_1 is None else read_order(tech_deck_1, "--tech-deck-1")
    tech2 = None if tech_deck_2 is None else read_order(tech_deck_2, "--tech-deck-2")
    source = {"hand": hand if hand_spec == "list" else "--hand",
              "deck": str(deck), "dice": "--dice", "time_space": "--time-space",
              "tech_deck_1": "--tech-deck-1", "tech_deck_2": "--tech-deck-2"}
    check_playable(book, hand)
    rolls = None if dice is None else parse_dice(dice)
    needed = turns_for(time_space) - 1
    if rolls is not None and len(rolls) > needed and all(1 <= r <= 6 for r in rolls):
        raise DealError(f"--dice: {len(rolls)} values given, the game needs {needed} (one per "
                        "technology phase)")
    try:
        setup = Setup(hand=hand_spec, hand_cards=hand_cards, seed=seed, die_seed=die_seed,
                      deck=deck_cards, dice=rolls,
                      tech_deck_1=tech1, tech_deck_2=tech2,
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
    """One line naming the deal's seeds and options: the deal and die seeds (or the orders
    and rolls given), the time card's space and the card sets."""
    die = "rolls given" if setup.dice is not None else (
        f"seed {setup.seed if setup.die_seed is None else setup.die_seed}")
    given = []
    if setup.deck is not None:
        given.append("builder deck order given")
    for level, order in ((1, setup.tech_deck_1), (2, setup.tech_deck_2)):
        if order is not None:
            given.append(f"Level {'I' * level} deck: top {len(order)} given")
    sets = ", ".join(n for n, _ in setup.card_sets)
    return (f"Deal seed {setup.seed}; die {die}; time card in space {setup.time_space} "
            f"({turns_for(setup.time_space)} turns); cards {sets}"
            + "".join(f"; {g}" for g in given))


def setup_from_json(data: Any, where: str = "setup") -> Setup:
    """`Setup.from_json` with the chest file the setup names (``chests.file``) loaded.

    :raises SetupError: the setup is malformed or its chest file cannot be read."""
    chest_data = None
    if isinstance(data, dict):
        chests = data.get("chests")
        if isinstance(chests, dict) and (chests.get("goals") or chests.get("under")
                                         or chests.get("revealed")):
            name = chests.get("file")
            if name is not None and not isinstance(name, str):
                raise SetupError(f"{where}.chests: field 'file' = {quote(name)}: expected the "
                                 "name of a chest file")
            try:
                chest_data = load_chests("default" if name is None else name)
            except ChestDataError as exc:
                raise SetupError(f"{where}: {exc}") from None
    return Setup.from_json(data, where, chest_data=chest_data)
