"""The public API (docs/API.md): thin endpoints over the apps' services and selectors.

django-ninja builds the OpenAPI document (``/api/openapi.json``) and the interactive page
(``/api/docs``) from these functions. Every game frame is ``games.selectors.game_payload``
for the caller's seat (or the spectators' view): the same builder as the socket frames.

``setup`` holds the NinjaAPI, authentication and the error answers; each area's endpoints
are a Router of their own module, added here in the order their URLs are matched.
"""

from api.endpoints import (
    account,
    games,
    play,
    puzzles,
    runs,
    streaming,
    tables,
    tournaments,
    users,
)
from api.endpoints.setup import api

# Runs before puzzles, whose "/puzzles/{date}" would take "runs" for a date.
for area in (account, users, games, streaming, play, tables, runs, puzzles, tournaments):
    api.add_router("", area.router)

__all__ = ["api"]
