"""The proof code's end-game facts (`solver.guidance.endgame`: when the tokens are dead after the
last decline, and the exact search's key `search_key`), tests that a mutation run found missing:
each edge of "may this token reader still run" (in play or in hand, deep in the deck or the
discard pile, able to enter play with the actions, chests and triggers left), the key's layout
(the engine's key less the discard pile's order and dead tokens, nothing else), and complete
searches whose optimum is lost when the key merges positions whose tokens still matter.

The base set's only readers of tokens are A6 and A13, Timeline effects that move monuments
(their reading rarely changes a score); so a small user card set (CARD_FORMAT.md, RULES.md D13)
adds one reader of each kind the module names (Z1: a target filter; X2: a condition on its own
tokens; X3: an end-game score; Z2: an optional effect opened by a removal; Z3: a step counting
tokens; X4: an immediate effect) and a Create trigger that learns (W1). Where a search must show
the difference, the position starts at the decision whose option the reader's reading decides
(so no other order of the same moves reaches the better line), and the optimum with the game's
dominance rules and key is compared with a plain complete search's.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from puzzles.chests import load_chests
from solver.engine import flow
from solver.engine.actions import CHEST_LETTERS
from solver.engine.cards import Filter, Step
from solver.engine.chestcards import ChestSet
from solver.engine.frames import (
    D_ACTION,
    D_CHEST_WINDOW,
    D_REMOVE,
    D_TARGET,
    F_DECLINE_PHASE,
    F_TECH_PHASE,
    F_TIMELINE_PHASE,
    F_TURN_END,
)
from solver.engine.goals import parse_goal
from solver.engine.state import GameState
from solver.game import HeritageGame
from solver.guidance.endgame import (
    TokenReadersCache,
    after_last_decline,
    search_key,
    token_readers,
    tokens_dead,
)
from solver.search.exhaustive import SearchConfig, search
from solver.search.protocol import PlainGame
from solver.search.status import Status
from tests.builder import idx, names_of, play, position, user_set

NODES = 50_000

#: An artifact that reads single tokens in the last Timeline phase (section 4B).
ONE_LEFT: dict[str, Any] = {
    "id": "Z1_OneLeft", "code": "Z1", "name": "One Left", "type": "artifact", "number": 1,
    "country": "Nowhere", "starting_hand": None, "discard_cost": 0, "activation": "timeline",
    "text": "Timeline phase: you may remove 1 knowledge from a monument holding exactly 1 "
            "knowledge; if you do, discard 3 lost knowledge.",
    "effects": [{"moment": "timeline", "optional": True, "steps": [
        {"op": "remove_knowledge", "amount": 1, "target": "one", "filter": {"exact_tokens": 1}},
        {"op": "discard_lost", "amount": 3}]}]}

#: An artifact with a Create trigger that learns (like Borobudur Temple, P20).
LEARNING: dict[str, Any] = {
    "id": "W1_Learning", "code": "W1", "name": "Learning", "type": "artifact", "number": 1,
    "country": "Nowhere", "starting_hand": None, "discard_cost": 0, "activation": "anytime",
    "text": "Each time you create a monument, you may learn one technology whose requirement "
            "you meet.",
    "effects": [{"moment": "anytime",
                 "trigger": {"event": "create", "kind": "monument", "monument_type": None,
                             "spaces": None, "not_self": False},
                 "steps": [{"op": "learn", "count": 1, "ignore_requirements": False,
                            "optional": True}]}]}


def _builder(code: str, kind: str, text: str, effects: list[dict[str, Any]],
             activation: str = "timeline") -> dict[str, Any]:
    """A user builder card of the card format (CARD_FORMAT.md), cost 0, no knowledge, no VP."""
    card: dict[str, Any] = {
        "id": f"{code}_Test", "code": code, "name": f"Test {code}", "type": kind,
        "number": int(code[1:]), "country": "Nowhere", "starting_hand": None,
        "discard_cost": 0, "activation": activation, "text": text, "effects": effects}
    if kind != "artifact":
        card.update(starting_space=4, knowledge=0, vp=0, locked=False)
    return card


#: A city whose Timeline effect's condition reads its own tokens.
SELF_ONE = _builder("X2", "city", "Timeline phase: if this card holds exactly 1 knowledge, "
                    "discard 3 lost knowledge.",
                    [{"moment": "timeline", "if": [["self.tokens", "==", 1]],
                      "steps": [{"op": "discard_lost", "amount": 3}]}])
#: A monument whose end-game score counts the tokens (it reads them from the Past, section 7).
TALLY = _builder("X3", "megalith", "Final scoring: 1 VP per knowledge on your Timeline "
                 "monuments.", [{"moment": "endgame", "score": {"per": "tl_tokens", "times": 1}}],
                 activation="endgame")
#: An artifact whose optional effect starts with a removal (offered only with a token left).
MAYBE_ONE = _builder("Z2", "artifact", "Timeline phase: you may remove 1 knowledge from one of "
                     "your monuments; if you do, discard 3 lost knowledge.",
                     [{"moment": "timeline", "optional": True, "steps": [
                         {"op": "remove_knowledge", "amount": 1, "target": "one"},
                         {"op": "discard_lost", "amount": 3}]}])
#: An artifact whose draw counts the tokens.
PER_TOKEN = _builder("Z3", "artifact", "Timeline phase: draw 1 card per knowledge on your "
                     "Timeline monuments.",
                     [{"moment": "timeline", "steps": [{"op": "draw", "per": "tl_tokens"}]}])
#: A monument whose immediate effect (on creation, section 5) reads single tokens.
FIRST_STONE = _builder("X4", "megalith", "On creation: you may remove 1 knowledge from a "
                       "monument holding exactly 1 knowledge; if you do, discard 3 lost "
                       "knowledge.",
                       [{"moment": "immediate", "optional": True, "steps": [
                           {"op": "remove_knowledge", "amount": 1, "target": "one",
                            "filter": {"exact_tokens": 1}},
                           {"op": "discard_lost", "amount": 3}]}],
                       activation="immediate")
READERS = [ONE_LEFT, SELF_ONE, TALLY, MAYBE_ONE, PER_TOKEN, FIRST_STONE]


def card_set(tmp_path: Path, builders: Sequence[dict[str, Any]], first: bool = False,
             ) -> tuple[str, ...]:
    """The book names of the base set and a user set of `builders` (`tests.builder.user_set`)."""
    return user_set(tmp_path / "endgame.json", builders, first=first)


def last_turn(actions: int = 1, **zones: Any) -> GameState:
    """The last turn (RULES.md section 4, D8: the game ends at its decline phase), C3 (2
    knowledge) and C4 (1) in the Timeline, `actions` action choices left (from the Timeline phase
    with ``phase="timeline"``)."""
    zones.setdefault("timeline", {2: ["C3"], 3: ["C4"]})
    zones.setdefault("tokens", {"C3": 2, "C4": 1})
    zones.setdefault("hand", ["C1"])
    st = position(time_space=1, time_visits=2, turn=16, **zones)
    while sum(1 for fr in st.stack if fr[0] == D_ACTION) > actions:
        st.stack.pop(max(i for i, fr in enumerate(st.stack) if fr[0] == D_ACTION))
    assert after_last_decline(st)
    return st


def queue_formed(**zones: Any) -> GameState:
    """The last turn's Timeline phase with its queue formed (P31 and C9, two draws, the order
    to choose; A6 and A13 in the deck): nothing reads tokens any more."""
    st = last_turn(phase="timeline", timeline={2: ["C3", "P31"], 3: ["C4", "C9"]},
                   past=["M1"], **zones)
    assert names_of(st) == ["!P31", "!C9"]
    return st


def with_chests(st: GameState, *under: str) -> GameState:
    """`st` with the shipped chest data and the chests `under` the board (section 8)."""
    st.setup = dataclasses.replace(st.setup, under=tuple(under), chest_data=load_chests())
    st.chests_under = sorted(CHEST_LETTERS.index(ch) for ch in under)
    flow.settle(st)
    return st


def dead(st: GameState, takes: int | None = None) -> bool:
    """`tokens_dead` of `st`, with `takes` cards able to leave the deck (None: not counted)."""
    readers = token_readers(st)
    return tokens_dead(st, readers, None if takes is None else (lambda _st, _key: takes))


def optima(st: GameState) -> tuple[float, float]:
    """(the solver's optimum with its dominance rules and key, a plain complete search's: no
    bound, no dominance, the exact key)."""
    game = HeritageGame()
    res = search(st.clone(), SearchConfig(max_nodes=NODES), order=game.order(st, []), game=game)
    ref = search(st.clone(), SearchConfig(max_nodes=NODES), game=PlainGame())
    assert res.status == Status.OPTIMAL and ref.status == Status.OPTIMAL
    assert res.value is not None and ref.value is not None
    return res.value, ref.value


# ------------------------------------------------------------------ who reads tokens


def test_each_way_of_reading_tokens_makes_a_reader(tmp_path: Path) -> None:
    """`token_readers` (see the module): an effect reads tokens through a condition on
    ``self.tokens`` or ``tl_tokens`` (X2), an end-game score counting them (X3: read from the
    Past at the end, section 7), an optional effect that starts with a removal and does more
    (Z2: offered only while a token is left), a step counting them (Z3's draw) or a target
    filter (Z1's ``exact_tokens``); an immediate effect (X4) reads at another moment than the
    Timeline phase. The base set's Timeline readers are A6 and A13 (filters); C10, whose
    condition reads ``tl_tokens`` but which only removes knowledge, reads nothing that matters."""
    st = last_turn(names=card_set(tmp_path, READERS))
    readers = token_readers(st)
    codes = {name: sorted(st.card(c).code for c in group) for name, group in (
        ("scores", readers.scores), ("timeline", readers.timeline),
        ("anytime", readers.anytime))}
    assert codes == {"scores": ["X3"], "timeline": ["A13", "A6", "X2", "Z1", "Z2", "Z3"],
                     "anytime": ["X4"]}


def test_an_end_game_score_reads_tokens_only_from_the_past(tmp_path: Path) -> None:
    """X3 scores the tokens at the end from the Past (section 7, row 2): in the Past the tokens
    are alive; in the deck it never reaches the Past after the last decline (only a decline
    moves a card there, section 4C): dead."""
    names = card_set(tmp_path, [TALLY])
    assert not dead(last_turn(past=["X3"], names=names))
    assert dead(last_turn(names=names))


def test_an_immediate_reader_reads_until_it_is_in_the_past(tmp_path: Path) -> None:
    """X4's immediate effect runs when it is created (section 5), at any moment of the last
    turn's actions: out of the Past (in hand, even in the deck) the tokens are alive; in the
    Past it never runs again: dead."""
    names = card_set(tmp_path, [FIRST_STONE])
    assert not dead(last_turn(hand=["C1", "X4"], names=names))
    assert not dead(last_turn(names=names))
    assert dead(last_turn(past=["X4"], names=names))


#: An artifact whose first Timeline effect reads nothing and whose second reads the tokens.
SECOND_READS = _builder("Y1", "artifact", "Timeline phase: draw 1 card. Timeline phase: if your "
                        "Timeline monuments hold 2 knowledge or more, draw 1 card.",
                        [{"moment": "timeline", "steps": [{"op": "draw", "n": 1}]},
                         {"moment": "timeline", "if": [["tl_tokens", ">=", 2]],
                          "steps": [{"op": "draw", "n": 1}]}])
#: A monument whose decline effect only removes knowledge (it reads single tokens, but changes
#: nothing but tokens) and whose immediate effect counts them.
THEN_COUNTS = _builder("Y2", "megalith", "On decline: remove 1 knowledge from a monument "
                       "holding exactly 1 knowledge. On creation: draw 1 card per knowledge on "
                       "your Timeline monuments.",
                       [{"moment": "decline", "steps": [
                           {"op": "remove_knowledge", "amount": 1, "target": "one",
                            "filter": {"exact_tokens": 1}}]},
                        {"moment": "immediate", "steps": [{"op": "draw", "per": "tl_tokens"}]}],
                       activation="immediate")


def test_every_effect_of_a_card_is_asked_whether_it_reads_tokens(tmp_path: Path) -> None:
    """A card reads tokens if any of its effects does, whatever its others do: Y1's second
    Timeline effect (a condition on ``tl_tokens``) after one that reads nothing; Y2's immediate
    effect (a draw per token) after a decline effect that only removes knowledge, which alone
    would make no reader (it runs at the decline, never again after the last one)."""
    st = last_turn(names=card_set(tmp_path, [SECOND_READS, THEN_COUNTS]))
    readers = token_readers(st)
    assert [st.card(c).code for c in readers.timeline] == ["A6", "A13", "Y1"]
    assert [st.card(c).code for c in readers.anytime] == ["Y2"]
    assert not readers.scores


def _chest_step_reads(step: Step) -> bool:
    """Whether `token_readers` calls chest А a reader when its effect is `step` alone and its
    goal reads no tokens."""
    st = queue_formed()
    chests = load_chests()
    chest_data = dataclasses.replace(chests, chests=tuple(
        dataclasses.replace(c, goal=parse_goal("past.any >= 1"), steps=(step,))
        if c.letter == "А" else c for c in chests.chests))
    st.setup = dataclasses.replace(st.setup, chest_data=chest_data)
    return CHEST_LETTERS.index("А") in token_readers(st).chests


def test_a_chest_effect_that_reads_tokens_makes_its_chest_a_reader() -> None:
    """A chest's effect (CHEST_FORMAT.md) reads tokens through a step counting them (``per``) or
    a removal's filter on a monument's knowledge (``min_tokens``, ``exact_tokens``); a plain
    draw, or a removal from any monument, reads none."""
    assert _chest_step_reads(Step(op="draw", per="tl_tokens"))
    assert _chest_step_reads(Step(op="remove_knowledge", amount=1, filter=Filter(min_tokens=2)))
    assert _chest_step_reads(Step(op="remove_knowledge", amount=1, filter=Filter(exact_tokens=1)))
    assert not _chest_step_reads(Step(op="draw", n=2))
    assert not _chest_step_reads(Step(op="remove_knowledge", amount=1))


def test_a_chest_that_reads_tokens_counts_only_in_this_game() -> None:
    """A chest whose goal reads ``tl_tokens`` (section 8) keeps the tokens alive only as a goal
    of this game or under its board; in the chest data but in neither, it reads nothing."""
    st = queue_formed()
    st.setup = dataclasses.replace(st.setup, chest_data=_tl_goal_chests())
    assert token_readers(st).chests
    assert dead(st)
    st.goal_chests = [CHEST_LETTERS.index("А")]
    assert not dead(st)


def test_a_reader_whose_effect_is_resolving_still_reads() -> None:
    """A13 (move a monument holding no knowledge) taken from the last Timeline phase's queue:
    its "you may" is pending, so it is no longer queued, but its move still reads tokens (the
    frame that resolves it names the card): alive. Once it is done, dead."""
    st = last_turn(phase="timeline", timeline={2: ["C3"], 3: ["C4", "P31"]},
                   tokens={"C3": 0, "C4": 1}, artifacts=["A13"])
    assert names_of(st) == ["!P31", "!A13"]
    play(st, "!A13")
    assert names_of(st) == ["yes", "no"]
    a13 = idx(st, "A13")
    assert not any(isinstance(item, tuple) and any(
        isinstance(q, tuple) and q[0] == a13 for q in item) for fr in st.stack for item in fr)
    assert not dead(st)
    play(st, "no")
    assert st.over or dead(st)


# ------------------------------------------------------------------ readers in reach


def test_a_reader_on_the_board_or_in_hand_keeps_tokens_alive() -> None:
    """With one action left and nothing that creates from the deck, a Timeline reader of tokens
    (A13) in the deck cannot enter play before the last Timeline phase (section 5: a card enters
    play only by a Create, from the hand): the tokens are dead. On the board its effect will be
    queued (section 4B), and in hand the last action may create it: alive."""
    assert dead(last_turn(deck_top=["A13"]))
    assert not dead(last_turn(artifacts=["A13"]))
    assert not dead(last_turn(hand=["C1", "A13"]))


def test_a_monument_reader_in_the_timeline_keeps_tokens_alive(tmp_path: Path) -> None:
    """A Timeline monument whose Timeline effect reads tokens (a user card: Z1 as a city) is in
    play: its effect will be queued in the last Timeline phase, so the tokens are alive."""
    city = {**ONE_LEFT, "type": "city", "starting_space": 2, "knowledge": 0, "vp": 0,
            "locked": False}
    names = card_set(tmp_path, [city])
    assert dead(last_turn(names=names))
    assert not dead(last_turn(timeline={2: ["C3"], 3: ["C4"], 4: ["Z1"]}, names=names))


# ------------------------------------------------------------------ how deep a reader lies


def test_a_reader_in_the_deck_leaves_it_only_below_the_count() -> None:
    """A13 with 3 cards above it in the deck (its top is the end of the list, section 5): it
    reaches the hand only if 4 cards can leave the deck before the last Timeline phase. Two
    actions left (so a card of the deck could still be drawn and created), the count decides."""
    st = last_turn(actions=2, deck_top=["C5", "C6", "C7", "A13"])
    a13 = idx(st, "A13")
    assert len(st.deck) - 1 - st.deck.index(a13) == 3
    assert dead(st, 3)
    assert not dead(st, 4)
    assert not dead(st)


def test_a_reader_in_the_discard_pile_needs_the_whole_deck_to_leave() -> None:
    """A13 in the discard pile: the discard pile becomes the deck only once the deck is empty
    (section 5, "An empty builder deck is refilled by shuffling its discard pile"), so A13 can
    reach the hand only if more cards than the deck holds can leave it."""
    st = last_turn(actions=2, discard=["A13"])
    a6 = idx(st, "A6")  # the other reader, deep in the deck: taken out of the way
    st.deck.remove(a6)
    st.past = sorted([*st.past, a6])
    assert idx(st, "A13") in st.discard
    n = len(st.deck)
    assert dead(st, n)
    assert not dead(st, n + 1)
    assert not dead(st)


# ------------------------------------------------------------------ what may still create


def test_while_an_action_resolves_a_reader_of_the_deck_may_enter_play() -> None:
    """The last action is a Learn, Ancient Greek (T22) and Mercury (T9) available: while the
    player picks the technology, the action is resolving, and T22's effect may still set the
    top 10 builder cards aside and create A13 from them (section 5, T22's text), so the tokens
    are alive."""
    tiles = ["T22", "T9", None, None, None, None, None, None, None]
    st = last_turn(deck_top=["A13"], tiles=tiles)
    assert not dead(st)
    play(st, "learn")
    assert names_of(st) == ["T9", "T22"]
    assert not any(fr[0] == D_ACTION for fr in st.stack)
    assert idx(st, "A13") in st.deck
    assert not dead(st)
    play(st, "T22")
    assert idx(st, "A13") in st.artifacts  # created: its Timeline effect will be queued


def test_a_chest_that_creates_keeps_a_reader_of_the_deck_alive() -> None:
    """One action left: the last action may draw a card and Ж (under the board: create a
    monument from hand, without spending an action, section 8) may then create it, so a card of
    the deck may still enter play. A chest that neither takes cards nor creates (В: discard 3
    lost knowledge) changes nothing: dead."""
    assert not dead(with_chests(last_turn(deck_top=["A13"]), "Ж"))
    assert dead(with_chests(last_turn(deck_top=["A13"]), "В"))
    assert dead(with_chests(last_turn(deck_top=["A13"])))


def test_with_no_action_left_a_chest_window_that_cannot_create_changes_nothing() -> None:
    """After the last action, the window before the Timeline phase (section 8, lightning) with
    only В under the board: nothing can put A13 from the deck into play before the queue forms:
    dead."""
    st = last_turn(deck_top=["A13"])
    st = with_chests(st, "В")
    st.stack = [(F_TURN_END,), (F_TECH_PHASE,), (D_CHEST_WINDOW,), (F_DECLINE_PHASE,),
                (D_CHEST_WINDOW,), (F_TIMELINE_PHASE,), (D_CHEST_WINDOW,)]
    flow.settle(st)
    assert st.stack[-1] == (D_CHEST_WINDOW,) and names_of(st) == ["!chest:В", "done"]
    assert dead(st)


def test_poulnabrone_and_create_triggers_in_play_may_create_from_the_deck() -> None:
    """One action left: Poulnabrone Dolmen (M36, each Create grants one more) or Borobudur Temple
    (P20: each artifact created may learn, and a Learn may reveal and create) in play: a card
    of the deck may still enter play (alive). A trigger that only draws (Nazca Lines A22) and a
    Timeline effect that learns (Pachamama Monolith A12: it runs after the queue forms) do not
    count: dead."""
    timeline = {2: ["C3"], 3: ["C4"], 5: ["M36"]}
    assert not dead(last_turn(timeline=timeline, deck_top=["A13"]))
    timeline = {2: ["C3"], 3: ["C4", "P20"]}
    assert not dead(last_turn(timeline=timeline, deck_top=["A13"]))
    assert dead(last_turn(artifacts=["A22", "A12"], deck_top=["A13"]))


def test_the_card_of_index_0_is_a_card_like_any_other(tmp_path: Path) -> None:
    """A user set loaded first puts its cards at the smallest indices (CARD_FORMAT.md): W1, a
    Create trigger that learns, is card 0; on the board it keeps a reader of the deck alive like
    any other such trigger."""
    names = card_set(tmp_path, [LEARNING], first=True)
    st = last_turn(artifacts=["W1"], deck_top=["A13"], names=names)
    assert idx(st, "W1") == 0
    assert not dead(st)
    assert dead(last_turn(deck_top=["A13"], names=names))


# ------------------------------------------------------------------ the cache


def _tl_goal_chests() -> ChestSet:
    """The shipped chest data with А's goal replaced by "tl_tokens >= 3" (CHEST_FORMAT.md)."""
    chests = load_chests()
    goal = parse_goal("tl_tokens >= 3")
    return dataclasses.replace(chests, chests=tuple(
        dataclasses.replace(c, goal=goal) if c.letter == "А" else c for c in chests.chests))


def test_the_readers_cache_keeps_its_answer_for_one_game() -> None:
    """`TokenReadersCache` computes a game's readers once (a search asks at every node, through
    the search key): asked again about the same game (a clone shares its setup and book), it
    gives the very same answer."""
    st = queue_formed()
    cache = TokenReadersCache()
    first = cache.readers(st)
    assert cache.readers(st.clone()) is first
    assert cache.readers(play(st.clone(), "!P31")) is first


def test_the_readers_cache_answers_for_the_game_asked_about() -> None:
    """`TokenReadersCache` keeps the readers of the last game asked about: asked about another
    game dealt from the same card book whose goal chest reads ``tl_tokens`` (section 8), it
    answers with that game's readers, and its search key keeps the tokens."""
    plain = queue_formed()
    reading = queue_formed()
    reading.setup = dataclasses.replace(reading.setup, goals=("А",),
                                        chest_data=_tl_goal_chests())
    reading.goal_chests = [CHEST_LETTERS.index("А")]
    assert plain.book is reading.book and plain.setup is not reading.setup
    cache = TokenReadersCache()
    assert not cache.readers(plain).chests
    assert cache.readers(reading).chests == token_readers(reading).chests != frozenset()
    game = HeritageGame()
    assert tokens_dead(plain, game.readers.readers(plain))
    other = reading.clone()
    other.tokens[idx(other, "C3")] += 1
    assert game.search_key(reading) != game.search_key(other)


# ------------------------------------------------------------------ the search key


def _alive_and_dead() -> tuple[GameState, GameState]:
    """A position of turn 15 (tokens alive: a decline is to come) and one of the last turn's
    Timeline phase with its queue formed (dead)."""
    alive = position(hand=["C2", "C1"], timeline={1: ["C8"], 2: ["C3"]}, tokens={"C8": 2, "C3": 1},
                     past=["M1"], discard=["C7", "C5"], time_space=2, time_visits=2, turn=15)
    dead_ = queue_formed(discard=["C7", "C5"])
    return alive, dead_


def test_search_key_is_the_engine_key_less_the_discard_order_and_dead_tokens() -> None:
    """`search_key`: `GameState.key()` with the discard pile sorted and the tokens left out once
    they are dead, every other part (the Timeline, the Past, ...) as it is; the hand and the deck
    as they are unless the caller says the cards are alike."""
    for st in _alive_and_dead():
        readers = token_readers(st)
        key = st.key()
        gone = tokens_dead(st, readers)
        tokens = () if gone else key[4]
        expected = (key[0], key[1], tuple(sorted(st.discard)), key[3], tokens, *key[5:])
        assert search_key(st, readers) == expected
        game = HeritageGame()
        if game.dominance.alike(st):  # Rule 5's cards alike: their counts (handcards)
            expected = (len(st.hand), len(st.deck), len(st.discard), *expected[3:])
        assert game.search_key(st) == expected
        assert gone == after_last_decline(st)
        assert search_key(st, readers, alike=True)[:3] == (
            len(st.hand), len(st.deck), len(st.discard))


def test_the_key_merges_positions_that_differ_only_in_dead_tokens() -> None:
    """After the last decline with no reader left, tokens are read by nothing (section 7: no
    score row; D2: they become lost only when their monument declines): two positions that
    differ only in tokens share one key; before the last decline they do not."""
    alive, dead_ = _alive_and_dead()
    game = HeritageGame()
    for st, same in ((alive, False), (dead_, True)):
        other = st.clone()
        other.tokens[idx(st, "C3")] += 1
        assert (game.search_key(st) == game.search_key(other)) == same


def test_the_games_key_counts_the_deck_takes() -> None:
    """In the last turn with two actions left, A13 sits 40 cards down in the deck: fewer cards
    than that can leave the deck before the Timeline phase (the game's `DeckTakes`), so the
    tokens are dead and the game's key leaves them out, though without the count A13 might still
    be drawn and created."""
    st = last_turn(actions=2)
    a13 = idx(st, "A13")
    st.deck.remove(a13)
    st.deck.insert(len(st.deck) - 41, a13)
    game = HeritageGame()
    readers = token_readers(st)
    assert not tokens_dead(st, readers)
    assert tokens_dead(st, readers, game.readers.takes)
    other = st.clone()
    other.tokens[idx(st, "C3")] += 1
    assert game.search_key(st) == game.search_key(other)
    assert search_key(st, readers, game.readers.takes)[4] == ()


# ------------------------------------------------------------------ complete searches


def test_tokens_before_the_last_decline_keep_positions_apart() -> None:
    """Turn 15 (its decline is the last that moves monuments), the last action an Archive of C1:
    its knowledge removal decides whether Antikythera Mechanism (A6, Timeline phase: a monument
    in space 1 holding 4 or more knowledge moves to space 3) saves C12 (4 knowledge, 0 VP) from
    declining (section 4C step 2: its knowledge would become lost, D2). Removing from C12, the
    first option, loses it; the positions after the removal differ only in tokens and must
    keep their own values."""
    st = position(hand=["C1"], timeline={1: ["C12"], 2: ["C3"], 3: ["P31"]}, artifacts=["A6"],
                  tokens={"C12": 4, "C3": 2, "P31": 1}, time_space=2, time_visits=2, turn=15)
    st.stack.pop(max(i for i, fr in enumerate(st.stack) if fr[0] == D_ACTION))
    play(st, "archive")
    assert st.stack[-1][0] in (D_REMOVE, D_TARGET) and names_of(st) == ["@C12", "@C3", "@P31"]
    assert optima(st) == (4.0, 4.0)
    assert optima(play(st.clone(), "@C3"))[1] == 4.0
    assert optima(play(st.clone(), "@C12"))[1] == 0.0


def _one_left_at_removal(tmp_path: Path, **zones: Any) -> GameState:
    """The last turn, the first action an Archive of C1 (of C1 and C2 in hand) at its knowledge
    removal (C3 holds 3 knowledge, C4 2, 3 lost knowledge), one action to follow; Z1 (see the
    module) where `zones` put it. Removing from C4 leaves a monument with exactly 1 knowledge
    for Z1; from C3, the first option, none."""
    zones.setdefault("hand", ["C1", "C2"])
    st = last_turn(actions=2, tokens={"C3": 3, "C4": 2}, lost=3,
                   names=card_set(tmp_path, [ONE_LEFT]), **zones)
    play(st, "archive")
    if len(st.hand) > 1:
        play(st, "C1", "done")
    assert names_of(st) == ["@C3", "@C4"]
    return st


def test_a_reader_on_the_board_keeps_its_tokens_in_the_key(tmp_path: Path) -> None:
    """Z1 on the board, its effect queued in the last Timeline phase: after the removal, with
    one action left (Search or Excavate: nothing changes tokens), the tokens are alive, and the
    two positions keep their own values (the better one, from C4, discards 3 lost knowledge)."""
    st = _one_left_at_removal(tmp_path, hand=["C1"], past=["M1"], artifacts=["Z1"])
    after = [play(st.clone(), m) for m in ("@C3", "@C4")]
    assert not any(dead(s) for s in after)
    assert optima(st) == (3.0, 3.0)  # M1 in the Past, C3 and C4 in the Timeline, no lost
    assert [optima(s)[1] for s in after] == [0.0, 3.0]


def test_a_reader_in_hand_keeps_its_tokens_in_the_key(tmp_path: Path) -> None:
    """Z1 in hand: the last action may create it (cost 0), so its effect may run in the last
    Timeline phase; the positions after the removal keep their own values."""
    st = _one_left_at_removal(tmp_path, hand=["C1", "C2", "Z1"])
    assert optima(st) == (2.0, 2.0)  # C3 and C4 in the Timeline, no lost knowledge
    assert [optima(play(st.clone(), m))[1] for m in ("@C3", "@C4")] == [0.0, 2.0]


def test_a_reader_ancient_greek_may_create_keeps_the_removal_options(tmp_path: Path) -> None:
    """Z1 on top of the deck and Ancient Greek (T22) available: the second action may learn it,
    and its effect creates Z1 from the top 10 cards (section 5, T22: the only artifact there).
    While the first action resolves, the tokens are alive, so no removal option is pruned
    (dominance Rule 4 keeps every option of a live removal)."""
    tiles = ["T22", None, None, None, None, None, None, None, None]
    st = _one_left_at_removal(tmp_path, deck_top=["Z1"], tiles=tiles)
    game = HeritageGame()
    assert not dead(st)
    assert list(game.dominance.prune(st, st.legal)) == list(st.legal)
    assert optima(st) == (2.0, 2.0)
    assert [optima(play(st.clone(), m))[1] for m in ("@C3", "@C4")] == [-1.0, 2.0]


def test_a_past_score_of_tokens_keeps_every_removal_option(tmp_path: Path) -> None:
    """X3 in the Past scores 1 VP per knowledge left on the Timeline (section 7, row 2). In the
    last Timeline phase C10 (11 or more knowledge in all: remove up to 2, D6) offers removals or
    ``done``: with the tokens alive (dominance Rule 4 keeps every option of a live removal) the
    optimum keeps all 11 (14 VP); removing one costs 1 VP."""
    st = last_turn(phase="timeline", timeline={2: ["C10"], 3: ["C3"], 4: ["C4"]},
                   tokens={"C10": 4, "C3": 4, "C4": 3}, past=["X3"],
                   names=card_set(tmp_path, [TALLY]))
    assert names_of(st) == ["@C10", "@C3", "@C4", "done"]
    assert list(HeritageGame().dominance.prune(st, st.legal)) == list(st.legal)
    assert optima(st) == (14.0, 14.0)
    assert [optima(play(st.clone(), m))[1] for m in ("@C10", "done")] == [13.0, 14.0]


def test_an_optional_effect_opened_by_a_removal_keeps_both_orders(tmp_path: Path) -> None:
    """Z2 ("you may remove 1 knowledge; if you do, discard 3 lost") is offered only while a
    token is left (a "you may" is offered only when it can change something), so it reads
    tokens. With Neferirkare (P30: remove 1 knowledge from another monument) in the
    same queue and one token on C3, P30 first leaves Z2 nothing (section 4B, D15: the player
    orders the queue): both orders are searched, Z2 first is 3 VP better."""
    st = last_turn(phase="timeline", timeline={2: ["C3"], 3: ["P30"]}, tokens={"C3": 1},
                   artifacts=["Z2"], lost=3, names=card_set(tmp_path, [MAYBE_ONE]))
    assert names_of(st) == ["!P30", "!Z2"]
    assert list(HeritageGame().dominance.prune(st, st.legal)) == list(st.legal)
    assert optima(st) == (2.0, 2.0)
    assert [optima(play(st.clone(), m))[1] for m in ("!P30", "!Z2")] == [-1.0, 2.0]


def test_an_immediate_reader_in_hand_keeps_the_removal_options(tmp_path: Path) -> None:
    """X4 in hand (on creation: remove a knowledge from a monument holding exactly 1, then
    discard 3 lost): the second action may create it. The first action's removal decides
    whether a monument is left with exactly 1 knowledge (C4: yes; C3, the first option: no),
    so no option is pruned."""
    st = last_turn(actions=2, tokens={"C3": 3, "C4": 2}, lost=3, hand=["C1", "C2", "X4"],
                   names=card_set(tmp_path, [FIRST_STONE]))
    play(st, "archive", "C1", "done")
    assert names_of(st) == ["@C3", "@C4"] and not dead(st)
    assert list(HeritageGame().dominance.prune(st, st.legal)) == list(st.legal)
    assert optima(st) == (3.0, 3.0)  # C3, C4 and X4 in the Timeline, no lost knowledge
    assert [optima(play(st.clone(), m))[1] for m in ("@C3", "@C4")] == [0.0, 3.0]


def test_a_condition_on_its_own_tokens_keeps_the_removal_options(tmp_path: Path) -> None:
    """X2 in the Timeline discards 3 lost knowledge in the last Timeline phase if it holds
    exactly 1 knowledge (a condition on ``self.tokens``): the Archive's removal from X2 (2 -> 1)
    is 3 VP better than from C3, the first option; the second action (Search or Excavate)
    cannot change it."""
    st = last_turn(actions=2, timeline={2: ["C3"], 3: ["X2"]}, tokens={"C3": 3, "X2": 2},
                   lost=3, past=["M1"], names=card_set(tmp_path, [SELF_ONE]))
    play(st, "archive")
    assert names_of(st) == ["@C3", "@X2"] and not dead(st)
    assert list(HeritageGame().dominance.prune(st, st.legal)) == list(st.legal)
    assert optima(st) == (3.0, 3.0)  # M1 in the Past, C3 and X2 in the Timeline, no lost
    assert [optima(play(st.clone(), m))[1] for m in ("@C3", "@X2")] == [0.0, 3.0]


# ------------------------------------------------------------------ lightning chests and the deck


def _chest_removal(tmp_path: Path, under: tuple[str, ...], actions: int,
                   **zones: Any) -> GameState:
    """The last turn, Z1 (see the module) on top of the deck, C3 holding 3 knowledge and C4 2,
    3 lost knowledge, `actions` action choices left, the chests `under` the board (section 8)
    and К among them used first (archive C1 without an action): at its knowledge removal.
    Removing from C4 leaves a monument with exactly 1 knowledge for Z1; from C3, none."""
    st = last_turn(actions=actions, tokens={"C3": 3, "C4": 2}, lost=3, past=["M1"],
                   deck_top=["Z1"], names=card_set(tmp_path, [ONE_LEFT]), **zones)
    st = with_chests(st, *under)
    play(st, "!chest:К")
    assert names_of(st) == ["@C3", "@C4"]
    return st


def test_a_chest_that_draws_lets_the_last_action_create_a_reader_of_the_deck(
        tmp_path: Path) -> None:
    """One action left and А under the board (draw 2, used at an action choice without an
    action, section 8): А may draw Z1 and the last action create it, so its effect may run in
    the last Timeline phase and the tokens are alive: the removal's two options keep their own
    values (the solver once proved 1 here, where 3 is reachable: @C4, А, create Z1, yes). With
    К alone, the last action can draw Z1 but not create it: dead."""
    st = _chest_removal(tmp_path, ("А", "К"), actions=1)
    assert not any(dead(play(st.clone(), m)) for m in ("@C3", "@C4"))
    assert optima(st) == (3.0, 3.0)
    alone = _chest_removal(tmp_path, ("К",), actions=1)
    assert all(dead(play(alone.clone(), m)) for m in ("@C3", "@C4"))


def test_with_no_action_left_a_chest_that_learns_may_create_a_reader_of_the_deck(
        tmp_path: Path) -> None:
    """No action left, at the chest window before the last Timeline phase with Д under the board
    (learn a technology, section 8): Д may learn Ancient Greek (T22), whose effect creates Z1 from
    the top 10 cards (section 5), so the tokens are alive and Б's removal keeps both options
    (the solver once proved -1 here, where 2 is reachable)."""
    st = last_turn(tokens={"C3": 3, "C4": 2}, lost=3, deck_top=["Z1"],
                   tiles=["T22", None, None, None, None, None, None, None, None],
                   names=card_set(tmp_path, [ONE_LEFT]))
    st = with_chests(st, "Д", "Б")
    st.stack = [(F_TURN_END,), (F_TECH_PHASE,), (D_CHEST_WINDOW,), (F_DECLINE_PHASE,),
                (D_CHEST_WINDOW,), (F_TIMELINE_PHASE,), (D_CHEST_WINDOW,)]  # the actions over
    flow.settle(st)
    assert not dead(st)
    play(st, "!chest:Б")
    assert names_of(st) == ["@C3", "@C4", "done"]
    assert optima(st) == (2.0, 2.0)


# ------------------------------------------------------------------ the last decline


def test_after_the_last_decline_means_the_last_turn_or_the_turn_before_once_it_has_declined(
        ) -> None:
    """RULES.md section 4 (D8: the game ends at the last turn's decline phase, no monument
    declines then): the last decline that moves monuments is the one of the turn before (turn
    15 here). Turns 14 and 15 before it: not after; turn 15 during it or with it still on the
    stack: not after; turn 15 once it is over (its technology phase left) and turn 16: after."""
    def at(turn: int, stack: list[Any] | None = None, declining: bool = False) -> GameState:
        st = position(hand=["C1"], timeline={2: ["C3"]}, time_space=2, time_visits=2, turn=turn)
        if stack is not None:
            st.stack = stack
        st.in_decline = declining
        return st

    assert not after_last_decline(at(14))
    assert not after_last_decline(at(14, [(F_TURN_END,), (F_TECH_PHASE,)]))
    assert not after_last_decline(at(15))
    assert not after_last_decline(at(15, [(F_TURN_END,), (F_TECH_PHASE,), (F_DECLINE_PHASE,)]))
    assert not after_last_decline(at(15, [(F_TURN_END,), (F_TECH_PHASE,)], declining=True))
    assert after_last_decline(at(15, [(F_TURN_END,), (F_TECH_PHASE,)]))
    assert after_last_decline(at(15, [(F_TURN_END,)]))
    assert after_last_decline(at(16))


def test_a_requirement_on_timeline_knowledge_keeps_tokens_alive(tmp_path: Path) -> None:
    """A technology whose requirement reads the knowledge on the Timeline (a user card: 11 or
    more, CARD_FORMAT.md allows any counter) reads tokens while it is not learned: after the
    last decline Parthenon's removal (C10, "up to 2") must not be taken as changing nothing,
    or Pachamama's Learn (A12) after it fails the requirement (the solver had proved 4; the
    optimum is 9). Found by a hunt for what the end-game rules overlook."""
    tr1 = {"id": "TR1_Counting", "code": "TR1", "name": "Counting", "type": "ancient",
           "level": 2, "activation": "endgame", "requirement": [["tl_tokens", ">=", 11]],
           "requirement_text": "11 or more knowledge on your Timeline", "vp": 5,
           "text": "Worth 5 VP.", "effects": [{"moment": "endgame", "score": {"fixed": 5}}]}
    names = user_set(tmp_path / "techtokens.json", techs=[tr1])
    st = position(timeline={2: ["C10"], 3: ["C4"]}, tokens={"C10": 9, "C4": 2},
                  artifacts=["A12"], past=["P1", "P2", "P3", "P4", "P5"],
                  tiles=["TR1", None, None, None, None, None, None, None, None],
                  time_space=1, time_visits=2, turn=16, phase="timeline", names=names)
    assert idx(st, "TR1") in token_readers(st).requirements and not dead(st)
    assert optima(st) == (9.0, 9.0)
    st.techs.append(idx(st, "TR1"))  # learned: its requirement reads nothing any more
    assert idx(st, "TR1") in token_readers(st).requirements and dead(st)
