"""Topiary and Wizards' Garden: rules, notation, records, views, bots and puzzles.

A pure-Python library: nothing here imports Django, Celery or anything web.

    from engine import topiary, wizards_garden
    state = topiary.new_game(topiary.Options(players=2), seed=1)
    state.legal_moves()            # notation strings
    state = state.apply("c5:S c4=*")
    state.view(0).to_json()        # what seat 0 may know, as NOTATION.md's JSON
"""

from engine.errors import EngineError, IllegalMove, NotationError, RecordError

__all__ = ["EngineError", "IllegalMove", "NotationError", "RecordError"]
