"""A position in words, for a person playing at the terminal: the zones, the score so far, each
goal's progress, and the options of the pending decision as phrases.

`view` reads the zones of RULES.md section 2 off a `GameState`: the Timeline space by space
(each monument with its knowledge, the time card where it stands), the Past by monument type
(and how many are rotated), the hand by name, the artifact spaces (artifacts and chests), the
technologies on tiles A, B and C and in the collection, lost knowledge; then the score sheet as
if the game ended now (section 7) and, for each goal chest (section 8), every comparison with
its count now. It only reads; rendering (Rich or plain text) is the command line's.

`option_phrase` names one option of the pending decision in the game's words ("Create Ellora
Caves (C5) in space 5, discarding 2 cards"). The turn-by-turn wording of whole actions is
`solver.engine.describe`; this is the wording of a single choice before it is taken, which
`describe` does not offer.
"""

from __future__ import annotations

from dataclasses import dataclass

from solver.engine import actions as A
from solver.engine.cards import KIND_NAMES, MONUMENT_KINDS, CardBook
from solver.engine.create import create_cost
from solver.engine.frames import (
    D_ARCHIVE,
    D_ARTIFACT_PAY,
    D_BOTTOM,
    D_CHEST_GOALS,
    D_CHEST_REVISE,
    D_CHEST_USE,
    D_CHEST_WINDOW,
    D_CREATE_CARD,
    D_CREATE_SPACE,
    D_DECLINE_ORDER,
    D_DISCARD_VAR,
    D_EXCAVATE,
    D_KEEP,
    D_KENSINGTON,
    D_LEARN,
    D_MOVE_SPACE,
    D_NUMBER,
    D_PAY,
    D_PICK,
    D_REMOVE,
    D_TARGET,
    D_TECH_PICK,
    D_YESNO,
    DECISION_NAMES,
)
from solver.engine.goal_check import chest_goal, counter_value, evaluate
from solver.engine.goals import COUNTERS, comparisons
from solver.engine.record import SCORE_ROWS
from solver.engine.state import CHEST_BASE, EMPTY, TIME, GameState
from solver.engine.targets import (
    MOVE,
    PAIR_FIRST,
    PAIR_SECOND,
    REMOVE_ONE,
    SWAP_FIRST,
    SWAP_SECOND,
    SWAP_SELF,
)
from solver.engine.techeffects import BURY

#: What each action type does, as the option of "choose an action" (RULES.md section 5).
ACTION_WORDS = (
    "Create: a monument in the Timeline or an artifact, paying with cards from hand",
    "Learn: an available technology",
    "Archive: discard cards from hand, 1 knowledge off your Timeline for each",
    "Excavate: rotate straight monuments of your Past, draw 2 cards for each",
    "Search: draw 1 card",
)
#: What a card option does, by decision kind.
_CARD_VERBS = {
    D_KEEP: "keep", D_CREATE_CARD: "create", D_PAY: "discard", D_LEARN: "learn",
    D_ARCHIVE: "archive", D_PICK: "keep", D_DISCARD_VAR: "discard",
    D_ARTIFACT_PAY: "discard the artifact", D_BOTTOM: "put under the Level II deck:",
}
#: What ``done`` ends, by decision kind.
_DONE_WORDS = {
    D_ARCHIVE: "archive no more cards", D_REMOVE: "remove no more knowledge",
    D_DISCARD_VAR: "discard no more cards", D_ARTIFACT_PAY: "discard no more artifacts",
    D_CHEST_WINDOW: "use no chest now", D_CHEST_GOALS: "choose no more goal chests",
    D_CHEST_REVISE: "keep every goal chest",
}
SCORE_LABELS = {"past": "Past", "effects": "end-game effects", "technologies": "technologies",
                "timeline": "Timeline", "lost_knowledge": "lost knowledge"}


def card_name(book: CardBook, card: int) -> str:
    """``Ellora Caves (C5)``; a chest in an artifact space (``CHEST_BASE + k``): ``chest Б``."""
    if card >= CHEST_BASE:
        return "chest " + A.CHEST_LETTERS[card - CHEST_BASE]
    c = book.cards[card]
    return f"{c.name} ({c.code})"


def question(st: GameState) -> str:
    """The pending decision as a question (`solver.engine.frames.DECISION_NAMES`), naming the
    card it is about where the frame says so."""
    fr = st.pending()
    if fr is None:
        return "the game is over"
    text = DECISION_NAMES.get(fr[0], "choose")
    if fr[0] == D_CREATE_SPACE:
        text += f" for {card_name(st.book, fr[1])}"
    elif fr[0] == D_YESNO:
        text = f"use {card_name(st.book, fr[1])}?"
    elif fr[0] == D_TARGET:
        text = f"{card_name(st.book, fr[1])}: {text}"
    elif fr[0] == D_MOVE_SPACE:
        text += f" for {card_name(st.book, fr[1])}"
    return text[0].upper() + text[1:]


def option_phrase(st: GameState, action: int) -> str:
    """One option of the pending decision in the game's words (a single choice, before it is
    taken). Unknown combinations fall back to the decision's name and the notation."""
    fr = st.pending()
    if fr is None:
        return st.action_to_string(action)
    dk, book = fr[0], st.book
    kind, v = A.kind_of(action), A.value_of(action)
    if action == A.DONE:
        text = _DONE_WORDS.get(dk, "done")
    elif action in (A.YES, A.NO):
        text = _yes_no(st, dk, action == A.YES)
    elif kind == A.ACT:
        text = ACTION_WORDS[v]
    elif kind == A.CARD:
        verb = _CARD_VERBS.get(dk, "choose")
        if dk == D_TECH_PICK:
            verb = "bury" if fr[1] == BURY else "learn"
        text = f"{verb} {card_name(book, v)}"
        if dk == D_CREATE_CARD and book.cards[v].is_artifact and book.cards[v].discard_cost:
            text += f" (discard {_count(book.cards[v].discard_cost, 'card')} to pay)"
    elif kind == A.SPACE and dk == D_CREATE_SPACE:
        card = book.cards[fr[1]]
        cost = create_cost(card.discard_cost, card.starting_space, v)
        text = f"create {card_name(book, fr[1])} in space {v}"
        text += f", discarding {_count(cost, 'card')}" if cost else ", discarding nothing"
    elif kind == A.SPACE:
        text = (f"move {card_name(book, fr[1])} to space {v}" if dk == D_MOVE_SPACE
                else f"space {v}")
    elif kind == A.TARGET:
        text = (f"remove 1 knowledge from {card_name(book, v)}" if dk == D_REMOVE
                else _target(st, v) if dk == D_TARGET else card_name(book, v))
    elif kind == A.ORDER:
        text = f"resolve {card_name(book, v)} first" if dk != D_DECLINE_ORDER \
            else f"{card_name(book, v)} declines first"
    elif kind == A.NUMBER:
        text = (f"excavate {_count(v, 'Past monument')}" if dk == D_EXCAVATE
                else f"remove {v} lost knowledge" if dk == D_NUMBER else f"{v}")
    elif kind == A.TILE:
        text = f"flip tile {A.TILE_NAMES[v]} to Level II"
    elif kind == A.CHEST and v >= A.CHEST_PICK:
        letter = A.CHEST_LETTERS[v - A.CHEST_PICK]
        text = (f"give up goal chest {letter}" if dk == D_CHEST_REVISE
                else f"take chest {letter} as a goal")
    elif kind == A.CHEST:
        text = f"use chest {A.CHEST_LETTERS[v]}"
    else:
        text = f"{DECISION_NAMES.get(dk, 'choose')}: {st.action_to_string(action)}"
    return text[0].upper() + text[1:]


def _target(st: GameState, target: int) -> str:
    """A monument chosen for an effect (`solver.engine.targets`: the frame names the source
    card, the purpose, the amount and, for a pair or a swap, the first monument chosen)."""
    fr = st.pending()
    assert fr is not None
    book, purpose = st.book, fr[2]
    src, who = card_name(book, fr[1]), card_name(book, target)
    if purpose in (REMOVE_ONE, PAIR_FIRST, PAIR_SECOND):
        return f"{src}: take knowledge from {who}"
    if purpose == SWAP_SELF:
        return f"swap {src} with {who}"
    if purpose == SWAP_FIRST:
        return f"{src}: swap {who} (with a monument chosen next)"
    if purpose == SWAP_SECOND:
        return f"{src}: swap {card_name(book, fr[6])} with {who}"
    if purpose == MOVE:
        return f"{src}: move {who}" + (f" to space {fr[4]}" if fr[4] else "")
    return f"{src}: choose {who}"


def _yes_no(st: GameState, dk: int, yes: bool) -> str:
    if dk == D_KENSINGTON:
        return ("Kensington Runestone: remove up to 6 knowledge instead of drawing" if yes
                else "draw as usual")
    if dk == D_YESNO:
        src = card_name(st.book, st.pending()[1])  # type: ignore[index]
        return f"use {src}" if yes else f"do not use {src}"
    if dk == D_CHEST_USE:
        return "use the chest's effect now" if yes else "not now"
    return "yes" if yes else "no"


def _count(n: int, word: str) -> str:
    return f"{n} {word}{'' if n == 1 else 's'}"


@dataclass(frozen=True)
class GoalProgress:
    """One goal chest: its goal, whether it holds now, and each comparison with its count."""

    chest: str
    goal: str
    met: bool
    counts: tuple[str, ...]  # "monuments in the Past: 3 of >= 8"


@dataclass(frozen=True)
class PositionView:
    """The facts a player needs before a decision, as short texts (see the module)."""

    turn: int
    time_card: str
    timeline: tuple[str, ...]  # one per space, 1 to 6
    past: str
    hand: tuple[str, ...]
    artifacts: tuple[str, ...]  # one per artifact space
    tiles: tuple[str, ...]  # one per tile: A, B, C
    technologies: tuple[str, ...]  # the collection
    lost: int
    deck: int
    discard: int
    score: dict[str, int]
    goals: tuple[GoalProgress, ...]

    def score_text(self) -> str:
        """``12 VP (Past 8, end-game effects 0, technologies 6, Timeline 1, lost knowledge
        -3)``."""
        rows = ", ".join(f"{SCORE_LABELS[k]} {self.score[k]}" for k in SCORE_ROWS if k != "total")
        return f"{self.score['total']} VP ({rows})"


def view(st: GameState) -> PositionView:
    """The position in words (see the module)."""
    book = st.book
    timeline = []
    for s, items in enumerate(st.spaces, start=1):
        words = ["time card" if c == TIME else
                 f"{card_name(book, c)} with {st.tokens[c]} knowledge" for c in items]
        timeline.append(f"space {s}: " + ("; ".join(words) if words else "empty"))
    by_kind = {k: [c for c in st.past if book.cards[c].kind == k] for k in MONUMENT_KINDS}
    past = "; ".join(f"{KIND_NAMES[k]} {len(cs)}"
                     + (f" ({', '.join(card_name(book, c) for c in cs)})" if cs else "")
                     for k, cs in by_kind.items())
    past = f"{len(st.past)} monuments, {st.rotated} rotated: {past}"
    artifacts = tuple(_artifact_space(st, a) for a in st.artifacts)
    tiles = []
    for t, tile in enumerate(A.TILE_NAMES):
        cards = [card_name(book, c) if c != EMPTY else "empty" for c in st.tiles[3 * t:3 * t + 3]]
        tiles.append(f"tile {tile} (Level {'I' * st.tile_level[t]}): " + ", ".join(cards))
    if st.time_space:
        time_card = f"time card in space {st.time_space}, {st.time_visits} of 2 visits to the Past"
    else:
        time_card = f"time card in the Past, {st.time_visits} of 2 visits"
    return PositionView(
        turn=st.turn, time_card=time_card, timeline=tuple(timeline), past=past,
        hand=tuple(card_name(book, c) for c in st.hand), artifacts=artifacts,
        tiles=tuple(tiles), technologies=tuple(card_name(book, c) for c in st.techs),
        lost=st.lost, deck=len(st.deck), discard=len(st.discard),
        score=st.score().as_dict(), goals=goal_progress(st))


def _artifact_space(st: GameState, item: int) -> str:
    if item == EMPTY:
        return "empty"
    goal = item >= CHEST_BASE and item - CHEST_BASE in st.goal_chests
    return card_name(st.book, item) + (" (goal)" if goal else "")


def goal_progress(st: GameState) -> tuple[GoalProgress, ...]:
    """Each goal chest (RULES.md section 8: checked at the end of the game) with the counts of
    its comparisons now."""
    out = []
    for k in st.goal_chests:
        goal = chest_goal(st, k)
        counts = []
        for clause in comparisons(goal):
            spec = COUNTERS.get(clause.counter)
            what = spec.text if spec is not None and spec.text else clause.counter
            now = counter_value(st, clause.counter)
            counts.append(f"{what}: {now} now, the goal asks {clause.op} {clause.value}")
        out.append(GoalProgress(A.CHEST_LETTERS[k], str(goal), evaluate(goal, st), tuple(counts)))
    return tuple(out)
