"""In the last turn, what each split of its action choices can bring into play: the simple
bound's counts (`solver.bounds.simple`) split by split, each with the cards that split alone
can put into the hand.

The last turn's action choices are the last of the game (RULES.md section 4A; the game ends at
its decline phase, D8). A line spends each one on one action: a Create, a Learn, or another
(`solver.bounds.reachable`'s splits). With the split fixed, fewer cards can leave the builder
deck before the Timeline phase than with every split at once (a Search or an Excavate draws;
a Create or a Learn only through the effects it sets off), so fewer cards may enter play:

* **The cards in play by the end** (`split_present`): as `solver.bounds.simple`'s
  `taken_before_timeline`, a count ``taken`` of cards leaving the deck such that
  `solver.bounds.actiontakes.action_takes` with only that split's counts
  (`solver.bounds.reachable.reach` over the action phase, only the cards of
  `solver.bounds.takes.enterable(taken)` entering play) is at most ``taken`` bounds every
  line of the split: until more than ``taken`` cards left the deck only those cards can have
  entered play, and while only they act the split takes at most ``taken``. With no card
  entering play after the action phase (`solver.bounds.takes.enters_after_actions`), a
  builder card acts only if it is among them. A technology that can no longer enter the
  collection (the caller's `techs_open`: `solver.bounds.simple`'s candidates, requirements and
  tiles read) never acts either: its draws are not counted.
* **Creates need cards** (`cards_to_create`): every Create of a monument picks a monument
  from the hand (section 5; only Ancient Greek creates from cards it looks at, and it creates
  an artifact, which then also counts), and in the last turn no card leaves play back to the
  hand or the deck (no effect moves one there; a card paid or discarded goes to the discard
  pile, which becomes the deck only once the deck is empty). So where the deck does not run
  out before the Timeline phase (`split_present` answers only there), the Creates of
  monuments are at most the monuments among those cards that are not in play now, and the
  Creates of artifacts at most the artifacts among them (a card is created at most once).
  Each Create also discards at least the card's printed cost from the hand besides the card
  (section 5: ``discard_cost + |s - starting_space|`` other cards), and the cards that pass
  through the hand until the Timeline phase are at most those in it now, those between zones
  and those taken from the deck: the Creates are at most as many cards as fit in that count
  with their costs, the cheapest first. No Create comes after the action phase (no card
  enters play then, `split_present`'s condition).

* **One Learn takes one technology** (`learn_cases`): a split whose lines learn at most once
  (its entry's Learns) learns a technology that takes cards once learned (draws, looks or
  discards from the hand: `solver.bounds.takes`' actors) or does not. In the last turn every
  technology enters the collection by a Learn (the Pyramid of the Niches' included; Abu
  Simbel's is a decline effect, none runs in it: D8), so on the lines of the first case the
  candidates of the technology row are those takers and no other technology enters; on the
  others, no taker enters the collection, so none takes a card and the candidates are the
  rest. Each case is bounded on its own (its cards, its counts, its candidates) and the
  larger kept: the technology row cannot take the best technology's VP while the hand takes
  the cards another technology would draw.

* **One Create action, one card** (`one_create`): with one Create action left, no card enters
  play before a line's first Create (only a Create puts one there, section 5), so until then
  only the cards in play or between zones act, and the cards in the hand are those in it now
  and those taken meanwhile (`solver.bounds.actiontakes.action_takes` with the split's Learns and
  other actions and no Create). If `reach`, with only those cards entering play, counts one
  Create at most (no effect of a card in play, of one of those cards, of a technology, of the
  stack or of a chest grants one), no line of the split creates a second card: its second
  Create would be granted by a card in play before it, all of which came from those cards
  (each earlier Create picked one of them), and that count would be two. Such a split creates
  at most one monument and at most one artifact (Dolmen of Menga drawn only after the Create
  action was spent on Dogon Mythology grants nothing).

`split_counts` gives each split's counts with all four: its own `reach` with its own cards, its
Creates capped by the cards it can create, one Learn's cases apart, one Create action's one
card. `closed_take` is the fixed point of the cards taken, for one split or for every split at
once (`solver.bounds.simple.taken_before_timeline`).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Final

from solver.bounds.actiontakes import TakeContext, action_takes
from solver.bounds.activators import Activator
from solver.bounds.reachable import (
    SPLIT_ACTIONS,
    UNBOUNDED,
    Reach,
    ReachMemo,
    ReachSummary,
    reach,
    split_choices,
)
from solver.bounds.takes import TakeTable, enterable, enters_after_actions
from solver.engine.cards import ARTIFACT
from solver.engine.frames import D_ACTION, F_TIMELINE_PHASE
from solver.engine.state import CHEST_BASE, GameState

#: Rounds of `split_taken`'s search for a closed count (`closed_take`; as many as the simple
#: bound's own).
SPLIT_ROUNDS: Final = 8
#: Answers of `split_taken` kept by position and split before the memo starts afresh.
SPLIT_KEPT: Final = 1 << 14
#: A split's entry of `Reach.splits`: (Create actions, Learn actions, other actions, Creates of
#: monuments, Learns, Creates of artifacts, lost knowledge removed, of it the technologies').
Entry = tuple[int, int, int, int, int, int, int, int]
#: A split of the action choices left: (Create actions, Learn actions, other actions).
Split = tuple[int, int, int]
#: What a split can bring into play (`split_present`): the builder cards that may be in play
#: before the game ends, and the most cards that can pass through the hand until the Timeline
#: phase (in it now, between zones now, or taken from the deck).
SplitCards = tuple[set[int], int]
#: Who answers `split_present`'s question for a split, given the technologies that may still
#: enter the collection (None: any); an answer may hold more cards than `split_present`'s.
SplitAnswer = Callable[[Split, frozenset[int] | None], SplitCards | None]
#: Who answers `first_cards`' question for an entry of a split with one Create action, given
#: the technologies that may still enter the collection; an answer may hold more cards.
FirstCards = Callable[[Entry, frozenset[int] | None], set[int] | None]
#: Creates of monuments and of artifacts both allowed (`entering`: no restriction).
ALL_KINDS: Final = (True, True)
#: `closed_take`'s `TakeContext`s of one position, by the technologies that may still enter the
#: collection (None: any).
Contexts = dict[frozenset[int] | None, TakeContext]
#: A split's entry and the technologies its lines may learn (None: any; `learn_cases`).
Case = tuple[Entry, frozenset[int] | None]


def closed_take(st: GameState, acts: tuple[Activator, ...], poulnabrone: tuple[int, ...],
                table: TakeTable, memo: ReachMemo, rounds: int,
                split: tuple[int, int, int] | None = None,
                techs_open: frozenset[int] | None = None,
                contexts: Contexts | None = None) -> int:
    """The least count ``taken`` reached from 0 (at most `rounds` rounds, none past the whole
    deck) whose `action_takes`, with only the builder cards of `enterable(taken)` entering
    play (`reach` over the action phase with them), is at most ``taken``; `UNBOUNDED` when
    none is reached. Such a count bounds the cards that leave the deck until this turn's
    Timeline phase begins: until more than ``taken`` left it, only those cards can have
    entered play (a card enters play only from the hand, which grows only from the deck's
    top, RULES.md section 5), and while they alone act at most ``taken`` leave it.
    `split`: only on lines that spend the action choices left so (Creates, Learns, others;
    `reach`'s entry of it alone). `techs_open`: the technologies that may still enter the
    collection (the others never act). `contexts`: the `TakeContext`s of `st` already worked
    out, by `techs_open` (one is added when missing)."""
    taken = 0
    context = take_context(st, table, techs_open, memo, contexts)  # what every round reads
    summary = context.reach_summary  # what every round's `reach` reads of `st`
    if summary is None:
        summary = context.reach_summary = ReachSummary(st, acts, 0, memo, True)
    seen = context.rounds
    for _ in range(rounds):
        known = seen.get(taken)
        if known is None:
            present = enterable(st, taken)
            r = reach(st, acts, 0, poulnabrone, memo, True, present, techs_open, summary)
            seen[taken] = (present, r)
        else:
            present, r = known
        if split is not None:
            entry = split_entry(r, split)
            if entry is None:
                return UNBOUNDED
            r = one_split(entry)
        more = action_takes(st, table, r, present, None, techs_open, context)
        if more <= taken:
            return taken
        if more > len(st.deck):
            return UNBOUNDED
        taken = more
    return UNBOUNDED


def take_context(st: GameState, table: TakeTable, techs_open: frozenset[int] | None,
                 memo: ReachMemo, contexts: Contexts | None = None) -> TakeContext:
    """The `TakeContext` of `st`, `table` and `techs_open`: the one in `contexts` (by
    `techs_open`), else a new one (added to `contexts`), its technologies' part from
    `memo`."""
    context = contexts.get(techs_open) if contexts is not None else None
    if context is None:
        context = TakeContext(st, table, techs_open, memo.tech_takes)
        if contexts is not None:
            contexts[techs_open] = context
    return context


def split_taken(st: GameState, acts: tuple[Activator, ...], poulnabrone: tuple[int, ...],
                table: TakeTable, memo: ReachMemo, split: Split,
                techs_open: frozenset[int] | None = None,
                position: tuple[object, ...] | None = None,
                contexts: Contexts | None = None) -> int:
    """The most builder cards that can leave the deck until this turn's Timeline phase begins
    on a line that spends the action choices left as `split` (Creates, Learns, others), or
    `UNBOUNDED` (see the module: the least closed count reached from 0 in `SPLIT_ROUNDS`).
    `techs_open`, when given: the technologies that may still enter the collection (the
    others never act). `position`: `st.key()`, when the caller has it (answers are kept by
    it). `contexts`: as `closed_take`'s."""
    key = (st.key() if position is None else position, split, techs_open)
    known = memo.split_taken.get(key)
    if known is not None:
        return known
    taken = closed_take(st, acts, poulnabrone, table, memo, SPLIT_ROUNDS, split, techs_open,
                        contexts)
    if len(memo.split_taken) >= SPLIT_KEPT:
        memo.split_taken.clear()
    memo.split_taken[key] = taken
    return taken


def split_present(st: GameState, acts: tuple[Activator, ...], poulnabrone: tuple[int, ...],
                  table: TakeTable, memo: ReachMemo, split: Split,
                  techs_open: frozenset[int] | None = None,
                  position: tuple[object, ...] | None = None,
                  contexts: Contexts | None = None) -> SplitCards | None:
    """In the last turn's action phase: the builder cards that may be in play before the game
    ends on a line of `split`, none of them from the discard pile (the deck does not run out
    before the Timeline phase), and the most cards that pass through the hand until then (the
    hand, the cards between zones, the cards taken); None where the module's conditions do
    not hold (no restriction). `techs_open`, `position`, `contexts`: as `split_taken`'s."""
    if not any(fr[0] == F_TIMELINE_PHASE for fr in st.stack):
        return None
    taken = split_taken(st, acts, poulnabrone, table, memo, split, techs_open, position,
                        contexts)
    if taken >= len(st.deck):
        return None
    present = enterable(st, taken)
    if enters_after_actions(st, table, present, memo):
        return None
    return present, len(st.hand) + len(st.limbo) + taken


def action_splits(st: GameState) -> tuple[Split, ...]:
    """The splits of the last turn's action choices left (the pending action decisions) into
    Creates, Learns and others, as `solver.bounds.reachable.reach` lists them; none when there
    are more than it splits."""
    n = sum(1 for fr in st.stack if fr[0] == D_ACTION)
    return tuple(split_choices(n)) if n <= SPLIT_ACTIONS else ()


def cards_to_create(st: GameState, present: set[int], budget: int) -> tuple[int, int]:
    """The most Creates of monuments and of artifacts a line can still make when only the
    builder cards of `present` can reach the hand, the deck does not run out, and at most
    `budget` cards pass through the hand (see the module): of the monuments (artifacts) among
    those cards not in play now, the most whose cards and least costs (their printed cost; a
    card between zones, perhaps paid for already, none) fit in the budget together."""
    cards = st.book.cards
    in_play = set(st.in_play())
    between = set(st.limbo)
    monuments: list[int] = []
    artifacts: list[int] = []
    for c in present:
        if c < 0 or c >= CHEST_BASE or c in in_play:
            continue
        card = cards[c]
        if card.is_tech:
            continue
        need = 1 if c in between else 1 + card.discard_cost
        if card.kind == ARTIFACT:
            artifacts.append(need)
        else:
            monuments.append(need)
    return _fitting(monuments, budget), _fitting(artifacts, budget)


def _fitting(needs: list[int], budget: int) -> int:
    """How many of `needs` fit in `budget` together (the smallest first)."""
    n = 0
    for need in sorted(needs):
        if need > budget:
            break
        budget -= need
        n += 1
    return n


def split_counts(st: GameState, acts: tuple[Activator, ...], poulnabrone: tuple[int, ...],
                 memo: ReachMemo, entries: tuple[Entry, ...],
                 techs_open: frozenset[int] | None, answer: SplitAnswer,
                 learnable: frozenset[int] | None,
                 takers: frozenset[int] = frozenset(),
                 first: FirstCards | None = None) -> tuple[Case, ...]:
    """`entries` (the last turn's `Reach.splits`, `techs_open` as their `reach` was told)
    each bounded again with the cards its split alone can bring into play (see the module;
    `answer`: `split_present`'s answer for a split, or one holding more, told the
    technologies that may still enter the collection, `learnable`): its counts from `reach`
    with those cards, its Creates at most the cards it can create; a split with one Learn
    once per case of `learn_cases` (`takers`: the pool's technologies that take cards), each
    with the technologies its lines may learn; with one Create action, one card created at
    most where `one_create` shows it (`first`: `first_cards`' answer, or one holding more).
    An entry whose split has no answer stays as it is."""
    out: list[Case] = []
    for e in entries:
        split = (e[0], e[1], e[2])
        for only in learn_cases(st, e, learnable, techs_open, takers):
            found = answer(split, learnable if only is None else only)
            if found is None:
                out.append((e, only))
                continue
            present, budget = found
            opened = techs_open if only is None else only
            own = split_entry(reach(st, acts, 0, poulnabrone, memo, present=present,
                                    techs_open=opened), split)
            if own is None:
                out.append((e, only))
                continue
            room = cards_to_create(st, present, budget)
            mon, art = min(own[3], room[0]), min(own[5], room[1])
            # `reach` counts the Create action both as a monument's and as an artifact's:
            # more than one card created is ``mon + art - 1 > 1``
            if (own[0] == 1 and mon + art > 2 and first is not None
                    and one_create(st, acts, poulnabrone, memo, own, opened,
                                   first(own, opened))):
                mon, art = min(mon, 1), min(art, 1)
            out.append(((own[0], own[1], own[2], mon, own[4], art, own[6], own[7]), only))
    return tuple(out)


def one_create(st: GameState, acts: tuple[Activator, ...], poulnabrone: tuple[int, ...],
               memo: ReachMemo, e: Entry, techs_open: frozenset[int] | None,
               cards: set[int] | None) -> bool:
    """Whether the lines of entry `e` (of the last turn's splits, one Create action) create
    one card at most (see the module): `reach` with only `cards` entering play (`first_cards`'
    answer: those that may be in the hand or in play before the first Create; None: unknown)
    counts one Create at most. `techs_open`: the technologies that may still enter the
    collection (None: any)."""
    if cards is None:
        return False
    found = split_entry(reach(st, acts, 0, poulnabrone, memo, present=cards,
                              techs_open=techs_open), (e[0], e[1], e[2]))
    return found is not None and found[3] + found[5] - found[0] <= 1


def no_create(e: Entry) -> Reach:
    """A `Reach` of entry `e`'s Learns and other actions with no Create (`first_cards`)."""
    return one_split((0, e[1], e[2], 0, e[4], 0, e[6], e[7]))


def first_cards(st: GameState, table: TakeTable, e: Entry,
                techs_open: frozenset[int] | None, memo: ReachMemo | None = None,
                contexts: Contexts | None = None) -> set[int] | None:
    """In the last turn's action phase, on the lines of entry `e`: the builder cards that may
    be in play, in the hand or between zones before the first Create (see the module: until
    then only the cards in play or between zones act, and at most `action_takes` of the
    split's Learns and other actions leave the deck), or None where the deck may run out.
    `techs_open`: the technologies that may still enter the collection (None: any). `memo`,
    `contexts`: as `closed_take`'s (they only save work)."""
    before = set(st.in_play())
    before.update(st.limbo)
    context = None if memo is None else take_context(st, table, techs_open, memo, contexts)
    taken = action_takes(st, table, no_create(e), before, None, techs_open, context)
    if taken >= len(st.deck):
        return None  # the discard pile may come back
    return enterable(st, taken)


def learn_cases(st: GameState, e: Entry, learnable: frozenset[int] | None,
                techs_open: frozenset[int] | None,
                takers: frozenset[int]) -> tuple[frozenset[int] | None, ...]:
    """The technologies the lines of entry `e` (of the last turn's splits) may learn, case by
    case (see the module): with at most one Learn (``e[4]``) and some of `takers` among the
    technologies that may still enter the collection (`learnable`, within `techs_open`;
    None: any not learned), those others, then those takers; else one case, any (None)."""
    if e[4] != 1 or not takers:
        return (None,)
    base = learnable if learnable is not None else techs_open
    if base is None:
        cards = st.book.cards
        known = set(st.techs)
        base = frozenset(c for c in range(len(cards)) if cards[c].is_tech and c not in known)
    elif techs_open is not None:
        base = base & techs_open
    taking = base & takers
    if not taking:
        return (None,)
    return (base - takers, taking)


def split_entry(r: Reach, split: tuple[int, int, int]
                ) -> tuple[int, int, int, int, int, int, int, int] | None:
    """The entry of `split` (Create, Learn, other actions) in `r.splits`, if any."""
    for e in r.splits:
        if (e[0], e[1], e[2]) == split:
            return e
    return None


def one_split(e: tuple[int, int, int, int, int, int, int, int]) -> Reach:
    """A `Reach` of one entry of `Reach.splits`: its counts, and that entry as its only
    split."""
    return Reach(e[3], e[4], e[6], e[5], (e,))


def entering(st: GameState, present: set[int], kinds: tuple[bool, bool]) -> set[int]:
    """Of `present` (the builder cards that may be in play before the game ends, none
    entering after the action phase), those that may on lines with Creates of monuments,
    of artifacts as `kinds` says: a card enters play only by a Create (RULES.md section 5), so
    with none of its kind only the cards in play or between zones now."""
    if kinds == ALL_KINDS:
        return present
    cards = st.book.cards
    now = set(st.in_play())
    now.update(st.limbo)
    return {c for c in present
            if c in now or (0 <= c < len(cards) and kinds[cards[c].kind == ARTIFACT])}
