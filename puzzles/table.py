"""What a player needs to play a line at the table: the header of a game (the trial and its
chests, the hand, the seeds), its goals with their stand-in marks, and the whole deal (builder
deck, technology decks and tiles, die rolls) to stack a physical game.

Chest texts the rulebook does not print are the project's stand-ins (RULES.md section 8,
`puzzles/data/chests.json`): every one is marked ``*`` (``~`` for the goals inferred from the
rulebook's worked example, D14), with `STAND_IN_NOTE` as the footnote.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from puzzles.deal import describe_setup
from puzzles.trials import load_trials
from solver.engine.actions import CHEST_LETTERS, TILE_NAMES
from solver.engine.cards import CardBook
from solver.engine.chestcards import Chest, ChestDataError, Part
from solver.engine.goal_check import chest_goal, evaluate
from solver.engine.newgame import deal_decks
from solver.engine.setup import Setup
from solver.engine.state import GameState
from solver.engine.wording import Namer, goal_words

#: What ``~`` marks (`mark`), in every footnote that explains it.
INFERRED_NOTE = ("~ inferred from the rulebook's worked example (D14), or a card it prints "
                 "without its letter (Г)")
STAND_IN_NOTE = ("* stand-in: the rulebook does not print this chest text, the project chose "
                 f"it (heritage trials lists them); {INFERRED_NOTE}")


def mark(part: Part) -> str:
    """``~`` inferred, ``*`` stand-in, nothing when printed in the rulebook."""
    return "~" if part.inferred else "*" if part.stand_in else ""


def chest_goal_text(c: Chest) -> str:
    """``А Chest of Tutankhamun*: at least 8 monuments in the Past*``."""
    return f"{c.letter} {c.name}{mark(c.name_part)}: {goal_words(c.goal)}{mark(c.goal_part)}"


def chest_effect_text(c: Chest) -> str:
    """``Б Casket of Lefkadia*: Remove up to 3 knowledge ... (any moment)*``."""
    moment = "at any moment" if c.moment == "lightning" else "in the Timeline phase"
    return (f"{c.letter} {c.name}{mark(c.name_part)}: {c.effect_text.rstrip('.')} ({moment})"
            f"{mark(c.effect_part)}")


def trial_name(setup: Setup) -> str:
    """The trial's name from the shipped trial table when its chests are that trial's (a
    setup keeps the number and the chests, not the table it came from)."""
    if setup.trial is None:
        return ""
    try:
        trial = load_trials().get(setup.trial)
    except ChestDataError:
        return ""
    if trial is None or (trial.goals, trial.under) != (setup.goals, setup.under):
        return ""
    return trial.name


def header_lines(setup: Setup, book: CardBook) -> list[str]:
    """The header of a game: the trial (number, name) or campaign game, its goal chests and
    effect chests (stand-ins marked), the hand by name, the seeds and options."""
    lines: list[str] = []
    data = setup.chest_data
    chests = [] if data is None else list(data)
    if setup.trial is not None:
        name = trial_name(setup)
        lines.append(f"Trial {setup.trial}" + (f": {name}" if name else ""))
    elif setup.revealed:
        lines.append("Campaign game" + (" (Worthiest Heir)" if setup.worthiest_heir else ""))
    for title, letters, words in (
            ("Goal chests (artifact spaces)", setup.goals, chest_goal_text),
            ("Revealed chests (choose the goals among them)", setup.revealed, chest_goal_text),
            ("Effect chests (under the board, each usable once)", setup.under, chest_effect_text)):
        if letters and chests:
            texts = [words(chests[CHEST_LETTERS.index(x)]) for x in letters]
            lines.append(f"{title}: " + "; ".join(texts))
    namer = Namer(book)
    hand = deal_decks(setup, book).hand
    if setup.hand == "draw":
        keep = 6 - setup.extra_discards
        lines.append(f"Hand: draw 10, keep {keep} (the keep is the first step of the line)")
    else:
        what = f"premade hand {setup.hand}" if setup.hand != "list" else "listed"
        lines.append(f"Hand ({what}): {namer.cards(sorted(hand))}")
    lines.append(describe_setup(setup))
    return lines


def has_stand_ins(setup: Setup) -> bool:
    """Whether the header or the goals of this setup show a stand-in or inferred text."""
    data = setup.chest_data
    if data is None:
        return False
    letters = setup.goals + setup.under + setup.revealed
    return any(p.stand_in or p.inferred for x in letters
               for p in (data[CHEST_LETTERS.index(x)].name_part,
                         data[CHEST_LETTERS.index(x)].goal_part,
                         data[CHEST_LETTERS.index(x)].effect_part))


def goal_rows(st: GameState) -> list[list[str]]:
    """The goals table: chest, name, goal in words (stand-ins marked) and whether it is met."""
    data = st.setup.chest_data
    rows = []
    for k in st.goal_chests:
        goal = chest_goal(st, k)
        name, words = CHEST_LETTERS[k], goal_words(goal)
        if data is not None:
            c = data[k]
            name, words = f"{c.name}{mark(c.name_part)}", words + mark(c.goal_part)
        rows.append([CHEST_LETTERS[k], name, words, "met" if evaluate(goal, st) else "NOT met"])
    return rows


# ---------------------------------------------------------------------------- the deal


@dataclass(frozen=True)
class Deal:
    """A game's whole deal, each pile top first (RULES.md section 3): the builder deck after a
    premade hand is taken out (with draw 10, its first 10 cards are the hand to keep from),
    the two technology decks as shuffled (their first cards fill the tiles: 3 Level I to tile
    A, 3 to tile B, 3 Level II to tile C), the tiles, and the die roll of each technology
    phase."""

    hand: tuple[str, ...]
    builder: tuple[str, ...]
    tech_deck_1: tuple[str, ...]
    tech_deck_2: tuple[str, ...]
    tiles: dict[str, tuple[str, ...]]
    dice: tuple[int, ...]

    def to_json(self) -> dict[str, Any]:
        return {"hand": list(self.hand), "builder_deck": list(self.builder),
                "tiles": {k: list(v) for k, v in self.tiles.items()},
                "tech_deck_1": list(self.tech_deck_1), "tech_deck_2": list(self.tech_deck_2),
                "dice": list(self.dice)}


def deal_of(setup: Setup, book: CardBook) -> Deal:
    """The deal of a setup, read off `solver.engine.newgame.deal_decks` (the same decks a
    game is dealt from). A deck that runs out during play is reshuffled from the deal's seed
    (RULES.md section 5), not part of this deal: the line names every card drawn, and says
    where each reshuffle happens."""
    decks = deal_decks(setup, book)
    codes = [c.code for c in book.cards]

    def top_first(deck: list[int]) -> tuple[str, ...]:
        return tuple(codes[c] for c in reversed(deck))

    tech1, tech2 = top_first(decks.tech1), top_first(decks.tech2)
    tiles = {TILE_NAMES[0]: tech1[:3], TILE_NAMES[1]: tech1[3:6], TILE_NAMES[2]: tech2[:3]}
    return Deal(hand=tuple(codes[c] for c in sorted(decks.hand)),
                builder=top_first(decks.builder), tech_deck_1=tech1, tech_deck_2=tech2,
                tiles=tiles, dice=tuple(setup.rolls))


def deal_lines(deal: Deal, book: CardBook) -> list[str]:
    """The deal as text, one pile a line, top first, each card by name."""
    def names(codes: tuple[str, ...]) -> str:
        out = []
        for code in codes:
            card = book.lookup(code)
            out.append(code if card is None else f"{card.name} ({code})")
        return ", ".join(out) or "-"

    lines = []
    if deal.hand:
        lines.append(f"Hand: {names(deal.hand)}")
    lines.append(f"Builder deck, top first ({len(deal.builder)} cards): {names(deal.builder)}")
    for tile, cards in deal.tiles.items():
        lines.append(f"Tile {tile}: {names(cards)}")
    lines.append(f"Level I technology deck, top first, the first 6 on tiles A and B "
                 f"({len(deal.tech_deck_1)} cards): {names(deal.tech_deck_1)}")
    lines.append(f"Level II technology deck, top first, the first 3 on tile C "
                 f"({len(deal.tech_deck_2)} cards): {names(deal.tech_deck_2)}")
    lines.append("Die rolls, one per technology phase: " + ", ".join(str(d) for d in deal.dice))
    lines.append("A deck that runs out is reshuffled from the deal's seed; the line says where "
                 "(a real table's shuffle differs from there on)")
    return lines
