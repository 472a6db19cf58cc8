"""What one activation of an effect can yield at most, read from the card data.

The relaxation (`solver.bounds.cpsat.relaxation`) does not play effects; it only needs, for each
effect, an upper bound on each *resource* it can bring to the player in one activation (cards
into the hand, builder cards taken off the deck, knowledge removed, lost knowledge removed,
extra Learns, Creates and Archives, monuments repositioned, Past monuments straightened). Each
bound is the printed amount at its most generous (a "per" counter at its largest value, a
"remove from each" at the most targets), so the sum over a line can only overestimate what the
engine lets that line gain. Costs (discards, lost artifacts) are not charged here: leaving a cost
out can only help; except that an effect paid with a fixed number of cards from the hand that
then draws counts its draws net of them (`_pay_gains`), and such a price not netted is told
apart (`hand_payment`: the model charges it to the hand where the effect yields). The cards an
effect may discard from the hand are also counted, as the most it may take out of the hand
(`Gains.shed`): the model's hand may lose no more cards than its payments and these
(`cardflow.most_spent`). An op or special this module does not know raises
`UnsupportedCardError`, and the caller falls back to the simple bound (never guess).
"""

from __future__ import annotations

from dataclasses import dataclass, replace

from solver.engine.cards import ARTIFACT, Card, Effect, Step
from solver.engine.errors import HeritageError

TIMELINE_PLACES = 12  # 6 spaces x 2 places (RULES.md section 2)
ADJACENT_MAX = 3  # D5: the other place of the space, left and right in the same row
ARTIFACT_SPACES = 5
HAND_LIMIT = 10  # D4
DECK_ALL = 10**4  # "the whole deck": a reveal that may run through it (Calakmul, P33)

KNOWN_SPECIALS = frozenset({
    "potala_skip_decline", "candi_sukuh", "kensington_runestone", "phaistos_disc",
    "elongated_skulls", "poulnabrone",
})


class UnsupportedCardError(HeritageError, ValueError):
    """A card effect the relaxation cannot bound (an op or special it does not know)."""


@dataclass(frozen=True, slots=True)
class Gains:
    """Upper bounds on what one activation of an effect yields.

    :param draw: cards into the hand.
    :param depth: builder cards taken off the deck (a reveal looks deeper than it keeps).
    :param remove: knowledge removed from Timeline monuments.
    :param lost: lost knowledge removed.
    :param learn: Learns granted (requirements apply).
    :param learn_free: of those, Learns that ignore the requirement (Montguyon Dolmen, M34).
    :param create_mon: monument Creates granted (paid from the hand as usual).
    :param create_art: artifact Creates granted.
    :param archive: free Archive actions.
    :param moves: monuments that change place (a move: 1, a swap: 2).
    :param straighten: rotated Past monuments straightened.
    :param shed: cards the effect may discard from the hand, beyond those netted against its
        draws (`_pay_gains`): what a line's hand can lose to it (`cardflow.most_spent`).
    """

    draw: int = 0
    depth: int = 0
    remove: int = 0
    lost: int = 0
    learn: int = 0
    learn_free: int = 0
    create_mon: int = 0
    create_art: int = 0
    archive: int = 0
    moves: int = 0
    straighten: int = 0
    shed: int = 0

    def __add__(self, o: Gains) -> Gains:
        return Gains(self.draw + o.draw, self.depth + o.depth, self.remove + o.remove,
                     self.lost + o.lost, self.learn + o.learn, self.learn_free + o.learn_free,
                     self.create_mon + o.create_mon, self.create_art + o.create_art,
                     self.archive + o.archive, self.moves + o.moves,
                     self.straighten + o.straighten, self.shed + o.shed)

    def scaled(self, k: int) -> Gains:
        return Gains(self.draw * k, self.depth * k, self.remove * k, self.lost * k,
                     self.learn * k, self.learn_free * k, self.create_mon * k,
                     self.create_art * k, self.archive * k, self.moves * k,
                     self.straighten * k, self.shed * k)

    @property
    def empty(self) -> bool:
        return self == NOTHING


NOTHING = Gains()


def counter_cap(counter: str, pool_size: int) -> int:
    """The largest value a card counter can take (`solver.engine.conditions.COUNTERS`)."""
    if counter == "artifacts":
        return ARTIFACT_SPACES
    if counter in ("hand", "hand.artifact"):
        return HAND_LIMIT
    if counter.startswith("timeline."):
        return TIMELINE_PLACES
    if counter == "space1":
        return 2
    if counter.startswith("adj."):
        return ADJACENT_MAX
    return pool_size  # Past / technology counts, knowledge: at most the cards of the game


def step_gains(step: Step, pool_size: int, paid: int = 1) -> Gains:
    """Upper bounds for one step (`puzzles/data/CARD_FORMAT.md`, Steps)."""
    op = step.op
    if step.per == "paid":
        mult = paid
    elif step.per is not None:
        mult = counter_cap(step.per, pool_size)
    else:
        mult = 1
    if op == "draw":
        n = mult if step.per is not None else step.n
        return Gains(draw=n, depth=n)
    if op == "remove_knowledge":
        amount = step.amount * mult
        if step.target == "each":
            targets = ADJACENT_MAX if step.filter.adjacent else TIMELINE_PLACES
            return Gains(remove=max(1, amount) * targets if amount else targets)
        if step.target == "pair":
            return Gains(remove=2 * amount)
        return Gains(remove=amount)
    if op == "discard_lost":
        return Gains(lost=step.amount)
    if op == "swap":
        return Gains(moves=2)
    if op == "move":
        return Gains(moves=1)
    if op == "straighten":
        return Gains(straighten=step.amount)
    if op == "create":
        if step.kind == ARTIFACT:
            return Gains(create_art=1)
        if step.kind is None:
            return Gains(create_mon=1, create_art=1)
        return Gains(create_mon=1)
    if op == "learn":
        n = max(1, step.count)
        return Gains(learn=n, learn_free=n if step.ignore_requirements else 0)
    if op == "archive":
        return Gains(archive=1)
    if op == "reveal_keep":
        return Gains(draw=min(step.keep, step.count), depth=step.count)
    if op == "reveal_until":
        return Gains(draw=step.count, depth=DECK_ALL)
    if op == "niches":
        return Gains(learn=1)
    if op == "ancient_greek":
        return Gains(depth=10, create_art=1)
    if op == "pay":
        return _pay_gains(step, pool_size)
    if op == "gain_held_tech":
        return Gains(learn=1)
    if op == "discard_hand":
        return Gains(shed=step.amount)
    if op in ("bury_tech", "vanish_if_knowledge", "hold_tech"):
        return NOTHING
    raise UnsupportedCardError(f"effect step {op!r} has no bound in the relaxation")


def _pay_gains(step: Step, pool_size: int) -> Gains:
    """What a paid effect yields once paid. Paid with exactly N cards from the hand and then
    drawing (Moai Statue, A7: 2 artifact cards for 4; A8: 1 for 1), its draws count net of
    the N (at least 0) as cards into the hand, all of them as cards off the deck: the N leave
    the hand in the same effect as the draws come in (for A7 and A8 one Timeline phase,
    RULES.md section 4B), so a line's hand and the cards it can still spend are the same
    whether both are counted or neither (the model's hand is a balance of cards in and cards
    used, `cardflow.hold_cards`, `handtime.balance_hand`; where an empty deck cuts the draws
    short, a line takes only the cards drawn off both sides, and the model's draws are upper
    bounds). A payment of up to N (T17) is not netted: it may be smaller. The cards paid
    beyond those netted are `Gains.shed` (all N for a payment of up to N)."""
    cost = step.cost
    if cost in ("discard_hand", "discard_hand_up_to"):
        paid = step.amount
    elif cost == "discard_self":
        paid = 1
    elif cost == "discard_artifacts":
        paid = ARTIFACT_SPACES
    else:
        raise UnsupportedCardError(f"pay cost {cost!r} has no bound in the relaxation")
    out = NOTHING
    for t in step.then:
        out = out + step_gains(t, pool_size, paid)
    if cost == "discard_hand":  # the cards paid beyond the draws they net leave the hand
        return replace(out, draw=max(0, out.draw - paid), shed=paid - min(paid, out.draw))
    if cost == "discard_hand_up_to":
        return replace(out, shed=paid)
    return out


def hand_payment(effect: Effect) -> int:
    """The cards an effect takes from the hand as its price, before any of its gains: an
    effect whose one step is paid with exactly N cards from the hand (Planetary Stone, A3:
    "discard 2 cards, then remove up to 3") yields nothing unless paid in full (the engine's
    `costs.step_pay`: a hand too small to pay skips the effect), less the draws netted against
    them (`_pay_gains`: Moai Statue and A8 net to 0). A payment of up to N (T17) may be 0,
    and a discard that is not a price (Tulum, C35) takes nothing from an empty hand: both 0."""
    step = _hand_price(effect)
    return 0 if step is None else _pay_gains(step, 0).shed  # the price less the netted draws


def typed_payment(effect: Effect) -> tuple[int, int] | None:
    """The cards of one type an effect takes from the hand as its price: (type, N) for an
    effect whose one step is paid with exactly N cards of that type (Moai Statue, A7: "discard
    2 artifact cards, then draw 4"), else None. The engine skips such an effect unless the
    hand holds N cards of the type (`costs.can_pay`)."""
    step = _hand_price(effect)
    if step is None or step.card_type is None:
        return None
    return step.card_type, step.amount


def _hand_price(effect: Effect) -> Step | None:
    """The step of an effect whose one step is paid with exactly N cards from the hand."""
    if len(effect.steps) != 1:
        return None
    step = effect.steps[0]
    return step if step.op == "pay" and step.cost == "discard_hand" else None


def effect_gains(effect: Effect, pool_size: int) -> Gains:
    """Upper bounds for one activation of an effect (conditions are ignored: an effect whose
    condition fails yields nothing, which the bound allows)."""
    if effect.opponents_only or effect.score is not None or effect.reduction is not None \
            or effect.discount is not None:
        return NOTHING
    if effect.special is not None:
        if effect.special not in KNOWN_SPECIALS:
            raise UnsupportedCardError(f"special {effect.special!r} has no bound")
        return NOTHING
    out = NOTHING
    for s in effect.steps:
        out = out + step_gains(s, pool_size)
    return out


def steps_gains(steps: tuple[Step, ...], pool_size: int) -> Gains:
    out = NOTHING
    for s in steps:
        out = out + step_gains(s, pool_size)
    return out


def specials(card: Card) -> frozenset[str]:
    return frozenset(e.special for e in card.effects if e.special is not None)


def vanishes(card: Card) -> bool:
    """C25-C29: a declining card that still holds knowledge is discarded instead."""
    return any(s.op == "vanish_if_knowledge" for e in card.effects for s in e.steps)


def self_discard_artifact(card: Card) -> bool:
    """A15, A21, A31: the artifact may discard itself from the board (its space is free again)."""
    return any(s.op == "pay" and s.cost == "discard_self" for e in card.effects for s in e.steps)


def discards_artifacts(card: Card) -> bool:
    """Yonaguni (P13): discards any number of artifacts from the board."""
    return any(s.op == "pay" and s.cost == "discard_artifacts"
               for e in card.effects for s in e.steps)
