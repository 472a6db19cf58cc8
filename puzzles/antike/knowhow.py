"""The eight Antike know-hows as data: loader, validation and the prerequisite graph.

Rules (Antike rules manual, page 9, "Know-How"; seed page ``antike-know-how.txt``):

* the BASIC know-hows are wheel, sailing, market and monarchy; the SECONDARY ones are roads,
  navigation, currency and democracy;
* a secondary needs its basic: wheel for roads, sailing for navigation, market for currency,
  monarchy for democracy;
* the bank receives 7 gold per NEW basic and 10 per NEW secondary know-how ("new": no other
  nation already possesses it), 3 per basic and 5 per secondary that another nation possesses;
* introducing a know-how first earns one ancient scholar.

The know-hows, their prerequisites and prices are data (``puzzles/data/antike_know_how.json``);
this module only reads and checks them. Every error is a `KnowHowError`.
"""

from __future__ import annotations

import json
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from enum import StrEnum
from functools import cache
from importlib import resources
from pathlib import Path
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    import networkx as nx

DATA_FILE = "antike_know_how.json"
_FIELDS = frozenset({"name", "kind", "prerequisite", "price_new", "price_known"})


def shown(text: str, limit: int = 80) -> str:
    """A value as an error message shows it: its ``repr``, cut to about `limit` characters
    (`solver.engine.errors.quote` for this puzzle, which imports nothing of the Heritage
    engine: ARCHITECTURE.md, "A new puzzle")."""
    r = repr(text)
    return r if len(r) <= limit else f"{r[:limit]}... ({len(text)} characters)"


class KnowHowError(ValueError):
    """Bad know-how data, or a know-how name that is not on the progress chart."""


class Kind(StrEnum):
    """The row of the progress chart a know-how is in (rules p. 9)."""

    BASIC = "basic"
    SECONDARY = "secondary"


@dataclass(frozen=True)
class KnowHow:
    """One know-how of the progress chart.

    :param index: its position in the data file (chart order: basics, then secondaries).
    :param prerequisite: the basic it needs (secondaries only, rules p. 9).
    :param price_new: gold when no other nation possesses it (7 basic, 10 secondary).
    :param price_known: gold when another nation possesses it (3 basic, 5 secondary).
    """

    name: str
    kind: Kind
    prerequisite: str | None
    price_new: int
    price_known: int
    index: int

    def price(self, known_elsewhere: bool) -> int:
        """The gold the bank receives for it (rules p. 9): the "known" price when another nation
        possesses it, else the "new" price.

        >>> load_catalog()["navigation"].price(known_elsewhere=False)
        10
        """
        return self.price_known if known_elsewhere else self.price_new


@dataclass(frozen=True)
class Catalog:
    """The know-hows of the progress chart, in chart order, and the scholar award."""

    know_hows: tuple[KnowHow, ...]
    scholars_per_first: int
    source: str
    _by_name: dict[str, KnowHow] = field(init=False, repr=False, compare=False, hash=False)

    def __post_init__(self) -> None:
        object.__setattr__(self, "_by_name", {k.name: k for k in self.know_hows})

    def __getitem__(self, name: str) -> KnowHow:
        try:
            return self._by_name[name]
        except KeyError:
            raise KnowHowError(
                f"unknown know-how {shown(name)} (known: {', '.join(self.names)})"
            ) from None

    def __contains__(self, name: object) -> bool:
        return name in self._by_name

    def __len__(self) -> int:
        return len(self.know_hows)

    @property
    def names(self) -> tuple[str, ...]:
        """Every know-how name, in chart order."""
        return tuple(k.name for k in self.know_hows)

    def graph(self) -> nx.DiGraph:
        """The prerequisite graph: an edge basic -> secondary for "a secondary needs its basic"
        (rules p. 9). Node attributes: ``kind``, ``price_new``, ``price_known``, ``index``.
        The graph is a fresh copy: changing it changes nothing here."""
        return _graph(self).copy()

    def closure(self, names: Iterable[str]) -> frozenset[str]:
        """`names` with every prerequisite they need, transitively (rules p. 9).

        A nation can only own a secondary if it owned the basic first, so a holding is always
        closed; `closure` is how a holding given as "navigation" reads as "sailing, navigation".

        >>> sorted(load_catalog().closure(["navigation"]))
        ['navigation', 'sailing']
        """
        import networkx as nx  # lazy: start-up time (networkx only when a graph is built)

        graph = _graph(self)
        result: set[str] = set()
        for name in names:
            self[name]  # raises KnowHowError for an unknown name
            result.add(name)
            result.update(nx.ancestors(graph, name))
        return frozenset(result)

    def in_order(self, names: Iterable[str]) -> tuple[str, ...]:
        """`names` in chart order (basics before secondaries, so prerequisites come first)."""
        wanted = set(names)
        return tuple(name for name in self.names if name in wanted)

    def decision_order(self) -> tuple[str, ...]:
        """Every know-how, each after its prerequisite (chart order breaks ties).

        Deciding know-hows in this order means a secondary is decided after its basic.
        """
        import networkx as nx  # lazy: start-up time (networkx only when a graph is built)

        graph = _graph(self)
        order = nx.lexicographical_topological_sort(graph, key=lambda n: graph.nodes[n]["index"])
        return tuple(order)

    def parse(self, text: str) -> frozenset[str]:
        """A comma-separated list of know-how names (case and spaces ignored; empty: none).

        :raises KnowHowError: naming the first unknown know-how.

        >>> sorted(load_catalog().parse("Wheel, sailing"))
        ['sailing', 'wheel']
        """
        names = [part.strip().lower() for part in text.split(",")]
        result = frozenset(name for name in names if name)
        for name in sorted(result):
            self[name]
        return result


@cache
def _graph(catalog: Catalog) -> nx.DiGraph:
    import networkx as nx  # lazy: start-up time (networkx only when a graph is built)

    graph = nx.DiGraph()
    for k in catalog.know_hows:
        graph.add_node(
            k.name, kind=k.kind, price_new=k.price_new, price_known=k.price_known, index=k.index
        )
    for k in catalog.know_hows:
        if k.prerequisite is not None:
            graph.add_edge(k.prerequisite, k.name)
    return graph


def _positive_int(record: Mapping[str, Any], field: str, where: str) -> int:
    value = record[field]
    if isinstance(value, bool) or not isinstance(value, int) or value <= 0:
        raise KnowHowError(f"{where}: {field} must be a positive integer, got {value!r}")
    return value


def catalog_from_dict(data: Any, source: str = "<data>") -> Catalog:
    """Build and validate a catalog from the parsed JSON of the data file.

    Checks: names unique and non-empty; kind ``basic`` or ``secondary``; a basic has no
    prerequisite and a secondary's prerequisite is a basic of the file (rules p. 9); prices are
    positive integers; ``scholars_per_first`` is a non-negative integer.

    :raises KnowHowError: naming the file, the know-how, the field and the value.
    """
    if not isinstance(data, dict) or not isinstance(data.get("know_hows"), list):
        raise KnowHowError(f"{source}: expected an object with a 'know_hows' list")
    records: list[Any] = data["know_hows"]
    if not records:
        raise KnowHowError(f"{source}: 'know_hows' is empty")
    rules = data.get("rules", {})
    scholars = rules.get("scholars_per_first") if isinstance(rules, dict) else None
    if isinstance(scholars, bool) or not isinstance(scholars, int) or scholars < 0:
        raise KnowHowError(
            f"{source}: rules.scholars_per_first must be an integer >= 0, got {scholars!r}"
        )

    know_hows: list[KnowHow] = []
    for index, record in enumerate(records):
        where = f"{source}: know_hows[{index}]"
        if not isinstance(record, dict) or set(record) != _FIELDS:
            raise KnowHowError(f"{where}: expected exactly the fields {sorted(_FIELDS)}")
        name = record["name"]
        if not isinstance(name, str) or not name or name != name.strip().lower() or "," in name:
            raise KnowHowError(f"{where}: name must be a lower-case word, got {name!r}")
        where = f"{source}: know-how {name!r}"
        if any(k.name == name for k in know_hows):
            raise KnowHowError(f"{where}: duplicate name")
        try:
            kind = Kind(record["kind"])
        except ValueError:
            raise KnowHowError(
                f"{where}: kind must be 'basic' or 'secondary', got {record['kind']!r}"
            ) from None
        prerequisite = record["prerequisite"]
        if kind is Kind.BASIC and prerequisite is not None:
            raise KnowHowError(
                f"{where}: a basic know-how has no prerequisite, got {prerequisite!r}"
            )
        if kind is Kind.SECONDARY and not isinstance(prerequisite, str):
            raise KnowHowError(f"{where}: a secondary know-how needs a basic prerequisite")
        know_hows.append(
            KnowHow(
                name=name,
                kind=kind,
                prerequisite=prerequisite,
                price_new=_positive_int(record, "price_new", where),
                price_known=_positive_int(record, "price_known", where),
                index=index,
            )
        )

    kinds = {k.name: k.kind for k in know_hows}
    for k in know_hows:
        if k.prerequisite is not None and kinds.get(k.prerequisite) is not Kind.BASIC:
            raise KnowHowError(
                f"{source}: know-how {k.name!r}: prerequisite must be a basic know-how of the "
                f"file, got {k.prerequisite!r}"
            )
    source_text = data.get("source", source)
    return Catalog(tuple(know_hows), scholars, str(source_text))


def load_catalog(path: Path | None = None) -> Catalog:
    """Load and validate the know-how data (default: the packaged Antike page-9 data).

    :raises KnowHowError: when the file cannot be read or breaks a rule of `catalog_from_dict`.
    """
    if path is None:
        return _default_catalog()
    try:
        text = path.read_text(encoding="utf-8")
    except OSError as exc:
        raise KnowHowError(f"{path}: cannot read ({exc.strerror})") from None
    return _load(text, str(path))


@cache
def _default_catalog() -> Catalog:
    text = resources.files("puzzles").joinpath("data", DATA_FILE).read_text(encoding="utf-8")
    return _load(text, DATA_FILE)


def _load(text: str, source: str) -> Catalog:
    try:
        data = json.loads(text)
    except json.JSONDecodeError as exc:
        raise KnowHowError(f"{source}: not valid JSON ({exc})") from None
    return catalog_from_dict(data, source)
