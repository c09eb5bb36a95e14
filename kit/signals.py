"""Signals the project package sends that the apps may listen to."""

from django.dispatch import Signal

#: Sent with ``runner=...`` when the embedded runner (``make run``) starts in this process;
#: ``runner.think(function, *args)`` runs a function in one of its thinking processes.
embedded_runner_started = Signal()
