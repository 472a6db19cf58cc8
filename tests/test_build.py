"""One source, two builds (README, "Builds"): what `setup.py` compiles and when, `heritage
--version`, which build the tests import (`tests/conftest.py`), an edited source taking effect
over a stale install, and the two builds playing the same games."""

from __future__ import annotations

import json
import os
import pickle
import runpy
import shutil
import subprocess
import sys
import textwrap
from pathlib import Path
from typing import Any

import pytest
from typer.testing import CliRunner

from cli.app import app
from puzzles.cardsets import load_book
from puzzles.trials import trial_setup
from solver.bounds.poolfacts import pool_facts
from solver.buildinfo import current_build, interpreted_summary
from solver.engine.newgame import new_game
from solver.game import HeritageGame
from solver.rng import Stream
from solver.search.exhaustive import SearchConfig, search
from solver.search.nrpa import NRPA, NRPAConfig
from solver.search.playout import random_playout

ROOT = Path(__file__).resolve().parent.parent
SETUP: dict[str, Any] = runpy.run_path(str(ROOT / "setup.py"), run_name="heritage_setup")
#: The modules a compiled build must compile (the inner loops of every search).
HOT = ("solver.engine.state", "solver.engine.flow", "solver.rng", "solver.search.nrpa",
       "solver.search.exhaustive", "solver.bounds.simple")


def test_the_build_under_test_is_the_one_asked_for() -> None:
    """CI sets HERITAGE_TEST_BUILD=compiled where a C compiler exists (pure without): the suite
    then fails if it imported the other build."""
    expected = os.environ.get("HERITAGE_TEST_BUILD")
    build = current_build()
    if expected in ("compiled", "pure"):
        assert build.kind == expected
    if build.kind == "compiled":
        assert set(HOT) <= set(build.compiled)
        assert "solver.engine.errors" in build.interpreted


def test_version_names_the_build() -> None:
    build = current_build()
    result = CliRunner().invoke(app, ["--version"])
    assert result.exit_code == 0
    lines = result.output.splitlines()
    assert lines[0].startswith("heritage ")
    assert lines[1] == f"build: {build.kind}"
    if build.kind == "compiled":
        assert lines[2] == f"interpreted: {interpreted_summary(build)}"
        assert "solver.bounds.cpsat" in lines[2]


def test_only_a_wheel_compiles_and_an_editable_install_stays_pure() -> None:
    wants = SETUP["wants_compiled"]
    for argv in (["editable_wheel", "--dist-info-dir", "x"], ["develop"], ["egg_info"],
                 ["dist_info", "--output-dir", "x"]):
        assert wants(argv, {})[0] is False
    assert wants(["bdist_wheel"], {"HERITAGE_BUILD": "pure"})[0] is False
    assert wants(["bdist_wheel"], {})[0] is (SETUP["c_compiler"]() is not None)
    with pytest.raises(SystemExit):
        wants(["bdist_wheel"], {"HERITAGE_BUILD": "fast"})
    with pytest.raises(SystemExit):  # compiled modules next to the sources would go stale
        wants(["build_ext", "--inplace"], {})


def test_what_is_compiled_is_the_engine_and_the_search_loops() -> None:
    sources = SETUP["compiled_sources"]()
    for module in HOT:
        assert module.replace(".", "/") + ".py" in sources
    for path in SETUP["INTERPRETED"]:
        assert (ROOT / path).is_file() and path not in sources
    assert not any("/cpsat/" in p or p.endswith("__init__.py") for p in sources)
    assert "solver/solve.py" not in sources


PROBE = """
import solver.rng
def test_probe():
    print("RNG FROM", solver.rng.__file__, getattr(solver.rng, "EDITED", False))
"""


def _pytest_in(tree: Path, site: Path) -> str:
    env = {**os.environ, "PYTHONPATH": str(site)}
    env.pop("HERITAGE_TEST_BUILD", None)
    done = subprocess.run([sys.executable, "-m", "pytest", "-q", "-s", "-p", "no:cacheprovider",
                           "--import-mode=append", "tests/test_probe.py"], cwd=tree, env=env,
                          capture_output=True, text=True, check=True)
    return done.stdout + done.stderr


def test_an_edited_source_is_never_shadowed_by_a_stale_install(tmp_path: Path) -> None:
    """An installed copy built from these very sources is what the tests import; once a source
    file is edited the installed copy is stale, and the tests import the sources, saying so."""
    site, tree = tmp_path / "site", tmp_path / "tree"
    ignore = shutil.ignore_patterns("__pycache__", "*.so")
    for pkg in ("solver", "puzzles", "cli", "benchmarks"):
        shutil.copytree(ROOT / pkg, site / pkg, ignore=ignore)
        shutil.copytree(ROOT / pkg, tree / pkg, ignore=ignore)
    (tree / "tests").mkdir()
    for name in ("__init__.py", "conftest.py"):
        shutil.copy(ROOT / "tests" / name, tree / "tests" / name)
    (tree / "tests" / "test_probe.py").write_text(textwrap.dedent(PROBE))

    same = _pytest_in(tree, site)
    assert f"RNG FROM {site / 'solver' / 'rng.py'} False" in same
    assert "differs" not in same

    with (tree / "solver" / "rng.py").open("a") as f:
        f.write("\nEDITED = True\n")
    edited = _pytest_in(tree, site)
    assert f"RNG FROM {tree / 'solver' / 'rng.py'} True" in edited
    assert "differs from these sources (solver/rng.py): testing the sources" in edited


SAME_GAMES = """
import json
from puzzles.cardsets import load_book
from solver.engine.newgame import new_game
from solver.engine.setup import Setup
from solver.game import HeritageGame
from solver.rng import Stream
from solver.search.exhaustive import SearchConfig, search
from solver.search.nrpa import NRPA, NRPAConfig
from solver.search.playout import random_playout

book = load_book(["base"])
random_lines = [random_playout(new_game(Setup(hand="draw", seed=g), book), Stream(g, "policy", 0))
                for g in range(20)]
root = new_game(Setup(hand="1", seed=0), book)
inc = NRPA(root, NRPAConfig(max_nodes=3000, seed=0), game=HeritageGame()).run()
pos, played = root.clone(), 0
for a in inc.line:
    if pos.turn >= 16:
        break
    pos.apply(a)
    played += 1
game = HeritageGame()
res = search(pos, SearchConfig(max_nodes=3000), order=game.order(pos, inc.line[played:]),
             game=game)
PLAYED = json.dumps({"random": random_lines, "nrpa": [inc.nodes, inc.value, inc.line],
                     "exact": [res.nodes, res.value, res.line, str(res.status)]})
"""


def test_the_two_builds_play_the_same_games() -> None:
    """The same seeds give the same random games, NRPA line and node count, and exact-search
    line and node count in the build under test and in the sources run interpreted."""
    if current_build().kind != "compiled":
        pytest.skip("the build under test is the pure sources")
    here: dict[str, Any] = {}
    exec(SAME_GAMES, here)
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    pure = subprocess.run([sys.executable, "-c", SAME_GAMES + "print(PLAYED)"], cwd=ROOT, env=env,
                          capture_output=True, text=True, check=True)
    assert json.loads(here["PLAYED"]) == json.loads(pure.stdout)


def test_positions_setups_and_results_pickle_in_both_builds() -> None:
    """What crosses a process boundary (NRPA workers, the analysis pool, sweeps) comes back
    equal: a trial position with its chests plays on the same, a stream draws the same."""
    book = load_book(["base"])
    root = new_game(trial_setup(2, hand="3", seed=11, card_sets=tuple(book.sets)), book)
    st = root.clone()
    walk = Stream(5, "test", 0)
    for _ in range(30):
        legal = st.legal_actions()
        st.apply(legal[walk.below(len(legal))])
    copy = pickle.loads(pickle.dumps(st))
    assert copy.key() == st.key() and copy.legal_actions() == st.legal_actions()
    assert copy.setup == st.setup and copy.book == st.book
    assert random_playout(copy, Stream(9, "p", 0)) == random_playout(st, Stream(9, "p", 0))
    assert copy.score() == st.score() and pickle.loads(pickle.dumps(st.score())) == st.score()

    stream = Stream(3, "test", 1)
    stream.next64()
    assert pickle.loads(pickle.dumps(stream)).next64() == stream.next64()
    inc = NRPA(root, NRPAConfig(max_nodes=300, seed=0), game=HeritageGame()).run()
    result = search(root, SearchConfig(max_nodes=50), game=HeritageGame())
    for thing in (inc, result, NRPAConfig(max_nodes=5), SearchConfig(max_nodes=5),
                  pool_facts(root), book.cards[0], book):
        assert pickle.loads(pickle.dumps(thing)) == thing
