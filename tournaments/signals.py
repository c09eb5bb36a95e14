"""Signals apps above tournaments listen to."""

from django.dispatch import Signal

#: Sent with ``sender=Tournament, tournament_id=..., user_ids=[...]`` after the commit of a
#: tournament's start, naming the players entered (not withdrawn) when it started.
tournament_started = Signal()
