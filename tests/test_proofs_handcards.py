"""The proof code's facts on the cards of the hand (`solver.guidance.handcards`: who may still
read the kinds of the cards in the hand, the deck and the discard pile) and the memo of NRPA's
prior (`solver.game.HeritageGame.policy_choice`): tests that a mutation run found missing.

The base set has two readers of kinds only (Moai Statue A7, Calakmul P33), so most edges of the
rule are reached with a small user card set (CARD_FORMAT.md, RULES.md D13) written for the test:
a Past monument that scores by the artifact cards in hand, an artifact whose effect runs on after
it has left the board, a technology with a kind-reading immediate effect. Each hand pick is
checked against a complete search without any dominance rule (`PlainGame`)."""

from __future__ import annotations

import dataclasses
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from puzzles.chests import load_chests
from puzzles.trials import trial_setup
from solver import game as solver_game
from solver.bounds.createsleft import CreatesLeft
from solver.engine.frames import D_ACTION, D_ARCHIVE, D_PAY
from solver.engine.newgame import new_game
from solver.engine.setup import Setup
from solver.engine.state import GameState
from solver.game import HeritageGame
from solver.guidance import policy
from solver.guidance.handcards import KindReadersCache, hand_cards_alike, kind_readers
from solver.search.exhaustive import SearchConfig, search
from solver.search.protocol import PlainGame
from solver.search.status import Status
from tests.builder import book, idx, names_of, play, position, user_chests, user_set

NODES = 50_000

#: A city whose end-game score reads the kinds in the hand (from the Past, section 7 row 2).
BARE_HANDS: dict[str, Any] = {
    "id": "X1_BareHands", "code": "X1", "name": "Bare Hands", "type": "city", "number": 1,
    "country": "Nowhere", "starting_hand": None, "discard_cost": 0, "starting_space": 2,
    "knowledge": 1, "vp": 1, "locked": False, "activation": "endgame",
    "text": "Final scoring: 3 VP if your hand holds no artifact card.",
    "effects": [{"moment": "endgame",
                 "score": {"tiers": [[0, 3], [1, 0]], "counter": "hand.artifact"}}]}

#: An artifact that discards itself, then picks a card of the hand, then reads the kinds.
SIEVE: dict[str, Any] = {
    "id": "Y1_Sieve", "code": "Y1", "name": "Sieve", "type": "artifact", "number": 1,
    "country": "Nowhere", "starting_hand": None, "discard_cost": 0, "activation": "timeline",
    "text": "Timeline phase: you may discard this artifact; if you do, discard a card from your "
            "hand, then discard a city card from your hand to remove 3 lost knowledge.",
    "effects": [{"moment": "timeline", "optional": True, "steps": [
        {"op": "pay", "cost": {"discard_self": True}, "then": [
            {"op": "discard_hand", "amount": 1},
            {"op": "pay", "cost": {"discard_hand": 1, "card_type": "city"},
             "then": [{"op": "discard_lost", "amount": 3}]}]}]}]}

#: A technology whose immediate effect picks a card of the hand, then reads the kinds.
SORTING: dict[str, Any] = {
    "id": "TX1_Sorting", "code": "TX1", "name": "Sorting", "type": "ancient", "level": 1,
    "activation": "immediate", "requirement": [], "requirement_text": "", "vp": 0,
    "text": "Discard a card from your hand; then, with no artifact card in your hand, remove 3 "
            "lost knowledge.",
    "effects": [
        {"moment": "immediate", "steps": [{"op": "discard_hand", "amount": 1}]},
        {"moment": "immediate", "if": [["hand.artifact", "==", 0]],
         "steps": [{"op": "discard_lost", "amount": 3}]}]}


def card_set(tmp_path: Path, builders: Sequence[dict[str, Any]] = (),
             techs: Sequence[dict[str, Any]] = ()) -> tuple[str, ...]:
    """The book names of the base set and a user set of `builders` and `techs`."""
    return user_set(tmp_path / "kinds.json", builders, techs)


def last_turn(actions: int = 1, **zones: Any) -> GameState:
    """The last turn (RULES.md section 4, D8: no decline follows) with a small Timeline, the
    zones given, and `actions` action choices left."""
    st = position(timeline={2: ["M3"], 3: ["P4"]}, tokens={"M3": 1, "P4": 2}, time_space=1,
                  time_visits=2, turn=16, **zones)
    while sum(1 for fr in st.stack if fr[0] == D_ACTION) > actions:
        st.stack.pop(max(i for i, fr in enumerate(st.stack) if fr[0] == D_ACTION))
    return st


def alike(st: GameState) -> bool:
    return hand_cards_alike(st, kind_readers(st), CreatesLeft())


def optima(st: GameState) -> tuple[float | None, float | None]:
    """(the solver's optimum with its dominance rules and key, a plain complete search's)."""
    game = HeritageGame()
    res = search(st.clone(), SearchConfig(max_nodes=NODES), order=game.order(st, []), game=game)
    ref = search(st.clone(), SearchConfig(max_nodes=NODES), game=PlainGame())
    assert res.status == Status.OPTIMAL and ref.status == Status.OPTIMAL
    return res.value, ref.value


def test_an_end_game_score_in_the_past_keeps_the_cards_apart(tmp_path: Path) -> None:
    """A monument in the Past scores at the end (RULES.md section 7, row 2): when its score
    counts the artifact cards in hand, which card pays a Create matters, even with no Create
    to come. Paying with the artifact scores its 3 VP; the smallest card (the city) does not."""
    names = card_set(tmp_path, builders=[BARE_HANDS])
    st = last_turn(hand=["C10", "C4", "A1"], past=["X1"], names=names)
    play(st, "create", "C10", "s4")  # one card to pay: the city C4 or the artifact A1
    assert st.stack[-1][0] == D_PAY and names_of(st) == ["C4", "A1"]
    assert not CreatesLeft()(st)
    assert not alike(st)
    assert list(HeritageGame().dominance.prune(st, st.legal)) == list(st.legal)
    assert optima(st) == (7.0, 7.0)  # 1 Past + 3 end-game + 3 Timeline; paying C4: 4


def test_an_end_game_reader_in_the_hand_reads_nothing(tmp_path: Path) -> None:
    """The same monument in the hand (or the deck) never reaches the Past once no Create can
    come (section 5: a card enters play only by a Create): the cards are alike, an Archive
    offers only its smallest card."""
    names = card_set(tmp_path, builders=[BARE_HANDS])
    st = last_turn(hand=["C3", "C4", "X1"], names=names)
    play(st, "archive")
    assert st.stack[-1][0] == D_ARCHIVE
    assert alike(st)
    assert [st.action_to_string(a) for a in HeritageGame().dominance.prune(st, st.legal)] == [
        "C3"]


def test_a_reader_resolving_after_it_left_the_board(tmp_path: Path) -> None:
    """An artifact that discards itself (section 5: a cost) and then reads the kinds in the hand
    is still resolving while it sits in the discard pile: which card its first discard takes
    matters. Discarding the artifact A1 keeps the city that removes 3 lost knowledge."""
    names = card_set(tmp_path, builders=[SIEVE])
    st = last_turn(hand=["C3", "A1"], artifacts=["Y1"], lost=3, phase="timeline", names=names)
    play(st, "yes")
    y1 = idx(st, "Y1")
    assert y1 in st.discard and y1 not in st.in_play() and y1 not in st.limbo
    assert st.stack[-1][0] == D_PAY and names_of(st) == ["C3", "A1"]
    assert not CreatesLeft()(st)
    assert not alike(st)
    assert optima(st) == (2.0, 2.0)  # discarding C3 first: -1


def test_calakmul_in_the_past_reads_nothing() -> None:
    """Calakmul (P33) reads the deck's kinds when it declines; once in the Past it never
    declines again (section 4C): the cards are alike and a payment offers its smallest card."""
    st = last_turn(hand=["C10", "C4", "C5", "C6"], past=["C9", "P33"])
    play(st, "create", "C10", "s4")
    assert st.stack[-1][0] == D_PAY and len(st.legal) == 3
    assert alike(st)
    assert [st.action_to_string(a) for a in HeritageGame().dominance.prune(st, st.legal)] == [
        "C4"]


def test_a_technology_reads_until_it_is_learned(tmp_path: Path) -> None:
    """A technology's immediate effect runs when it is learned (section 5, Learn): while it is
    not learned it counts as able to run (the cards stay apart); learned, with its effect
    resolved, it reads nothing more (alike: an Archive offers only its smallest card)."""
    names = card_set(tmp_path, techs=[SORTING])
    for learned in (False, True):
        st = last_turn(hand=["C3", "C4", "A1"], techs=["TX1"] if learned else [], names=names)
        play(st, "archive")
        assert st.stack[-1][0] == D_ARCHIVE
        tx1 = idx(st, "TX1")
        assert not any(tx1 in fr[1:] for fr in st.stack)  # no effect of it pending
        assert alike(st) == learned
        kept = [st.action_to_string(a) for a in HeritageGame().dominance.prune(st, st.legal)]
        assert kept == (["C3"] if learned else ["C3", "C4", "A1"])


def test_a_technology_reads_while_its_immediate_effect_resolves(tmp_path: Path) -> None:
    """A Learn puts the technology into the collection, then resolves its immediate effect
    (section 5, Learn): while that effect is still resolving it may read the kinds in the hand.
    Here it discards a card, then removes 3 lost knowledge if no artifact card is left: discarding
    the artifact A1 is worth 3 VP more than discarding the city C3 (the smallest card)."""
    names = card_set(tmp_path, techs=[SORTING])
    st = last_turn(hand=["C3", "A1"], lost=3,
                   tiles=["TX1", None, None, None, None, None, None, None, None], names=names)
    play(st, "learn")
    assert st.stack[-1][0] == D_PAY and names_of(st) == ["C3", "A1"]
    assert idx(st, "TX1") in st.techs  # learned, its effect still resolving
    assert not alike(st)
    assert optima(st) == (2.0, 2.0)


def test_policy_choice_remembers_what_reads_only_the_options() -> None:
    """NRPA's one call per decision (`HeritageGame.policy_choice`) gives `policy.choice`'s
    codes and factors, and at a decision that reads only its options (the action choice with
    no plan: `policy.reads_only_options`) gives the very lists it gave before (remembered: the
    same objects on the pure build); where a lightning chest is offered its codes read the turn,
    and nothing is remembered."""
    st = new_game(trial_setup(1, hand="1", seed=0), book())
    assert st.stack[-1][0] == D_ACTION and st.chests_under and len(st.legal) > 1
    assert not policy.reads_only_options(D_ACTION, st.legal, None)
    game = HeritageGame()
    assert game.policy_choice(st, st.legal) is not game.policy_choice(st, st.legal)
    st = new_game(Setup(hand="1", seed=0), book())  # no trial: no chest
    assert st.stack[-1][0] == D_ACTION and len(st.legal) > 1
    assert policy.reads_only_options(D_ACTION, st.legal, None)
    game = HeritageGame()
    first = game.policy_choice(st, st.legal)
    assert first == policy.choice(st, st.legal)
    again = game.policy_choice(st, list(st.legal))
    assert again == first
    if (solver_game.__file__ or "").endswith(".py"):  # compiled: the lists boxed anew
        assert again is first


#: A city that scores per artifact card in hand, and one whose immediate effect draws as many.
OPEN_PALMS: dict[str, Any] = {
    **BARE_HANDS, "id": "X2_OpenPalms", "code": "X2", "name": "Open Palms", "number": 2,
    "text": "Final scoring: 1 VP per artifact card in your hand.",
    "effects": [{"moment": "endgame", "score": {"per": "hand.artifact", "times": 1}}]}
COUNTING_HANDS: dict[str, Any] = {
    **BARE_HANDS, "id": "X3_CountingHands", "code": "X3", "name": "Counting Hands", "number": 3,
    "activation": "immediate", "text": "Draw 1 card per artifact card in your hand.",
    "effects": [{"moment": "immediate", "steps": [{"op": "draw", "per": "hand.artifact"}]}]}


def test_a_score_or_a_draw_per_artifact_in_hand_reads_kinds(tmp_path: Path) -> None:
    """Counting the artifact cards in hand reads their kinds, whether a score counts them per
    card (section 7) or a step draws per card; Moai Statue (A7: a cost of artifact cards) and
    Calakmul (P33: its reveal) are the base set's readers."""
    names = card_set(tmp_path, builders=[OPEN_PALMS, COUNTING_HANDS])
    st = last_turn(names=names)
    codes = sorted((st.book.cards[c].code, moment) for c, moment in kind_readers(st).cards)
    assert codes == [("A7", "timeline"), ("P33", "decline"), ("X2", "endgame"),
                     ("X3", "immediate")]


def _kind_chests(tmp_path: Path) -> str:
    """The shipped chest file with П's effect paying a city card from the hand (a kind)."""
    return user_chests(tmp_path / "chests.json", {"П": {"effect": {
        "moment": "timeline", "text": "Discard a city card: draw 2.",
        "steps": [{"op": "pay", "cost": {"discard_hand": 1, "card_type": "city"},
                   "then": [{"op": "draw", "n": 2}]}]}}})


def test_a_chest_that_reads_kinds_keeps_the_cards_apart(tmp_path: Path) -> None:
    """A chest's effect can read the kinds in the hand too (CHEST_FORMAT.md: chests use the
    card steps): with a chest of the setup paying a city card, the cards of the hand stay
    apart and an Archive offers every card; the shipped chests read none."""
    st = last_turn(hand=["C3", "C4", "A1"])
    play(st, "archive")
    assert st.stack[-1][0] == D_ARCHIVE
    st.setup = dataclasses.replace(st.setup, chest_data=load_chests())
    assert not kind_readers(st).chests and alike(st)
    st.setup = dataclasses.replace(st.setup, chest_data=load_chests(_kind_chests(tmp_path)))
    assert kind_readers(st).chests and not alike(st)
    kept = [st.action_to_string(a) for a in HeritageGame().dominance.prune(st, st.legal)]
    assert kept == ["C3", "C4", "A1"]


def test_the_readers_are_asked_again_for_another_game(tmp_path: Path) -> None:
    """The cache keeps one game's readers (the same answer, not worked out again) and works
    them out afresh for another setup (here chests that read kinds) or another card book
    (here with Bare Hands, X1)."""
    cache = KindReadersCache()
    st = last_turn()
    first = cache.readers(st)
    assert cache.readers(st) is first and not first.chests
    other_setup = st.clone()
    other_setup.setup = dataclasses.replace(
        st.setup, chest_data=load_chests(_kind_chests(tmp_path)))
    assert cache.readers(other_setup).chests
    other_book = last_turn(names=card_set(tmp_path, builders=[BARE_HANDS]))
    other_book.setup = other_setup.setup
    codes = {other_book.book.cards[c].code for c, _ in cache.readers(other_book).cards}
    assert "X1" in codes and cache.readers(other_book).chests


def test_a_requirement_on_the_kinds_in_hand_keeps_the_cards_apart(tmp_path: Path) -> None:
    """A technology whose requirement counts the artifacts in the hand (a user card: none,
    CARD_FORMAT.md allows any counter) reads kinds while it is not learned: Tulum's discard
    (C35) must be free to take the artifact, or Pachamama's Learn (A12) after it fails the
    requirement (the solver had proved 4; the optimum is 9). Found by a hunt for what the
    dominance rules overlook."""
    tk1 = {"id": "TK1_Emptiness", "code": "TK1", "name": "Emptiness", "type": "ancient",
           "level": 2, "activation": "endgame", "requirement": [["hand.artifact", "==", 0]],
           "requirement_text": "no artifact card in your hand", "vp": 5,
           "text": "Worth 5 VP.", "effects": [{"moment": "endgame", "score": {"fixed": 5}}]}
    names = user_set(tmp_path / "techkinds.json", techs=[tk1])
    st = position(hand=["C1", "A1"], timeline={2: ["C3"], 4: ["C35"]}, tokens={"C3": 1},
                  artifacts=["A12"], techs=["T22"], past=["P1", "P2", "P3", "P4", "P5"],
                  tiles=["TK1", None, None, None, None, None, None, None, None],
                  time_space=1, time_visits=2, turn=16, phase="timeline", names=names)
    discarding = play(st.clone(), "!C35")
    assert names_of(discarding) == ["C1", "A1"] and not alike(discarding)
    assert optima(st) == (9.0, 9.0)
    discarding.techs.append(idx(st, "TK1"))  # learned: its requirement reads nothing any more
    assert alike(discarding)
