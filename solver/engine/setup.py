"""Game setup (RULES.md section 3): decks, tiles, hand, time card, die sequence.

A `Setup` is everything needed to deal a game again on any machine: the card sets (by name and
content hash), the hand spec, the draw seed or an explicit deck order, the die seed or an
explicit die sequence, and the time card's start space. It reads no files: chest data comes in
loaded (`puzzles.chests`). `solver.engine.newgame.new_game` deals it.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Final

from solver.engine.actions import CHEST_LETTERS
from solver.engine.cards import CardBook
from solver.engine.chestcards import ChestSet
from solver.engine.coverage import card_implemented
from solver.engine.errors import SetupError, quote
from solver.frozen import Frozen
from solver.rng import die_rolls

HAND_SPECS: Final = ("1", "2", "3", "4", "draw", "list")
HAND_SIZE: Final = 6
DRAW_SIZE: Final = 10


def turns_for(time_space: int) -> int:
    """16 turns with the time card in space 4, 15 from space 3 (RULES.md section 4)."""
    return 12 + time_space


def _codes(value: Any, where: str) -> tuple[str, ...] | None:
    """A list of card codes from a line file (None when absent)."""
    if value is None:
        return None
    if not isinstance(value, list) or not all(isinstance(c, str) for c in value):
        raise SetupError(f"{where}: expected a list of card codes, got {value!r}")
    return tuple(value)


#: Seeds are 64-bit (`solver.rng`): a larger one would silently deal the game of another.
SEED_MAX: Final = 2**64 - 1


def _field(data: dict[str, Any], key: str, where: str, want: str) -> SetupError:
    return SetupError(f"{where}.{key}: expected {want}, got {quote(data.get(key))}")


def _whole(data: dict[str, Any], key: str, where: str, lo: int, hi: int, default: int) -> int:
    """A whole number field of a line file's setup, within lo..hi (absent: `default`)."""
    v = data.get(key, default)
    if not isinstance(v, int) or isinstance(v, bool) or not lo <= v <= hi:
        raise _field(data, key, where, f"a whole number from {lo} to {hi}")
    return v


def _maybe_whole(data: dict[str, Any], key: str, where: str, lo: int, hi: int) -> int | None:
    return None if data.get(key) is None else _whole(data, key, where, lo, hi, 0)


def _wholes(data: dict[str, Any], key: str, where: str) -> tuple[int, ...] | None:
    v = data.get(key)
    if v is None:
        return None
    if not isinstance(v, list) or not all(isinstance(x, int) and not isinstance(x, bool)
                                          for x in v):
        raise _field(data, key, where, "a list of whole numbers")
    return tuple(v)


def _text(data: dict[str, Any], key: str, where: str, default: str) -> str:
    v = data.get(key, default)
    if not isinstance(v, str):
        raise _field(data, key, where, "a string")
    return v


#: The largest trial number a setup (and so a trial table) may hold.
TRIAL_MAX: Final = 10_000

#: The fields of a setup object (`Setup.to_json`) and of its ``chests`` object.
SETUP_FIELDS: Final = ("hand", "hand_cards", "seed", "die_seed", "deck", "dice", "tech_deck_1",
                       "tech_deck_2", "time_space", "card_sets", "restricted_to_implemented",
                       "trial", "chests", "extra_discards")
CHESTS_FIELDS: Final = ("file", "sha256", "goals", "under", "revealed", "campaign",
                        "worthiest_heir")


def _known_fields(data: dict[str, Any], known: tuple[str, ...], where: str) -> None:
    """Refuse a field the setup does not have: a misspelt ``seed`` would otherwise deal the
    default game without a word."""
    for key in data:
        if key not in known:
            raise SetupError(f"{where}: unknown field {quote(key)} (the fields: "
                             f"{', '.join(known)})")


def _maybe_text(data: dict[str, Any], key: str, where: str) -> str | None:
    return None if data.get(key) is None else _text(data, key, where, "")


def _texts(data: dict[str, Any], key: str, where: str) -> tuple[str, ...] | None:
    v = data.get(key)
    if v is None:
        return None
    if not isinstance(v, list) or not all(isinstance(x, str) for x in v):
        raise _field(data, key, where, "a list of strings")
    return tuple(v)


def _flag(data: dict[str, Any], key: str, where: str) -> bool:
    v = data.get(key, False)
    if not isinstance(v, bool):
        raise _field(data, key, where, "true or false")
    return v


def _card_sets(data: dict[str, Any], where: str) -> tuple[tuple[str, str], ...]:
    v = data.get("card_sets", [])
    if not isinstance(v, list) or not all(
            isinstance(s, dict) and isinstance(s.get("name"), str)
            and isinstance(s.get("sha256"), str) for s in v):
        raise _field(data, "card_sets", where, 'a list of {"name": ..., "sha256": ...}')
    return tuple((s["name"], s["sha256"]) for s in v)


@dataclass(frozen=True)
class Setup(Frozen):
    """The deal of one game; `to_json` / `from_json` carry it in line files."""

    hand: str = "1"
    hand_cards: tuple[str, ...] = ()
    seed: int = 0
    die_seed: int | None = None
    deck: tuple[str, ...] | None = None
    dice: tuple[int, ...] | None = None
    # Explicit technology deck orders (RULES.md section 3.1), top first, before the tiles are
    # filled: the first 3 Level I cards fill tile A, the next 3 tile B; the first 3 Level II
    # cards tile C. A partial order gives the top cards; the rest is shuffled from the seed.
    tech_deck_1: tuple[str, ...] | None = None
    tech_deck_2: tuple[str, ...] | None = None
    time_space: int = 4
    card_sets: tuple[tuple[str, str], ...] = ()
    restricted: bool = False
    trial: int | None = None  # the trial table's number (RULES.md section 9), if any
    # Chest cards (RULES.md sections 8-10), by letter: goals in artifact spaces, effects under
    # the board, or (Campaign) the revealed chests the player chooses goals from in the game.
    chests: str | None = None  # chest file: "default" (puzzles/data/chests.json) or a path
    chests_sha256: str | None = None  # its content hash; a changed file is refused
    goals: tuple[str, ...] = ()
    under: tuple[str, ...] = ()
    revealed: tuple[str, ...] = ()
    campaign: bool = False  # Campaign mode: the mid-game goal revision (section 6)
    worthiest_heir: bool = False  # Campaign variant: every revealed chest is taken as a goal
    extra_discards: int = 0  # Campaign rank: builder cards discarded more at setup (section 10)
    chest_data: ChestSet | None = field(default=None, compare=False, hash=False, repr=False)

    def __post_init__(self) -> None:
        if self.hand not in HAND_SPECS:
            raise SetupError(f"hand: {quote(self.hand)} is not one of 1, 2, 3, 4, draw or a file")
        for name, seed in (("seed", self.seed), ("die_seed", self.die_seed)):
            if seed is not None and not 0 <= seed <= SEED_MAX:
                raise SetupError(f"{name}: {seed} is outside 0..2^64-1 (seeds are 64-bit)")
        if self.time_space not in (3, 4):
            raise SetupError(f"time_space: {self.time_space} must be 4 or 3")
        needed = turns_for(self.time_space) - 1
        if self.dice is not None:
            bad = [d for d in self.dice if not 1 <= d <= 6]
            if bad:
                raise SetupError(f"dice: value {bad[0]} is outside 1-6")
            if len(self.dice) < needed:
                raise SetupError(
                    f"dice: {len(self.dice)} values given, the game needs {needed} "
                    f"(one per technology phase)")
            rolls = tuple(self.dice)
        else:
            seed = self.seed if self.die_seed is None else self.die_seed
            rolls = die_rolls(seed, needed)
        object.__setattr__(self, "rolls", rolls)
        self._check_chests()

    def _check_chests(self) -> None:
        """Chest letters known, at most 5 a zone, no chest twice; the chest file loaded and its
        hash checked (RULES.md sections 8-10)."""
        zones = (("goals", self.goals), ("under", self.under), ("revealed", self.revealed))
        seen: dict[str, str] = {}
        for name, letters in zones:
            for ch in letters:
                if ch not in CHEST_LETTERS:
                    raise SetupError(
                        f"chests.{name}: {ch!r} is not a chest letter ({CHEST_LETTERS})")
                if ch in seen:
                    raise SetupError(f"chests.{name}: chest {ch} is also in chests.{seen[ch]}")
                seen[ch] = name
            if len(letters) > 5:
                raise SetupError(f"chests.{name}: {len(letters)} chests, at most 5 fit")
        if self.revealed and self.goals:
            raise SetupError("chests.goals: with revealed chests the goals are chosen in the game")
        if not 0 <= self.extra_discards <= 5:
            raise SetupError(f"extra_discards: {self.extra_discards} must be 0-5")
        self._check_trial()
        if not seen:
            return
        if self.chest_data is None:
            raise SetupError(f"chests: the chest file {self.chests or 'default'} is not loaded "
                             "(the setup names chests; pass the loaded chest data)")
        if self.chests_sha256 is not None and not self.chest_data.matches(self.chests_sha256):
            raise SetupError(f"chests: chest file {self.chests or 'default'} has changed since "
                             f"this setup was written (sha256 {self.chests_sha256[:12]}... "
                             "expected)")
        object.__setattr__(self, "chests", self.chest_data.source)
        object.__setattr__(self, "chests_sha256", self.chest_data.sha256)

    def _check_trial(self) -> None:
        """A trial (RULES.md section 9) is set up as the trial table says and no other way:
        the time card in space 4 (section 3, step 5: space 3 is a Campaign rank's), no Campaign
        rule (revealed chests, the mid-game goal revision, Worthiest Heir, a rank's extra
        discards)."""
        if self.trial is None:
            return
        extra = [what for what, on in (
            ("the time card in space 3", self.time_space != 4),
            ("the Campaign's mid-game goal revision", self.campaign),
            ("Worthiest Heir", self.worthiest_heir),
            (f"{self.extra_discards} extra discards", self.extra_discards > 0),
            ("revealed chests", bool(self.revealed))) if on]
        if extra:
            raise SetupError(f"trial: trial {self.trial} is played with the time card in space 4 "
                             f"and no Campaign rule (RULES.md sections 3 and 9), not with "
                             f"{' and '.join(extra)}")

    def revealed_indices(self) -> list[int]:
        """The revealed chests (Campaign setup, section 10) as letter indices, in order."""
        return sorted(CHEST_LETTERS.index(c) for c in self.revealed)

    rolls: tuple[int, ...] = field(init=False, default=(), compare=False)

    def card_pool(self, book: CardBook) -> frozenset[int]:
        """The cards of this game: every card of the card sets, or (restricted) only those
        whose effects the engine implements."""
        if not self.restricted:
            return frozenset(range(len(book)))
        return frozenset(c.index for c in book.cards if card_implemented(c))

    def to_json(self) -> dict[str, Any]:
        out: dict[str, Any] = {
            "hand": self.hand,
            "seed": self.seed,
            "die_seed": self.seed if self.die_seed is None else self.die_seed,
            "time_space": self.time_space,
            "card_sets": [{"name": n, "sha256": h} for n, h in self.card_sets],
            "restricted_to_implemented": self.restricted,
        }
        if self.hand == "list":
            out["hand_cards"] = list(self.hand_cards)
        if self.deck is not None:
            out["deck"] = list(self.deck)
        if self.dice is not None:
            out["dice"] = list(self.dice)
        if self.tech_deck_1 is not None:
            out["tech_deck_1"] = list(self.tech_deck_1)
        if self.tech_deck_2 is not None:
            out["tech_deck_2"] = list(self.tech_deck_2)
        if self.trial is not None:
            out["trial"] = self.trial
        if self.goals or self.under or self.revealed:
            out["chests"] = {
                "file": self.chests, "sha256": self.chests_sha256, "goals": list(self.goals),
                "under": list(self.under), "revealed": list(self.revealed),
                "campaign": self.campaign, "worthiest_heir": self.worthiest_heir,
            }
        if self.extra_discards:
            out["extra_discards"] = self.extra_discards
        return out

    @staticmethod
    def from_json(data: Any, where: str = "setup", chest_data: ChestSet | None = None) -> Setup:
        """The setup of a line file's ``setup`` object; `chest_data` is the chest file it names,
        loaded by the caller (`puzzles.deal.setup_from_json` reads it)."""
        if not isinstance(data, dict):
            raise SetupError(f"{where}: expected an object")
        _known_fields(data, SETUP_FIELDS, where)
        try:
            chests = data.get("chests") or {}
            if not isinstance(chests, dict):
                raise SetupError(f"{where}.chests: expected an object, got {quote(chests)}")
            _known_fields(chests, CHESTS_FIELDS, f"{where}.chests")
            return Setup(
                hand=_text(data, "hand", where, "1"),
                hand_cards=_texts(data, "hand_cards", where) or (),
                seed=_whole(data, "seed", where, 0, SEED_MAX, 0),
                die_seed=_maybe_whole(data, "die_seed", where, 0, SEED_MAX),
                deck=_texts(data, "deck", where),
                dice=_wholes(data, "dice", where),
                tech_deck_1=_codes(data.get("tech_deck_1"), f"{where}: field 'tech_deck_1'"),
                tech_deck_2=_codes(data.get("tech_deck_2"), f"{where}: field 'tech_deck_2'"),
                time_space=_whole(data, "time_space", where, 3, 4, 4),
                card_sets=_card_sets(data, where),
                restricted=_flag(data, "restricted_to_implemented", where),
                trial=_maybe_whole(data, "trial", where, 1, TRIAL_MAX),
                chests=_maybe_text(chests, "file", f"{where}.chests"),
                chests_sha256=_maybe_text(chests, "sha256", f"{where}.chests"),
                goals=_texts(chests, "goals", f"{where}.chests") or (),
                under=_texts(chests, "under", f"{where}.chests") or (),
                revealed=_texts(chests, "revealed", f"{where}.chests") or (),
                campaign=_flag(chests, "campaign", f"{where}.chests"),
                worthiest_heir=_flag(chests, "worthiest_heir", f"{where}.chests"),
                extra_discards=_whole(data, "extra_discards", where, 0, 5, 0),
                chest_data=chest_data,
            )
        except (TypeError, ValueError, KeyError) as exc:
            if isinstance(exc, SetupError):
                raise
            raise SetupError(f"{where}: {exc}") from None
