"""Effects as the engine resolves them: targets, "you may" questions, reveals, technologies.

Tests written from a mutation-testing run of `solver.engine.targets`, `effects`, `techeffects`
and `reveal`: each checks one rule that no other rules test pinned down. Rules: RULES.md
sections 2, 5, 11 and 12 and decisions D4, D6, D18, D20; card behaviour:
reference/card-clarifications.md; the card-set format the engine must accept (RULES.md section 1:
"the engine must accept extra card sets from a data file"): puzzles/data/CARD_FORMAT.md.

Each test builds a position with `tests.builder.position`, stops the turn at a sentinel decision
(`STOP`), pushes the effect of one card (as its activation moment would) and asserts what the
player is offered and the exact outcome.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any

import pytest

from solver.engine import flow
from solver.engine.frames import D_YESNO, F_DECLINE_CARD, F_EFFECT
from solver.engine.state import GameState
from tests.builder import STOP, at_stop, codes, hand, idx, names_of, play, position, tok

# Spaces 1-5 full (the time card takes a place of space 3), M1 alone in space 6: M1 has no
# free place in another space, every other monument has one (space 6).
FULL = {1: ["C1", "C2"], 2: ["C3", "C4"], 3: ["C5", "TIME"], 4: ["C6", "C7"], 5: ["C8", "C9"],
        6: ["M1"]}
FULL_TOKENS = {c: 1 for c in ("C1", "C2", "C3", "C4", "C5", "C6", "C7", "C8", "C9")}


# ----------------------------------------------------------------------------- helpers

def resolve(code: str, effect: int = 0, prepare: Callable[[GameState], None] | None = None,
            **kw: Any) -> GameState:
    """A position (builder keywords) in which effect `effect` of card `code` resolves, as at its
    activation moment; the run stops at STOP. `prepare` may adjust the state first."""
    st = position(pending=[STOP], **kw)
    if prepare is not None:
        prepare(st)
    st.stack.append((F_EFFECT, idx(st, code), effect, 0))
    flow.settle(st)
    return st


def asks_yes_no(st: GameState) -> bool:
    """True when the effect's own "you may" question is pending (not the sentinel)."""
    return not at_stop(st) and st.stack[-1][0] == D_YESNO and names_of(st) == ["yes", "no"]


# ----------------------------------------------------------------------------- targets

def test_philae_with_one_city_holding_knowledge_removes_up_to_3_from_it() -> None:
    """C31 Philae (D20): each of two chosen cities loses up to 3 knowledge. With only one city
    holding knowledge the effect still applies as far as possible (D6): that city is the
    target, and the player removes up to 3 from it (may stop: "up to")."""
    st = resolve("C31", timeline={1: ["C1", "C2"], 2: ["C3", "C31"]}, tokens={"C1": 5})
    assert names_of(st) == ["@C1", "done"]
    play(st, "@C1", "@C1", "@C1")
    assert tok(st, "C1") == 2
    assert at_stop(st)


def test_piri_reis_not_offered_when_the_monument_without_knowledge_cannot_move() -> None:
    """A13 Piri Reis Map: "you may" move a monument with no knowledge to a free place of
    another space (RULES.md section 5, clarifications A13). M1, the only one without
    knowledge, is alone in space 6 and every other space is full: accepting could change
    nothing, so no question is asked (D6) and nothing moves."""
    st = resolve("A13", timeline=FULL, tokens=FULL_TOKENS, artifacts=["A13"])
    assert at_stop(st)
    assert st.place_of(idx(st, "M1")) == (6, 0)


def test_planetary_grid_cannot_target_a_monument_with_no_other_free_space() -> None:
    """T10 Planetary Grid: move a monument to a free place of another space (clarifications:
    "a move goes to any other space with a free place"). M1 alone in space 6, every other space
    full: M1 has nowhere to go and is not offered; the others may all go to space 6."""
    st = resolve("T10", timeline=FULL, tokens=FULL_TOKENS, techs=["T10"])
    assert names_of(st) == ["@C1", "@C2", "@C3", "@C4", "@C5", "@C6", "@C7", "@C8", "@C9"]
    play(st, "@C4")
    assert st.place_of(idx(st, "C4")) == (6, 1)
    assert st.place_of(idx(st, "C3")) == (2, 0)


def test_tzolkin_offered_when_a_monument_holds_a_single_knowledge() -> None:
    """A9 Tzolk'in: "you may" remove 1 knowledge from a monument. One token on one monument is
    enough for accepting to change something, so the question is asked (D6) and a yes
    removes it."""
    st = resolve("A9", timeline={2: ["C1"], 3: ["C2"]}, tokens={"C1": 1}, artifacts=["A9"],
                 past=["M1"])
    assert asks_yes_no(st)
    play(st, "yes")
    assert tok(st, "C1") == 0
    assert at_stop(st)


# ----------------------------------------------------------------------------- reveals

def _deck(cards: Sequence[str], discard: Sequence[str] = ()) -> Callable[[GameState], None]:
    """`prepare`: the builder deck holds exactly `cards` (the first on top), the discard pile
    exactly `discard`."""
    def prepare(st: GameState) -> None:
        st.deck = [idx(st, c) for c in reversed(cards)]
        st.discard = [idx(st, c) for c in discard]
    return prepare


def test_hermes_with_one_card_left_keeps_it() -> None:
    """T3 Hermes Trismegistus (RULES.md section 11: reveal 5, keep 2) with a single builder card
    left in deck and discard pile: the effect applies as far as possible (D6): that card is
    revealed and kept."""
    st = resolve("T3", techs=["T3"], hand=["C10"], prepare=_deck(["C5"]))
    assert hand(st) == ["C10", "C5"]
    assert st.limbo == []
    assert at_stop(st)


def test_hermes_may_keep_the_first_card_of_the_book() -> None:
    """T3 Hermes Trismegistus: any two of the 5 revealed may be kept, C1 and C2 included (the
    picks go in card order, so the last card cannot be the first pick)."""
    top = ["C1", "C2", "C3", "C4", "C5"]
    st = resolve("T3", techs=["T3"], hand=["C10"], deck_top=top)
    assert names_of(st) == ["C1", "C2", "C3", "C4"]
    play(st, "C1", "C2")
    assert hand(st) == ["C1", "C10", "C2"]
    assert sorted(codes(st, st.discard)) == ["C3", "C4", "C5"]


def test_ancient_greek_creates_an_artifact_when_all_ten_are_artifacts() -> None:
    """T22 Ancient Greek (clarifications): set the top 10 aside; if an artifact among them can
    be created, create one (mandatory). All ten are artifacts here, each with no discard cost:
    the player chooses any of them (no "no"), the other nine are discarded."""
    top = ["A1", "A2", "A3", "A4", "A5", "A6", "A7", "A8", "A9", "A10"]
    st = resolve("T22", techs=["T22"], deck_top=top)
    assert names_of(st) == top
    play(st, "A7")
    assert codes(st, st.board_artifacts()) == ["A7"]
    assert sorted(codes(st, st.discard)) == sorted(c for c in top if c != "A7")
    assert at_stop(st)


def test_calakmul_refills_the_deck_from_a_discard_pile_of_cities() -> None:
    """P33 Calakmul: turn up cards until 2 cities are found; the empty deck is refilled from the
    discard pile (RULES.md section 5), which holds cities C1 and C2: both go to the hand."""
    st = resolve("P33", timeline={2: ["P33"]}, hand=["M5"], prepare=_deck([], ["C1", "C2"]))
    assert hand(st) == ["C1", "C2", "M5"]
    assert st.discard == []
    assert at_stop(st)


# ----------------------------------------------------------------------------- a user card set
# RULES.md section 1: the engine must accept extra card sets from a data file. These made-up
# cards use parts of the format (puzzles/data/CARD_FORMAT.md) that no base card uses: "you may"
# steps of any op, `per` with a counter of this card, filters on this card's neighbours, a
# swap of the card itself at its decline, keep 3, bury 3, `hold_tech` with its default level,
# a "space" filter other than space 1, a fixed destination with no space filter.

def _monument(code: str, kind: str, text: str, effects: list[dict[str, Any]]) -> dict[str, Any]:
    return {"id": f"{code}_Probe", "code": code, "name": f"Probe {code}", "type": kind,
            "number": 900 + int(code[1:]), "country": "Nowhere", "starting_hand": None,
            "discard_cost": 0, "starting_space": 3, "knowledge": 2, "vp": 1, "locked": False,
            "activation": effects[0]["moment"], "text": text, "effects": effects}


def _now(*steps: dict[str, Any], optional: bool = False) -> dict[str, Any]:
    effect: dict[str, Any] = {"moment": "immediate", "steps": list(steps)}
    if optional:
        effect["optional"] = True
    return effect


PROBE_CARDS = [
    _monument("U1", "city", "You may draw 2 cards.",
              [_now({"op": "draw", "n": 2, "optional": True})]),
    _monument("U2", "city", "Draw 1 card, then you may draw 2 cards.",
              [_now({"op": "draw", "n": 1}, {"op": "draw", "n": 2, "optional": True})]),
    _monument("U3", "megalith", "You may straighten 1 rotated monument in your Past.",
              [_now({"op": "straighten", "amount": 1}, optional=True)]),
    _monument("U4", "city", "You may remove 1 knowledge from an adjacent monument.",
              [_now({"op": "remove_knowledge", "amount": 1, "target": "one",
                     "filter": {"adjacent": True}, "optional": True})]),
    _monument("U5", "pyramid", "You may move an adjacent monument.",
              [_now({"op": "move", "filter": {"adjacent": True}}, optional=True)]),
    _monument("U6", "city", "Swap two monuments adjacent to this one.",
              [_now({"op": "swap", "first": "chosen", "filter": {"adjacent": True}})]),
    _monument("U7", "city", "When this declines: swap it with another monument.",
              [{"moment": "decline", "steps": [{"op": "swap", "first": "self"}]}]),
    _monument("U8", "city", "Draw 1 card for each adjacent city.",
              [_now({"op": "draw", "per": "adj.city"})]),
    _monument("U9", "city", "Remove 1 knowledge for each adjacent city from one monument.",
              [_now({"op": "remove_knowledge", "amount": 1, "per": "adj.city",
                     "target": "one"})]),
    _monument("U10", "city", "Look at the top 5 builder cards, keep 3, discard the rest.",
              [_now({"op": "reveal_keep", "count": 5, "keep": 3})]),
    _monument("U11", "city", "Put 3 available technologies at the bottom of their decks.",
              [_now({"op": "bury_tech", "count": 3})]),
    _monument("U12", "city", "Put an available technology on this card (level by default).",
              [_now({"op": "hold_tech"}), {"moment": "decline",
                                           "steps": [{"op": "gain_held_tech"}]}]),
    _monument("U13", "city", "Put an available Level II technology on this card.",
              [_now({"op": "hold_tech", "level": 2}), {"moment": "decline",
                                                       "steps": [{"op": "gain_held_tech"}]}]),
    _monument("U14", "city", "You may remove up to 2 knowledge from this card.",
              [_now({"op": "remove_knowledge", "amount": 2, "up_to": True, "target": "self",
                     "optional": True})]),
    _monument("U15", "city", "Remove 1 knowledge from each monument in space 3.",
              [_now({"op": "remove_knowledge", "amount": 1, "target": "each",
                     "filter": {"space": 3}})]),
    _monument("U16", "city", "Move a monument to space 3.",
              [_now({"op": "move", "to": 3})]),
]


@pytest.fixture(scope="module")
def probe(tmp_path_factory: pytest.TempPathFactory) -> tuple[str, ...]:
    """The card-set names of a book with the base cards and the probe set."""
    path = Path(tmp_path_factory.mktemp("cards")) / "probe-set.json"
    path.write_text(json.dumps({"set": "probe", "version": 1, "about": "test cards",
                                "builders": PROBE_CARDS, "technologies": []}))
    return ("base", str(path))


def test_you_may_draw_step_is_asked_and_a_yes_draws_once(probe: tuple[str, ...]) -> None:
    """A step marked "you may" (CARD_FORMAT.md: `"optional": true` makes that step a "you may";
    RULES.md D6) is a yes/no; yes applies it once: U1 draws 2 cards."""
    st = resolve("U1", names=probe, timeline={3: ["U1"]}, hand=["C10"], deck_top=["C1", "C2"])
    assert asks_yes_no(st)
    play(st, "yes")
    assert hand(st) == ["C1", "C10", "C2"]
    assert at_stop(st)


def test_you_may_draw_step_not_asked_at_ten_cards(probe: tuple[str, ...]) -> None:
    """With 10 cards in hand a draw takes nothing (D4), so a "you may draw" could change nothing
    and is not asked (D6: offered only when accepting can change something)."""
    ten = [f"C{k}" for k in range(11, 21)]
    st = resolve("U1", names=probe, timeline={3: ["U1"]}, hand=ten)
    assert at_stop(st)
    assert hand(st) == sorted(ten)


def test_you_may_step_after_a_mandatory_step_is_asked(probe: tuple[str, ...]) -> None:
    """U2 "Draw 1 card, then you may draw 2": the first draw applies, then the second step is
    asked (D6), and a no leaves the hand at one card more."""
    st = resolve("U2", names=probe, timeline={3: ["U2"]}, hand=["C10"],
                 deck_top=["C1", "C2", "C3"])
    assert asks_yes_no(st)
    assert hand(st) == ["C1", "C10"]
    play(st, "no")
    assert hand(st) == ["C1", "C10"]
    assert at_stop(st)


def test_you_may_straighten_effect_is_asked(probe: tuple[str, ...]) -> None:
    """A "you may" effect (`"optional": true` on the effect) of an op with no applicability
    check of its own (straighten) is asked; yes straightens the rotated Past monument."""
    st = resolve("U3", names=probe, timeline={3: ["U3"]}, past=["M1"], rotated=1)
    assert asks_yes_no(st)
    play(st, "yes")
    assert st.rotated == 0
    assert at_stop(st)


def test_you_may_remove_from_an_adjacent_monument_is_asked(probe: tuple[str, ...]) -> None:
    """U4 "you may remove 1 knowledge from an adjacent monument" (adjacency: D5, the other place
    of the space and the same row left and right): C1, in the same row of space 2, holds
    knowledge, so the step is asked, and yes takes 1 from C1 (C9 is not adjacent)."""
    st = resolve("U4", names=probe, timeline={2: ["C1"], 3: ["U4"], 5: ["C9"]},
                 tokens={"C1": 2, "C9": 2})
    assert asks_yes_no(st)
    play(st, "yes")
    assert (tok(st, "C1"), tok(st, "C9")) == (1, 2)
    assert at_stop(st)


def test_you_may_move_an_adjacent_monument(probe: tuple[str, ...]) -> None:
    """U5 "you may move an adjacent monument" (a move goes to a free place of another space,
    clarifications): C1 is adjacent (space 2, same row), C9 is not: yes moves C1, and only C1
    is a target."""
    st = resolve("U5", names=probe, timeline={2: ["C1"], 3: ["U5"], 5: ["C9"]})
    assert asks_yes_no(st)
    play(st, "yes")
    assert names_of(st) == ["s1", "s3", "s4", "s5", "s6"]  # C1 is the only target: its space
    play(st, "s6")
    assert st.place_of(idx(st, "C1")) == (6, 0)
    assert st.place_of(idx(st, "C9")) == (5, 0)


def test_swap_of_two_adjacent_monuments(probe: tuple[str, ...]) -> None:
    """U6 "swap two monuments adjacent to this one" (a swap exchanges exact places,
    clarifications): C1 and C2 are adjacent to U6 in space 3, C9 is not: the two swap."""
    st = resolve("U6", names=probe, timeline={2: ["C1"], 3: ["U6"], 4: ["C2"], 6: ["C9"]})
    assert at_stop(st)
    assert st.place_of(idx(st, "C1")) == (4, 0)
    assert st.place_of(idx(st, "C2")) == (2, 0)
    assert st.place_of(idx(st, "C9")) == (6, 0)


def test_declining_card_cannot_swap_itself(probe: tuple[str, ...]) -> None:
    """U7 "when this declines: swap it with another monument": during its decline effect the
    card is immune to move and swap (clarifications, Decline phase: "its decline effect, with
    the card still in the Timeline and now immune to move/swap"), so nothing is swapped and U7
    goes to the Past."""
    st = position(names=probe, pending=[STOP], timeline={1: ["U7"], 3: ["C5"]})
    st.stack.append((F_DECLINE_CARD, idx(st, "U7")))
    flow.settle(st)
    assert at_stop(st)
    assert codes(st, st.past) == ["U7"]
    assert st.place_of(idx(st, "C5")) == (3, 0)


def test_draw_per_adjacent_city_counts_this_cards_neighbours(probe: tuple[str, ...]) -> None:
    """U8 "draw 1 card for each adjacent city" (`per` with a counter of this card): U8 in space
    3 has the cities of spaces 2 and 4 as neighbours (D5), so it draws 2."""
    st = resolve("U8", names=probe, timeline={2: ["C1"], 3: ["U8"], 4: ["C2"]},
                 deck_top=["C5", "C6", "C7"])
    assert hand(st) == ["C5", "C6"]
    assert at_stop(st)


def test_removal_per_adjacent_city_counts_this_cards_neighbours(probe: tuple[str, ...]) -> None:
    """U9 "remove 1 knowledge for each adjacent city from one monument": two adjacent cities,
    so 2 knowledge from the chosen monument."""
    st = resolve("U9", names=probe, timeline={2: ["C1"], 3: ["U9"], 4: ["C2"]},
                 tokens={"C1": 5, "C2": 5})
    assert names_of(st) == ["@C1", "@C2"]
    play(st, "@C2")
    assert (tok(st, "C1"), tok(st, "C2")) == (5, 3)
    assert at_stop(st)


def test_removal_per_adjacent_city_without_neighbours_asks_nothing(probe: tuple[str, ...]) -> None:
    """U9 with no adjacent city removes 0 knowledge: no target is asked for (D6: a choice that
    changes nothing is not offered)."""
    st = resolve("U9", names=probe, timeline={1: ["C1"], 3: ["U9"], 5: ["C2"]},
                 tokens={"C1": 5, "C2": 5})
    assert at_stop(st)
    assert (tok(st, "C1"), tok(st, "C2")) == (5, 5)


def test_reveal_keep_three_keeps_three(probe: tuple[str, ...]) -> None:
    """U10 "look at the top 5, keep 3, discard the rest": three picks, the other 2 discarded."""
    top = ["C1", "C2", "C3", "C4", "C5"]
    st = resolve("U10", names=probe, timeline={3: ["U10"]}, deck_top=top)
    play(st, "C1", "C2", "C3")
    assert hand(st) == ["C1", "C2", "C3"]
    assert sorted(codes(st, st.discard)) == ["C4", "C5"]
    assert at_stop(st)


def test_bury_three_technologies(probe: tuple[str, ...]) -> None:
    """U11 "put 3 available technologies at the bottom of their decks" (CARD_FORMAT.md
    `bury_tech` with `count`): three go, each to the bottom of its level's deck."""
    tiles = ["T1", "T2", "T3", "T4", "T5", "T6", None, None, None]
    st = resolve("U11", names=probe, timeline={3: ["U11"]}, tiles=tiles)
    play(st, "T1", "T2", "T4")
    bottom = [st.tech_decks[0][k] for k in range(3)]
    assert sorted(codes(st, bottom)) == ["T1", "T2", "T4"]
    assert at_stop(st)


def test_hold_tech_without_level_holds_a_level_2_technology(probe: tuple[str, ...]) -> None:
    """`hold_tech` without `level` holds a Level II technology (CARD_FORMAT.md: level, default
    2; Abu Simbel, RULES.md section 12): the Level II technologies of tile C are offered."""
    tiles = ["T1", "T2", None, None, None, None, "T28", "T29", "T30"]
    st = resolve("U12", names=probe, timeline={3: ["U12"]}, tiles=tiles)
    assert names_of(st) == ["T28", "T29", "T30"]
    play(st, "T29")
    assert st.held == ((idx(st, "U12"), idx(st, "T29")),)


def test_held_technology_joins_the_collection_when_its_holder_declines(
        probe: tuple[str, ...]) -> None:
    """Abu Simbel (RULES.md section 12), with two holders: when U13 declines, the technology on
    U13 (T30 Thoth: at least 9 lost knowledge, met) joins the collection; U12 keeps its own."""
    def prepare(st: GameState) -> None:
        st.held = ((idx(st, "U12"), idx(st, "T29")), (idx(st, "U13"), idx(st, "T30")))

    st = resolve("U13", 1, prepare=prepare, names=probe, timeline={2: ["U12"], 3: ["U13"]},
                 lost=9)
    assert codes(st, st.techs) == ["T30"]
    assert st.held == ((idx(st, "U12"), idx(st, "T29")),)


def test_you_may_remove_from_this_card_asked_when_it_holds_one(probe: tuple[str, ...]) -> None:
    """U14 "you may remove up to 2 knowledge from this card" holding 1 knowledge: accepting
    changes something, so it is asked (D6); yes lets the player remove "up to": take the token
    or stop."""
    st = resolve("U14", names=probe, timeline={2: ["C1"], 3: ["U14"]},
                 tokens={"C1": 4, "U14": 1})
    assert asks_yes_no(st)
    play(st, "yes")
    assert names_of(st) == ["@U14", "done"]
    play(st, "@U14")
    assert (tok(st, "U14"), tok(st, "C1")) == (0, 4)
    assert at_stop(st)


def test_you_may_remove_from_this_card_not_asked_when_it_holds_none(
        probe: tuple[str, ...]) -> None:
    """U14 with no knowledge on itself: the knowledge of other monuments does not count ("this
    card"), accepting could change nothing, so nothing is asked (D6)."""
    st = resolve("U14", names=probe, timeline={2: ["C1"], 3: ["U14"]}, tokens={"C1": 4})
    assert at_stop(st)
    assert tok(st, "C1") == 4


def test_each_monument_in_space_3_loses_knowledge(probe: tuple[str, ...]) -> None:
    """U15 "remove 1 knowledge from each monument in space 3" (the `space` filter,
    CARD_FORMAT.md): both monuments of space 3 lose 1, those of spaces 1 and 4 none."""
    st = resolve("U15", names=probe, timeline={1: ["C1"], 3: ["C2", "U15"], 4: ["C3"]},
                 tokens={"C1": 2, "C2": 2, "U15": 2, "C3": 2})
    assert [tok(st, c) for c in ("C1", "C2", "U15", "C3")] == [2, 1, 1, 2]
    assert at_stop(st)


def test_move_to_space_3_does_not_offer_a_monument_already_there(
        probe: tuple[str, ...]) -> None:
    """U16 "move a monument to space 3": a move goes to another space (clarifications: "a move
    goes to any other space with a free place"), so C2, already in space 3, is no target."""
    st = resolve("U16", names=probe, timeline={1: ["C1"], 3: ["C2"], 5: ["U16"]})
    assert names_of(st) == ["@C1", "@U16"]
    play(st, "@C1")
    assert st.place_of(idx(st, "C1")) == (3, 1)
    assert st.place_of(idx(st, "C2")) == (3, 0)
