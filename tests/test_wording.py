"""A line you can play at the table (`solver.engine.wording`, `solver.engine.describe`): every
decision kind in words without notation, cards named, the hand listed, every change of lost
knowledge with its cause, the notation kept beside each phrase, card names as printed, chest
letters in Latin."""

from __future__ import annotations

import hashlib
import json
import re
from collections import Counter
from dataclasses import replace
from functools import lru_cache

import pytest

import solver.engine.describe as describe
from puzzles.campaign import new_campaign, next_setup
from puzzles.cardsets import BUILTIN_SETS, display_name, load_book
from puzzles.deal import build_setup, load_cards
from puzzles.lines import replay
from puzzles.trials import with_trial
from solver.engine import actions as A
from solver.engine.describe import TurnReport, describe_line
from solver.engine.frames import DECISION_NAMES
from solver.engine.goals import parse_goal
from solver.engine.record import GameRecord, dumps
from solver.engine.setup import Setup
from solver.engine.state import EMPTY
from solver.engine.wording import goal_words
from solver.rng import Stream
from tests.builder import codes, idx, position

#: Notation tokens that must never appear in the words of a line (README, "Decisions and
#: notation"): targets, numbers, spaces, orders and chest uses, control answers, tiles.
NOTATION = re.compile(r"@\w|#\d|\bs\d\b|!|\b(done|yes|no)\b|\btile[ABC]\b|chest:")
#: Games (index -> setup, random policy) that together reach every decision kind; the test
#: looks further (up to 400 games) if the engine changes and one of them no longer does.
FIRST = (0, 1, 2, 3, 4, 5, 7, 10, 18, 50, 73, 75)


@lru_cache(maxsize=1)
def cards() -> tuple[object, tuple[tuple[str, str], ...]]:
    return load_cards(["heritage"])  # base + Heritage: Abu Simbel holds a technology


def game(i: int) -> tuple[Setup, GameRecord]:
    """Game `i`: a free game, a trial (1-10) or a campaign game, played at random."""
    book, sets = cards()
    setup = build_setup(book, sets, hand="draw", seed=i)  # type: ignore[arg-type]
    if i % 3 == 1:
        setup = with_trial(setup, 1 + i % 10)
    if i % 3 == 2:
        setup = replace(next_setup(new_campaign(i), seed=i, card_sets=sets), card_sets=sets)
    record = GameRecord.new(setup, book)  # type: ignore[arg-type]
    stream = Stream(i, "policy", 0)
    while not record.state.is_terminal():
        legal = record.state.legal
        record.apply(legal[stream.below(len(legal))])
    return setup, record


def texts(reports: list[TurnReport]) -> list[str]:
    return [t for r in reports for t in (*r.phrases, *r.events, r.summary())]


def test_every_decision_kind_is_worded_without_notation(monkeypatch: pytest.MonkeyPatch) -> None:
    seen: Counter[int] = Counter()
    note = describe._Walker.note

    def counting(self: describe._Walker, fr: tuple[object, ...], action: int,
                 explicit: bool) -> None:
        seen[fr[0]] += 1  # type: ignore[index]
        note(self, fr, action, explicit)

    monkeypatch.setattr(describe._Walker, "note", counting)
    book, _ = cards()
    order = list(FIRST) + [i for i in range(400) if i not in FIRST]
    bad: list[str] = []
    for i in order:
        setup, record = game(i)
        for text in texts(describe_line(setup, book, record.line)):  # type: ignore[arg-type]
            if NOTATION.search(text):
                bad.append(f"game {i}: {text}")
        if all(seen[k] for k in DECISION_NAMES):
            break
    assert bad == []
    assert [DECISION_NAMES[k] for k in DECISION_NAMES if not seen[k]] == []


@pytest.mark.parametrize("i", [0, 1, 2, 4, 5])
def test_the_notation_beside_the_words_is_the_line(i: int) -> None:
    """``--notation``: the notation kept with each phrase, turn by turn, is the line itself."""
    setup, record = game(i)
    book, _ = cards()
    reports = describe_line(setup, book, record.line)  # type: ignore[arg-type]
    for rep in reports:
        assert " ".join(rep.notations).split() == record.line[rep.turn], rep.turn
        assert len(rep.notations) == len(rep.phrases)


@pytest.mark.parametrize("i", [0, 1, 2, 3, 7])
def test_hand_is_listed_and_every_change_of_lost_knowledge_has_a_cause(i: int) -> None:
    setup, record = game(i)
    book, _ = cards()
    reports = describe_line(setup, book, record.line)  # type: ignore[arg-type]
    before = 0
    for rep in reports:
        changes = [(int(a), int(b)) for t in (*rep.phrases, *rep.events)
                   for a, b in re.findall(r"lost knowledge (\d+) -> (\d+)", t)]
        assert sum(b - a for a, b in changes) == rep.lost - before, rep.turn
        assert all(a != b for a, b in changes)
        before = rep.lost
        assert len(rep.hand_cards) == rep.hand
    names = [f"{book.cards[c].name} ({book.cards[c].code})"  # type: ignore[attr-defined]
             for c in record.state.hand]
    assert reports[-1].hand_cards == names


def test_drawn_revealed_and_discarded_cards_are_named() -> None:
    book, _ = cards()
    searches = reveals = 0
    for i in FIRST[:6]:
        setup, record = game(i)
        for text in texts(describe_line(setup, book, record.line)):  # type: ignore[arg-type]
            assert "(+" not in text and "card)" not in text  # no bare counts of cards
            if text.startswith("Search: draw "):
                searches += 1
                assert re.fullmatch(r"Search: draw [^()]+ \([A-Z]+\d+\)", text), text
            if "reveal " in text:
                reveals += 1
                assert re.search(r"reveal [^;]+\([A-Z]+\d+\)", text), text
    assert searches and reveals


def test_a_chest_use_reads_as_an_instruction() -> None:
    """The issue's example: ``Use chest Б (Casket of Lefkadia): remove 1 knowledge from ...``."""
    book, sets = load_cards(None)
    setup = with_trial(build_setup(book, sets, hand="1", seed=0), 1)
    record = GameRecord.new(setup, book)
    for text in ["create", "C5", "s5", "P31", "A8", "!chest:Б", "@C5", "@C5", "done"]:
        record.apply_notation(text)
    (rep,) = describe_line(setup, book, record.line)
    assert rep.phrases == [
        "Create Ellora Caves (C5) in space 5 with 3 knowledge, discarding Toniná (P31) and La "
        "Maná Pyramid (A8)",
        "Use chest Б (Casket of Lefkadia): remove 2 knowledge from Ellora Caves (C5)"]
    assert rep.notations == ["create C5 s5 P31 A8", "!chest:Б @C5 @C5 done"]


def test_goals_in_words() -> None:
    assert goal_words(parse_goal("past.any >= 8")) == "at least 8 monuments in the Past"
    assert goal_words(parse_goal("lost <= 4 and timeline.any >= 3")) == (
        "at most 4 lost knowledge and at least 3 monuments in the Timeline")
    assert goal_words(parse_goal("past.rotated >= 5 or artifacts >= 3 and lost < 2")) == (
        "at least 5 excavated (rotated) Past monuments or (at least 3 artifact cards on the "
        "board and fewer than 2 lost knowledge)")


def test_card_names_in_their_usual_capitalisation_data_files_unchanged() -> None:
    book = load_book(["base"])
    names = {c.code: c.name for c in book.cards}
    assert names["P1"] == "Pyramid of Khafre"
    assert names["P2"] == "Pyramid of Pepi II"
    assert names["M26"] == "Chabola de la Hechicera"
    assert names["T33"] == "Pliny the Elder"
    assert names["M10"] == "The Fairies' Rock"  # the first word keeps its capital
    assert display_name("Tikal Temple I") == "Tikal Temple I"
    raw = json.loads(BUILTIN_SETS["base"].read_bytes())
    assert {c["code"]: c["name"] for c in raw["builders"]}["P1"] == "Pyramid Of Khafre"
    assert book.sets[0][1] == hashlib.sha256(BUILTIN_SETS["base"].read_bytes()).hexdigest()


def test_chest_letters_may_be_typed_in_latin() -> None:
    book, sets = load_cards(None)
    notation = A.Notation(book)
    assert notation.parse("!chest:B") == notation.parse("!chest:Б")
    assert notation.parse("chest:zh") == notation.parse("chest:Ж")
    assert notation.parse("!chest:Zh") == notation.parse("!chest:Ж")
    setup = with_trial(build_setup(book, sets, hand="1", seed=0), 1)
    record = GameRecord.new(setup, book)
    stream = Stream(3, "policy", 0)
    while not record.state.is_terminal():
        legal = record.state.legal
        record.apply(legal[stream.below(len(legal))])
    data = json.loads(dumps(record.to_json()))
    data["line"] = [[t.replace("chest:Б", "chest:B") for t in turn] for turn in data["line"]]
    assert any("chest:B" in t for turn in data["line"] for t in turn)
    replayed, error = replay(data)
    assert error is None and replayed is not None


def test_a_refilled_tile_names_the_card_it_discarded() -> None:
    """Candi Kethek (P35) buries Thales (T4) from tile B, leaving Melchizedek (T7) alone there:
    T7 is discarded and the tile refilled (RULES.md section 5). With T4 the Level I deck's only
    card, the refill draws T4 back, then shuffles the discard pile, T7 in it, into a new deck:
    the line names T7, the card the tile lost, not T4, the card it got back (seen in `heritage
    play --trial 1 --seed 3`, turn 11)."""
    st = position(hand=["P35", "C1"],
                  tiles=["T1", "T2", "T3", "T4", "T7", None, "T28", "T29", "T30"])
    st.tech_discards[0], st.tech_decks[0] = st.tech_decks[0], []
    walker = describe._Walker(st)
    for text in ("create", "P35", "s2", "T4"):
        walker.apply(st.string_to_action(text))
    assert st.tiles[3] == idx(st, "T4")  # drawn back at once
    assert idx(st, "T7") in st.tech_decks[0] + st.tiles  # discarded, then reshuffled
    walker.apply(st.string_to_action("T1"))
    (phrase,) = walker.finish()[0].phrases
    assert ("put Thales (T4) at the bottom of the Level I deck; discard Melchizedek (T7), the "
            "last card of tile B, and refill the tile with Thales (T4)") in phrase, phrase


def test_a_tile_that_cannot_be_refilled_says_so() -> None:
    """Burying Thales (T4) leaves Melchizedek (T7) alone on tile B: it is discarded, and with
    T4 and T7 the only Level I cards left in deck and discard pile the tile stays empty
    (RULES.md section 5): the line says which card went and that the tile stays empty."""
    st = position(hand=["P35", "C1"],
                  tiles=["T1", "T2", "T3", "T4", "T7", None, "T28", "T29", "T30"])
    st.tech_decks[0] = []
    walker = describe._Walker(st)
    for text in ("create", "P35", "s2", "T4", "T1"):
        walker.apply(st.string_to_action(text))
    assert st.tiles[3:6] == [EMPTY] * 3
    (phrase,) = walker.finish()[0].phrases
    assert ("put Thales (T4) at the bottom of the Level I deck; discard Melchizedek (T7), the "
            "last card of tile B: the tile stays empty (fewer than 3 cards left in its deck and "
            "discard pile); put Anaximenes (T1)") in phrase, phrase


def test_a_held_technology_discarded_on_decline_is_named() -> None:
    """Abu Simbel (H1) declines holding a technology whose requirement is not met: the
    technology is discarded (RULES.md section 12), and the line says which."""
    st = position(hand=["C5"], timeline={1: ["H1"], 3: ["C1"]}, tokens={"H1": 2, "C1": 1},
                  names=("base", "heritage"))
    t28 = idx(st, "T28")  # Imhotep: its requirement is far from met here
    st.tech_decks[1].remove(t28)
    st.held = ((idx(st, "H1"), t28),)
    walker = describe._Walker(st)
    for text in ("search", "search"):
        walker.apply(st.string_to_action(text))
    assert t28 in st.tech_discards[1] and not st.held
    phrases = walker.finish()[0].phrases
    assert ("Decline phase: Abu Simbel (H1): discard Imhotep (T28), the technology it held: its "
            "requirement is not met") in phrases, phrases


def test_a_search_with_no_card_left_says_why_nothing_is_drawn() -> None:
    """Search draws nothing with a full hand (D4) or with no builder card left in the deck and
    its discard pile: the line gives the right reason."""
    st = position(hand=["C5"])
    st.deck, st.discard = [], []
    walker = describe._Walker(st)
    walker.apply(st.string_to_action("search"))
    walker.apply(st.string_to_action("search"))
    phrases = walker.finish()[0].phrases
    assert phrases[0] == ("Search: the deck and its discard pile are empty: nothing is drawn")
    full = position(hand=["C1", "C2", "C3", "C4", "C5", "C6", "C7", "C8", "C9", "C10"])
    walker = describe._Walker(full)
    walker.apply(full.string_to_action("search"))
    walker.apply(full.string_to_action("search"))
    assert walker.finish()[0].phrases[0] == "Search: the hand is full: nothing is drawn"


def test_calakmul_through_a_reshuffle_names_every_card_turned_up() -> None:
    """Calakmul (P33) turns up cards until 2 cities have appeared, discarding the others at
    once; the deck runs out after its last card (M7), and the discard pile, M7 in it, becomes
    the new deck (RULES.md section 5). The line names every card turned up and discarded, M7
    twice, in the order they came (the pile's order here: one seeded shuffle)."""
    st = position(hand=["C5"], timeline={1: ["P33"]}, tokens={"P33": 0},
                  discard=["M2", "M3", "C1", "M4", "P1"], deck_top=["M1", "M6", "M7"])
    walker = describe._Walker(st)
    walker.apply(st.string_to_action("search"))  # draws M1
    st.deck = [idx(st, "M7"), idx(st, "M6")]  # M6 on top, then M7, the last card
    walker.apply(st.string_to_action("search"))  # draws M6; then the decline phase
    assert sorted(codes(st, st.discard)) == ["M2", "M3", "M4", "M7", "P1"]
    turned = ["M7", *codes(st, st.discard)]  # the pile holds them in the order they came
    (phrase,) = [p for p in walker.finish()[0].phrases if "Calakmul" in p]
    named = [re.findall(r"\((\w+)\)", part) for part in phrase.split("; ")]
    assert named[0] == ["P33", *turned] and named[-1] == turned, phrase
    assert "draw Osirion (C1)" in phrase


def test_events_are_told_where_they_happen() -> None:
    """The log is read top to bottom at a table: the time card's return comes first in its turn
    (it returns before phase A, RULES.md section 4), and a deck's reshuffle is said before the
    step in which the deck runs out (never after the refill it made possible)."""
    reshuffles = 0
    for i in FIRST:
        setup, record = game(i)
        for rep in describe_line(setup, record.book, record.line):
            items = rep.items()
            assert [t for k, t in items if k == "phrase"] == rep.phrases
            assert [t for k, t in items if k == "event"] == rep.events
            for k, (_kind, text) in enumerate(items):
                if text.startswith("the time card comes back"):
                    assert k == 0, (i, rep.turn, items)
                if "runs out in the next step" in text:
                    reshuffles += 1
                    assert k + 1 < len(items), (i, rep.turn, items)  # a step follows
                    after = items[k + 1][1]
                    assert "refill" in after or "draw" in after or "reveal" in after or \
                        "runs out" in after, (i, rep.turn, after)
    assert reshuffles > 0
