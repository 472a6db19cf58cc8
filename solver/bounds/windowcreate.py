"""One Create in the window of the last decline (`solver.bounds.window`): Menhirs of
Monteneuf's (M11) decline effect, "you may create one monument from your hand, paying its
normal cost", or one granted by the monument it creates (M18, M27); or a chest's under the
board (Ж, "create a monument from your hand (paying its cost), without spending an action"),
at any of the turn's lightning windows still to come (below).

M11's Create runs in turn 15's decline phase, after the Timeline phase (RULES.md section 4),
so nothing of the Timeline phase sees the new monument (a chest's may come before it: below).
The card is one of the monuments in hand or between zones now or among the deck's top
`Work.draws` (the window takes no other card from the deck, section 5), put in a space with a
free place now (the decline phase frees places only in space 1; with no move in the window the
other spaces keep theirs) whose cost the hand can pay (`solver.engine.create.create_cost`). Put in
space 2-6 it slides with the others and starts turn 16 one space to the left; put in space 1 it
declines right after the card whose effect created it (section 4C step 2): its decline effects run,
its knowledge may convert, and it goes to the Past (or, C25-C29, to the discard pile while it holds
knowledge).

Each such outcome is followed as the rules run it (`made`): on the passive line
(`solver.bounds.window.passive_starts`, the creator declining last so that space 1 has a free
place), the card is taken into the hand and created there, its payment left out (it moves cards
from the hand to the discard pile only, which the window leaves open); what follows (its
decline in space 1, a move it makes there) is the passive line's as before. What the Create
adds to the window's work (`created`): the card and its cost leave the hand; the new card's
immediate effects and the "each time you CREATE" effects in play run (those of every
candidate, read without their conditions: they resolve in the decline phase, where the tally
reads none); what a card entering space 1 does when it declines (C15/P12: one move,
`solver.bounds.windowwork.moved`), or a new card's swap of itself with another monument (C13,
C14, P23: the window's one move, followed target by target; the card may swap into space 1 and
decline there, the other out of it), its knowledge at most its printed value (lost knowledge's
range is then worked out start by start, `solver.bounds.windowwork.declined_knowledge`).

A chest's Create (`solver.bounds.windowwork.create_chests`) is a lightning effect: it may run
at the start of the Timeline phase (if still to come), of the decline phase or of the
technology phase, or at a window within a phase (between two effects, between two declines,
after the last decline; `solver.engine.chests`). The passive line uses it at each of those windows
in turn (each a branch, `solver.bounds.window.passive_starts`) and takes each outcome there;
the chest is never taken as used before the window. Its outcomes are every space the card's
cost allows, the free places looked at where it runs (after the slide a space holds other
monuments than now); everything the new card may do while in play in the window is added
(its immediate effects, C30's skipped decline among them; its reactions; and before the
Timeline phase its Timeline effects, the Timeline's counts then read as holding,
`solver.bounds.windowwork.early_create`).
"""

from __future__ import annotations

from typing import Final

from solver.bounds.windowmoves import self_swap
from solver.bounds.windowwork import (
    CREATE_OP,
    VANISH,
    Work,
    create_chests,
    early_create,
    entering_declines,
    hand_most,
    moved,
    skulls_draws,
)
from solver.engine import actions as A
from solver.engine.cards import ARTIFACT
from solver.engine.create import create_card_choose, create_cost, create_space_choose, place
from solver.engine.decline import MIDGAME_PAST
from solver.engine.flow import settle
from solver.engine.frames import D_PAY
from solver.engine.state import GameState

#: Spaces of the Timeline a created monument may go to (section 2).
SPACES: Final = range(1, 7)
#: Effects of a created card that a Create in the decline phase sets aside (C30 Potala Palace:
#: it skips a decline only when created outside one).
SKIPPED_IN_DECLINE: Final = "potala_skip_decline"
#: The event of "each time you CREATE" effects, and of a Learn's reactions.
CREATE_EVENT: Final = "create"
LEARN_EVENT: Final = "learn"
#: M36 Poulnabrone's reaction to a Create (with 11 cards in the Past): outside the window.
POULNABRONE: Final = "poulnabrone"
#: One outcome of the Create: the card created and the space it goes to (turn 15's).
Outcome = tuple[int, int]


def candidates(st: GameState, draws: int) -> list[int]:
    """The monuments a Create in the window of `st` may take from the hand: those in hand or
    between zones now and among the deck's top `draws` cards, in card order."""
    cards = st.book.cards
    pool = set(st.hand) | set(st.limbo)
    if draws:
        pool.update(st.deck[len(st.deck) - draws:])
    return sorted(c for c in pool if not cards[c].is_tech and cards[c].kind != ARTIFACT)


def created(st: GameState, work: Work) -> list[Outcome] | None:
    """The (card, space) outcomes of the window's one Create (`Work.creates`), its work added
    to `work` (see the module); None, `work.fits` False, where it falls outside the window: a
    second Create, a move, a candidate entering space 1 with a decline effect of another kind,
    a Create in space 1 before the middle of the game (section 6: a flip would follow)."""
    if work.creates > 1 or work.moves:
        work.fits = False
        return None
    cards = st.book.cards
    chest = bool(create_chests(st))  # a chest's: at any window of the turn left
    early = early_create(st)  # before the Timeline phase
    cands = candidates(st, work.draws)
    payable = hand_most(st, work.draws) - 1  # the hand less the created card
    outcomes: list[Outcome] = []
    for c in cands:
        card = cards[c]
        for s in [card.starting_space] if card.locked else SPACES:
            cost = create_cost(card.discard_cost, card.starting_space, s)
            # a chest's may come after the slide: the places are looked at when it runs
            if cost <= payable and (s == 1 or chest or len(st.spaces[s - 1]) < 2):
                outcomes.append((c, s))
    if not outcomes:
        return outcomes
    work.paid += 1 + max(create_cost(cards[c].discard_cost, cards[c].starting_space, s)
                         for c, s in outcomes)
    swappers: list[int] = []  # a new card that swaps itself with another (P23)
    for c in sorted({c for c, _ in outcomes}):
        for e in cards[c].effects:
            if e.moment == "immediate" and e.discount is None and not e.opponents_only:
                if self_swap(e):  # its one move, followed target by target
                    work.swap(e)
                    swappers.append(c)
                elif chest or e.special != SKIPPED_IN_DECLINE:
                    work.any_effect(e)
            elif e.trigger is not None and (chest or (e.trigger.event == LEARN_EVENT
                                                      and work.learns)):
                work.any_effect(e)  # a chest's: in play while the window's events come
            elif early and e.moment == "timeline":
                work.any_effect(e)  # queued with the others'
    reactive = st.book.create_reactive
    for x in st.in_play():  # those in play at the Create are among them (none enters before)
        if not reactive[x]:
            continue
        for e in cards[x].effects:
            t = e.trigger
            if e.special == POULNABRONE:
                work.fits = False
            elif t is not None and t.event == CREATE_EVENT and t.kind != ARTIFACT:
                work.any_effect(e)
    entering = sorted({c for c, s in outcomes if s == 1})
    if entering and len(st.past) < MIDGAME_PAST:
        work.fits = False
    # declining last (`made`), a mover moves one (unless a swap is the move: then it falls
    # outside); a swapper may swap itself into space 1
    swapped = sorted(set(swappers) - set(entering))
    entering_declines(st, work, entering, not work.moves)
    entering_declines(st, work, swapped, False)
    if work.moves:
        moved(st, work)  # what the move may bring into space 1
    most = max((cards[c].knowledge for c in [*entering, *swapped]), default=0)
    converted = work.converted + work.move_in
    work.draws += skulls_draws(st, converted + most) - skulls_draws(st, converted)
    work.move_in += most
    if work.creates > 1:  # a candidate's own Create
        work.fits = False
    return outcomes if work.fits else None


def made(s: GameState, outcomes: list[Outcome]) -> list[GameState]:
    """The states after each of `outcomes` of the Create asked at `s` (its card choice on top
    of the stack), the card put in its space as the rules put it (`solver.engine.create`) and
    its payment left out (it moves cards from the hand to the discard pile only); the card
    taken from wherever it is in `s` (another line may hold it in hand then). A C25-C29 card
    put in space 1 also with no knowledge (a removal may take it before it declines)."""
    cards = s.book.cards
    out: list[GameState] = []
    for c, space in outcomes:
        if len(s.spaces[space - 1]) >= 2:
            continue  # no free place in this line (space 1: the creator declines last)
        b = s.clone()
        for zone in (b.deck, b.discard, b.limbo):
            if c in zone:
                zone.remove(c)
        if c not in b.hand:
            b.hand.append(c)
        create_card_choose(b, b.stack.pop(), A.CARD_CODE | c)
        create_space_choose(b, b.stack.pop(), A.SPACE_CODE | space)
        if b.stack[-1][0] == D_PAY:
            b.stack.pop()
        place(b, b.stack.pop())
        out.append(b)
        if space == 1 and b.tokens[c] and any(
                step.op == VANISH for e in cards[c].effects for step in e.steps):
            z = b.clone()
            z.tokens[c] = 0
            out.append(z)
    for b in out:
        settle(b)
    return out


def creators(st: GameState) -> set[int]:
    """The monuments of space 1 whose decline effect creates (M11): the passive line declines
    them last."""
    cards = st.book.cards
    return {m for m in st.space_monuments(1)
            if any(x.op == CREATE_OP for e in cards[m].effects if e.moment == "decline"
                   for x in e.steps)}

