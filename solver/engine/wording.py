"""The words of a line: each decision kind as an instruction a player can follow at the table.

`solver.engine.describe` walks a game and hands every step (a decision, explicit or forced, and
every automatic frame) to a `PhraseBuilder` with the `Change` it made to the position. The
builder writes one phrase per action or phase, in clauses joined by ``; ``, e.g.
``Create Pyramid of Nice (P18) in space 2 with 1 knowledge, discarding Disks of Bayan Kara Ula
(A4); Pyramid of Nice (P18): remove 1 knowledge from Ellora Caves (C5)``.

The rules of the wording:

* every decision kind has its own words (`PhraseBuilder.decision`); nothing is said for a "you
  may" that was declined, an empty choice, or the end of a variable-length choice (``done``);
  no notation (``@C5``, ``#3``, ``s3``, ``!C5``, ``done``/``yes``/``no``) appears;
* what an effect did is read off the position (`Change`): cards drawn, revealed, kept and
  discarded are named, knowledge removed is counted per monument, and every change of lost
  knowledge shows its cause and its values (``lost knowledge 4 -> 2``);
* an effect's clause is headed by its card (or chest) and dropped when the effect did nothing.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field

from solver.engine import actions as A
from solver.engine.cards import CardBook
from solver.engine.chestcards import ChestSet
from solver.engine.frames import (
    D_ACTION,
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
    D_FLIP,
    D_KEEP,
    D_KENSINGTON,
    D_LEARN,
    D_MOVE_SPACE,
    D_ORDER,
    D_PAY,
    D_PICK,
    D_TARGET,
    D_TECH_PICK,
    D_YESNO,
    F_EFFECT,
    F_PLACE,
    F_STEPS,
    Frame,
)
from solver.engine.goals import COUNTERS, And, Goal, Or
from solver.engine.state import CHEST_BASE, EMPTY, HAND_LIMIT, GameState
from solver.engine.targets import MOVE, SWAP_FIRST, SWAP_SECOND, SWAP_SELF
from solver.engine.techeffects import BURY, HOLD

# ---------------------------------------------------------------------------- names


class Namer:
    """Card and chest names as a player reads them: ``Ellora Caves (C5)``, ``chest Б (Casket
    of Lefkadia)``."""

    def __init__(self, book: CardBook, chests: ChestSet | None = None) -> None:
        self.book = book
        self.chests = chests

    def __call__(self, card: int) -> str:
        """A card, or a chest effect's source (``CHEST_BASE + k``)."""
        if card >= CHEST_BASE:
            return self.chest(card - CHEST_BASE)
        c = self.book.cards[card]
        return f"{c.name} ({c.code})"

    def chest(self, k: int, goal: bool = False) -> str:
        """``chest Б (Casket of Lefkadia)``; with `goal`, its goal in words too."""
        letter = A.CHEST_LETTERS[k]
        if self.chests is None:
            return f"chest {letter}"
        what = f", goal: {goal_words(self.chests[k].goal)}" if goal else ""
        return f"chest {letter} ({self.chests[k].name}{what})"

    def cards(self, cards: Sequence[int]) -> str:
        return and_list([self(c) for c in cards])


def and_list(items: Sequence[str]) -> str:
    """``A``, ``A and B``, ``A, B and C``."""
    if len(items) <= 1:
        return "".join(items)
    return ", ".join(items[:-1]) + " and " + items[-1]


def plural(n: int, word: str) -> str:
    return f"{n} {word}{'' if n == 1 else 's'}"


_OPS = {">=": "at least", "<=": "at most", "==": "exactly", ">": "more than", "<": "fewer than"}


def goal_words(goal: Goal) -> str:
    """A goal in words: ``at least 8 monuments in the Past``; ``and``/``or`` as written, a
    part of the other kind in parentheses."""
    if isinstance(goal, And | Or):
        joiner = " and " if isinstance(goal, And) else " or "
        return joiner.join(
            f"({goal_words(p)})" if isinstance(p, And | Or) and type(p) is not type(goal)
            else goal_words(p) for p in goal.parts)
    spec = COUNTERS.get(goal.counter)
    what = spec.text if spec is not None and spec.text else goal.counter
    return f"{_OPS[goal.op]} {goal.value} {what}"


# ---------------------------------------------------------------------------- changes


@dataclass(frozen=True)
class Snapshot:
    """The parts of a position a phrase reports on."""

    hand: tuple[int, ...]
    limbo: tuple[int, ...]
    deck: tuple[int, ...]  # the builder deck, top last
    discard: tuple[int, ...]
    tokens: tuple[tuple[int, int], ...]  # (Timeline monument, its knowledge)
    lost: int
    techs: tuple[int, ...]
    rotated: int
    artifacts: tuple[int, ...]
    tiles: tuple[int, ...]
    tech_discards: tuple[int, ...]
    reshuffles: tuple[int, ...]
    held: tuple[int, ...]  # technologies on cards (Abu Simbel)


def snapshot(st: GameState) -> Snapshot:
    return Snapshot(
        hand=tuple(st.hand), limbo=tuple(st.limbo), deck=tuple(st.deck),
        discard=tuple(st.discard),
        tokens=tuple((m, st.tokens[m]) for m in st.monuments()), lost=st.lost,
        techs=tuple(st.techs), rotated=st.rotated, artifacts=tuple(st.artifacts),
        tiles=tuple(st.tiles), tech_discards=tuple(st.tech_discards[0] + st.tech_discards[1]),
        reshuffles=tuple(st.reshuffles), held=tuple(t for _, t in st.held))


@dataclass
class Change:
    """What one step changed, in the terms a phrase uses."""

    drawn: list[int] = field(default_factory=list)  # into the hand from the deck
    kept: list[int] = field(default_factory=list)  # into the hand from revealed cards
    from_hand: list[int] = field(default_factory=list)  # from the hand to the discard pile
    discarded: list[int] = field(default_factory=list)  # to the discard pile from elsewhere
    revealed: list[int] = field(default_factory=list)  # turned up from the deck
    removed: dict[int, int] = field(default_factory=dict)  # knowledge off Timeline monuments
    placed: dict[int, int] = field(default_factory=dict)  # new Timeline monuments: knowledge
    lost: tuple[int, int] = (0, 0)  # lost knowledge before, after
    techs: list[int] = field(default_factory=list)  # joined the collection
    straightened: int = 0
    tiles: list[tuple[int, list[int], list[int]]] = field(default_factory=list)  # tile, out, in
    reshuffled: list[int] = field(default_factory=list)  # 0 builder, 1 Level I, 2 Level II
    held_lost: list[int] = field(default_factory=list)  # held technologies discarded


def change(a: Snapshot, b: Snapshot) -> Change:
    """The change from `a` to `b`.

    When the builder deck ran out within the step (RULES.md section 5: its discard pile is
    shuffled into a new deck), the pile at `b` holds only what was discarded after that
    reshuffle, and the cards of the old deck were all taken before it: those neither in the
    hand nor set aside at `b` were turned up and discarded (Calakmul, P33), then shuffled in."""
    hand_a = set(a.hand)
    limbo_a, discard_a = set(a.limbo), set(a.discard)
    ch = Change(lost=(a.lost, b.lost))
    for c in b.hand:
        if c not in hand_a:
            (ch.kept if c in limbo_a else ch.drawn).append(c)
    if b.reshuffles[0] > a.reshuffles[0]:
        hand_b, limbo_b = set(b.hand), set(b.limbo)
        ch.discarded = [c for c in reversed(a.deck) if c not in hand_b and c not in limbo_b]
        discard_a = set()
    for c in b.discard:
        if c not in discard_a:
            (ch.from_hand if c in hand_a else ch.discarded).append(c)
    known = limbo_a | hand_a | discard_a | set(a.artifacts)
    ch.revealed = [c for c in b.limbo if c not in limbo_a and c not in hand_a]
    ch.revealed += [c for c in ch.discarded if c not in known and c not in ch.revealed]
    before = dict(a.tokens)
    for m, n in b.tokens:
        if m not in before:
            ch.placed[m] = n
        elif n < before[m]:
            ch.removed[m] = before[m] - n
    techs_a = set(a.techs)
    ch.techs = [t for t in b.techs if t not in techs_a]
    ch.straightened = max(0, a.rotated - b.rotated)
    learned = set(ch.techs)
    for tile in range(3):
        was = [c for c in a.tiles[3 * tile:3 * tile + 3] if c != EMPTY]
        now = [c for c in b.tiles[3 * tile:3 * tile + 3] if c != EMPTY]
        if any(c not in was for c in now) or (was and not now):
            # A tile gains cards only when it is refilled, and it is refilled only once empty
            # (RULES.md section 5: its last card discarded; the flip: all of them); a tile
            # that held cards and holds none had its last one discarded and could not be
            # refilled (fewer than 3 cards of its level left): every card it held has left it.
            # Those learned were not discarded; one the decision itself took (buried, held)
            # neither: the caller drops it (`PhraseBuilder.consequences`' `own`, the die's
            # card in `describe`). Where the cards went cannot tell: the discarded card, or a
            # buried one, may come back at once when the refill reshuffles the discard pile.
            ch.tiles.append((tile, [c for c in was if c not in learned], now))
    ch.reshuffled = [k for k in range(3) if b.reshuffles[k] > a.reshuffles[k]]
    held_b = set(b.held)
    ch.held_lost = [t for t in a.held if t not in held_b and t not in learned]
    return ch


DECK_NAMES = ("builder deck", "Level I technology deck", "Level II technology deck")


def reshuffle_words(deck: int) -> str:
    """A deck running out (RULES.md section 5): said before the step in which it happens."""
    return (f"the {DECK_NAMES[deck]} runs out in the next step: when it does, shuffle its "
            "discard pile into a new deck")


def tile_words(namer: Namer, tile: int, out: Sequence[int], new: Sequence[int]) -> str:
    """A tile refilled (RULES.md sections 4D, 5 and 6): the cards left on it discarded first;
    with no `new` cards, the tile stays empty (fewer than 3 cards of its level left)."""
    name = A.TILE_NAMES[tile]
    if not new:
        if not out:
            return ""
        return (f"discard {namer.cards(out)}, the last card of tile {name}: the tile stays "
                f"empty (fewer than 3 cards left in its deck and discard pile)")
    if not out:
        return f"refill tile {name} with {namer.cards(new)}"
    if len(out) == 1:
        return (f"discard {namer(out[0])}, the last card of tile {name}, and refill the tile "
                f"with {namer.cards(new)}")
    return f"discard {namer.cards(out)} from tile {name} and refill it with {namer.cards(new)}"


# ---------------------------------------------------------------------------- clauses


@dataclass
class Clause:
    """One clause of a phrase: a head (what the player does, or whose effect resolves) and its
    details, the consequences read off the position."""

    head: str
    source: int = -1  # the card (or CHEST_BASE + chest) whose effect the details belong to
    verb: str = ""  # an action still waiting for its card (create, learn, archive, excavate)
    where: str = ""  # " in space 5"
    knowledge: int | None = None  # knowledge a created monument enters with
    paying: list[int] = field(default_factory=list)  # cards discarded to pay a Create
    cost: int = 0  # cards the Create costs
    subjects: list[int] = field(default_factory=list)  # archived cards, chosen goals...
    details: list[list[object]] = field(default_factory=list)  # [kind, payload...]
    keep: bool = True  # print even without details
    joined: bool = False  # what the clause before it did (a chest's Create): ``X: create Y``

    def add(self, kind: str, *payload: object) -> None:
        """A detail; the same kind again joins the first (one "draw" list, one removal)."""
        for d in self.details:
            if d[0] == kind and kind in _MERGED:
                _merge(d, payload)
                return
        self.details.append([kind, *payload])


_MERGED = frozenset({"draw", "keep", "discard", "reveal", "remove", "lost", "learn", "bottom",
                     "artifact", "straighten"})


def _merge(d: list[object], payload: tuple[object, ...]) -> None:
    kind = d[0]
    if kind == "remove":
        into = d[1]
        assert isinstance(into, dict)
        for m, n in payload[0].items():  # type: ignore[attr-defined]
            into[m] = into.get(m, 0) + n
    elif kind == "lost":
        d[2] = payload[1]
    elif kind == "straighten":
        d[1] = int(d[1]) + int(payload[0])  # type: ignore[call-overload]
    else:
        items = d[1]
        assert isinstance(items, list)
        items.extend(payload[0])  # type: ignore[arg-type]


class PhraseBuilder:
    """The phrase of one action or phase, built step by step (module docstring)."""

    def __init__(self, namer: Namer, st: GameState) -> None:
        self.namer = namer
        self.st = st
        self.clauses: list[Clause] = []
        self.swap_first = -1
        self.notation: list[str] = []

    # ------------------------------------------------------------------ steps

    @property
    def current(self) -> Clause | None:
        return self.clauses[-1] if self.clauses else None

    def _open(self, head: str, source: int = -1, keep: bool = True, verb: str = "") -> Clause:
        clause = Clause(head, source=source, keep=keep, verb=verb)
        self.clauses.append(clause)
        return clause

    def _about(self, source: int) -> Clause:
        """The clause of an effect of `source`: the current one if it is about that card."""
        cur = self.current
        if cur is not None and cur.source == source:
            return cur
        return self._open(self.namer(source), source=source, keep=False)

    def _here(self) -> Clause:
        cur = self.current
        return cur if cur is not None else self._open("", keep=False)

    def auto(self, fr: Frame, ch: Change) -> None:
        """An automatic frame: an effect of a card starts (or continues) its clause."""
        kind = fr[0]
        if kind in (F_EFFECT, F_STEPS):
            self._about(fr[1])
        if kind == F_PLACE and fr[1] in ch.placed and self.current is not None:
            self.current.knowledge = ch.placed[fr[1]]
        self.consequences(ch)

    def decision(self, fr: Frame, action: int, ch: Change, notation: str | None) -> None:
        """A decision taken (explicit: `notation` is its text in the line)."""
        if notation is not None:
            self.notation.append(notation)
        dk, v = fr[0], A.value_of(action)
        own: list[int] = []
        n = self.namer
        if dk == D_KEEP:
            cur = self.current
            if cur is None or cur.verb != "keep":
                cur = self._open("keep", verb="keep")
            cur.subjects.append(v)
            own = [v]
        elif dk == D_ACTION and A.kind_of(action) == A.CHEST:
            self._open(f"use {n.chest(v)}", source=CHEST_BASE + v)
        elif dk == D_ACTION:
            verb = A.ACT_NAMES[v]
            self._open(verb, verb="" if v == A.SEARCH else verb)
            if v == A.SEARCH and not ch.drawn:  # D4, or no builder card left to draw
                self._here().add("note", "the hand is full: nothing is drawn"
                                 if len(self.st.hand) >= HAND_LIMIT else
                                 "the deck and its discard pile are empty: nothing is drawn")
        elif dk == D_CHEST_WINDOW:
            if action != A.DONE:
                self._open(f"use {n.chest(v)}", source=CHEST_BASE + v)
        elif dk == D_CREATE_CARD:
            if action != A.NO:
                self._subject("create", v)
                card = n.book.cards[v]
                if card.is_artifact:
                    self._here().cost = card.discard_cost
                own = [v]
        elif dk == D_CREATE_SPACE:
            cur = self._here()
            cur.where = f" in space {v}"
            card = n.book.cards[fr[1]]
            cur.cost = card.discard_cost + abs(v - card.starting_space)
        elif dk == D_PAY:
            cur = self.current
            if cur is not None and len(cur.paying) < cur.cost:
                cur.paying.append(v)
            elif self.st.turn == 0:  # Campaign rank: more cards discarded at setup
                if cur is None or cur.verb != "rank":
                    cur = self._open("discard for the campaign rank", verb="rank")
                cur.subjects.append(v)
            else:
                self._here().add("discard", [v])
            own = [v]
        elif dk == D_ARCHIVE:
            if action not in (A.DONE, A.NO):
                cur = self.current
                if cur is not None and cur.verb == "archive":
                    cur.subjects.append(v)
                else:
                    self._here().add("archive", [v])
                own = [v]
        elif dk == D_LEARN:
            if action != A.NO:
                self._subject("learn", v)
                own = [v]
        elif dk == D_EXCAVATE:
            cur = self._here()
            if cur.verb == "excavate":
                cur.head = (f"excavate {plural(v, 'monument')} in the Past (turn "
                            f"{'it' if v == 1 else 'them'} sideways)")
                cur.verb = ""
        elif dk == D_KENSINGTON:
            if action == A.YES:
                self._here().add("note", "with Kensington Runestone (A25), remove up to 6 "
                                 "knowledge instead of drawing")
        elif dk in (D_YESNO, D_CHEST_USE):
            if action == A.YES:
                self._about(fr[1] if dk == D_YESNO else CHEST_BASE + fr[1]).keep = True
        elif dk == D_TARGET:
            self._target(fr, v)
        elif dk == D_MOVE_SPACE:
            cur = self._here()
            if cur.details and cur.details[-1][0] == "move":
                cur.details[-1][1] = f"{cur.details[-1][1]} to space {v}"
        elif dk == D_PICK:
            self._here().add("keep", [v])
            own = [v]
        elif dk == D_DISCARD_VAR:
            if action != A.DONE:
                self._here().add("discard", [v])
                own = [v]
        elif dk == D_ARTIFACT_PAY:
            if action != A.DONE:
                self._here().add("artifact", [v])
                own = [v]
        elif dk == D_TECH_PICK:
            own = [v]
            if fr[1] == BURY:
                level = "I" * n.book.cards[v].level
                self._here().add("text", f"put {n(v)} at the bottom of the Level {level} deck")
            elif fr[1] == HOLD:
                self._here().add("text", f"put {n(v)} on {n(fr[2])}")
            else:
                self._here().add("learn", [v])
        elif dk == D_BOTTOM:
            self._here().add("bottom", [v])
        elif dk == D_ORDER:
            source = v + CHEST_BASE if A.kind_of(action) == A.CHEST else v
            self._open(n(source), source=source, keep=False).verb = "order"
        elif dk == D_DECLINE_ORDER:
            self._open(n(v), source=v).verb = "decline"
        elif dk == D_FLIP:
            self._open(f"middle of the game: flip tile {A.TILE_NAMES[v]} to Level II")
        elif dk == D_CHEST_GOALS:
            if action != A.DONE:
                cur = self.current
                if cur is None or cur.verb != "goals":
                    cur = self._open("take as goals", verb="goals")
                cur.subjects.append(CHEST_BASE + v - A.CHEST_PICK)
        elif dk == D_CHEST_REVISE and action != A.DONE:
            cur = self.current
            if cur is None or cur.verb != "revise":
                cur = self._open("give up the goal of", verb="revise")
            cur.subjects.append(CHEST_BASE + v - A.CHEST_PICK)
        # D_REMOVE and D_NUMBER say nothing themselves: the knowledge they remove is a
        # consequence (below), counted per monument.
        self.consequences(ch, own)

    def _subject(self, verb: str, card: int) -> None:
        """A Create or Learn: the action's card, or a further one granted by an effect."""
        cur = self.current
        if cur is not None and cur.verb == verb:
            cur.head, cur.verb, cur.source = f"{verb} {self.namer(card)}", "", card
        else:
            granted = cur is not None and cur.source >= 0 and not cur.details and not cur.verb
            self._open(f"{verb} {self.namer(card)}", source=card).joined = granted

    def _target(self, fr: Frame, target: int) -> None:
        purpose, n = fr[2], self.namer
        cur = self._about(fr[1])
        if purpose == SWAP_SELF:
            cur.add("text", f"swap it with {n(target)}")
        elif purpose == SWAP_FIRST:
            self.swap_first = target
        elif purpose == SWAP_SECOND:
            cur.add("text", f"swap {n(self.swap_first)} with {n(target)}")
        elif purpose == MOVE:
            cur.add("move", f"move {n(target)}" + (f" to space {fr[4]}" if fr[4] else ""))
        # removals: the knowledge taken is a consequence

    def consequences(self, ch: Change, own: Sequence[int] = ()) -> None:
        """The details of a change, added to the current clause."""
        if not (ch.drawn or ch.kept or ch.from_hand or ch.discarded or ch.removed
                or ch.lost[0] != ch.lost[1] or ch.techs or ch.straightened or ch.tiles
                or ch.revealed or ch.held_lost):
            return
        cur = self._here()
        mine = set(own) | set(cur.subjects) | set(cur.paying)
        revealed = [c for c in ch.revealed if c not in mine]
        if revealed:
            cur.add("reveal", revealed)
        drawn = [c for c in ch.drawn if c not in mine]
        if drawn:
            cur.add("draw", drawn)
        from_hand = [c for c in ch.from_hand if c not in mine]
        if from_hand:
            cur.add("discard", from_hand)
        others = [c for c in ch.discarded if c not in mine]
        if others:
            cur.add("discard", others)
        if ch.removed:
            cur.add("remove", dict(ch.removed))
        if ch.lost[0] != ch.lost[1]:
            cur.add("lost", ch.lost[0], ch.lost[1])
        techs = [t for t in ch.techs if t not in mine and cur.source != t]
        if techs:
            cur.add("learn", techs)
        if ch.straightened:
            cur.add("straighten", ch.straightened)
        for tile, out, new in ch.tiles:
            words = tile_words(self.namer, tile, [c for c in out if c not in own], new)
            if words:
                cur.add("text", words)
        for t in ch.held_lost:  # Abu Simbel's decline (RULES.md section 12)
            cur.add("text", f"discard {self.namer(t)}, the technology it held: its "
                            f"requirement is not met")

    # ------------------------------------------------------------------ text

    def text(self, prefix: str = "") -> str:
        """The phrase: a sentence per clause (``head: detail; detail``), joined by ``. ``;
        empty when nothing is worth saying."""
        kept = [c for c in self.clauses if c.keep or c.details]
        orders = [c for c in kept if c.verb == "order"]
        declines = [c for c in kept if c.verb == "decline"]
        parts: list[str] = []
        for c in kept:
            head = self._head(c)
            if c.verb == "order" and len(orders) > 1:
                head = ("first " if c is orders[0] else "then ") + head
            elif c.verb == "decline":
                head = f"{head} declines first" if c is declines[0] else f"then {head}"
            details = [d for d in (self._detail(d) for d in c.details) if d]
            text = f"{head}: {'; '.join(details)}" if head and details else (
                head or "; ".join(details))
            if c.joined and parts:
                parts[-1] += f": {text}"
                continue
            parts.append(text[0].upper() + text[1:] if parts or not prefix else text)
        if not parts:
            return ""
        text = prefix + ". ".join(parts)
        return text[0].upper() + text[1:]

    def _head(self, c: Clause) -> str:
        n = self.namer
        if c.verb in ("keep", "rank"):
            return f"{c.head} {n.cards(c.subjects)}"
        if c.verb == "archive":
            return f"archive {n.cards(c.subjects)}" if c.subjects else c.head
        if c.verb == "goals":
            names = [n.chest(s - CHEST_BASE, goal=True) for s in c.subjects]
            return f"take {and_list(names)} as goal{'s' if len(names) > 1 else ''}"
        if c.verb == "revise":
            return f"{c.head} {n.cards(c.subjects)}"
        head = c.head + c.where
        if c.knowledge is not None:
            head += f" with {c.knowledge} knowledge"
        if c.paying:
            head += f", discarding {n.cards(c.paying)}"
        return head

    def _detail(self, d: list[object]) -> str:
        n = self.namer
        kind = d[0]
        if kind in ("text", "note", "move"):
            return str(d[1])
        if kind == "remove":
            removed = d[1]
            assert isinstance(removed, dict)
            parts = [f"{k} from {n(m)}" for m, k in removed.items()]
            parts[0] = f"remove {parts[0].split(' ', 1)[0]} knowledge {parts[0].split(' ', 1)[1]}"
            return and_list(parts)
        if kind == "lost":
            a, b = int(d[1]), int(d[2])  # type: ignore[call-overload]
            verb = f"discard {a - b} lost knowledge" if b < a else f"gain {b - a} lost knowledge"
            return f"{verb} (lost knowledge {a} -> {b})"
        if kind == "straighten":
            k = int(d[1])  # type: ignore[call-overload]
            return f"straighten {plural(k, 'rotated monument')} in the Past"
        cards = d[1]
        assert isinstance(cards, list)
        words = {"draw": "draw", "keep": "keep", "discard": "discard", "reveal": "reveal",
                 "learn": "learn", "archive": "archive", "artifact": "discard the artifact",
                 "bottom": "put under the Level II deck, in this order,"}[str(kind)]
        return f"{words} {n.cards(cards)}"
