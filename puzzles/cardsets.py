"""Load and validate card-set files (format: `puzzles/data/CARD_FORMAT.md`).

Every error names the file, the card, the field and the value, and is a `CardDataError`.
"""

from __future__ import annotations

import hashlib
import re
from pathlib import Path
from typing import Any

from puzzles.jsonfile import read_json, unknown_field
from solver.engine.actions import card_code_problem
from solver.engine.cards import (
    ANY_MONUMENT,
    ARTIFACT,
    COUNTERS,
    KIND_NAMES,
    MOMENTS,
    OPS,
    SPECIALS,
    STEP_OPS,
    TARGETS,
    TECH_TYPE_NAMES,
    Card,
    CardBook,
    Clause,
    Effect,
    Filter,
    Reduction,
    Score,
    Step,
    Trigger,
)
from solver.engine.errors import CardDataError, quote

DATA = Path(__file__).parent / "data" / "cards"
BUILTIN_SETS = {"base": DATA / "base.json", "heritage": DATA / "heritage.json"}
#: The card-set format this engine reads (a file without ``version`` is read as this one).
SET_VERSION = 1
#: The most cards one step draws (the base set draws at most 6).
MAX_DRAW = 20

#: Words written in lower case inside a card name (English and the Romance particles of place
#: names), as the cards print them: "Pyramid of Khafre", "Chabola de la Hechicera".
SMALL_WORDS = frozenset({"a", "an", "and", "at", "by", "for", "in", "of", "on", "the", "to",
                         "from", "with", "de", "del", "di", "da", "la", "le", "du", "des"})
_ROMAN = re.compile(r"^[IVXivx]+$")


def display_name(name: str) -> str:
    """A card name in its usual capitalisation: small words lower case after the first word
    ("Pyramid Of Khafre" -> "Pyramid of Khafre", "Pliny The Elder" -> "Pliny the Elder"),
    Roman numerals upper case ("Pepi Ii" -> "Pepi II"). The data files are left as they are
    (their sha256 is part of every line file); only the name the engine shows changes.

    >>> display_name("Language Of The Birds")
    'Language of the Birds'
    >>> display_name("The Fairies' Rock")
    "The Fairies' Rock"
    """
    words = name.split(" ")
    out = []
    for i, word in enumerate(words):
        if _ROMAN.match(word) and (len(word) > 1 or word.isupper()):
            out.append(word.upper())
        elif i > 0 and word.lower() in SMALL_WORDS:
            out.append(word.lower())
        else:
            out.append(word)
    return " ".join(out)


class _Ctx:
    def __init__(self, path: str, card: str = "") -> None:
        self.path = path
        self.card = card

    def fail(self, field: str, value: Any, why: str) -> CardDataError:
        where = f"{self.path}: card {self.card}" if self.card else self.path
        return CardDataError(f"{where}: field {field!r} = {quote(value)}: {why}")


def _int(ctx: _Ctx, d: dict[str, Any], key: str, lo: int = 0, hi: int = 99,
         default: int | None = None) -> int:
    v = d.get(key, default)
    if not isinstance(v, int) or isinstance(v, bool) or not lo <= v <= hi:
        raise ctx.fail(key, v, f"expected a whole number from {lo} to {hi}")
    return v


def _str(ctx: _Ctx, d: dict[str, Any], key: str, choices: tuple[str, ...] | None = None) -> str:
    v = d.get(key)
    if not isinstance(v, str) or (choices is not None and v not in choices):
        want = f"one of {', '.join(choices)}" if choices else "a string"
        raise ctx.fail(key, v, f"expected {want}")
    return v


def _mtype(ctx: _Ctx, v: Any, field: str) -> int | None:
    if v is None:
        return None
    if v not in KIND_NAMES[:3]:
        raise ctx.fail(field, v, "expected city, megalith, pyramid or null")
    return KIND_NAMES.index(v)


def _condition(ctx: _Ctx, v: Any, field: str) -> tuple[Clause, ...]:
    if v is None:
        return ()
    if not isinstance(v, list):
        raise ctx.fail(field, v, "expected a list of [counter, op, value] clauses")
    out = []
    for clause in v:
        if (not isinstance(clause, list) or len(clause) != 3 or clause[0] not in COUNTERS
                or clause[1] not in OPS or not isinstance(clause[2], int)):
            raise ctx.fail(field, clause, "expected [counter, op, value] with a known counter")
        out.append(Clause(clause[0], clause[1], clause[2]))
    return tuple(out)


def _filter(ctx: _Ctx, v: Any) -> Filter:
    if v is None:
        return Filter()
    if not isinstance(v, dict):
        raise ctx.fail("filter", v, "expected an object")
    unknown = unknown_field(v, ("monument_type", "other", "adjacent", "min_tokens",
                                "exact_tokens", "space"))
    if unknown is not None:
        raise ctx.fail("filter", unknown, "unknown filter key")
    return Filter(
        monument_type=_mtype(ctx, v.get("monument_type"), "filter.monument_type"),
        other=bool(v.get("other", False)), adjacent=bool(v.get("adjacent", False)),
        min_tokens=v.get("min_tokens"), exact_tokens=v.get("exact_tokens"), space=v.get("space"),
    )


def _score(ctx: _Ctx, v: Any, field: str) -> Score:
    if not isinstance(v, dict):
        raise ctx.fail(field, v, "expected an object")
    if "fixed" in v:
        return Score(fixed=_int(ctx, v, "fixed"))
    if "per" in v:
        if v["per"] not in COUNTERS:
            raise ctx.fail(f"{field}.per", v["per"], "unknown counter")
        return Score(per=v["per"], times=_int(ctx, v, "times", default=1))
    if "tiers" in v:
        if v.get("counter") not in COUNTERS:
            raise ctx.fail(f"{field}.counter", v.get("counter"), "unknown counter")
        tiers = v["tiers"]
        if not isinstance(tiers, list) or not all(
                isinstance(t, list) and len(t) == 2 and all(isinstance(x, int) for x in t)
                for t in tiers):
            raise ctx.fail(f"{field}.tiers", tiers, "expected [[at_least, vp], ...]")
        return Score(counter=v["counter"], tiers=tuple((t[0], t[1]) for t in tiers))
    raise ctx.fail(field, v, "expected fixed, per or tiers")


def _step(ctx: _Ctx, v: Any) -> Step:
    if not isinstance(v, dict) or v.get("op") not in STEP_OPS:
        raise ctx.fail("op", v.get("op") if isinstance(v, dict) else v, "unknown step")
    op = v["op"]
    per = v.get("per")
    if per is not None and per != "paid" and per not in COUNTERS:
        raise ctx.fail("per", per, "expected a counter or 'paid'")
    target = v.get("target", "one")
    if target not in TARGETS:
        raise ctx.fail("target", target, f"expected one of {', '.join(TARGETS)}")
    kind = v.get("kind")
    kind_code = {"monument": ANY_MONUMENT, "artifact": ARTIFACT, None: None}.get(kind, -99)
    if kind_code == -99:
        raise ctx.fail("kind", kind, "expected monument, artifact or null")
    to = v.get("to", "any")
    cost_name, cost_amount, card_type = "", 0, None
    if op == "pay":
        cost = v.get("cost")
        if not isinstance(cost, dict):
            raise ctx.fail("cost", cost, "expected an object")
        for name in ("discard_hand", "discard_hand_up_to", "discard_self", "discard_artifacts"):
            if name in cost:
                cost_name = name
                if name in ("discard_hand", "discard_hand_up_to"):
                    cost_amount = _int(ctx, cost, name, 1, 10)
        if not cost_name:
            raise ctx.fail("cost", cost, "unknown cost")
        if cost.get("card_type") is not None:
            card_type = ARTIFACT if cost["card_type"] == "artifact" else _mtype(
                ctx, cost["card_type"], "cost.card_type")
    elif v.get("card_type") is not None:
        card_type = ARTIFACT if v["card_type"] == "artifact" else _mtype(
            ctx, v["card_type"], "card_type")
    if op != "pay" and "then" in v:
        raise ctx.fail("then", v["then"], f"only a 'pay' step runs steps after it: a {op!r} step "
                       "would never run them")
    level = v.get("level")
    if level not in (None, 1, 2):
        raise ctx.fail("level", level, "expected 1, 2 or null")
    return Step(
        op=op,
        n=_int(ctx, v, "n", 0, MAX_DRAW, default=0),
        per=per,
        amount=cost_amount if op == "pay" else _int(ctx, v, "amount", default=0),
        up_to=bool(v.get("up_to", False)),
        target=target,
        filter=_filter(ctx, v.get("filter")),
        first=v.get("first", "self"),
        to=0 if to == "any" else _int(ctx, v, "to", 1, 6),
        kind=kind_code,
        monument_type=_mtype(ctx, v.get("monument_type"), "monument_type"),
        count=_int(ctx, v, "count", default=1),
        keep=_int(ctx, v, "keep", default=1),
        ignore_requirements=bool(v.get("ignore_requirements", False)),
        card_type=card_type,
        level=level,
        optional=bool(v.get("optional", False)),
        cost=cost_name,
        then=tuple(_step(ctx, t) for t in v.get("then", ())),
    )


def _trigger(ctx: _Ctx, v: Any) -> Trigger:
    if not isinstance(v, dict) or v.get("event") not in ("create", "learn", "excavate"):
        raise ctx.fail("trigger", v, "expected an event create, learn or excavate")
    ev = v["event"]
    if ev == "create":
        kind = {"monument": ANY_MONUMENT, "artifact": ARTIFACT, None: None}.get(v.get("kind"), -99)
        if kind == -99:
            raise ctx.fail("trigger.kind", v.get("kind"), "expected monument, artifact or null")
        return Trigger(event=ev, kind=kind,
                       monument_type=_mtype(ctx, v.get("monument_type"), "trigger.monument_type"),
                       spaces=tuple(v.get("spaces") or ()), not_self=bool(v.get("not_self", False)))
    if ev == "learn":
        tt = v.get("tech_type")
        if tt is not None and tt not in TECH_TYPE_NAMES:
            raise ctx.fail("trigger.tech_type", tt, "expected ancient, secret, writing or null")
        return Trigger(event=ev, tech_type=None if tt is None else TECH_TYPE_NAMES.index(tt))
    return Trigger(event=ev, rotated_at_least=_int(ctx, v, "rotated_at_least", 1, 20))


def _effect(ctx: _Ctx, v: Any) -> Effect:
    if not isinstance(v, dict):
        raise ctx.fail("effects", v, "expected an object")
    moment = _str(ctx, v, "moment", MOMENTS)
    cond = _condition(ctx, v.get("if"), "if")
    if "score" in v:
        if moment != "endgame":
            raise ctx.fail("moment", moment, "a score counts at the end of the game (RULES.md "
                           "section 7): expected 'endgame'")
        return Effect(moment=moment, score=_score(ctx, v["score"], "score"))
    if "reduction" in v:
        r = v["reduction"]
        return Effect(moment=moment, condition=cond, reduction=Reduction(
            monument_type=_mtype(ctx, r.get("monument_type"), "reduction.monument_type"),
            amount=_int(ctx, r, "amount", 1, 10), others=bool(r.get("others", False))))
    if "self_discount" in v:
        return Effect(moment=moment, condition=cond, discount=_score(ctx, v["self_discount"] | (
            {"fixed": v["self_discount"]["amount"]} if "amount" in v["self_discount"] else {}),
            "self_discount"))
    if "special" in v:
        if v["special"] not in SPECIALS:
            raise ctx.fail("special", v["special"], "unknown special effect")
        return Effect(moment=moment, special=v["special"])
    if v.get("opponents_only"):
        return Effect(moment=moment, opponents_only=True)
    if "steps" in v:
        if not isinstance(v["steps"], list) or not v["steps"]:
            raise ctx.fail("steps", v["steps"], "expected a non-empty list")
        if moment == "endgame":
            raise ctx.fail("moment", moment, "the game ends at its last decline phase (D8): steps "
                           "at 'endgame' would never run (an end-game effect is a 'score')")
        if (moment == "anytime") != ("trigger" in v):
            raise ctx.fail("moment", moment, "steps run at 'anytime' only on a 'trigger', and a "
                           "'trigger' needs the moment 'anytime' (else the steps would never run, "
                           "or run at two moments)")
        return Effect(moment=moment, condition=cond, steps=tuple(_step(ctx, s) for s in v["steps"]),
                      optional=bool(v.get("optional", False)),
                      trigger=_trigger(ctx, v["trigger"]) if "trigger" in v else None)
    raise ctx.fail("effects", v, "expected score, reduction, self_discount, special, "
                   "opponents_only or steps")


def _builder(ctx: _Ctx, d: dict[str, Any], index: int, set_name: str) -> Card:
    kind = KIND_NAMES.index(_str(ctx, d, "type", KIND_NAMES))
    effects = d.get("effects")
    if not isinstance(effects, list) or not effects:
        raise ctx.fail("effects", effects, "every card needs at least one effect")
    monument = kind != ARTIFACT
    hand = d.get("starting_hand")
    if hand is not None and hand not in (1, 2, 3, 4):
        raise ctx.fail("starting_hand", hand, "expected 1-4 or null")
    return Card(
        index=index, id=_str(ctx, d, "id"), code=_str(ctx, d, "code"),
        name=display_name(_str(ctx, d, "name")), is_tech=False, kind=kind, set_name=set_name,
        activation=_str(ctx, d, "activation", MOMENTS), text=_str(ctx, d, "text"),
        effects=tuple(_effect(ctx, e) for e in effects),
        number=_int(ctx, d, "number", 0, 999), country=str(d.get("country", "")),
        starting_hand=hand, discard_cost=_int(ctx, d, "discard_cost", 0, 10),
        starting_space=_int(ctx, d, "starting_space", 1, 6) if monument else 0,
        knowledge=_int(ctx, d, "knowledge", 0, 30) if monument else 0,
        vp=_int(ctx, d, "vp", 0, 50) if monument else 0,
        locked=bool(d.get("locked", False)) if monument else False,
    )


def _tech(ctx: _Ctx, d: dict[str, Any], index: int, set_name: str) -> Card:
    effects = d.get("effects")
    if not isinstance(effects, list) or not effects:
        raise ctx.fail("effects", effects, "every card needs at least one effect")
    vp = _int(ctx, d, "vp", 0, 50)
    parsed = tuple(_effect(ctx, e) for e in effects)
    for e in parsed:
        _check_tech_effect(ctx, e, vp)
    return Card(
        index=index, id=_str(ctx, d, "id"), code=_str(ctx, d, "code"),
        name=display_name(_str(ctx, d, "name")), is_tech=True,
        kind=TECH_TYPE_NAMES.index(_str(ctx, d, "type", TECH_TYPE_NAMES)),
        set_name=set_name, activation=_str(ctx, d, "activation", MOMENTS),
        text=_str(ctx, d, "text"), effects=parsed,
        level=_int(ctx, d, "level", 1, 2),
        requirement=_condition(ctx, d.get("requirement"), "requirement"),
        requirement_text=str(d.get("requirement_text", "")), vp=vp,
    )


def _check_tech_effect(ctx: _Ctx, e: Effect, vp: int) -> None:
    """A technology acts only when it enters the collection (its ``immediate`` effects, RULES.md
    section 5 Learn) and scores its printed VP (score row 3, section 7): an effect it could never
    run, or an end-game score other than ``{"fixed": vp}``, is refused rather than ignored."""
    if (e.moment == "immediate" and e.score is None and e.trigger is None and e.reduction is None
            and e.discount is None):
        return
    if e.moment == "endgame" and e.score is not None and e.score == Score(fixed=vp):
        return
    what = (f"an end-game score other than {{'fixed': {vp}}} (its 'vp')"
            if e.moment == "endgame" else f"this {e.moment} effect")
    raise ctx.fail("effects", e.moment, f"a technology acts only when learned (immediate steps) "
                   f"and scores its 'vp': {what} would never count")


def read_set(path: Path) -> tuple[str, str, dict[str, Any]]:
    """Read one card-set file: (set name, sha256 of its bytes, parsed data). The file is read
    safely (`puzzles.jsonfile`); its ``version``, when given, must be `SET_VERSION`.

    :raises CardDataError: naming the file, the field and the value."""
    data, raw = read_json(path, CardDataError, "card set")
    if not isinstance(data, dict) or not isinstance(data.get("set"), str):
        raise CardDataError(f"{path}: field 'set' missing: a card set is an object with 'set', "
                            "'builders', 'technologies'")
    version = data.get("version", SET_VERSION)
    if version != SET_VERSION or isinstance(version, bool):
        raise CardDataError(f"{path}: field 'version' = {quote(version)}: this engine reads "
                            f"card-set version {SET_VERSION}")
    return data["set"], hashlib.sha256(raw).hexdigest(), data


def resolve_set(name: str) -> Path:
    """A built-in set name (``base``, ``heritage``) or a file path."""
    if name in BUILTIN_SETS:
        return BUILTIN_SETS[name]
    return Path(name)


def load_book(names: list[str] | tuple[str, ...] = ("base",)) -> CardBook:
    """Load card sets in order into one CardBook (builders first, then technologies)."""
    builders: list[tuple[_Ctx, dict[str, Any], str]] = []
    techs: list[tuple[_Ctx, dict[str, Any], str]] = []
    sets: list[tuple[str, str]] = []
    for name in names:
        path = resolve_set(name)
        set_name, digest, data = read_set(path)
        sets.append((set_name, digest))
        for key, bucket in (("builders", builders), ("technologies", techs)):
            items = data.get(key, [])
            if not isinstance(items, list):
                raise CardDataError(f"{path}: field {key!r} must be a list")
            for d in items:
                if not isinstance(d, dict):
                    raise CardDataError(f"{path}: field {key!r}: every card must be an object, "
                                        f"got {quote(d)}")
                bucket.append((_Ctx(str(path), str(d.get("id", "?"))), d, set_name))
    cards: list[Card] = []
    for i, (ctx, d, set_name) in enumerate(builders):
        cards.append(_builder(ctx, d, i, set_name))
    for j, (ctx, d, set_name) in enumerate(techs):
        cards.append(_tech(ctx, d, len(builders) + j, set_name))
    seen: dict[str, str] = {}
    for c, (ctx, _, _) in zip(cards, builders + techs, strict=True):
        for field, key in (("id", c.id), ("code", c.code)):
            problem = card_code_problem(key, field == "code")
            if problem is not None:
                raise ctx.fail(field, key, problem)
            if key in seen:
                raise ctx.fail("id" if key == c.id else "code", key, "appears twice")
            seen[key] = c.id
    if len(cards) > 1000:
        raise CardDataError(f"{names}: at most 1000 cards in all, got {len(cards)}")
    return CardBook(tuple(cards), tuple(sets))
