"""Ctrl-C as a flag a search polls, so that an interrupted search keeps its best line.

Python turns Ctrl-C (SIGINT) into a `KeyboardInterrupt` raised wherever the main thread happens
to be, which loses whatever the frames it unwinds were holding (the exact search's incumbent),
and it cannot reach the main thread while it waits in native code (a CP-SAT solve). An
`Interrupt` replaces that, for the duration of a solve (`Interrupt.catching_sigint`):

* SIGINT sets the flag; the searches poll `Interrupt.is_set` (NRPA after each playout, the exact
  search every 64 nodes) and return what they have;
* native work registers a way to stop itself (`Interrupt.stopping`: CP-SAT's ``stop_search``);
  a watcher thread, woken through `signal.set_wakeup_fd` even while the main thread is inside
  native code, calls it at once;
* on leaving, the previous SIGINT handler and wakeup descriptor are restored.

An `Interrupt` belongs to one solve and is passed in, like its bound (no module state). Outside
the main thread, or when SIGINT is ignored (a background job), it installs nothing and only
`Interrupt.set` raises the flag.
"""

from __future__ import annotations

import signal
import socket
import threading
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from types import FrameType


class Interrupt:
    """A stop flag raised by Ctrl-C (or by `set`), with stop callbacks for native work."""

    def __init__(self) -> None:
        self._event = threading.Event()
        self._lock = threading.Lock()
        self._stoppers: list[Callable[[], None]] = []

    def is_set(self) -> bool:
        """Whether the work should stop now."""
        return self._event.is_set()

    def set(self) -> None:
        """Raise the flag and stop every native call registered with `stopping`."""
        self._event.set()
        with self._lock:
            stoppers = list(self._stoppers)
        for stop in stoppers:
            stop()

    @contextmanager
    def stopping(self, stop: Callable[[], None]) -> Iterator[None]:
        """While the block runs, `set` calls `stop` (at once if the flag is already raised)."""
        with self._lock:
            self._stoppers.append(stop)
        try:
            if self.is_set():
                stop()
            yield
        finally:
            with self._lock:
                self._stoppers.remove(stop)

    def _on_sigint(self, signum: int, frame: FrameType | None) -> None:
        self.set()

    def _watch(self, reader: socket.socket) -> None:
        """The watcher thread: every SIGINT byte the wakeup descriptor receives raises the flag
        (the main thread may be inside native code, where no Python handler runs)."""
        while True:
            try:
                data = reader.recv(64)
            except OSError:
                return
            if not data:
                return
            if signal.SIGINT in data:
                self.set()

    @contextmanager
    def catching_sigint(self) -> Iterator[Interrupt]:
        """Within the block, Ctrl-C raises this flag instead of `KeyboardInterrupt`."""
        if threading.current_thread() is not threading.main_thread() \
                or signal.getsignal(signal.SIGINT) in (signal.SIG_IGN, None):
            yield self
            return
        reader, writer = socket.socketpair()
        writer.setblocking(False)
        previous = signal.signal(signal.SIGINT, self._on_sigint)
        try:
            previous_fd = signal.set_wakeup_fd(writer.fileno(), warn_on_full_buffer=False)
        except ValueError:  # not the main interpreter
            previous_fd = None
        watcher = threading.Thread(target=self._watch, args=(reader,), daemon=True,
                                   name="heritage-interrupt")
        watcher.start()
        try:
            yield self
        finally:
            if previous_fd is not None:
                signal.set_wakeup_fd(previous_fd)
            signal.signal(signal.SIGINT, previous)
            writer.close()
            watcher.join(timeout=1.0)
            reader.close()
