"""Game setup (RULES.md section 3): decks, tiles, hand, time card, die sequence.

A `Setup` is everything needed to deal a game again on any machine: the card sets (by name and
content hash), the hand spec, the draw seed or an explicit deck order, the die seed or an
explicit die sequence, and the time card's start space. It reads no files: chest data comes in
loaded (`puzzles.chests`). `solver.engine.newgame.new_game` deals it.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from solver.engine.actions import CHEST_LETTERS
from solver.engine.cards import CardBook
from solver.engine.chestcards import ChestSet
from solver.engine.coverage import card_implemented
from solver.engine.errors import SetupError
from solver.rng import die_rolls

HAND_SPECS = ("1", "2", "3", "4", "draw", "list")
HAND_SIZE = 6
DRAW_SIZE = 10


def turns_for(time_space: int) -> int:
    """16 turns with the time card in space 4, 15 from space 3 (RULES.md section 4)."""
    return 12 + time_space


@dataclass(frozen=True)
class Setup:
    """The deal of one game; `to_json` / `from_json` carry it in line files."""

    hand: str = "1"
    hand_cards: tuple[str, ...] = ()
    seed: int = 0
    die_seed: int | None = None
    deck: tuple[str, ...] | None = None
    dice: tuple[int, ...] | None = None
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
            raise SetupError(f"hand: {self.hand!r} is not one of 1, 2, 3, 4, draw or a file")
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
                    raise SetupError(f"chests.{name}: {ch!r} is not a chest letter ({CHEST_LETTERS})")
                if ch in seen:
                    raise SetupError(f"chests.{name}: chest {ch} is also in chests.{seen[ch]}")
                seen[ch] = name
            if len(letters) > 5:
                raise SetupError(f"chests.{name}: {len(letters)} chests, at most 5 fit")
        if self.revealed and self.goals:
            raise SetupError("chests.goals: with revealed chests the goals are chosen in the game")
        if not 0 <= self.extra_discards <= 5:
            raise SetupError(f"extra_discards: {self.extra_discards} must be 0-5")
        if not seen:
            return
        if self.chest_data is None:
            raise SetupError(f"chests: the chest file {self.chests or 'default'} is not loaded "
                             "(the setup names chests; pass the loaded chest data)")
        if self.chests_sha256 is not None and self.chests_sha256 != self.chest_data.sha256:
            raise SetupError(f"chests: chest file {self.chests or 'default'} has changed since this "
                             f"setup was written (sha256 {self.chests_sha256[:12]}... expected)")
        object.__setattr__(self, "chests", self.chest_data.source)
        object.__setattr__(self, "chests_sha256", self.chest_data.sha256)

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
        try:
            deck = data.get("deck")
            dice = data.get("dice")
            chests = data.get("chests") or {}
            if not isinstance(chests, dict):
                raise SetupError(f"{where}: field 'chests' must be an object, got {chests!r}")
            return Setup(
                hand=str(data.get("hand", "1")),
                hand_cards=tuple(str(c) for c in data.get("hand_cards", ())),
                seed=int(data.get("seed", 0)),
                die_seed=None if data.get("die_seed") is None else int(data["die_seed"]),
                deck=None if deck is None else tuple(str(c) for c in deck),
                dice=None if dice is None else tuple(int(d) for d in dice),
                time_space=int(data.get("time_space", 4)),
                card_sets=tuple((str(s["name"]), str(s["sha256"])) for s in data.get("card_sets", ())),
                restricted=bool(data.get("restricted_to_implemented", False)),
                trial=None if data.get("trial") is None else int(data["trial"]),
                chests=None if chests.get("file") is None else str(chests["file"]),
                chests_sha256=None if chests.get("sha256") is None else str(chests["sha256"]),
                goals=tuple(str(c) for c in chests.get("goals", ())),
                under=tuple(str(c) for c in chests.get("under", ())),
                revealed=tuple(str(c) for c in chests.get("revealed", ())),
                campaign=bool(chests.get("campaign", False)),
                worthiest_heir=bool(chests.get("worthiest_heir", False)),
                extra_discards=int(data.get("extra_discards", 0)),
                chest_data=chest_data,
            )
        except (TypeError, ValueError, KeyError) as exc:
            if isinstance(exc, SetupError):
                raise
            raise SetupError(f"{where}: {exc}") from None
