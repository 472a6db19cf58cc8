"""Campaign rules (RULES.md sections 6 and 10) played end to end through `puzzles.campaign`:
a goal chest given up at the mid-game revision, the Worthiest Heir's 3 games, and the limit of
15 games.

Each game is played by the engine (`GameRecord`) from the campaign's own setup and recorded with
`record_game`, as a user's line file would be. The goals come from a chest file written for the
test (trivially met, or impossible), so the outcome of each goal does not depend on how well the
seeded playing policy plays. The policy creates whenever it can (so the game reaches the middle,
7 monuments in the Past, where the revision is offered) and otherwise picks at random.
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Sequence
from pathlib import Path
from typing import Any

import pytest

from puzzles import campaign as C
from puzzles.cardsets import load_book
from puzzles.chests import DEFAULT_PATH
from solver.engine import actions as A
from solver.engine.actions import CHEST_LETTERS
from solver.engine.frames import D_ACTION, D_CHEST_GOALS, D_CHEST_REVISE
from solver.engine.record import GameRecord
from solver.engine.setup import Setup
from solver.engine.state import GameState
from solver.rng import Stream

BOOK = load_book(["base"])
CARD_SETS = tuple(BOOK.sets)
MET = "past.any >= 0"  # every game meets it
NEVER = "past.any >= 99"  # no game meets it
TRIES = 60  # policy seeds tried to find a game that reaches the mid-game revision


def _chest_file(tmp_path: Path, goals: dict[str, str] | None = None) -> str:
    """The shipped chests with every goal `MET`, except the letters of `goals`."""
    data = json.loads(DEFAULT_PATH.read_text(encoding="utf-8"))
    for ch in data["chests"]:
        ch["goal"] = (goals or {}).get(ch["letter"], MET)
    text = json.dumps(data, ensure_ascii=False)
    path = tmp_path / f"chests-{hashlib.sha256(text.encode()).hexdigest()[:8]}.json"
    path.write_text(text, encoding="utf-8")
    return str(path)


def _kind(st: GameState) -> int | None:
    top = st.pending()
    return None if top is None else int(top[0])


def _play(setup: Setup, seed: int, take: Sequence[str] = (), give_up: Sequence[str] = (),
          ) -> tuple[dict[str, Any], bool]:
    """A finished game's JSON (a line file) and whether the mid-game revision was offered.

    At setup the goals are the letters of `take` (all 5 under Worthiest Heir); at the revision
    the chests of `give_up` are discarded, then ``done``; elsewhere Create when legal, otherwise
    a seeded random option."""
    record = GameRecord.new(setup, BOOK)
    st = record.state
    stream = Stream(seed, "policy", 0)
    revised = False
    while not st.is_terminal():
        kind, legal = _kind(st), st.legal_actions()
        names = [st.action_to_string(a) for a in legal]
        if kind in (D_CHEST_GOALS, D_CHEST_REVISE):
            wanted = take if kind == D_CHEST_GOALS else give_up
            revised = revised or kind == D_CHEST_REVISE
            picks = [f"chest:{ch}" for ch in wanted if f"chest:{ch}" in names]
            action = st.string_to_action(picks[0]) if picks else legal[0]
            if not picks and "done" in names:
                action = A.DONE
        elif kind == D_ACTION and A.ACT_CREATE in legal:
            action = A.ACT_CREATE
        else:
            action = legal[stream.below(len(legal))]
        record.apply(action)
    data: dict[str, Any] = json.loads(json.dumps(record.to_json()))
    return data, revised


def _play_with_revision(setup: Setup, take: Sequence[str] = (), give_up: Sequence[str] = (),
                        ) -> dict[str, Any]:
    """The first seeded game (policy seeds 0, 1, ...) that reaches the mid-game revision."""
    for seed in range(TRIES):
        game, revised = _play(setup, seed, take, give_up)
        if revised:
            return game
    raise AssertionError(f"no game of {TRIES} seeds reached the mid-game revision")


# ------------------------------------------------------------------ the mid-game revision

def test_a_chest_given_up_at_the_revision_goes_back_to_deck_1_and_the_campaign_goes_on(
        tmp_path: Path) -> None:
    """RULES.md section 6 (right after the middle-of-game flip the player may once discard goal
    chests) and section 10 / the rulebook's "Saving Progress": a goal given up at the mid-game
    revision goes to deck 1 (it may be tried again in a later game), is not an achieved goal
    (decks 2 and 3), and is not a failed goal: the game is won on the goals that stay, and the
    campaign goes on. Without the revision the same impossible goal loses the campaign."""
    revealed = C.reveal(C.new_campaign(seed=3))
    hopeless, kept, rest = revealed[0], revealed[1:3], revealed[3:]
    chests = _chest_file(tmp_path, {hopeless: NEVER})
    c = C.new_campaign(seed=3, chests=chests)
    setup = C.next_setup(c, card_sets=CARD_SETS)
    assert list(setup.revealed) == revealed

    game = _play_with_revision(setup, take=revealed[:3], give_up=[hopeless])
    after = C.record_game(c, game)
    assert after.games[0]["goals"] == kept and after.games[0]["met"] == kept
    assert after.games[0]["won"] is True
    assert after.status == "playing"
    assert after.decks["2"] == kept  # achieved: under the board next game
    assert after.decks["1"] == sorted([hopeless, *rest], key=CHEST_LETTERS.index)
    assert after.decks["3"] == []
    assert after.achieved == 2
    assert hopeless in after.remaining  # may be revealed again
    nxt = C.next_setup(after, card_sets=CARD_SETS)  # the campaign goes on
    assert nxt.under == tuple(kept) and hopeless not in nxt.under

    # control: the same goals kept to the end lose the game and the campaign
    c = C.new_campaign(seed=3, chests=chests)
    setup = C.next_setup(c, card_sets=CARD_SETS)
    kept_all = C.record_game(c, _play_with_revision(setup, take=revealed[:3]))
    assert kept_all.games[0]["goals"] == revealed[:3] and kept_all.status == "lost"


# ------------------------------------------------------------------ Worthiest Heir

def _three_games(tmp_path: Path, heir: bool) -> list[C.Campaign]:
    """A campaign (seed 11) that takes all 5 revealed chests each game and gives up one of them
    at the revision of game 1; every goal is met. The campaign after each of its games."""
    c = C.new_campaign(seed=11, chests=_chest_file(tmp_path), worthiest_heir=heir)
    out: list[C.Campaign] = []
    for n in range(3):
        assert c.status == "playing"
        setup = C.next_setup(c, card_sets=CARD_SETS)
        assert len(setup.revealed) == 5
        give_up = setup.revealed[:1] if n == 0 else ()
        c = C.record_game(c, _play_with_revision(setup, setup.revealed, give_up))
        assert c.games[-1]["won"] is True
        out.append(c)
    return out


def test_worthiest_heir_is_lost_when_not_won_within_3_games(tmp_path: Path) -> None:
    """RULES.md section 10, Worthiest Heir: the campaign must be finished in 3 games taking all
    5 revealed chests each time. A heir that gives up one chest at the revision of game 1 (the
    rulebook does not forbid it) achieves 4 + 5 + 5 = 14 goals: after game 3 the campaign is
    lost (no game 4), though every game was won. The same play in an ordinary campaign goes on
    to a 4th game, which wins it."""
    g1, g2, g3 = _three_games(tmp_path, heir=True)
    assert len(g1.games[0]["goals"]) == 4 and len(g1.decks["1"]) == 1
    assert (g1.achieved, g1.status) == (4, "playing")
    assert (g2.achieved, g2.status) == (9, "playing")
    assert (g3.achieved, g3.status) == (14, "lost")
    assert len(g3.games) == 3 and len(g3.remaining) == 1
    with pytest.raises(C.CampaignError, match="field 'status' = 'lost'"):
        C.next_setup(g3, card_sets=CARD_SETS)

    plain = _three_games(tmp_path, heir=False)[-1]
    assert (plain.achieved, plain.status) == (14, "playing")
    setup = C.next_setup(plain, card_sets=CARD_SETS)
    assert list(setup.revealed) == plain.remaining  # D17: the last chest
    last, _ = _play(setup, 0, take=setup.revealed)
    won = C.record_game(plain, last)
    assert (won.achieved, won.status, len(won.games)) == (15, "won", 4)


# ------------------------------------------------------------------ 15 games

def _after_games(tmp_path: Path, played: int, goals: dict[str, str] | None = None) -> C.Campaign:
    """A campaign file with `played` games recorded (60 VP each) and 10 goals achieved: decks
    3 (8), 2 (2), 1 (2), unrevealed (3); read back through `from_json` (a valid file)."""
    c = C.new_campaign(seed=21, chests=_chest_file(tmp_path, goals))
    letters = list(CHEST_LETTERS)
    c.decks = {"3": letters[:8], "2": letters[8:10], "1": letters[10:12],
               "unrevealed": letters[12:]}
    c.games = [{"game": n + 1, "vp": 60} for n in range(played)]
    return C.from_json(c.to_json(), "c.json")


def test_after_the_15th_game_the_campaign_is_over_and_no_16th_is_built(tmp_path: Path) -> None:
    """RULES.md section 10: up to 15 games. The 14th game leaves the campaign playing; the
    15th, won without all 15 goals achieved, ends it "over": no 16th game can be set up or
    recorded, nor can a campaign file claiming 15 games and still playing build one (the error
    names the field `games`), and a file with 16 games is refused."""
    c = _after_games(tmp_path, 13)
    setup = C.next_setup(c, card_sets=CARD_SETS)
    game, _ = _play(setup, 0, take=setup.revealed[:1])
    c = C.record_game(c, game)
    assert (len(c.games), c.achieved, c.status) == (14, 11, "playing")

    setup = C.next_setup(c, card_sets=CARD_SETS)
    game, _ = _play(setup, 1, take=setup.revealed[:1])
    c = C.record_game(c, game)
    assert (len(c.games), c.achieved, c.games[-1]["won"]) == (15, 12, True)
    assert c.status == "over"
    with pytest.raises(C.CampaignError, match="field 'status' = 'over'"):
        C.next_setup(c, card_sets=CARD_SETS)

    fifteen = _after_games(tmp_path, 15)
    assert fifteen.status == "playing"
    with pytest.raises(C.CampaignError, match="field 'games' = 15: 15 games already played"):
        C.next_setup(fifteen, card_sets=CARD_SETS)
    data = _after_games(tmp_path, 15).to_json()
    data["games"].append({"game": 16, "vp": 60})
    del data["games_played"]
    with pytest.raises(C.CampaignError, match="field 'games' = 16: at most 15 games"):
        C.from_json(data, "c.json")


def test_a_failed_15th_game_loses_the_campaign(tmp_path: Path) -> None:
    """RULES.md section 10: a failed game ends the campaign lost, the 15th too (not "over")."""
    c = _after_games(tmp_path, 14, {ch: NEVER for ch in CHEST_LETTERS})
    setup = C.next_setup(c, card_sets=CARD_SETS)
    game, _ = _play(setup, 0, take=setup.revealed[:1])
    c = C.record_game(c, game)
    assert (len(c.games), c.games[-1]["won"], c.status) == (15, False, "lost")


def test_a_campaign_that_achieves_its_15th_goal_in_game_15_is_won(tmp_path: Path) -> None:
    """RULES.md section 10: the campaign is won when all 15 goals have been achieved, even in
    its 15th game (won, not "over"). Played from the start: one goal a game, each met, so the
    15th game achieves the 15th goal; every game before leaves the campaign playing."""
    c = C.new_campaign(seed=4, chests=_chest_file(tmp_path))
    for n in range(15):
        assert c.status == "playing" and c.achieved == n
        setup = C.next_setup(c, card_sets=CARD_SETS)
        game, _ = _play(setup, n, take=setup.revealed[:1])
        c = C.record_game(c, game)
    assert (len(c.games), c.achieved, c.status) == (15, 15, "won")
    with pytest.raises(C.CampaignError, match="field 'status' = 'won'"):
        C.next_setup(c, card_sets=CARD_SETS)
