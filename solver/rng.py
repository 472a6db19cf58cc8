"""Deterministic randomness: SplitMix64 streams and a Fisher-Yates shuffle.

RULES.md section 3.1: a seed must mean the same deal on every machine and Python version.
So the project never uses `random`, `hash()` or set order for anything that decides play.

Every random purpose has its own stream, derived from ``(seed, purpose, index)``:

* ``purpose`` is a short ASCII word (``"builder"``, ``"tech1"``, ``"tech2"``, ``"die"``,
  ``"builder-reshuffle"``, ``"tech1-reshuffle"``, ``"tech2-reshuffle"``, ``"policy"``...);
* ``index`` numbers the uses of one purpose (the k-th reshuffle of the builder discard pile).

The stream's initial state is ``mix(mix(seed) ^ fnv1a64(purpose) ^ mix(index + 1))`` where ``mix``
is the SplitMix64 finaliser and ``fnv1a64`` the 64-bit FNV-1a hash of the purpose's bytes.
Outputs are SplitMix64 (Steele, Lea & Flood 2014). Bounded integers use rejection sampling, so
they are exactly uniform. A shuffle is Fisher-Yates (Durstenfeld) over a list that the caller
sorts canonically first (by card index), from the last position down.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any, Final, TypeVar

T = TypeVar("T")

MASK64: Final = (1 << 64) - 1
GOLDEN: Final = 0x9E3779B97F4A7C15
TWO64: Final = 1 << 64
#: Below this every 64-bit draw is accepted by `Stream.below(n)` for any n <= 2**32
#: (its rejection limit ``2**64 - 2**64 % n`` is above it), so the limit is rarely computed.
SURE_ACCEPT: Final = TWO64 - (1 << 32)

# The 64-bit values below are held as `Any`, not `int`: they do not fit the 63-bit tagged
# integers of the compiled build (mypyc), and as plain objects they skip a conversion at every
# operation. Interpreted, the code is the same Python arithmetic either way.


def _mix(z: Any) -> Any:
    """The SplitMix64 output function of a value already in [0, 2**64)."""
    z = ((z ^ (z >> 30)) * 0xBF58476D1CE4E5B9) & MASK64
    z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & MASK64
    return z ^ (z >> 31)


def mix64(z: int) -> int:
    """The SplitMix64 output function (a bijection on 64-bit integers)."""
    out: int = _mix(z & MASK64)
    return out


def fnv1a64(text: str) -> int:
    """64-bit FNV-1a of the ASCII bytes of `text` (stable across runs, unlike `hash`)."""
    h: Any = 0xCBF29CE484222325
    for byte in text.encode("ascii"):
        h = ((h ^ byte) * 0x100000001B3) & MASK64
    out: int = h
    return out


class Stream:
    """One SplitMix64 stream of random numbers for one purpose."""

    __slots__ = ("_state",)

    def __init__(self, seed: int, purpose: str, index: int = 0) -> None:
        self._state: Any = mix64(mix64(seed & MASK64) ^ fnv1a64(purpose) ^ mix64(index + 1))

    def __reduce__(self) -> tuple[Any, ...]:
        """Pickled as its state: a stream in another process goes on with the same numbers."""
        return resumed, (self._state,)

    def next64(self) -> int:
        """The next 64-bit output."""
        z: Any = (self._state + GOLDEN) & MASK64
        self._state = z
        z = ((z ^ (z >> 30)) * 0xBF58476D1CE4E5B9) & MASK64  # `_mix`, written out: one call less
        z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & MASK64
        out: int = z ^ (z >> 31)
        return out

    def below(self, n: int) -> int:
        """A uniform integer in ``[0, n)`` by rejection sampling (exact, no modulo bias): draws
        at or above ``2**64 - 2**64 % n`` are rejected."""
        if n <= 0:
            raise ValueError(f"below() needs n > 0, got {n}")
        while True:
            state: Any = (self._state + GOLDEN) & MASK64
            self._state = state
            x: Any = _mix(state)
            if (x < SURE_ACCEPT and n <= 1 << 32) or x < TWO64 - TWO64 % n:
                out: int = x % n
                return out

    def shuffled(self, items: Sequence[T]) -> list[T]:
        """A Fisher-Yates shuffle of `items` (which the caller has put in canonical order)."""
        out = list(items)
        for i in range(len(out) - 1, 0, -1):
            j = self.below(i + 1)
            out[i], out[j] = out[j], out[i]
        return out


def resumed(state: int) -> Stream:
    """The stream whose state is `state` (unpickling; see `Stream.__reduce__`)."""
    stream = Stream(0, "")
    stream._state = state
    return stream


def shuffled(seed: int, purpose: str, index: int, items: Sequence[T]) -> list[T]:
    """Shuffle `items` with the stream ``(seed, purpose, index)``."""
    return Stream(seed, purpose, index).shuffled(items)


def die_rolls(seed: int, count: int) -> tuple[int, ...]:
    """The first `count` rolls of the technology die for `seed` (values 1-6)."""
    stream = Stream(seed, "die", 0)
    return tuple(stream.below(6) + 1 for _ in range(count))
