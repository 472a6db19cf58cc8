"""Ctrl-C never loses work, and budgets are kept (issue 12).

Each signal test runs ``heritage solve`` in a subprocess with stderr on a pseudo-terminal, so
that its live display shows the phase running (``phase │ exact``); the test sends SIGINT when
the phase it wants is on screen. Whatever the phase (NRPA, the exact search, the CP-SAT bound,
start-up), the command answers within seconds with the best line so far, or one clean line,
and exits as for the status reached (0 a goal-meeting line, 3 none yet, 130 no result yet).
"""

from __future__ import annotations

import contextlib
import json
import os
import re
import select
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
ENTRY = [sys.executable, "-c", "from cli.app import main; main()"]
pty = pytest.importorskip("pty")
ESCAPES = re.compile(rb"\x1b\[[0-9;?]*[a-zA-Z]")
#: How long a run may go on after Ctrl-C (it stops at the next check: a playout, 64 exact
#: nodes, or at once for CP-SAT).
AFTER = 5.0


class Run:
    """A ``heritage`` subprocess with stderr on a pseudo-terminal (its live display)."""

    def __init__(self, *args: str) -> None:
        master, slave = pty.openpty()
        env = dict(os.environ, COLUMNS="100", LINES="40", TERM="xterm", NO_COLOR="1")
        self.started = time.monotonic()
        self.proc = subprocess.Popen([*ENTRY, *args], stdout=subprocess.PIPE, stderr=slave,
                                     cwd=ROOT, env=env, text=True)
        os.close(slave)
        self.master = master
        self.screen = b""

    def text(self) -> str:
        return ESCAPES.sub(b"", self.screen).decode("utf-8", "replace")

    def read(self, timeout: float) -> None:
        ready, _, _ = select.select([self.master], [], [], timeout)
        if ready:
            with contextlib.suppress(OSError):  # the child closed the terminal
                self.screen += os.read(self.master, 65536)

    def wait_for(self, *phases: str, limit: float = 60.0) -> None:
        """Wait until the display has shown these phases, in this order."""
        pattern = ".*".join(rf"phase\s*\S\s*{p}\b" for p in phases)
        self._wait_until(re.compile(pattern, re.S), f"phases {phases}", limit)

    def wait_for_best(self, limit: float = 60.0) -> None:
        """Wait until the display shows a goal-meeting line's VP (a fixed sleep was not enough
        on a loaded machine: the search had found nothing yet when Ctrl-C came)."""
        self._wait_until(re.compile(r"best VP \(all goals met\)\W*\d"),
                         "a goal-meeting line", limit)

    def _wait_until(self, pattern: re.Pattern[str], what: str, limit: float) -> None:
        deadline = time.monotonic() + limit
        while time.monotonic() < deadline and self.proc.poll() is None:
            self.read(0.05)
            if pattern.search(self.text()):
                return
        pytest.fail(f"{what} not shown; screen: {self.text()[-300:]!r}")

    def interrupt(self) -> tuple[int, str, float]:
        """Send SIGINT; (exit code, stdout, seconds from the signal to the exit)."""
        sent = time.monotonic()
        self.proc.send_signal(signal.SIGINT)
        try:
            out, _ = self.proc.communicate(timeout=30)
        finally:
            self.proc.kill()
            os.close(self.master)
        return self.proc.returncode, out, time.monotonic() - sent


def late_position(tmp_path: Path) -> Path:
    """A position with one decline phase left (turn 15 of 16) from a random game: the solve
    runs the exact search first, on a tree too large to finish in a few seconds."""
    game = subprocess.run([*ENTRY, "play", "--seed", "21", "--hand", "draw", "--json"], cwd=ROOT,
                          capture_output=True, text=True, check=True)
    data = json.loads(game.stdout)
    data.update(line=data["line"][:15] + [[]], score=None, goals=[])
    path = tmp_path / "late.json"
    path.write_text(json.dumps(data), encoding="utf-8")
    return path


def test_ctrl_c_in_nrpa_prints_the_best_line() -> None:
    run = Run("solve", "--trial", "1", "--bound", "simple", "--time-limit", "60")
    run.wait_for("heuristic")
    run.wait_for_best()
    code, out, after = run.interrupt()
    assert code == 0, out
    assert "Best line (all goals met)" in out and "(interrupted)" in out
    assert after < AFTER


def test_ctrl_c_in_the_exact_search_keeps_its_incumbent(tmp_path: Path) -> None:
    """``--from`` a late position: the exact search runs first; Ctrl-C there prints its best
    line (it was dropped before: UNKNOWN, nodes 0, no line)."""
    run = Run("solve", "--from", str(late_position(tmp_path)), "--time-limit", "60")
    run.wait_for("exact")
    run.wait_for_best()
    code, out, after = run.interrupt()
    assert code == 0, out
    assert "Best line (all goals met)" in out
    status = out.strip().splitlines()[-2:]
    assert not status[0].startswith("OPTIMAL"), "solved before Ctrl-C: take a larger position"
    assert status[0].startswith("FEASIBLE") and status[0].endswith("(interrupted)")
    nodes = int(re.search(r"nodes ([\d,]+)", status[1])  # type: ignore[union-attr]
                .group(1).replace(",", ""))
    assert nodes > 0
    assert after < AFTER


def test_ctrl_c_in_the_tail_polish_prints_the_best_line() -> None:
    """The polish (`solver.polish`, after NRPA: ``phase polish turn 16``) stops at Ctrl-C with
    the best line so far (NRPA's, or a polished one)."""
    run = Run("solve", "--trial", "1", "--time-limit", "12")
    run.wait_for("heuristic", "polish")
    code, out, after = run.interrupt()
    assert code == 0, out
    assert "Best line (all goals met)" in out and "(interrupted)" in out
    assert after < AFTER


def test_ctrl_c_during_the_cpsat_bound_stops_it_at_once() -> None:
    """The CP-SAT root call is native code: Ctrl-C stops it at once (a watcher thread asks
    CP-SAT to stop); nothing is found yet, so one clean status line and exit 3."""
    run = Run("solve", "--trial", "1", "--bound", "cpsat", "--time-limit", "60")
    run.wait_for("bound")
    code, out, after = run.interrupt()
    assert code == 3, out
    assert out.strip().splitlines()[-2].startswith("UNKNOWN") and "(interrupted)" in out
    assert after < AFTER


def test_ctrl_c_after_the_cpsat_bound_is_still_answered() -> None:
    """After a CP-SAT call SIGINT used to be back at the default (the process killed, exit
    130, no output): now the search after it stops and prints its best line."""
    run = Run("solve", "--trial", "1", "--bound", "cpsat", "--time-limit", "8")  # root: 2 s
    run.wait_for("bound", "heuristic")
    time.sleep(0.5)
    code, out, after = run.interrupt()
    assert code in (0, 3), out
    assert "(interrupted)" in out and after < AFTER


@pytest.mark.parametrize("delay", [0.3, 0.6, 0.9, 1.2, 1.5])
def test_ctrl_c_in_the_first_moments_is_never_swallowed(delay: float) -> None:
    """Ctrl-C while the command starts (imports, cards, the deal) or just after: one clean
    line and exit 130, or the best line so far; never a traceback, never the whole budget."""
    proc = subprocess.Popen([*ENTRY, "solve", "--trial", "1", "--time-limit", "60"], cwd=ROOT,
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    time.sleep(delay)
    sent = time.monotonic()
    proc.send_signal(signal.SIGINT)
    out, err = proc.communicate(timeout=30)
    assert time.monotonic() - sent < AFTER
    assert "Traceback" not in err
    if proc.returncode == 130:
        assert err == "error: interrupted (Ctrl-C) before a result\n" and out == ""
    else:
        assert proc.returncode in (0, 3), (out, err)
        assert "(interrupted)" in out


def test_a_time_limit_holds_on_the_cpsat_path() -> None:
    """A 2 s limit with the CP-SAT bound returns in under 6 s, start-up included; the solve
    itself keeps the limit within 5% + 1.0 s (on a quiet 2-core machine it reports 2.13-2.32 s,
    the same before and after session 9's bound; the CI run of session 9, on a machine other
    sessions shared, reported 2.69 s, over the former 5% + 0.5 s)."""
    started = time.monotonic()
    proc = subprocess.run([*ENTRY, "solve", "--trial", "1", "--bound", "cpsat", "--time-limit",
                           "2", "--json"], cwd=ROOT, capture_output=True, text=True)
    elapsed = time.monotonic() - started
    assert proc.returncode in (0, 3), proc.stderr
    assert elapsed < 6.0
    assert json.loads(proc.stdout)["seconds"] <= 2 * 1.05 + 1.0


def test_a_node_limit_is_a_total_over_the_workers() -> None:
    """The node limit is shared between the workers (each may finish its last playout, ~80
    decisions, over its share); more workers than cores are not capped under a node limit."""
    proc = subprocess.run([*ENTRY, "solve", "--trial", "1", "--workers", "4", "--node-limit",
                           "2000", "--json"], cwd=ROOT, capture_output=True, text=True)
    assert proc.returncode == 0, proc.stderr
    assert json.loads(proc.stdout)["nodes"] <= 2000 + 200 * 4


def test_too_many_workers_are_refused_and_capped_at_the_cores_under_a_time_limit() -> None:
    """``--workers 1000``: refused (exit 2); under a time limit, workers above the cores are
    capped at the cores, with a note."""
    cores = len(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity") else os.cpu_count()
    proc = subprocess.run([*ENTRY, "solve", "--trial", "1", "--workers", "1000", "--node-limit",
                           "2000"], cwd=ROOT, capture_output=True, text=True)
    assert proc.returncode == 2 and "--workers: must be at most 256, got 1000" in proc.stderr
    proc = subprocess.run([*ENTRY, "solve", "--trial", "1", "--workers", "200", "--time-limit",
                           "1", "--bound", "simple", "--json"], cwd=ROOT, capture_output=True,
                          text=True)
    assert proc.returncode in (0, 3), proc.stderr
    assert f"note: --workers 200: capped at {cores}" in proc.stderr


@pytest.mark.skipif(not hasattr(os, "sched_setaffinity"), reason="needs CPU affinity")
def test_a_node_limited_line_is_the_same_on_one_core() -> None:
    """Same inputs and node limit, same line on any machine: two workers on one core play as
    two workers on two (only slower), not as one worker (a note says so)."""
    args = [*ENTRY, "solve", "--trial", "4", "--hand", "3", "--seed", "5", "--node-limit",
            "4000", "--bound", "simple", "--workers", "2", "--json"]
    two = subprocess.run(args, cwd=ROOT, capture_output=True, text=True)
    one = subprocess.run(args, cwd=ROOT, capture_output=True, text=True,
                         preexec_fn=lambda: os.sched_setaffinity(0, {min(os.sched_getaffinity(0))}))
    assert two.returncode == one.returncode == 0, one.stderr
    assert json.loads(one.stdout)["line"] == json.loads(two.stdout)["line"]
    assert "note: --workers 2 on 1 core: " in one.stderr


def test_a_bad_output_file_is_refused_before_the_search(tmp_path: Path) -> None:
    started = time.monotonic()
    proc = subprocess.run([*ENTRY, "solve", "--trial", "1", "--time-limit", "30", "--out",
                           str(tmp_path / "missing" / "x.json")], cwd=ROOT, capture_output=True,
                          text=True)
    assert proc.returncode == 2 and proc.stdout == ""
    assert proc.stderr.startswith("error: --out: cannot write") and proc.stderr.count("\n") == 1
    assert time.monotonic() - started < 10  # not the 30 s of the search


def test_a_reader_that_closes_the_pipe_ends_the_command_quietly() -> None:
    """``heritage cards --json | head -c 100``: the reader has left when the command writes
    (here its stdout is a pipe whose reading end is already closed); the command ends with 141
    (as a process killed by SIGPIPE), not 1 (check's "no", verify's "invalid"), and writes
    nothing to stderr."""
    code = ("import os, sys\n"
            "r, w = os.pipe(); os.close(r); os.dup2(w, 1)\n"
            "sys.argv = ['heritage', 'cards', '--json']\n"
            "from cli.app import main\n"
            "main()\n")
    proc = subprocess.run([sys.executable, "-c", code], cwd=ROOT, capture_output=True,
                          timeout=120)
    assert proc.returncode == 141 and proc.stderr == b"", proc.stderr
