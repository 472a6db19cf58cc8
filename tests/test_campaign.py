"""Campaign mode (RULES.md sections 6 and 10, D17): ranks, the next game's setup, the goal choice
and the mid-game revision as decisions, the campaign-state file, recording games."""

from __future__ import annotations

import hashlib
import json
from pathlib import Path
from typing import Any

import pytest
from typer.testing import CliRunner

from cli.app import app
from puzzles import campaign as C
from puzzles.cardsets import load_book
from puzzles.chests import DEFAULT_PATH, load_chests
from solver.engine.actions import CHEST_LETTERS
from solver.engine.frames import (
    D_CHEST_GOALS,
    D_CHEST_REVISE,
    D_FLIP,
    D_KEEP,
    F_DECLINE_PHASE,
    F_TECH_PHASE,
)
from solver.engine.newgame import new_game
from solver.engine.record import GameRecord
from solver.engine.setup import Setup
from solver.engine.state import CHEST_BASE, EMPTY, GameState
from solver.rng import Stream
from tests.builder import idx, names_of, play, position
from tests.test_chests import resume, with_chests

BOOK = load_book(["base"])
CARD_SETS = tuple(BOOK.sets)
runner = CliRunner()


def L(ch: str) -> int:
    return CHEST_LETTERS.index(ch)


def top_kind(st: GameState) -> int | None:
    """The kind of the pending frame (None at the end)."""
    top = st.pending()
    return None if top is None else int(top[0])


# ------------------------------------------------------------------ ranks

@pytest.mark.parametrize(("vp", "rank", "extra", "space"), [
    (44, "Stonemason", 2, 3), (45, "Inspirer", 1, 3), (49, "Inspirer", 1, 3),
    (50, "Creator", 2, 4), (54, "Creator", 2, 4), (55, "Architect", 1, 4),
    (59, "Architect", 1, 4), (60, "Builder", 0, 4), (-3, "Stonemason", 2, 3),
    (101, "Builder", 0, 4),
])
def test_rank_boundaries(vp: int, rank: str, extra: int, space: int) -> None:
    r = C.rank_for(vp)
    assert (r.name, r.extra_discards, r.time_space) == (rank, extra, space)


def test_a_47_vp_game_gives_5_cards_and_the_time_card_in_space_3_next() -> None:
    """The rulebook's example: 47 VP (29+18+31+1-32) -> Inspirer: the next game keeps 5 of the
    10 drawn cards and the time card starts in space 3 (15 turns)."""
    c = C.new_campaign(seed=1)
    c.decks = {"unrevealed": [ch for ch in CHEST_LETTERS if ch not in "АИПОБ"], "1": ["Б"],
               "2": ["А", "И", "П"], "3": ["О"]}
    c.games = [{"game": 3, "vp": 47}]
    setup = C.next_setup(c, card_sets=CARD_SETS)
    assert (setup.extra_discards, setup.time_space, setup.hand) == (1, 3, "draw")
    assert setup.under == ("А", "И", "П")
    st = new_game(setup, BOOK)
    assert st.time_space == 3 and st.spaces[2] == (-1,)
    assert top_kind(st) == D_CHEST_GOALS
    assert len(st.hand) == 10
    play(st, names_of(st)[0], "done")
    top = st.pending()
    assert top is not None and top[0] == D_KEEP and top[1] == 5
    stream = Stream(0, "policy", 0)
    while st.turn == 0:
        st.apply(st.legal[stream.below(len(st.legal))])
    assert len(st.hand) == 5 and len(st.discard) == 5
    while not st.is_terminal():
        st.apply(st.legal[stream.below(len(st.legal))])
    assert st.turn == 15


# ------------------------------------------------------------------ the goal choice

def test_the_goal_choice_is_a_decision_among_the_revealed_chests() -> None:
    """Section 10: 1-5 of the 5 revealed chests, chosen one at a time in letter order, then
    done; they fill the artifact spaces from the left; the rest go back (deck 1)."""
    setup = Setup(hand="draw", seed=4, revealed=("Б", "Г", "Ж", "Л", "О"), campaign=True,
                  chest_data=load_chests())
    st = new_game(setup, BOOK)
    assert names_of(st) == ["chest:Б", "chest:Г", "chest:Ж", "chest:Л", "chest:О"]
    play(st, "chest:Г")
    assert names_of(st) == ["chest:Ж", "chest:Л", "chest:О", "done"]
    play(st, "chest:Л", "done")
    assert st.goal_chests == [L("Г"), L("Л")]
    assert st.artifacts[:3] == [CHEST_BASE + L("Г"), CHEST_BASE + L("Л"), EMPTY]
    assert top_kind(st) == D_KEEP


def test_worthiest_heir_takes_all_five_without_a_choice() -> None:
    setup = Setup(hand="draw", seed=4, revealed=("Б", "Г", "Ж", "Л", "О"), campaign=True,
                  worthiest_heir=True, chest_data=load_chests())
    st = new_game(setup, BOOK)
    assert st.goal_chests == [L(ch) for ch in "БГЖЛО"]
    assert st.free_artifact_space() == -1  # no artifact can be created in this game
    assert top_kind(st) == D_KEEP


# ------------------------------------------------------------------ the mid-game revision

def _midgame(campaign: bool = True) -> Any:
    """The 7th monument reaches the Past; four goal chests and one artifact on the board."""
    st = position(hand=["A1", "C1"], past=["C2", "C3", "M1", "M3", "P1", "P2"],
                  timeline={1: ["C5"], 3: ["M4"]}, artifacts=["A8"], turn=9)
    with_chests(st, goals=("А", "Г", "К", "О"), campaign=campaign)
    return resume(st, (F_TECH_PHASE,), (F_DECLINE_PHASE,))


def test_standard_of_ur_discarded_at_mid_game_frees_an_artifact_space() -> None:
    """The rulebook's example: 7 monuments in the Past, a tile flipped; the player gives up the
    Standard of Ur (6 pyramids in the Past): 3 chests stay, one artifact space is free again."""
    st = _midgame()
    assert st.pending() == (D_FLIP,)
    assert st.free_artifact_space() == -1
    play(st, "tileA")
    assert st.pending() == (D_CHEST_REVISE, -1)
    assert names_of(st) == ["chest:А", "chest:Г", "chest:К", "chest:О", "done"]
    play(st, "chest:Г")
    assert names_of(st) == ["chest:К", "chest:О", "done"]
    play(st, "done")
    assert st.goal_chests == [L("А"), L("К"), L("О")]
    assert st.artifacts == [idx(st, "A8"), CHEST_BASE + L("А"), EMPTY, CHEST_BASE + L("К"),
                            CHEST_BASE + L("О")]
    while st.turn == 9:
        st.apply(st.legal[0])
    play(st, "create", "A1")  # the freed space takes an artifact
    assert st.artifacts[2] == idx(st, "A1")


def test_the_revision_keeps_at_least_one_goal_and_happens_once() -> None:
    st = _midgame()
    play(st, "tileB", "chest:А", "chest:Г", "chest:К")
    assert st.goal_chests == [L("О")]
    assert top_kind(st) != D_CHEST_REVISE  # one must stay
    assert st.tile_level == [1, 2, 2]


def test_no_revision_outside_campaign_mode() -> None:
    st = _midgame(campaign=False)
    play(st, "tileA")
    assert top_kind(st) != D_CHEST_REVISE
    assert len(st.goal_chests) == 4


# ------------------------------------------------------------------ the campaign file

def test_reveal_takes_five_of_deck_1_and_the_unrevealed_with_the_seed() -> None:
    c = C.new_campaign(seed=9)
    first = C.reveal(c)
    assert first == C.reveal(C.new_campaign(seed=9)) and len(first) == 5
    c.decks = {"unrevealed": ["А"], "1": ["Б", "В"], "2": [], "3": [ch for ch in CHEST_LETTERS
                                                                  if ch not in "АБВ"]}
    assert C.reveal(c) == ["А", "Б", "В"]  # D17: fewer than 5 left, all of them


def test_campaign_file_round_trips(tmp_path: Path) -> None:
    c = C.new_campaign(seed=2)
    C.next_setup(c, card_sets=CARD_SETS)
    path = tmp_path / "c.json"
    C.save(c, path)
    again = C.load(path)
    assert again.to_json() == c.to_json()
    assert again.to_json()["achieved"] == 0 and again.to_json()["status"] == "playing"


@pytest.mark.parametrize(("mutate", "fragment"), [
    (lambda d: d["decks"]["1"].append("А"),
     "field 'decks.1' = 'А': chest А is also in decks.unrevealed"),
    (lambda d: d["decks"]["unrevealed"].remove("Б"), "field 'decks' = "),
    (lambda d: d["decks"]["2"].append("Ы"), "field 'decks.2' = 'Ы': not a chest letter"),
    (lambda d: d.update(achieved=4), "field 'achieved' = 4: does not match"),
    (lambda d: d.update(status="paused"), "field 'status' = 'paused'"),
    (lambda d: d.update(format="other"), "field 'format' = 'other'"),
])
def test_an_inconsistent_campaign_file_names_file_field_and_value(
        tmp_path: Path, mutate: Any, fragment: str) -> None:
    data = C.new_campaign(seed=2).to_json()
    mutate(data)
    path = tmp_path / "c.json"
    path.write_text(json.dumps(data, ensure_ascii=False), encoding="utf-8")
    with pytest.raises(C.CampaignError) as err:
        C.load(path)
    assert str(path) in str(err.value) and fragment in str(err.value)
    result = runner.invoke(app, ["campaign", "show", str(path)])
    assert result.exit_code == 2 and fragment in result.output


def test_more_than_five_chests_in_deck_2_is_refused(tmp_path: Path) -> None:
    data = C.new_campaign().to_json()
    data["decks"] = {"unrevealed": list(CHEST_LETTERS[6:]), "1": [], "2": list(CHEST_LETTERS[:6]),
                     "3": []}
    with pytest.raises(C.CampaignError, match="decks.2.*at most 5 go under the board"):
        C.from_json(data, "c.json")


# ------------------------------------------------------------------ recording games

def _chest_file(tmp_path: Path, goal: str) -> str:
    """The shipped chests with every goal replaced (a user's chest file)."""
    data = json.loads(DEFAULT_PATH.read_text(encoding="utf-8"))
    for ch in data["chests"]:
        ch["goal"] = goal
    path = tmp_path / f"chests-{hashlib.sha256(goal.encode()).hexdigest()[:8]}.json"
    path.write_text(json.dumps(data, ensure_ascii=False), encoding="utf-8")
    return str(path)


def _play(setup: Setup, seed: int, take: int = 2) -> dict[str, Any]:
    """A random game, choosing `take` goals first (then done)."""
    record = GameRecord.new(setup, BOOK)
    st = record.state
    stream = Stream(seed, "policy", 0)
    while top_kind(st) == D_CHEST_GOALS:
        done = len(st.goal_chests) >= take and st.string_to_action("done") in st.legal
        record.apply(st.string_to_action("done") if done else st.legal[0])
    while not st.is_terminal():
        legal = st.legal_actions()
        record.apply(legal[stream.below(len(legal))])
    data: dict[str, Any] = json.loads(json.dumps(record.to_json()))
    return data


def test_recording_moves_the_chests_between_the_decks(tmp_path: Path) -> None:
    """Goals met -> deck 2 (under the board next game); revealed but not kept -> deck 1; the
    chests that were under the board -> deck 3; achieved = decks 2 + 3."""
    c = C.new_campaign(seed=5, chests=_chest_file(tmp_path, "past.any >= 0"))
    setup = C.next_setup(c, card_sets=CARD_SETS)
    game = _play(setup, 1, take=2)
    c = C.record_game(c, game)
    revealed = list(setup.revealed)
    assert c.decks["2"] == revealed[:2] and c.decks["1"] == revealed[2:]
    assert c.achieved == 2 and c.status == "playing" and c.next_game is None
    assert c.games[0]["vp"] == game["score"]["total"] and c.last_vp == game["score"]["total"]
    setup2 = C.next_setup(c, card_sets=CARD_SETS)
    assert setup2.under == tuple(revealed[:2])
    assert set(setup2.revealed) <= set(c.decks["unrevealed"] + c.decks["1"])
    rank = C.rank_for(c.last_vp)
    assert (setup2.extra_discards, setup2.time_space) == (rank.extra_discards, rank.time_space)
    c = C.record_game(c, _play(setup2, 2, take=1))
    assert c.decks["3"] == revealed[:2] and len(c.decks["2"]) == 1 and c.achieved == 3


def test_a_failed_game_ends_the_campaign(tmp_path: Path) -> None:
    c = C.new_campaign(seed=5, chests=_chest_file(tmp_path, "past.any >= 99"))
    setup = C.next_setup(c, card_sets=CARD_SETS)
    c = C.record_game(c, _play(setup, 1))
    assert c.status == "lost" and c.achieved == 0
    with pytest.raises(C.CampaignError, match="the campaign is finished"):
        C.next_setup(c, card_sets=CARD_SETS)


def test_worthiest_heir_wins_with_all_15_in_3_games(tmp_path: Path) -> None:
    c = C.new_campaign(seed=8, chests=_chest_file(tmp_path, "lost >= 0"), worthiest_heir=True)
    for n in range(3):
        assert c.status == "playing"
        setup = C.next_setup(c, card_sets=CARD_SETS)
        assert len(setup.revealed) == 5
        c = C.record_game(c, _play(setup, n))
        assert len(c.games[-1]["goals"]) == 5
    assert c.status == "won" and c.achieved == 15
    assert c.decks["unrevealed"] == [] and c.decks["1"] == []


def test_a_game_that_is_not_the_campaigns_next_is_refused(tmp_path: Path) -> None:
    c = C.new_campaign(seed=5)
    setup = C.next_setup(c, card_sets=CARD_SETS)
    other = Setup(hand="draw", seed=1, revealed=("А",), campaign=True, card_sets=CARD_SETS,
                  chest_data=load_chests())
    with pytest.raises(C.CampaignError, match="setup.chests.revealed"):
        C.record_game(c, _play(other, 1, take=1))
    game = _play(setup, 1)
    game["line"][1] = ["search"]  # not the game that was played
    with pytest.raises(C.CampaignError, match="not a valid finished game"):
        C.record_game(c, game)


def test_campaign_commands_end_to_end(tmp_path: Path) -> None:
    camp, line = tmp_path / "c.json", tmp_path / "g1.json"
    assert runner.invoke(app, ["campaign", "new", str(camp), "--seed", "3"]).exit_code == 0
    assert runner.invoke(app, ["campaign", "new", str(camp)]).exit_code == 2  # exists
    result = runner.invoke(app, ["campaign", "next", str(camp), "--json"])
    assert result.exit_code == 0, result.output
    setup = json.loads(result.output)["setup"]  # a position: the setup, no decision yet
    assert len(setup["chests"]["revealed"]) == 5 and setup["chests"]["campaign"] is True
    result = runner.invoke(app, ["campaign", "play", str(camp), "--out", str(line)])
    assert result.exit_code == 0, result.output
    assert runner.invoke(app, ["verify", str(line)]).exit_code == 0
    result = runner.invoke(app, ["campaign", "record", str(camp), str(line), "--json"])
    assert result.exit_code == 0, result.output
    state = json.loads(result.output)
    assert state["games_played"] == 1 and state["next_game"] is None
    assert state["status"] in ("playing", "lost")
    shown = runner.invoke(app, ["campaign", "show", str(camp)])
    assert shown.exit_code == 0
    # a finished campaign has no next game to describe
    assert ("(next game: " in shown.stdout) == (state["status"] == "playing")
    assert (f"the campaign is {state['status']}: no next game" in shown.stdout) == (
        state["status"] != "playing")


def test_campaign_errors_name_the_campaign_file_and_field(tmp_path: Path) -> None:
    """A pending game that does not load, or a campaign in the wrong state, is named by the
    campaign file and the field (``next_game.seed``), not by a bare ``setup`` or ``campaign``."""
    camp = tmp_path / "mine.json"
    assert runner.invoke(app, ["campaign", "new", str(camp), "--seed", "3"]).exit_code == 0
    assert runner.invoke(app, ["campaign", "next", str(camp)]).exit_code == 0
    data = json.loads(camp.read_text(encoding="utf-8"))
    data["next_game"]["seed"] = -1
    camp.write_text(json.dumps(data, ensure_ascii=False), encoding="utf-8")
    for command in ("play", "solve"):
        result = runner.invoke(app, ["campaign", command, str(camp), "--node-limit", "10"]
                               if command == "solve" else ["campaign", command, str(camp)])
        assert result.exit_code == 2, result.output
        assert f"{camp}: next_game.seed" in result.stderr and "-1" in result.stderr
    data["status"] = "won"
    camp.write_text(json.dumps(data, ensure_ascii=False), encoding="utf-8")
    result = runner.invoke(app, ["campaign", "next", str(camp)])
    assert result.exit_code == 2
    assert result.stderr.startswith(f"error: {camp}: field 'status' = 'won'")


@pytest.mark.parametrize(("change", "words"), [
    (lambda d: d.update(sed=d.pop("seed")), ["field 'sed'", "unknown field"]),
    (lambda d: d.pop("seed"), ["field 'seed'", "missing"]),
    (lambda d: d["chests"].update(fil="x.json"), ["field 'chests'"]),
])
def test_a_misspelt_or_missing_campaign_field_is_refused(tmp_path: Path, change: Any,
                                                         words: list[str]) -> None:
    """A misspelt ``seed`` would deal every game of the campaign from seed 0 without a word."""
    camp = tmp_path / "c.json"
    assert runner.invoke(app, ["campaign", "new", str(camp), "--seed", "3"]).exit_code == 0
    data = json.loads(camp.read_text(encoding="utf-8"))
    change(data)
    camp.write_text(json.dumps(data, ensure_ascii=False), encoding="utf-8")
    result = runner.invoke(app, ["campaign", "show", str(camp)])
    assert result.exit_code == 2, result.output
    assert str(camp) in result.stderr and all(w in result.stderr for w in words), result.stderr
