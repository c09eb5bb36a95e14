"""The engine's own seeded pseudo-random generator.

Python's ``random`` may change its algorithms between versions, and a deal,
a bot game or a daily puzzle must come out the same on every machine
forever. So the engine uses xoshiro256** (Blackman and Vigna, 2018), seeded
through SplitMix64, with the integer-reduction and shuffle procedures fixed
here. All randomness in the engine comes from an ``Rng`` passed in.

Seeding: an ``int`` seed ``s`` (taken modulo 2**64) feeds SplitMix64, whose
first four outputs are the xoshiro state. A ``bytes`` seed (for example a
SHA-256 digest) is read as four little-endian 64-bit words (zero-padded to
a 32-byte seed is used as it is, any other length is hashed with SHA-256
first); an all-zero state is replaced by the SplitMix64 expansion of 0.
A ``str`` seed is its UTF-8 bytes.
"""

from __future__ import annotations

import hashlib
from collections.abc import MutableSequence, Sequence
from typing import TypeVar

_MASK = (1 << 64) - 1
T = TypeVar("T")


def _splitmix64(x: int) -> tuple[int, int]:
    """One SplitMix64 step: (next state, output)."""
    x = (x + 0x9E3779B97F4A7C15) & _MASK
    z = x
    z = ((z ^ (z >> 30)) * 0xBF58476D1CE4E5B9) & _MASK
    z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & _MASK
    return x, z ^ (z >> 31)


def _rotl(x: int, k: int) -> int:
    return ((x << k) | (x >> (64 - k))) & _MASK


class Rng:
    """xoshiro256**: deterministic, portable, and fast enough for deals and bots."""

    __slots__ = ("_s",)

    def __init__(self, seed: int | bytes | str = 0):
        if isinstance(seed, str):
            seed = seed.encode()
        if isinstance(seed, bytes):
            if len(seed) != 32:
                seed = hashlib.sha256(seed).digest()
            words = [int.from_bytes(seed[i : i + 8], "little") for i in range(0, 32, 8)]
            if any(words):
                self._s = words
                return
            seed = 0
        x = seed & _MASK
        words = []
        for _ in range(4):
            x, out = _splitmix64(x)
            words.append(out)
        self._s = words

    def next_u64(self) -> int:
        """The next 64-bit output."""
        s = self._s
        result = (_rotl((s[1] * 5) & _MASK, 7) * 9) & _MASK
        t = (s[1] << 17) & _MASK
        s[2] ^= s[0]
        s[3] ^= s[1]
        s[1] ^= s[2]
        s[0] ^= s[3]
        s[2] ^= t
        s[3] = _rotl(s[3], 45)
        return result

    def randbelow(self, n: int) -> int:
        """A uniform integer in [0, n), by rejection so every value is equally likely."""
        if n <= 0:
            raise ValueError("randbelow needs n > 0")
        limit = (1 << 64) - ((1 << 64) % n)
        while True:
            x = self.next_u64()
            if x < limit:
                return x % n

    def random(self) -> float:
        """A float in [0, 1) from the top 53 bits."""
        return (self.next_u64() >> 11) * (1.0 / (1 << 53))

    def choice(self, items: Sequence[T]) -> T:
        """One element, uniformly."""
        return items[self.randbelow(len(items))]

    def shuffle(self, items: MutableSequence[T]) -> None:
        """Fisher-Yates in place, from the last index down."""
        for i in range(len(items) - 1, 0, -1):
            j = self.randbelow(i + 1)
            items[i], items[j] = items[j], items[i]

    def fork(self) -> Rng:
        """An independent generator seeded from this one's next outputs."""
        return Rng(b"".join(self.next_u64().to_bytes(8, "little") for _ in range(4)))
