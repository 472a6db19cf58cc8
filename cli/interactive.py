"""``heritage play --interactive``: play a game at the terminal with the engine as referee.

The engine shows the position at the start of each turn (`solver.analysis.position.view`: the
Timeline by space, the Past by type, the hand, the artifacts, the technologies on the tiles,
lost knowledge, the score so far, each goal's progress) and, for each decision, its options as
a numbered list in the game's words. The player answers one line at a time:

* a number, or the option's notation (``create``, ``C5``, ``s3``...);
* ``undo``: take back the last decision;
* ``hint``: the solver's best next decision within the hint budget, with its line's VP;
* ``save FILE``: write the game so far as a position (a line file; ``solve --from`` and
  ``play --interactive --from`` read it);
* ``show``: the position again; ``help``: the commands;
* ``quit`` (or the end of the input, or Ctrl-C): save the game so far and leave.

At the end of the game the line file (``--out``) is written; ``heritage verify`` accepts it and
``heritage analyse`` reads it. Without ``--out`` (and for ``quit`` without a file) the game goes
to ``heritage-game.json`` in the working directory (``heritage-game-2.json``... if taken): a
game played by hand is never lost.

Answers come from standard input, one a line, so the game can be piped (no terminal needed);
on a terminal the position is a Rich table, otherwise plain text.
"""

from __future__ import annotations

import sys
from collections.abc import Callable
from pathlib import Path

import typer
from rich.table import Table

from cli.common import Output, deal_setup, fail, note
from cli.lineview import print_deal, print_goals, print_header, print_score
from cli.options import DealOptions
from puzzles.lines import load_position_file
from solver.analysis.position import PositionView, question, view
from solver.analysis.session import AnswerError, Session
from solver.engine.describe import describe_so_far
from solver.engine.record import GameRecord, dumps
from solver.search.status import Status
from solver.solve import MAX_NODES, MAX_SECONDS, SolveConfig

EXIT_INTERRUPTED = 130
DEFAULT_FILE = Path("heritage-game.json")
HINT_SECONDS = 3.0

COMMANDS = (
    ("1, 2, ...", "take the option of that number"),
    ("create, C5, s3, ...", "take the option of that notation"),
    ("undo", "take back the last decision"),
    ("hint", "the solver's best next decision (and its line's VP)"),
    ("save FILE", "write the game so far as a position file"),
    ("show", "show the position again"),
    ("quit", "save the game so far and leave"),
)


def hint_config(seconds: float | None, nodes: int | None) -> SolveConfig:
    """The budget of a hint, or exit 2 naming the bad option."""
    if seconds is not None and nodes is not None:
        fail("--hint-time and --hint-nodes: give one budget, not both")
    if seconds is not None and not 0 < seconds <= MAX_SECONDS:
        fail(f"--hint-time: must be a number of seconds above 0 and at most {MAX_SECONDS:g}, "
             f"got {seconds}")
    if nodes is not None and not 0 < nodes <= MAX_NODES:
        fail(f"--hint-nodes: must be a whole number from 1 to {MAX_NODES:,}, got {nodes}")
    if nodes is not None:
        return SolveConfig(node_limit=nodes)
    return SolveConfig(time_limit=seconds or HINT_SECONDS, node_limit=None)


def ask_line(prompt: str) -> str:
    """One answer from standard input; echoed when it does not come from a terminal, so that
    a piped game reads as a dialogue."""
    text = input(prompt)
    if not sys.stdin.isatty():
        typer.echo(text)
    return text


def play_interactive(deal: DealOptions, from_file: Path | None, out_file: Path | None,
                     hint_time: float | None, hint_nodes: int | None,
                     ask: Callable[[str], str] = ask_line, show_deal: bool = False) -> None:
    """Deal (or load ``--from``) and play until the end or ``quit`` (see the module); a hint
    searches ``--hint-time`` seconds or ``--hint-nodes`` nodes; `show_deal` (``--deal``)
    prints the whole deal first, to stack the physical game."""
    hint = hint_config(hint_time, hint_nodes)
    if from_file is not None:
        record = load_position_file(from_file)
    else:
        book, setup = deal_setup(deal)
        record = GameRecord.new(setup, book)
    out = Output()
    game = _Game(Session(record), out, out_file, hint)
    if from_file is not None and out_file is not None and out_file.exists() \
            and from_file.resolve() == out_file.resolve():
        game.out_existed = False  # resuming a game saved there: it is this game
    print_header(out, record.setup, record.book)
    if show_deal:
        print_deal(out, record.setup, record.book)
    out.line("Answer with an option's number or notation; 'help' lists the commands.")
    code = game.run(ask)
    if code:
        raise typer.Exit(code)


class _Game:
    """The question-and-answer loop of one game."""

    def __init__(self, session: Session, out: Output, out_file: Path | None,
                 hint: SolveConfig) -> None:
        self.session = session
        self.out = out
        self.out_file = out_file
        self.hint_config = hint
        self.saved: Path | None = None  # the last file `save` wrote
        self.told = len(self.happened())  # what the game did before (a --from position): told
        # a file already at --out (an earlier game?) is replaced by the finished game only
        self.out_existed = out_file is not None and out_file.exists()

    def run(self, ask: Callable[[str], str]) -> int:
        """Ask until the game ends (0), ``quit`` or the input ends (0), or Ctrl-C (130)."""
        shown_turn = -1
        while not self.session.over:
            self.tell()
            st = self.session.record.state
            if st.turn != shown_turn:
                self.show()
                shown_turn = st.turn
            self.ask_decision()
            try:
                answer = ask("> ")
            except EOFError:
                self.out.line()
                self.leave("the input ended")
                return 0
            except KeyboardInterrupt:
                self.out.line()
                self.leave("interrupted")
                return EXIT_INTERRUPTED
            try:
                if self.command(answer.strip()) == "quit":
                    return 0
            except KeyboardInterrupt:
                self.out.line()
                self.leave("interrupted")
                return EXIT_INTERRUPTED
            if self.session.record.state.turn < shown_turn:  # undone into an earlier turn
                shown_turn = -1
        self.finish()
        return 0

    # ------------------------------------------------------------------ the answers

    def command(self, text: str) -> str | None:
        """Carry out one answer; "quit" when the game is left."""
        word, _, arg = text.partition(" ")
        word, arg = word.lower(), arg.strip()
        if not text:
            return None
        if word in ("quit", "exit"):
            self.leave("quit", Path(arg) if arg else None)
            return "quit"
        if word == "undo":
            if self.session.undo():
                self.out.line("Took back the last decision.")
                self.show()
            else:
                self.out.line("? nothing to take back")
        elif word == "hint":
            self.hint()
        elif word == "save":
            if not arg:
                self.out.line("? save needs a file: save FILE")
            else:
                self.save(Path(arg))
        elif word in ("show", "position"):
            self.show()
        elif word in ("help", "?"):
            self.out.table("Commands", ["answer", "what it does"], [list(c) for c in COMMANDS])
        else:
            try:
                option = self.session.parse(text)
                self.session.take(option)
            except AnswerError as exc:
                self.out.line(f"? {exc}")
            else:
                self.out.line(f"= {option.phrase}", style="cyan")
        return None

    def happened(self) -> list[tuple[str, str]]:
        """What the game has done so far, step by step, as the log of ``play`` words it: each
        finished step with what the engine did in it (forced choices, draws, refills), and each
        automatic event (die rolls, reshuffles, the time card); not the step still open."""
        rec = self.session.record
        reports, open_last = describe_so_far(rec.setup, rec.book, rec.line)
        items = [item for rep in reports for item in rep.items()]
        if open_last:
            last = max((k for k, (kind, _) in enumerate(items) if kind == "phrase"), default=0)
            items = items[:last]
        return items

    def tell(self) -> None:
        """Say what the game did since the last answer (the referee at the table: which cards
        to move, what the die shows), once each."""
        items = self.happened()
        self.told = min(self.told, len(items))  # an undo took some back
        for kind, text in items[self.told:]:
            if kind == "phrase":
                self.out.line(f"  {text}")
            else:
                self.out.line(f"  - {text}", style="dim")
        self.told = len(items)

    def hint(self) -> None:
        out = self.out
        out.line("Thinking...", style="dim")
        h = self.session.hint(self.hint_config)
        if h is None:
            out.line("? no hint: nothing found within the budget")
            return
        goals = self._goals_words(h.goals_met)
        proof = "proven best" if h.status == Status.OPTIMAL else "best found"
        out.line(f"Hint: {h.option.number}. {h.option.phrase} [{h.option.notation}]: "
                 f"its line scores {h.vp} VP{goals} ({proof}, {h.nodes:,} nodes)")

    def _goals_words(self, met: bool) -> str:
        """Whether the hinted line meets every goal, in any game with goals: chests in the
        artifact spaces now, or revealed chests (Campaign) whose goals are still to choose."""
        setup = self.session.record.setup
        if not (self.session.record.state.goal_chests or setup.goals or setup.revealed):
            return ""
        return ", every goal met" if met else ", a goal missed"

    # ------------------------------------------------------------------ files

    def save(self, path: Path) -> bool:
        """Write the game so far (a position file); False if it cannot be written."""
        try:
            path.write_text(dumps(self.session.record.to_json()), encoding="utf-8")
        except OSError as exc:
            self.out.line(f"? cannot write {path} ({exc.strerror})")
            return False
        self.saved = path
        done = self.session.decisions
        self.out.line(f"Saved the game so far ({done} decision{'s' if done != 1 else ''}) "
                      f"to {path}.")
        return True

    def leave(self, why: str, path: Path | None = None) -> None:
        """Save the game so far before leaving (never lose a game played by hand)."""
        target = path or self.saved or self.out_file or free_path(DEFAULT_FILE)
        if path is None and target == self.out_file and self.out_existed:
            target = free_path(target)  # never replace a file this session did not write
        if not self.save(target):
            target = free_path(DEFAULT_FILE)
            self.save(target)
        note(f"{why}: the game so far is in {target}; resume with "
             f"'heritage play --interactive --from {target}'")

    def finish(self) -> None:
        """The end of the game: the score sheet, the goals, the line file."""
        self.tell()
        record, out = self.session.record, self.out
        out.line()
        out.heading("The game is over.")
        print_score(out, record.state.score())
        print_goals(out, record)
        target = self.out_file or free_path(DEFAULT_FILE)
        text = dumps(record.to_json())
        try:
            target.write_text(text, encoding="utf-8")
        except OSError as exc:
            note(f"--out: cannot write {target} ({exc.strerror})")
            target = free_path(DEFAULT_FILE)
            target.write_text(text, encoding="utf-8")
        note(f"line written to {target}")
        out.line(f"Check it with 'heritage verify {target}'; see where the VP went with "
                 f"'heritage analyse {target}'.")

    # ------------------------------------------------------------------ the position

    def ask_decision(self) -> None:
        st = self.session.record.state
        out = self.out
        out.heading(f"Turn {st.turn}: {question(st)}")
        for opt in self.session.options():
            out.line(f"  {opt.number:>2}. {opt.phrase}  [{opt.notation}]")

    def show(self) -> None:
        v = view(self.session.record.state)
        if self.out.rich:
            self.out.console.print(_rich_view(v))
        else:
            for line in plain_view(v):
                self.out.line(line)


def _zones(v: PositionView) -> list[tuple[str, str]]:
    return [
        ("Timeline", "\n".join(v.timeline)),
        ("Past", v.past),
        ("Hand", ", ".join(v.hand) or "empty"),
        ("Artifacts", ", ".join(v.artifacts)),
        ("Tiles", "\n".join(v.tiles)),
        ("Technologies", ", ".join(v.technologies) or "none"),
        ("Lost knowledge", str(v.lost)),
        ("Decks", f"builder deck {v.deck}, discard pile {v.discard}"),
        ("Score so far", v.score_text()),
    ] + [(f"Goal {g.chest}", f"{g.goal} ({'met' if g.met else 'not met'} now)\n"
          + "\n".join(g.counts)) for g in v.goals]


def plain_view(v: PositionView) -> list[str]:
    """The position as plain lines (stable, for pipes and tests)."""
    lines = [f"=== Turn {v.turn}: {v.time_card}"]
    for zone, text in _zones(v):
        rows = text.split("\n")
        lines.append(f"  {zone}: {rows[0]}")
        lines += [f"  {' ' * len(zone)}  {row}" for row in rows[1:]]
    return lines


def _rich_view(v: PositionView) -> Table:
    table = Table(title=f"Turn {v.turn}: {v.time_card}", title_justify="left",
                  show_header=False, show_lines=True)
    table.add_column("zone", style="bold", no_wrap=True)
    table.add_column("contents")
    for zone, text in _zones(v):
        table.add_row(zone, text)
    return table


def free_path(path: Path) -> Path:
    """`path`, or the first of ``name-2.json``, ``name-3.json``... that does not exist."""
    n = 2
    candidate = path
    while candidate.exists():
        candidate = path.with_name(f"{path.stem}-{n}{path.suffix}")
        n += 1
    return candidate
