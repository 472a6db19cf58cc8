"""Campaign mode (RULES.md section 10): the campaign-state file, the next game's setup, and the
update after a finished game.

The state follows the rulebook's "Saving Progress" decks:

* ``unrevealed``: chests never revealed yet;
* deck ``1``: revealed but not chosen, or given up at the mid-game revision (they may be tried
  again);
* deck ``2``: goals achieved in the last game: they go under the board in the next one;
* deck ``3``: used up: chests that were under the board (applied and discarded, or discarded
  unused at the end).

Each of the 15 chests is in exactly one of them. The goals achieved so far (the End of Campaign
table's count "out of 15") are decks 2 and 3. A game reveals 5 of ``unrevealed`` + deck 1 with a
seed (D17: all of them if fewer than 5 remain); the player chooses 1-5 as goals in the game
(a decision, `solver.engine.chests.goals_options`). The last game's VP set the next game's rank:

=========  ============  ====================================================
VP         rank          next game
=========  ============  ====================================================
60+        Builder       nothing
55-59      Architect     1 more builder card discarded at setup
50-54      Creator       2 more discarded
45-49      Inspirer      1 more discarded, time card in space 3 (15 turns)
under 45   Stonemason    2 more discarded, time card in space 3
=========  ============  ====================================================

A failed game (a goal chest not met) ends the campaign; it is won when all 15 goals have been
achieved; it is over after 15 games. Worthiest Heir (an option): every game takes all 5 revealed
chests, and the campaign must be won in 3 games.
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Any

from puzzles.chests import DEFAULT, load_chests, to_letter
from puzzles.jsonfile import read_json, unknown_field
from puzzles.lines import replay
from solver.engine.actions import CHEST_LETTERS
from solver.engine.chestcards import ChestDataError
from solver.engine.chests import MAX_PER_ZONE
from solver.engine.errors import HeritageError, quote
from solver.engine.goal_check import goals_json
from solver.engine.setup import Setup
from solver.rng import Stream, shuffled

FORMAT = "heritage-campaign"
VERSION = 1
SEED_MAX = 2**64 - 1  # seeds are 64-bit (solver.rng)
MAX_GAMES = 15
REVEAL = 5
HEIR_GAMES = 3
DECKS = ("unrevealed", "1", "2", "3")
STATUSES = ("playing", "won", "lost", "over")


class CampaignError(HeritageError, ValueError):
    """A campaign file or a game file that does not fit the campaign: names the file, the
    field and the value."""


@dataclass(frozen=True)
class Rank:
    name: str
    extra_discards: int
    time_space: int


RANKS = (  # (lowest VP of the rank, rank), best first (RULES.md section 10)
    (60, Rank("Builder", 0, 4)),
    (55, Rank("Architect", 1, 4)),
    (50, Rank("Creator", 2, 4)),
    (45, Rank("Inspirer", 1, 3)),
)
STONEMASON = Rank("Stonemason", 2, 3)


def rank_for(vp: int | None) -> Rank:
    """The rank a game's VP earns, and its effect on the next game; no game yet: none."""
    if vp is None:
        return RANKS[0][1]
    for at_least, rank in RANKS:
        if vp >= at_least:
            return rank
    return STONEMASON


def _order(letters: list[str] | tuple[str, ...] | set[str]) -> list[str]:
    return sorted(letters, key=CHEST_LETTERS.index)


@dataclass
class Campaign:
    """One campaign's progress (the rulebook's Campaign and End of Campaign tables)."""

    seed: int = 0
    chests: str = DEFAULT
    chests_sha256: str = ""
    worthiest_heir: bool = False
    decks: dict[str, list[str]] = field(default_factory=dict)
    games: list[dict[str, Any]] = field(default_factory=list)
    status: str = "playing"
    next_game: dict[str, Any] | None = None

    # ------------------------------------------------------------ derived facts

    @property
    def achieved(self) -> int:
        """Goals achieved so far, out of 15 (End of Campaign table)."""
        return len(self.decks["2"]) + len(self.decks["3"])

    @property
    def last_vp(self) -> int | None:
        return int(self.games[-1]["vp"]) if self.games else None

    @property
    def remaining(self) -> list[str]:
        """Chests that may be revealed (D17): never revealed, or in deck 1."""
        return _order(self.decks["unrevealed"] + self.decks["1"])

    def to_json(self) -> dict[str, Any]:
        return {
            "format": FORMAT, "version": VERSION, "seed": self.seed,
            "chests": {"file": self.chests, "sha256": self.chests_sha256},
            "worthiest_heir": self.worthiest_heir,
            "decks": {d: _order(self.decks[d]) for d in DECKS},
            "games": self.games, "games_played": len(self.games), "last_vp": self.last_vp,
            "rank": rank_for(self.last_vp).name, "achieved": self.achieved,
            "status": self.status, "next_game": self.next_game,
        }


def new_campaign(seed: int = 0, chests: str = DEFAULT, worthiest_heir: bool = False) -> Campaign:
    """A fresh campaign: all 15 chests unrevealed, no game played."""
    data = load_chests(chests)
    return Campaign(seed=seed, chests=data.source, chests_sha256=data.sha256,
                    worthiest_heir=worthiest_heir,
                    decks={"unrevealed": list(CHEST_LETTERS), "1": [], "2": [], "3": []})


# ------------------------------------------------------------------ the file

def _fail(where: str, field_name: str, value: Any, why: str) -> CampaignError:
    return CampaignError(f"{where}: field {field_name!r} = {quote(value)}: {why}")


def _letter(text: Any, where: str, field_name: str) -> str:
    try:
        return to_letter(text, where, field_name)
    except ChestDataError as exc:
        raise CampaignError(str(exc)) from None


#: The fields of a campaign file (`Campaign.to_json`).
CAMPAIGN_FIELDS = ("format", "version", "seed", "chests", "worthiest_heir", "decks", "games",
                   "games_played", "last_vp", "rank", "achieved", "status", "next_game")


def from_json(data: Any, where: str = "campaign") -> Campaign:
    """Read and check a campaign state: each chest in exactly one deck, deck 2 at most 5, the
    recorded counts consistent with the decks and games."""
    if not isinstance(data, dict) or data.get("format") != FORMAT:
        raise _fail(where, "format", data.get("format") if isinstance(data, dict) else data,
                    f"expected {FORMAT!r} (a file written by `heritage campaign new`)")
    unknown = unknown_field(data, CAMPAIGN_FIELDS)
    if unknown is not None:
        raise _fail(where, unknown, data[unknown],
                    f"unknown field (the fields: {', '.join(CAMPAIGN_FIELDS)})")
    if "seed" not in data:
        raise _fail(where, "seed", None, "missing: the campaign's seed deals its games")
    decks_raw = data.get("decks")
    if not isinstance(decks_raw, dict) or set(decks_raw) != set(DECKS):
        raise _fail(where, "decks", decks_raw, f"expected an object with {', '.join(DECKS)}")
    decks: dict[str, list[str]] = {}
    seen: dict[str, str] = {}
    for d in DECKS:
        letters = decks_raw[d]
        if not isinstance(letters, list):
            raise _fail(where, f"decks.{d}", letters, "expected a list of chest letters")
        decks[d] = []
        for x in letters:
            ch = _letter(x, where, f"decks.{d}")
            if ch in seen:
                raise _fail(where, f"decks.{d}", x,
                            f"chest {ch} is also in decks.{seen[ch]}: a chest is in one deck")
            seen[ch] = d
            decks[d].append(ch)
    missing = [c for c in CHEST_LETTERS if c not in seen]
    if missing:
        raise _fail(where, "decks", decks_raw, f"chest {missing[0]} is in no deck")
    if len(decks["2"]) > MAX_PER_ZONE:
        raise _fail(where, "decks.2", decks_raw["2"],
                    f"{len(decks['2'])} chests; at most {MAX_PER_ZONE} go under the board")
    games = data.get("games", [])
    if not isinstance(games, list) or not all(
            isinstance(g, dict) and isinstance(g.get("vp"), int) for g in games):
        raise _fail(where, "games", games, "expected a list of {\"vp\": int, ...} objects")
    if len(games) > MAX_GAMES:
        raise _fail(where, "games", len(games), f"at most {MAX_GAMES} games in a campaign")
    status = data.get("status", "playing")
    if status not in STATUSES:
        raise _fail(where, "status", status, f"expected one of {', '.join(STATUSES)}")
    version = data.get("version", VERSION)
    if version != VERSION or isinstance(version, bool):
        raise _fail(where, "version", version, f"this engine reads campaign version {VERSION}")
    seed = data.get("seed", 0)
    if not isinstance(seed, int) or isinstance(seed, bool) or not 0 <= seed <= SEED_MAX:
        raise _fail(where, "seed", seed, f"expected a whole number from 0 to {SEED_MAX}")
    chests = data.get("chests", {})
    if not isinstance(chests, dict) or not isinstance(chests.get("file", DEFAULT), str) \
            or not isinstance(chests.get("sha256", ""), str) \
            or unknown_field(chests, ("file", "sha256")) is not None:
        raise _fail(where, "chests", chests, "expected {\"file\": ..., \"sha256\": ...}")
    heir = data.get("worthiest_heir", False)
    if not isinstance(heir, bool):
        raise _fail(where, "worthiest_heir", heir, "expected true or false")
    next_game = data.get("next_game")
    if next_game is not None and not isinstance(next_game, dict):
        raise _fail(where, "next_game", next_game, "expected a setup object or null")
    c = Campaign(seed=seed, chests=chests.get("file", DEFAULT),
                 chests_sha256=chests.get("sha256", ""), worthiest_heir=heir, decks=decks,
                 games=games, status=status, next_game=next_game)
    for key, have in (("achieved", c.achieved), ("last_vp", c.last_vp),
                      ("games_played", len(games)), ("rank", rank_for(c.last_vp).name)):
        if key in data and data[key] != have:
            raise _fail(where, key, data[key], f"does not match the decks and games ({have})")
    if c.next_game is not None:
        _check_next(c, where)
    return c


def _check_next(c: Campaign, where: str) -> None:
    """A pending game's chests must come from where the campaign says they are."""
    nxt = c.next_game
    chests = nxt.get("chests", {}) if isinstance(nxt, dict) else None
    if not isinstance(chests, dict):
        raise _fail(where, "next_game", nxt, "expected a setup with its chests")
    revealed = [_letter(x, where, "next_game.chests.revealed") for x in chests.get("revealed", [])]
    under = [_letter(x, where, "next_game.chests.under") for x in chests.get("under", [])]
    bad = [ch for ch in revealed if ch not in c.remaining]
    if bad:
        raise _fail(where, "next_game.chests.revealed", bad[0],
                    "this chest is not in deck 1 or unrevealed")
    if _order(under) != _order(c.decks["2"]):
        raise _fail(where, "next_game.chests.under", under,
                    "must be deck 2 (the goals just achieved)")


def load(path: str | Path) -> Campaign:
    """The campaign of a campaign-state file (read safely: `puzzles.jsonfile`).

    :raises CampaignError: naming the file, the field and the value."""
    p = Path(path)
    data, _ = read_json(p, CampaignError, "campaign file")
    return from_json(data, str(p))


def check_writable(path: str | Path) -> None:
    """A campaign file can be written at `path`: its folder exists and it is not a folder.

    :raises CampaignError: naming the path."""
    p = Path(path)
    if p.is_dir():
        raise CampaignError(f"{p}: is a folder; name a campaign file (e.g. {p / 'campaign.json'})")
    if not p.parent.is_dir():
        raise CampaignError(f"{p}: the folder {p.parent} does not exist")


def save(c: Campaign, path: str | Path) -> None:
    """Write the campaign-state file.

    :raises CampaignError: the file cannot be written (naming it and why)."""
    check_writable(path)
    try:
        Path(path).write_text(json.dumps(c.to_json(), ensure_ascii=False, indent=1) + "\n",
                              encoding="utf-8")
    except OSError as exc:
        raise CampaignError(f"{path}: cannot write campaign file ({exc.strerror or exc})") from None


# ------------------------------------------------------------------ the next game

def reveal(c: Campaign) -> list[str]:
    """The chests revealed for the next game: 5 of the remaining ones, shuffled with the
    campaign seed and the game number (stream ``chests``), all of them if fewer (D17)."""
    n = len(c.games) + 1
    return _order(shuffled(c.seed, "chests", n, c.remaining)[:REVEAL])


def chests_to_reveal(c: Campaign) -> list[str]:
    """D17: the chests the next game reveals (see `reveal`)."""
    return reveal(c)


def game_seed(c: Campaign) -> int:
    """The default deal seed of the next game (stream ``campaign-game``, game number)."""
    return Stream(c.seed, "campaign-game", len(c.games) + 1).next64() & 0x7FFFFFFF


def next_setup(c: Campaign, *, seed: int | None = None, die_seed: int | None = None,
               card_sets: tuple[tuple[str, str], ...] = (), restricted: bool = False,
               campaign_file: str = "campaign") -> Setup:
    """The next game's setup (RULES.md section 10): draw 10; 5 revealed chests to choose goals
    from (a decision in the game); deck 2 under the board; the last game's rank (extra discards,
    time card in space 3). The campaign records it as its pending game."""
    if c.status != "playing":
        raise CampaignError(f"{campaign_file}: field 'status' = {c.status!r}: the campaign is "
                            "finished")
    if len(c.games) >= MAX_GAMES:
        raise CampaignError(f"{campaign_file}: field 'games' = {len(c.games)}: 15 games already "
                            "played")
    revealed = reveal(c)
    if not revealed:
        raise CampaignError(f"{campaign_file}: field 'decks' = no chest left to reveal")
    rank = rank_for(c.last_vp)
    try:
        data = load_chests(c.chests)
    except ChestDataError as exc:
        raise CampaignError(f"{campaign_file}: field 'chests.file' = {c.chests!r}: "
                            f"{exc}") from None
    if c.chests_sha256 and not data.matches(c.chests_sha256):
        raise CampaignError(f"{campaign_file}: field 'chests.file' = {c.chests!r}: the chest "
                            "file has changed since the campaign began")
    setup = Setup(hand="draw", seed=game_seed(c) if seed is None else seed, die_seed=die_seed,
                  time_space=rank.time_space, card_sets=card_sets, restricted=restricted,
                  chests=data.source, chests_sha256=data.sha256, revealed=tuple(revealed),
                  under=tuple(_order(c.decks["2"])), campaign=True,
                  worthiest_heir=c.worthiest_heir, extra_discards=rank.extra_discards,
                  chest_data=data)
    c.next_game = setup.to_json()
    return setup


# ------------------------------------------------------------------ recording a game

def _comparable(setup: Any) -> dict[str, Any]:
    """A setup's JSON with its data files named by content, not by path: a line file names
    them relative to itself (`puzzles.lines`), the campaign file as given."""
    out = dict(setup) if isinstance(setup, dict) else {}
    sets = out.get("card_sets")
    if isinstance(sets, list):
        out["card_sets"] = [s.get("sha256") if isinstance(s, dict) else s for s in sets]
    chests = out.get("chests")
    if isinstance(chests, dict):
        out["chests"] = {k: v for k, v in chests.items() if k != "file"}
    return out


def check_same_setup(want: dict[str, Any], have: Any, where: str) -> None:
    """The game's setup is the campaign's next game, field by field (the deal seed, the die,
    the hand, the card sets by content, the chests, the rank's time card and discards...).

    :raises CampaignError: naming the first field that differs, its value and the wanted one."""
    def compare(a: dict[str, Any], b: dict[str, Any], prefix: str) -> None:
        for key in sorted(set(a) | set(b)):
            x, y = a.get(key), b.get(key)
            if isinstance(x, dict) and isinstance(y, dict):
                compare(x, y, f"{prefix}{key}.")
            elif x != y:
                raise _fail(where, f"{prefix}{key}", y,
                            f"the campaign's next game has {quote(x)}")

    compare(_comparable(want), _comparable(have), "setup.")


def record_game(c: Campaign, game: Any, where: str = "game", base_dir: Path | None = None,
                campaign_file: str = "campaign") -> Campaign:
    """The campaign after a finished game (its line file): the line is replayed and checked;
    achieved goals go to deck 2, the chests under the board to deck 3, revealed chests not kept
    as goals to deck 1; a failed goal ends the campaign (lost), 15 goals achieved wins it."""
    if c.status != "playing":
        raise CampaignError(f"{campaign_file}: field 'status' = {c.status!r}: the campaign is "
                            "finished")
    if c.next_game is None:
        raise CampaignError(f"{campaign_file}: field 'next_game' = null: run `heritage campaign "
                            "next` first, then play that setup")
    if not isinstance(game, dict) or not isinstance(game.get("setup"), dict):
        raise CampaignError(f"{where}: field 'setup' missing: expected a finished game's JSON")
    check_same_setup(c.next_game, game["setup"], where)
    want = c.next_game.get("chests", {})
    rec, error = replay(game, base_dir)
    if error is not None or rec is None:
        raise CampaignError(f"{where}: not a valid finished game: {error}")
    st = rec.state
    goals = goals_json(st)
    vp = st.score().total
    revealed = [str(x) for x in want.get("revealed", [])]
    kept = [g["chest"] for g in goals]
    met = [g["chest"] for g in goals if g["met"]]
    won = bool(goals) and len(met) == len(goals)
    decks = {d: list(v) for d, v in c.decks.items()}
    for ch in revealed:
        for d in ("unrevealed", "1"):
            if ch in decks[d]:
                decks[d].remove(ch)
    decks["3"] += decks["2"]  # under the board this game: used or discarded (deck 3)
    decks["2"] = list(met)
    decks["1"] += [ch for ch in revealed if ch not in met]
    entry = {"game": len(c.games) + 1, "vp": vp, "revealed": revealed, "goals": kept,
             "met": met, "won": won, "rank_next": rank_for(vp).name}
    out = replace(c, decks=decks, games=c.games + [entry], next_game=None)
    if not won:
        out.status = "lost"
    elif out.achieved == len(CHEST_LETTERS):
        out.status = "won"
    elif c.worthiest_heir and len(out.games) >= HEIR_GAMES:
        out.status = "lost"  # Worthiest Heir: all 15 goals within 3 games
    elif len(out.games) >= MAX_GAMES:
        out.status = "over"
    return out
