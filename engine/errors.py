"""The one family of exceptions the engine raises for bad input.

Every message is meant for a person: it names the move, field, cell or ply
that is wrong and why, so callers can show it as it is.
"""


class EngineError(ValueError):
    """Base class: bad input of any kind."""


class IllegalMove(EngineError):
    """A move that the rules do not allow in this state."""


class NotationError(EngineError):
    """Text or JSON that does not follow NOTATION.md."""


class RecordError(EngineError):
    """A game record that does not replay; ``ply`` is the 1-based ply at fault (0: the header)."""

    def __init__(self, message: str, ply: int = 0):
        super().__init__(f"ply {ply}: {message}" if ply else message)
        self.ply = ply
