"""Build of heritage: one source, two builds (README, "Builds"; ARCHITECTURE.md).

A wheel (``pip install .``) compiles the engine and the search loops with mypyc, from the same
typed Python, when a C compiler and the Python headers are present; without them it installs
pure Python and says so in one line. An editable install (``pip install -e .``) is always pure,
so an edited ``.py`` takes effect at once and is never shadowed by a compiled module.

Environment: ``HERITAGE_BUILD=pure`` never compiles; ``HERITAGE_BUILD=compiled`` makes a failed
compilation an error instead of a fallback (CI); ``HERITAGE_BUILD_JOBS`` the parallel C
compilations (default: the CPU count). The C sources and objects are written to a temporary
directory that is removed afterwards: nothing of a build stays in the source tree.
"""

from __future__ import annotations

import atexit
import os
import shutil
import sys
import sysconfig
import tempfile
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Any

from setuptools import Extension, setup
from setuptools.command.build_ext import build_ext

ROOT = Path(__file__).resolve().parent

#: What mypyc compiles: the engine, the searches, the guidance, the game adapter and the simple
#: bound (the loops a search runs millions of times).
COMPILED = (
    "solver/rng.py",
    "solver/frozen.py",
    "solver/engine/*.py",
    "solver/search/*.py",
    "solver/guidance/*.py",
    "solver/bounds/bound.py",
    "solver/bounds/simple.py",
    "solver/bounds/poolfacts.py",
    "solver/bounds/endrules.py",
    "solver/bounds/goalreach.py",
    "solver/bounds/techjoint.py",
    "solver/bounds/activators.py",
    "solver/bounds/reachable.py",
    "solver/bounds/movers.py",
    "solver/bounds/takes.py",
    "solver/bounds/actiontakes.py",
    "solver/bounds/techtakes.py",
    "solver/bounds/techrow.py",
    "solver/bounds/splitplay.py",
    "solver/bounds/window.py",
    "solver/bounds/windowwork.py",
    "solver/bounds/windowmoves.py",
    "solver/bounds/windowcreate.py",
    "solver/bounds/windowcards.py",
    "solver/game.py",
)
#: What stays interpreted inside those rooms, and why. Everything else of the package is
#: interpreted too: the CP-SAT bound (`solver/bounds/cpsat/`) spends its time in OR-Tools, the
#: driver (`solver/solve.py`) and the commands wait on the searches or on the user, the loaders
#: read files once.
INTERPRETED = {
    "solver/engine/errors.py": "exceptions with two builtin bases (mypyc allows one)",
    "solver/engine/goals.py": "the goal-language parser, read once per setup",
    "solver/engine/describe.py": "the account of a game for people, once per printed line",
    "solver/engine/wording.py": "the words of a line for people, once per printed line",
    "solver/engine/record.py": "line files, read and written once per game",
    "solver/engine/coverage.py": "tables read when the cards are loaded",
    "solver/search/protocol.py": "runtime-checkable protocols that other packages implement",
    "solver/search/interrupt.py": "Ctrl-C: a signal handler and a watcher thread, polled only",
    "solver/search/status.py": "statuses and exit codes, once per search",
}
#: The one line said when the build is pure (the reason goes in front).
PURE = "installing pure Python (the same games, the engine 3-4x slower); " \
    "`heritage --version` shows the build"


def say(message: str) -> None:
    """One line on stderr (pip shows it with ``-v``; `heritage --version` always tells)."""
    print(f"heritage build: {message}", file=sys.stderr, flush=True)


def compiled_sources() -> list[str]:
    """The source files to compile, sorted (paths relative to the project root)."""
    found = {p.relative_to(ROOT).as_posix() for pattern in COMPILED for p in ROOT.glob(pattern)}
    return sorted(p for p in found if not p.endswith("__init__.py") and p not in INTERPRETED)


def c_compiler() -> str | None:
    """The C compiler setuptools would call, if it exists, and the Python headers are there."""
    cc = os.environ.get("CC") or sysconfig.get_config_var("CC") or "cc"
    exe = shutil.which(cc.split()[0])
    include = sysconfig.get_paths().get("include")
    if exe is None or include is None or not (Path(include) / "Python.h").exists():
        return None
    return exe


def building(argv: list[str]) -> bool:
    """Whether this run of setup.py builds modules (a wheel), not only metadata."""
    return bool({"bdist_wheel", "build", "build_ext", "install"} & set(argv))


def wants_compiled(argv: list[str], env: dict[str, str]) -> tuple[bool, str]:
    """Whether this run of setup.py builds the compiled wheel, and why not if it does not.

    Only a wheel or a build compiles; metadata steps (``egg_info``, ``dist_info``) need no
    compiler, and an editable install (``editable_wheel``, ``develop``) stays pure."""
    choice = env.get("HERITAGE_BUILD", "")
    if choice not in ("", "pure", "compiled"):
        raise SystemExit(f"setup.py: HERITAGE_BUILD: expected pure or compiled, got {choice!r}")
    if {"--inplace", "-i"} & set(argv):
        raise SystemExit("setup.py: an in-place build would put compiled modules next to the "
                         "sources, where they hide any later edit; `pip install .` (README, "
                         "\"Builds\")")
    if {"editable_wheel", "develop"} & set(argv):
        return False, "editable install: pure Python, edits take effect at once " \
            "(`pip install .` for the compiled build)"
    if not building(argv):
        return False, ""
    if choice == "pure":
        return False, f"HERITAGE_BUILD=pure: {PURE}"
    if c_compiler() is None:
        if choice == "compiled":
            raise SystemExit("setup.py: HERITAGE_BUILD=compiled, but there is no C compiler "
                             "or no Python headers (Python.h)")
        return False, f"no C compiler or no Python headers: {PURE}"
    return True, ""


def mypyc_extensions(build_dir: str) -> list[Extension]:
    """The mypyc extensions of `compiled_sources` (type checks them first, as ``mypy``)."""
    from mypyc.build import mypycify  # lazy: a build requirement, not needed for metadata

    os.chdir(ROOT)  # mypy reads its configuration (pyproject.toml) from here
    # --follow-imports=silent: type errors are reported in the compiled modules only (in the
    # build's isolated environment OR-Tools is not installed, and the CP-SAT bound sees Any)
    extensions: list[Extension] = mypycify(
        ["--follow-imports=silent", *compiled_sources()], opt_level="3", debug_level="0",
        multi_file=True, target_dir=build_dir)
    return extensions


def parallel_compile(jobs: int) -> Callable[..., list[str]]:
    """A `CCompiler.compile` that compiles `jobs` sources at a time (distutils compiles one
    file after another; mypyc writes one C file per module)."""

    def compile_all(self: Any, sources: list[str], output_dir: str | None = None,
                    macros: Any = None, include_dirs: Any = None, debug: bool = False,
                    extra_preargs: Any = None, extra_postargs: Any = None,
                    depends: Any = None) -> list[str]:
        macros, objects, extra_postargs, pp_opts, build = self._setup_compile(
            output_dir, macros, include_dirs, sources, depends, extra_postargs)
        cc_args = self._get_cc_args(pp_opts, debug, extra_preargs)

        def one(obj: str) -> None:
            src, ext = build[obj]
            self._compile(obj, src, ext, cc_args, extra_postargs, pp_opts)

        with ThreadPoolExecutor(jobs) as pool:
            list(pool.map(one, objects))
        return list(objects)

    return compile_all


class BuildExt(build_ext):  # type: ignore[misc]  # setuptools has no type hints here
    """``build_ext`` that compiles the C files in parallel and falls back to pure Python when
    compiling fails (unless ``HERITAGE_BUILD=compiled``): the compiled modules it did build are
    removed, so a wheel is never half compiled."""

    def build_extensions(self) -> None:
        jobs = int(os.environ.get("HERITAGE_BUILD_JOBS") or os.cpu_count() or 1)
        compiler = self.compiler
        compiler.compile = parallel_compile(jobs).__get__(compiler)
        try:
            super().build_extensions()
        except Exception as err:  # noqa: BLE001 - any compiler or linker failure
            if os.environ.get("HERITAGE_BUILD") == "compiled":
                raise
            for ext in self.extensions:
                Path(self.get_ext_fullpath(ext.name)).unlink(missing_ok=True)
            say(f"compiling failed ({type(err).__name__}, the compiler's output is above): "
                f"{PURE}")


def main() -> None:
    """setuptools' ``setup`` with the mypyc extensions when `wants_compiled`, built in a
    temporary directory."""
    compiled, why = wants_compiled(sys.argv[1:], dict(os.environ))
    ext_modules: list[Extension] = []
    options: dict[str, dict[str, str]] = {}
    if building(sys.argv[1:]):
        build_dir = tempfile.mkdtemp(prefix="heritage-build-")
        atexit.register(shutil.rmtree, build_dir, ignore_errors=True)
        options = {"build": {"build_base": build_dir}}
    if compiled:
        try:
            ext_modules = mypyc_extensions(str(Path(options["build"]["build_base"]) / "c"))
        except (Exception, SystemExit) as err:  # noqa: BLE001 - mypy reports and exits
            if os.environ.get("HERITAGE_BUILD") == "compiled":
                raise
            say(f"mypyc could not compile ({type(err).__name__}: {str(err)[:200]}): {PURE}")
        else:
            say(f"compiling {len(compiled_sources())} modules with mypyc")
    elif why:
        say(why)
    setup(ext_modules=ext_modules, cmdclass={"build_ext": BuildExt}, options=options)


if __name__ == "__main__":
    main()
