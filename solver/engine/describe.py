"""Turn-by-turn wording of a game, for people who play it at the table.

`describe_line` replays a line (`solver.engine.record`) with the engine and writes each game
action and phase as one instruction in the game's words (`solver.engine.wording`), e.g.
``Create Ellora Caves (C5) in space 5 with 3 knowledge, discarding Menhir di Monte Corru Tundu
(M2) and Pyramid of Khafre (P1)``. It also shows the decisions the engine took by itself
because they had a single option (a forced space, a forced discard): they are part of what
happened even though a line does not write them; and with each phrase it keeps the notation of
the decisions the line writes (``--notation``).

Each turn ends with the hand, card by card, the knowledge on the Timeline and the lost
knowledge, and lists what the automatic phases did: the die roll and the discarded
technologies (RULES.md section 4D), the time card and the monuments that declined to the Past
with the knowledge they turned into lost knowledge (section 4C), reshuffled decks. A report
also keeps the facts a picture of the line needs (monuments created and declined, artifacts,
technologies, the running score).

To see every step the walker watches the engine loop (`solver.engine.flow.Rules` with an
`Observer`): it is told of every decision, explicit or forced, and runs each automatic frame
itself; `tests/test_record.py` checks that it reaches exactly the positions of a plain replay.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field

from solver.engine import actions as A
from solver.engine.cards import CardBook
from solver.engine.chests import BETWEEN_FRAMES
from solver.engine.errors import IllegalActionError
from solver.engine.flow import RULES, Auto
from solver.engine.frames import (
    D_ACTION,
    D_CHEST_WINDOW,
    F_DECLINE_FINISH,
    F_DECLINE_PHASE,
    F_ELONGATED,
    F_PLACE,
    F_SLIDE,
    F_TECH_PHASE,
    F_TIMELINE_PHASE,
    F_TURN_END,
    F_TURN_START,
    Frame,
)
from solver.engine.newgame import new_game
from solver.engine.setup import Setup
from solver.engine.state import EMPTY, GameState
from solver.engine.wording import (
    Change,
    Namer,
    PhraseBuilder,
    Snapshot,
    change,
    reshuffle_words,
    snapshot,
    tile_words,
)

_PREFIX = {"setup": "Setup: ", "timeline": "Timeline phase: ", "decline": "Decline phase: ",
           "window:timeline": "Before the Timeline phase: ",
           "window:decline": "Before the decline phase: ",
           "window:tech": "Before the technology phase: "}
_WINDOW_OF = {F_TIMELINE_PHASE: "window:timeline", F_DECLINE_PHASE: "window:decline",
              F_TECH_PHASE: "window:tech"}


@dataclass
class TurnReport:
    """What happened in one turn: the phrase of each action and phase (with the notation of
    its decisions), the automatic events, the position after the turn, and the facts of the
    turn for a picture."""

    turn: int
    phrases: list[str] = field(default_factory=list)
    notations: list[str] = field(default_factory=list)  # one per phrase: its decisions
    events: list[str] = field(default_factory=list)
    #: per event, how many phrases came before it: the log prints each in the order it happened
    #: (an event during a step, e.g. a reshuffle, before that step's phrase)
    event_after: list[int] = field(default_factory=list)
    hand: int = 0
    hand_cards: list[str] = field(default_factory=list)
    timeline_knowledge: int = 0
    lost: int = 0
    over: bool = False
    created: list[tuple[int, int]] = field(default_factory=list)  # (monument, space)
    artifacts: list[int] = field(default_factory=list)
    learned: list[int] = field(default_factory=list)
    declined: list[tuple[int, int]] = field(default_factory=list)  # (monument, knowledge lost)
    vanished: list[int] = field(default_factory=list)  # discarded instead of declining
    score: int = 0  # the score sheet's total if the game ended after this turn

    def items(self) -> list[tuple[str, str]]:
        """The phrases (``"phrase"``) and automatic events (``"event"``) in the order they
        happened."""
        out: list[tuple[str, str]] = []
        events = list(zip(self.event_after, self.events, strict=True))
        k = 0
        for i, phrase in enumerate(self.phrases):
            while k < len(events) and events[k][0] <= i:
                out.append(("event", events[k][1]))
                k += 1
            out.append(("phrase", phrase))
        out += [("event", text) for _, text in events[k:]]
        return out

    @property
    def title(self) -> str:
        return "Setup" if self.turn == 0 else f"Turn {self.turn}"

    def summary(self) -> str:
        """One line: the hand by name, knowledge on the Timeline, lost knowledge."""
        cards = ": " + ", ".join(self.hand_cards) if self.hand_cards else " (empty)"
        return (f"hand {self.hand}{cards}; knowledge on the Timeline "
                f"{self.timeline_knowledge}; lost knowledge {self.lost}")


class _Walker:
    """Runs the engine loop step by step, wording every decision and automatic event."""

    def __init__(self, st: GameState) -> None:
        self.st = st
        self.namer = Namer(st.book, st.setup.chest_data)
        self.reports: list[TurnReport] = [TurnReport(st.turn)]
        self.kind = ""
        self.builder: PhraseBuilder | None = None
        self.turn_open = True
        self.pending: tuple[Frame, int, str | None, Snapshot] | None = None
        self.loose_notation: list[str] = []  # decisions that said nothing, for the next phrase
        self.reshuffles = tuple(st.reshuffles)
        self.open_at_end = False  # `finish` closed a step still open (a game in progress)

    # ------------------------------------------------------------------ the engine loop

    def apply(self, action: int) -> None:
        """`Rules.apply`, watched."""
        RULES.apply(self.st, action, observer=self)

    # ------------------------------------------------------------------ groups

    def _begin(self, kind: str) -> None:
        self._end_group()
        self.kind = kind
        self.builder = PhraseBuilder(self.namer, self.st)

    def _end_group(self) -> None:
        b, self.builder = self.builder, None
        if b is None:
            return
        text = b.text(_PREFIX.get(self.kind, ""))
        rep = self.reports[-1]
        notation = self.loose_notation + b.notation
        if text:
            rep.phrases.append(text)
            rep.notations.append(" ".join(notation))
            self.loose_notation = []
        elif notation and rep.notations:
            rep.notations[-1] = " ".join([rep.notations[-1], *notation]).strip()
        else:
            self.loose_notation = notation

    def _group(self) -> PhraseBuilder:
        if self.builder is None:
            self._begin("other")
        assert self.builder is not None
        return self.builder

    def _close_turn(self) -> None:
        if not self.turn_open:
            return
        self._end_group()
        st = self.st
        rep = self.reports[-1]
        rep.hand = len(st.hand)
        rep.hand_cards = [self.namer(c) for c in st.hand]
        rep.timeline_knowledge = st.timeline_tokens()
        rep.lost = st.lost
        rep.over = st.is_terminal()
        rep.score = st.score().total
        self.turn_open = False

    def _event(self, text: str) -> None:
        rep = self.reports[-1]
        rep.events.append(text)
        rep.event_after.append(len(rep.phrases))

    # ------------------------------------------------------------------ steps

    def _flush(self) -> None:
        """Word the pending decision with what it changed, now that it has been taken."""
        if self.pending is not None:
            fr, action, notation, before = self.pending
            self.pending = None
            ch = change(before, snapshot(self.st))
            self._group().decision(fr, action, ch, notation)
            self._facts(ch)
        self._reshuffled()

    def _facts(self, ch: Change) -> None:
        self.reports[-1].learned.extend(ch.techs)

    def _reshuffled(self) -> None:
        now = tuple(self.st.reshuffles)
        for deck in range(3):
            for _ in range(now[deck] - self.reshuffles[deck]):
                self._event(reshuffle_words(deck))
        self.reshuffles = now

    def note(self, fr: Frame, action: int, explicit: bool) -> None:
        """A decision is about to be taken (`solver.engine.flow.Observer`)."""
        self._flush()
        st = self.st
        kind = fr[0]
        if st.turn == 0:
            if self.kind != "setup" or self.builder is None:
                self._begin("setup")
        elif kind == D_ACTION:
            self._begin("action")
        elif kind == D_CHEST_WINDOW and not (self.builder is not None and st.stack
                                             and st.stack[-1][0] in BETWEEN_FRAMES):
            # (a window between two effects or declines is told in the phrase of their phase
            # or action)
            window = _WINDOW_OF.get(st.stack[-1][0], "other") if st.stack else "other"
            if self.kind != window or self.builder is None:
                self._begin(window)
        notation = st.action_to_string(action) if explicit else None
        self.pending = (fr, action, notation, snapshot(st))

    def auto(self, fr: Frame, run: Auto) -> None:
        """An automatic frame: run it, and word what it did (`solver.engine.flow.Observer`)."""
        self._flush()
        st = self.st
        kind = fr[0]
        before = snapshot(st)
        if kind == F_TURN_START:
            self._close_turn()
            from_past = st.time_space == 0
            run(st, fr)
            self.reports.append(TurnReport(st.turn))
            self.turn_open = True
            if from_past:
                self._event("the time card comes back from the Past to space 6")
        elif kind == F_TURN_END:
            run(st, fr)
            self._close_turn()
        elif kind == F_DECLINE_PHASE:
            self._decline_phase(fr, run)
        elif kind == F_DECLINE_FINISH:
            self._decline_finish(fr, run)
        elif kind == F_TECH_PHASE:
            self._begin("tech")
            self._tech_phase(fr, run, before)
        elif kind == F_ELONGATED:
            run(st, fr)
            drawn = change(before, snapshot(st)).drawn
            if drawn:
                self._event(f"Elongated Skulls (A32): draw {self.namer.cards(drawn)}")
        elif kind == F_SLIDE:
            run(st, fr)
        else:
            if kind == F_TIMELINE_PHASE:
                self._begin("timeline")
            run(st, fr)
            ch = change(before, snapshot(st))
            self._group().auto(fr, ch)
            self._facts(ch)
            if kind == F_PLACE:
                self._placed(fr)
        self._reshuffled()

    def _placed(self, fr: Frame) -> None:
        card, space = fr[1], fr[2]
        rep = self.reports[-1]
        if self.st.book.cards[card].is_artifact:
            rep.artifacts.append(card)
        else:
            rep.created.append((card, space))

    def _decline_phase(self, fr: Frame, run: Auto) -> None:
        st = self.st
        self._begin("decline")
        space, visits = st.time_space, st.time_visits
        run(st, fr)
        if st.over:
            self._event("the time card is in space 1 for the third time: the game ends at "
                        "once (nothing declines, and the technology phase is skipped)")
            return
        if space == 1:
            self._event(f"the time card goes to the Past ({visits + 1} of 2)")
        if st.potala:
            self._event("Potala Palace (C30): nothing declines this turn")

    def _decline_finish(self, fr: Frame, run: Auto) -> None:
        st = self.st
        card = fr[1]
        was_there, lost, tokens = st.in_timeline(card), st.lost, st.tokens[card]
        run(st, fr)
        who = self.namer(card)
        rep = self.reports[-1]
        if was_there and card in st.past:
            gained = st.lost - lost
            rep.declined.append((card, gained))
            self._event(f"{who} declines to the Past: its {gained} knowledge "
                        f"become{'s' if gained == 1 else ''} lost knowledge (lost knowledge "
                        f"{lost} -> {st.lost})" if gained else
                        f"{who} declines to the Past (without knowledge)")
        elif was_there and card in st.discard:
            rep.vanished.append(card)
            back = f" (its {tokens} knowledge goes back to the reserve)" if tokens else ""
            self._event(f"{who} is discarded instead of declining{back}")

    def _tech_phase(self, fr: Frame, run: Auto, before: Snapshot) -> None:
        """The die roll (RULES.md section 4D, D9): the card in that slot is discarded; a tile
        left with one card is discarded and refilled."""
        st = self.st
        roll = st.setup.rolls[st.die_pos]
        slot = st.die_slot(roll)
        tile = slot // 3
        hit = st.tiles[slot]
        run(st, fr)
        self._reshuffled()  # a refill that emptied a deck: said before the phase
        name = self.namer
        text = f"technology phase: the die shows {roll}: " + (
            f"discard {name(hit)} from tile {A.TILE_NAMES[tile]}" if hit != EMPTY
            else f"slot {roll} is empty, nothing is discarded")
        for t, out, new in change(before, snapshot(st)).tiles:
            words = tile_words(name, t, [c for c in out if c != hit], new)
            text += "; " + words if words else ""
        self._event(text)

    def finish(self) -> list[TurnReport]:
        self._flush()
        self.open_at_end = self.builder is not None and self.turn_open
        self._close_turn()
        reports = [r for r in self.reports if r.turn > 0 or r.phrases or r.events]
        if self.loose_notation and reports and reports[-1].notations:
            reports[-1].notations[-1] += " " + " ".join(self.loose_notation)
        return reports


# ---------------------------------------------------------------------------- entry points

def _walked(setup: Setup, book: CardBook, line: Sequence[Sequence[str]]) -> _Walker:
    """A walker that has played `line` from the deal of `setup`, wording every step.

    :raises IllegalActionError: a decision of the line is not legal (check with
        `solver.engine.record.replay` first)."""
    walker = _Walker(new_game(setup, book))
    st = walker.st
    for t, turn in enumerate(line):
        for k, text in enumerate(turn, start=1):
            try:
                action = st.string_to_action(text)
            except A.NotationError:
                action = -1
            if st.turn != t or action not in st.legal:
                raise IllegalActionError(f"turn {t}, decision {k}: {text!r} is not legal here")
            walker.apply(action)
    return walker


def describe_line(setup: Setup, book: CardBook,
                  line: Sequence[Sequence[str]]) -> list[TurnReport]:
    """The turn-by-turn reports of a line (a whole game or a prefix; `_walked`)."""
    return _walked(setup, book, line).finish()


def describe_so_far(setup: Setup, book: CardBook, line: Sequence[Sequence[str]]
                    ) -> tuple[list[TurnReport], bool]:
    """`describe_line` of a game in progress, and whether its last phrase is of a step still
    open (its next decisions may add to it: the phrase is not final yet)."""
    walker = _walked(setup, book, line)
    reports = walker.finish()
    return reports, walker.open_at_end and not walker.st.is_terminal()


def walk_state(setup: Setup, book: CardBook, line: Sequence[Sequence[str]]) -> GameState:
    """The position the describing walker reaches (for the test that it follows the engine)."""
    return _walked(setup, book, line).st
