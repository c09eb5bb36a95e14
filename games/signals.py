"""Signals other apps listen to."""

from django.dispatch import Signal

#: Sent with ``sender=Game, game=game`` after a game's end is committed: once when a finished
#: game has been scored (``game.status == "finished"``, ranks and record stored), or once when
#: a game is aborted (``game.status == "aborted"``, nothing scored).
game_finished = Signal()

#: Sent with ``sender=Game, game=game`` while a finished game is scored, inside the scoring
#: transaction (ranks and record stored, not yet committed): the ratings app moves ratings
#: here, so that games need not import an app above it. A receiver that raises undoes the
#: scoring, which is retried. A receiver may answer a dict of public facts to add to
#: ``game.result`` (the ratings app answers ``{"ratings": [...]}``, shown on the game page).
game_scored = Signal()
