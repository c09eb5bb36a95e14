"""A walk through every page of the site: the data it shows, made through the services,
and the pages to visit with who is signed in on each."""

from __future__ import annotations

from datetime import timedelta

from django.utils import timezone

from games import services
from games.models import Game
from tests.games.conftest import challenge, correspondence_game, live_game
from tests.ratings.played import make_user, play_game
from tests.support.browser import in_thread


def live_clock_game(users) -> Game:
    """A game on a running 5+3 clock, one move in."""
    game = live_game(users)
    state = game.engine_state()
    return services.move_play(
        game_id=game.pk, user=users[state.to_move], ply=0, move=state.legal_moves()[0]
    )


def _analysed(game: Game) -> None:
    """The game's post-game analysis, run here as its task would (the replay shows it)."""
    from analysis import services as analysis
    from analysis.models import Analysis

    analysis.analysis_run(analysis_id=Analysis.objects.create(game=game).pk)


def _site_data() -> dict:
    """Players, games in every state, a tournament: made through the services."""
    from tournaments import services as tournaments

    ann, bob, cat, dan = (make_user(name) for name in ("ann", "bob", "cat", "dan"))
    make_user("bramble", bot_level="random")
    finished = play_game([ann, bob], kind="topiary")
    garden = play_game([bob, ann], kind="wizards_garden")
    _analysed(finished)
    live = {
        "topiary-2": play_game([ann, bob], kind="topiary", plies=3, move_seed=1, rated=False),
        "topiary-3": play_game([ann, bob, cat], kind="topiary", plies=4, move_seed=2),
        "topiary-4": play_game([ann, bob, cat, dan], kind="topiary", plies=5, move_seed=3),
        "topiary-2-live": live_clock_game([cat, dan]),
        "wizards-2": play_game([ann, bob], kind="wizards_garden", plies=6, move_seed=4),
    }
    table = services.table_create(
        user=ann,
        players=3,
        kind="topiary",
        options={},
        rated=False,
        clock_initial=300,
        clock_increment=3,
        correspondence_days=None,
    )
    event = tournaments.tournament_create(
        created_by=ann,
        name=TOURNAMENT_NAME,
        kind="topiary",
        format="swiss",
        rounds=3,
        clock_initial=180,
        clock_increment=2,
        starts_at=timezone.now() + timedelta(hours=1),
        max_players=8,
    )
    tournaments.tournament_join(tournament_id=event.pk, user=bob)
    # The home page lists ann's days-per-move games; dan has a challenge waiting (a note
    # in the corner of every page he opens).
    correspondence_game([ann, bob])
    challenge(cat, dan, kind="wizards_garden")
    _chat(ann, bob, finished, live["topiary-2"], event)
    # Left before every player moved: aborted, with its result panel (issue 20).
    aborted = live_game([ann, cat], rated=True)
    services.game_resign(game_id=aborted.pk, user=ann)
    movers = {
        name: game.seats.get(index=game.engine_state().to_move).user for name, game in live.items()
    }
    return {
        "users": {u.username: u for u in (ann, bob, cat, dan)},
        "finished": finished.pk,
        "garden": garden.pk,
        "finished_wizards": garden.pk,
        "aborted": aborted.pk,
        "live": {name: game.pk for name, game in live.items()},
        "movers": movers,
        "table": table.pk,
        "tournament": event.pk,
        "tournament_name": TOURNAMENT_NAME,
    }


CHAT_TEXTS = (
    "Anyone for a three-player game?",
    ("Rematch later? " + "https://example.com/" + "a-very-long-word-" * 6)[:140],
    "Good game!",
    "Well played <3",
    "Good luck",
    "Good luck, everyone",
)


TOURNAMENT_NAME = "Autumn Swiss of the Hedge Maze Society"


def _chat(ann, bob, finished, playing, event) -> None:
    """Chat on the pages that show it: the lobby, a game over, a game in play, a tournament."""
    from chat.services import chat_post

    lobby, long, game_over, well_played, luck, luck_all = CHAT_TEXTS
    for user, kind, place_id, room, text in (
        (ann, "lobby", None, "lobby", lobby),
        (bob, "lobby", None, "lobby", long),
        (ann, "game", finished.pk, "players", game_over),
        (bob, "game", finished.pk, "players", well_played),
        (ann, "game", playing.pk, "players", luck),
        (bob, "tournament", event.pk, "tournament", luck_all),
    ):
        chat_post(user=user, kind=kind, place_id=place_id, room=room, text=text)


def site_data() -> dict:
    """The data, made in a thread of its own: the games services send on the channel layer
    (async_to_sync), which cannot run in the thread where Playwright's loop runs."""

    return in_thread(_site_data)


def pages_to_visit(data: dict) -> list[tuple[str, str | None, str]]:
    """(name, who is signed in or None, path) for every page of the audit."""
    finished, live, movers = data["finished"], data["live"], data["movers"]
    pages = [
        ("home-signed-out", None, "/"),
        ("login", None, "/accounts/login/"),
        ("register", None, "/accounts/register/"),
        ("home", "ann", "/"),
        ("lobby", "ann", "/play/"),
        ("lobby-signed-out", None, "/play/"),
        ("home-challenged", "dan", "/"),
        ("lobby-after-get-of-form-address", "ann", "/play/new/"),
        ("open-table", "ann", f"/game/{data['table']}/"),
        ("game-over", "ann", f"/game/{finished}/"),
        ("game-over-wizards", "ann", f"/game/{data['finished_wizards']}/"),
        ("game-aborted", "ann", f"/game/{data['aborted']}/"),
        ("replay", "ann", f"/games/{finished}/replay/"),
        ("replay-not-analysed", "ann", f"/games/{data['garden']}/replay/"),
        ("history", "ann", "/games/history/ann/"),
        ("profile", "ann", "/@/ann/"),
        ("puzzle", "ann", "/puzzles/"),
        ("puzzle-about", None, "/puzzles/about/"),
        ("puzzle-archive", "ann", "/puzzles/archive/"),
        ("puzzle-leaderboard", "ann", "/puzzles/leaderboard/"),
        ("leaderboards", "ann", "/leaderboards/"),
        ("leaderboard-topiary", "ann", "/leaderboards/topiary/"),
        ("tournaments", "ann", "/tournaments/"),
        ("tournament", "ann", f"/tournaments/{data['tournament']}/"),
        ("season-topiary", None, "/tournaments/seasons/topiary/"),
        ("password", "ann", "/accounts/password/"),
        ("alerts", "ann", "/account/alerts/"),
        ("rules-topiary", None, "/rules/topiary/"),
        ("rules-wizards-garden", None, "/rules/wizards-garden/"),
        ("learn", "ann", "/learn/"),
        ("lesson-topiary", None, "/learn/topiary/"),
        ("lesson-wizards-garden", "ann", "/learn/wizards-garden/"),
    ]
    for name, game_id in live.items():
        pages.append((f"play-{name}", movers[name].username, f"/game/{game_id}/"))
    pages.append(("watch-topiary-4", None, f"/game/{live['topiary-4']}/"))
    return pages
