"""The Antike know-how purchase (Antike rules manual, page 9): data, rules, both solving methods."""

from __future__ import annotations

import itertools
import json
import random
from pathlib import Path
from typing import Any

import networkx as nx
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from puzzles.antike.game import BUY, SKIP, IllegalPurchaseError, PurchaseState
from puzzles.antike.knowhow import Kind, KnowHowError, catalog_from_dict, load_catalog
from puzzles.antike.plan import plan, solve_with_model, solve_with_search
from puzzles.antike.problem import Goal, ProblemError, PurchaseProblem, parse_gold
from solver.search.protocol import PuzzleState
from solver.search.status import Status

CATALOG = load_catalog()
NAMES = CATALOG.names
BASICS = ("wheel", "sailing", "market", "monarchy")
SECONDARIES = ("roads", "navigation", "currency", "democracy")


def raw_data() -> dict[str, Any]:
    from importlib import resources

    text = resources.files("puzzles").joinpath("data", "antike_know_how.json").read_text()
    data: dict[str, Any] = json.loads(text)
    return data


# --- the data ------------------------------------------------------------------------------------


def test_the_page_lists_four_basics_and_four_secondaries() -> None:
    assert NAMES == BASICS + SECONDARIES
    for name in BASICS:
        k = CATALOG[name]
        assert (k.kind, k.prerequisite, k.price_new, k.price_known) == (Kind.BASIC, None, 7, 3)
    for basic, name in zip(BASICS, SECONDARIES, strict=True):
        k = CATALOG[name]
        assert (k.kind, k.prerequisite, k.price_new, k.price_known) == (
            Kind.SECONDARY,
            basic,
            10,
            5,
        )
    assert CATALOG.scholars_per_first == 1


def test_prerequisite_graph() -> None:
    graph = CATALOG.graph()
    assert isinstance(graph, nx.DiGraph) and nx.is_directed_acyclic_graph(graph)
    assert sorted(graph.edges) == sorted(zip(BASICS, SECONDARIES, strict=True))
    assert graph.nodes["navigation"]["price_new"] == 10
    graph.remove_node("wheel")  # a copy: the catalog keeps its graph
    assert "wheel" in CATALOG.graph()


def test_closure_and_parse() -> None:
    assert CATALOG.closure(["navigation", "wheel"]) == {"sailing", "navigation", "wheel"}
    assert CATALOG.parse(" Wheel ,SAILING,, ") == {"wheel", "sailing"}
    assert CATALOG.parse("") == frozenset()
    with pytest.raises(KnowHowError, match="unknown know-how 'whel'"):
        CATALOG.parse("wheel,whel")


@pytest.mark.parametrize(
    ("change", "message"),
    [
        (lambda d: d["know_hows"][5].update(prerequisite=None), "needs a basic prerequisite"),
        (lambda d: d["know_hows"][5].update(prerequisite="roads"), "must be a basic"),
        (lambda d: d["know_hows"][5].update(prerequisite="steam"), "must be a basic"),
        (lambda d: d["know_hows"][0].update(prerequisite="sailing"), "has no prerequisite"),
        (lambda d: d["know_hows"][1].update(name="wheel"), "duplicate name"),
        (lambda d: d["know_hows"][2].update(kind="tertiary"), "kind must be"),
        (lambda d: d["know_hows"][3].update(price_new=-7), "price_new must be a positive"),
        (lambda d: d["know_hows"][3].update(price_known=True), "price_known must be a positive"),
        (lambda d: d["know_hows"][3].pop("price_known"), "expected exactly the fields"),
        (lambda d: d["rules"].update(scholars_per_first=-1), "scholars_per_first"),
        (lambda d: d.update(know_hows=[]), "is empty"),
    ],
)
def test_bad_data_is_rejected(change: Any, message: str) -> None:
    data = raw_data()
    change(data)
    with pytest.raises(KnowHowError, match=message):
        catalog_from_dict(data, "test.json")


def test_load_from_a_file(tmp_path: Path) -> None:
    good = tmp_path / "good.json"
    good.write_text(json.dumps(raw_data()))
    assert load_catalog(good) == CATALOG
    bad = tmp_path / "bad.json"
    bad.write_text("{")
    with pytest.raises(KnowHowError, match="not valid JSON"):
        load_catalog(bad)
    with pytest.raises(KnowHowError, match="cannot read"):
        load_catalog(tmp_path / "missing.json")


# --- the problem ---------------------------------------------------------------------------------


def test_holdings_are_closed_under_prerequisites() -> None:
    """A nation can only own navigation if it owned sailing (rules p. 9)."""
    problem = PurchaseProblem.create(have=["navigation"], others=["currency"], gold=10)
    assert problem.have == {"sailing", "navigation"}
    assert problem.others == {"market", "currency"}
    assert problem.price("market") == 3  # another nation has market: it has currency


def test_bad_problems_name_the_parameter() -> None:
    cases: list[tuple[dict[str, Any], str]] = [
        ({"gold": -1}, "gold"),
        ({"have": ["steam"]}, "have"),
        ({"others": ["steam"]}, "others"),
        ({"want": ["steam"]}, "want"),
        ({"goal": Goal.CHEAPEST}, "want"),
    ]
    for kwargs, parameter in cases:
        with pytest.raises(ProblemError) as info:
            PurchaseProblem.create(**kwargs)
        assert info.value.parameter == parameter
    with pytest.raises(ProblemError, match="must be 'scholars' or 'cheapest'"):
        Goal.parse("fame")
    with pytest.raises(ProblemError, match="got 'ten'"):
        parse_gold("ten")
    assert parse_gold(" 20 ") == 20


def test_prices_and_scholars() -> None:
    """7/10 for a new know-how, with a scholar; 3/5 when another nation has it (rules p. 9)."""
    problem = PurchaseProblem.create(others=["wheel", "roads", "sailing"], gold=0)
    assert [problem.price(n) for n in NAMES] == [3, 3, 7, 7, 5, 10, 10, 10]
    assert [problem.scholars(n) for n in NAMES] == [0, 0, 1, 1, 0, 1, 1, 1]


# --- the seed page's worked example --------------------------------------------------------------


def test_seed_example_navigation_for_13_gold() -> None:
    """A nation with no know-hows buys navigation while others have sailing: 3 + 10 = 13 gold,
    and one scholar for navigation (rules p. 9, example)."""
    problem = PurchaseProblem.create(
        others=["sailing"], gold=13, goal=Goal.CHEAPEST, want=["navigation"]
    )
    report = plan(problem)
    assert report.status is Status.OPTIMAL
    purchase = report.purchase
    assert purchase is not None
    assert [(i.know_how, i.price, i.scholars) for i in purchase.items] == [
        ("sailing", 3, 0),
        ("navigation", 10, 1),
    ]
    assert (purchase.gold_spent, purchase.scholars, purchase.all_eight) == (13, 1, False)


def test_seed_example_with_one_gold_short_is_infeasible() -> None:
    problem = PurchaseProblem.create(
        others=["sailing"], gold=12, goal=Goal.CHEAPEST, want=["navigation"]
    )
    report = plan(problem)
    assert report.status is Status.INFEASIBLE and report.purchase is None
    assert report.wanted_cost == 13


def test_issue_example_most_scholars() -> None:
    """--have wheel,sailing --others sailing,market --gold 20: monarchy and roads are new
    (7 + 10 = 17 gold, two scholars); nothing else new fits in the 3 gold left."""
    problem = PurchaseProblem.create(
        have=["wheel", "sailing"], others=["sailing", "market"], gold=20
    )
    purchase = plan(problem).purchase
    assert purchase is not None
    assert purchase.buy == ("monarchy", "roads")
    assert (purchase.gold_spent, purchase.scholars) == (17, 2)


# --- prerequisites, ties, all eight --------------------------------------------------------------


def test_a_secondary_is_never_bought_without_its_basic() -> None:
    """10 gold would pay for navigation, but sailing (7) must come first (rules p. 9)."""
    problem = PurchaseProblem.create(gold=10)
    assert not problem.is_valid_purchase(["navigation"])
    assert problem.is_valid_purchase(["wheel"])
    purchase = plan(problem).purchase
    assert purchase is not None and purchase.buy == ("wheel",)

    state = PurchaseState(problem)
    state.apply(SKIP)  # wheel
    state.apply(SKIP)  # sailing
    state.apply(SKIP)  # market
    state.apply(SKIP)  # monarchy
    state.apply(SKIP)  # roads
    assert state.pending is not None and state.pending.name == "navigation"
    assert state.legal_actions() == (SKIP,)
    with pytest.raises(IllegalPurchaseError, match="navigation"):
        state.apply(BUY)


def test_the_basic_may_be_bought_in_the_same_purchase() -> None:
    problem = PurchaseProblem.create(gold=17, goal=Goal.CHEAPEST, want=["roads"])
    purchase = plan(problem).purchase
    assert purchase is not None and purchase.buy == ("wheel", "roads")


def test_ties_keep_earlier_know_hows() -> None:
    """Four new basics at 7 gold each and 7 gold: one scholar whichever; the tie-break keeps
    the earliest of the chart (wheel)."""
    purchase = plan(PurchaseProblem.create(gold=7)).purchase
    assert purchase is not None and purchase.buy == ("wheel",)


def test_fewer_gold_breaks_a_scholar_tie() -> None:
    """Sailing + navigation (3 + 10) and wheel (7) both earn one scholar: less gold wins."""
    purchase = plan(PurchaseProblem.create(others=["sailing"], gold=13)).purchase
    assert purchase is not None and purchase.buy == ("wheel",)


def test_all_eight() -> None:
    """4 x 7 + 4 x 10 = 68 gold buys every know-how: eight scholars and all eight reached."""
    purchase = plan(PurchaseProblem.create(gold=68)).purchase
    assert purchase is not None
    assert (purchase.buy, purchase.gold_spent, purchase.scholars) == (NAMES, 68, 8)
    assert purchase.all_eight
    owned = plan(PurchaseProblem.create(have=SECONDARIES, gold=0)).purchase
    assert owned is not None and owned.buy == () and owned.all_eight


def test_scholars_with_a_wanted_set_can_be_infeasible() -> None:
    problem = PurchaseProblem.create(gold=16, want=["democracy"])
    assert plan(problem).status is Status.INFEASIBLE
    purchase = plan(PurchaseProblem.create(gold=20, want=["democracy"])).purchase
    assert purchase is not None and purchase.buy == ("monarchy", "democracy")


# --- the game protocol ---------------------------------------------------------------------------


def test_state_implements_the_protocol() -> None:
    state = PurchaseState(PurchaseProblem.create(gold=20))
    assert isinstance(state, PuzzleState)
    assert state.action_to_string(BUY) == "buy wheel"
    assert state.action_to_string(SKIP) == "skip wheel"
    twin = state.clone()
    twin.apply(BUY)
    assert state.key() == (0, 0) and twin.key() == (1, 1)


def test_search_node_counts() -> None:
    """Deterministic node counts of the search on the two examples (a search regression)."""
    seed = PurchaseProblem.create(
        others=["sailing"], gold=13, goal=Goal.CHEAPEST, want=["navigation"]
    )
    issue = PurchaseProblem.create(have=["wheel", "sailing"], others=["sailing", "market"], gold=20)
    assert solve_with_search(seed).nodes == 56
    assert solve_with_search(issue).nodes == 36


def test_random_play_keeps_the_rules() -> None:
    """Random legal play: gold never exceeds the purchase, every secondary has its basic, and
    the upper bound is never below the value of the terminal reached."""
    rng = random.Random(7)
    for _ in range(300):
        problem = PurchaseProblem.create(
            have=rng.sample(NAMES, rng.randint(0, 3)),
            others=rng.sample(NAMES, rng.randint(0, 4)),
            gold=rng.randint(0, 70),
        )
        state = PurchaseState(problem)
        bounds = []
        while not state.is_terminal():
            bounds.append(state.upper_bound())
            state.apply(rng.choice(list(state.legal_actions())))
        assert problem.is_valid_purchase(state.bought)
        assert state.gold_spent == problem.cost(state.bought) <= problem.gold
        assert state.scholars == problem.scholars_for(state.bought)
        assert all(bound >= state.value() for bound in bounds)


# --- both methods agree, and are right -----------------------------------------------------------


def brute_force(problem: PurchaseProblem) -> tuple[str, ...] | None:
    """The best valid purchase over all 256 subsets, by the same objective."""
    best: tuple[str, ...] | None = None
    for size in range(len(NAMES) + 1):
        for bought in itertools.combinations(NAMES, size):
            if problem.is_valid_purchase(bought) and (
                best is None or problem.objective(bought) > problem.objective(best)
            ):
                best = bought
    return best


subsets = st.lists(st.sampled_from(NAMES), unique=True, max_size=8)


@settings(max_examples=150, deadline=None)
@given(
    have=subsets,
    others=subsets,
    gold=st.integers(min_value=0, max_value=75),
    goal=st.sampled_from(Goal),
    want=subsets,
)
def test_both_methods_agree_with_brute_force(
    have: list[str], others: list[str], gold: int, goal: Goal, want: list[str]
) -> None:
    if goal is Goal.CHEAPEST and not want:
        want = ["navigation"]
    problem = PurchaseProblem.create(have, others, gold, goal, want)
    by_model = solve_with_model(problem)
    by_search = solve_with_search(problem)
    assert by_model.same_answer(by_search)
    expected = brute_force(problem)
    if expected is None:
        assert by_model.status is by_search.status is Status.INFEASIBLE
    else:
        assert by_model.status is Status.OPTIMAL
        assert by_model.purchase is not None and by_model.purchase.buy == expected
