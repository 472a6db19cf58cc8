"""The transposition table's limits (`solver.search.tt`, issue 13): a table never holds more
than its capacity or its memory cap, forgets its oldest entries first and deterministically,
and a capped search finds the same optimum as an uncapped one (a limit costs transpositions,
never the answer)."""

from __future__ import annotations

from collections.abc import Hashable
from typing import Any

import pytest
from typer.testing import CliRunner

from benchmarks.suite import load_suite
from cli.app import app
from solver.game import HeritageGame
from solver.search import exhaustive
from solver.search.exhaustive import SearchConfig, search
from solver.search.status import Status
from solver.search.tt import (
    DEFAULT_MEMORY_MB,
    ENTRY_OVERHEAD,
    EVICT_SHARE,
    LINE_ITEM_BYTES,
    MB,
    TranspositionTable,
    TTEntry,
    deep_size,
)
from solver.solve import SolveConfig, solve


def test_deep_size_counts_nested_tuples_not_shared_small_ints() -> None:
    assert deep_size(7) == 0 and deep_size(None) == 0 and deep_size(True) == 0
    assert deep_size(()) == 0
    inner = (1, 2, 3)
    assert deep_size((inner, 5)) == deep_size((0, 5)) + deep_size(inner) > deep_size((0, 5))
    assert deep_size((10**6,)) > deep_size((6,))


def test_memory_estimate_charges_keys_entries_and_lines() -> None:
    table = TranspositionTable()
    key = (1, (2, 3), 4)
    table.store(key, TTEntry(5.0, exact=True, line=(1, 2, 3)))
    assert table.memory == deep_size(key) + ENTRY_OVERHEAD + 3 * LINE_ITEM_BYTES
    table.store((9, (9, 9), 9), TTEntry(1.0, exact=False))
    assert table.memory == 2 * (deep_size(key) + ENTRY_OVERHEAD) + 3 * LINE_ITEM_BYTES


def test_a_full_table_forgets_its_oldest_entries_down_to_a_share_below_the_cap() -> None:
    table = TranspositionTable(capacity=8)
    for k in range(8):
        table.store(k, TTEntry(float(k), exact=False))
    assert len(table) == 8 and table.evicted == 0
    table.store(3, TTEntry(0.5, exact=False))  # tightened: 3 becomes the youngest
    table.store(8, TTEntry(8.0, exact=True))  # over the cap: the oldest go
    assert len(table) == int(8 * (1 - EVICT_SHARE)) and table.evicted == 3
    assert [k for k in range(9) if table.probe(k) is not None] == [3, 4, 5, 6, 7, 8]


def test_a_capacity_of_0_stores_nothing_and_limits_are_checked() -> None:
    table = TranspositionTable(capacity=0)
    table.store("a", TTEntry(1.0, exact=True))
    assert len(table) == 0
    with pytest.raises(ValueError, match="capacity"):
        TranspositionTable(capacity=-1)
    with pytest.raises(ValueError, match="memory_bytes"):
        TranspositionTable(memory_bytes=-1)
    with pytest.raises(ValueError, match="tt_memory_mb"):
        SearchConfig(tt_memory_mb=-1)
    with pytest.raises(ValueError, match="tt_memory_mb"):
        SolveConfig(tt_memory_mb=-1)


def test_memory_never_exceeds_the_cap_after_a_store() -> None:
    cap = 20_000
    table = TranspositionTable(memory_bytes=cap)
    for k in range(2_000):
        key = (k, tuple(range(k % 50 + 300, k % 50 + 330)))
        table.store(key, TTEntry(1.0, exact=k % 3 == 0, line=tuple(range(k % 40))))
        assert table.memory <= cap
    assert table.evicted > 0 and len(table) > 1


class _Watched(TranspositionTable):
    """A table that records the most entries and memory it ever held after a store."""

    tables: list[_Watched] = []

    def __init__(self, capacity: int | None = None, memory_bytes: int | None = None) -> None:
        super().__init__(capacity, memory_bytes)
        self.cap = memory_bytes
        self.most_memory = 0
        self.most_entries = 0
        _Watched.tables.append(self)

    def store(self, key: Hashable, entry: TTEntry) -> None:
        super().store(key, entry)
        self.most_memory = max(self.most_memory, self.memory)
        self.most_entries = max(self.most_entries, len(self))


@pytest.mark.parametrize("iid, tiny_mb", [("t1-h1-s0-b6", 0.02), ("t5-h1-s0-b6", 0.05)])
def test_a_tiny_cap_finds_the_same_optimum_on_a_suite_position(
        monkeypatch: Any, iid: str, tiny_mb: float) -> None:
    pos = load_suite().by_id()[iid]
    root = pos.root()
    monkeypatch.setattr(exhaustive, "TranspositionTable", _Watched)
    _Watched.tables = []
    results = {}
    for mb in (None, tiny_mb):
        game = HeritageGame()
        results[mb] = search(root, SearchConfig(tt_memory_mb=mb), order=game.order(root, []),
                             game=game)
    # The cap bit: positions forgotten, so fewer table hits or more nodes for the same proof.
    tiny_res, free_res = results[tiny_mb], results[None]
    assert tiny_res.tt_hits < free_res.tt_hits or tiny_res.nodes > free_res.nodes
    if _Watched.tables:  # the compiled search does not see the patched name: pure build only
        free, tiny = _Watched.tables
        assert tiny.evicted > 0 and free.evicted == 0
        assert tiny.most_memory <= tiny_mb * MB < free.most_memory
    for res in results.values():
        assert res.status == Status.OPTIMAL and res.value == pos.optimum
    again = search(root, SearchConfig(tt_memory_mb=tiny_mb), order=HeritageGame().order(root, []),
                   game=HeritageGame())
    assert (again.nodes, again.line) == (results[tiny_mb].nodes, results[tiny_mb].line)


def test_solve_caps_its_table_by_default_and_the_cli_documents_the_option() -> None:
    assert SolveConfig().tt_memory_mb == DEFAULT_MEMORY_MB
    out = CliRunner().invoke(app, ["solve", "--help"], terminal_width=200).output
    assert "--tt-memory" in out and "2 GB" in out
    res = CliRunner().invoke(app, ["solve", "--trial", "1", "--tt-memory", "0"])
    assert res.exit_code == 2


def test_a_solve_with_a_tiny_cap_proves_the_same_optimum() -> None:
    pos = load_suite().by_id()["t6-h2-s0-b8"]
    res = solve(pos.root(), SolveConfig(node_limit=100_000, tt_memory_mb=0.05))
    assert res.status == Status.OPTIMAL and res.value == pos.optimum
