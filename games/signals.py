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

#: Sent with ``sender=Game, game_id=..., ply=..., user_id=...`` after the commit of a move
#: that hands a correspondence turn to a person (live games, forfeited seats and the house
#: bots never): the alerts app queues its push and e-mail alerts here, off the move's path.
turn_came = Signal()

#: Sent with ``sender=Game, game_id=..., user_id=...`` after the commit of a challenge to
#: ``user_id`` (a table made for one invited player).
challenge_sent = Signal()

#: Sent with ``sender=Game, game_id=..., user_ids=[...]`` after the commit of a game's start,
#: naming the people at the table.
game_started = Signal()
