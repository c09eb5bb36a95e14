"""Signals other apps listen to."""

from django.dispatch import Signal

#: Sent with ``sender=Game, game=game`` after a game's end is committed: once when a finished
#: game has been scored (``game.status == "finished"``, ranks and record stored), or once when
#: a game is aborted (``game.status == "aborted"``, nothing scored).
game_finished = Signal()
