"""A third game, defined in the test package and registered at run time, plays like the others.

``tests/games/three_in_a_row.py`` is a whole game module with its descriptor; no Django app
file names it. Registered with ``engine.games.register``, it is offered in the lobby, played
through the services and over the real websocket, scored, ranked, rated and replayed.
"""

from __future__ import annotations

from dataclasses import replace

import pytest
from channels.db import database_sync_to_async
from django.core.exceptions import ValidationError
from django.forms import modelform_factory
from django.urls import reverse

from api import services as api_services
from engine.games import (
    EXTRA_GAMES,
    game_definition,
    register,
    register_extra_games,
    unregister,
)
from games import selectors, services
from games.models import Game, Seek
from ratings.models import Rating, RatingChange
from tests.api.conftest import Api
from tests.games import three_in_a_row
from tests.games.conftest import live_game
from tests.games.pages import PATIENCE, status, wait_for_status
from tests.games.sockets import Socket, in_own_loop
from tests.support import servers
from tests.support.browser import signed_in
from tournaments.forms import TournamentForm
from tournaments.models import Tournament

#: Seat 0 (X) fills a1, b1, c1 while seat 1 (O) plays a2, b2: X wins on the fifth mark.
WINNING_LINE = ["a1", "a2", "b1", "b2", "c1"]


@pytest.fixture
def third_game():
    register(three_in_a_row.GAME)
    yield three_in_a_row.GAME
    unregister(three_in_a_row.NAME)


def test_registering_a_game_adds_it_and_unregistering_takes_it_away():
    register(three_in_a_row.GAME)
    try:
        assert game_definition("three_in_a_row").title == "Three in a Row"
        with pytest.raises(ValueError, match="already registered"):
            register(three_in_a_row.GAME)
    finally:
        unregister(three_in_a_row.NAME)
    with pytest.raises(ValueError, match="unknown game 'three_in_a_row'"):
        game_definition("three_in_a_row")


def test_extra_game_modules_named_in_the_environment_are_registered_once(monkeypatch):
    monkeypatch.setenv(EXTRA_GAMES, f" {three_in_a_row.__name__} ,")
    try:
        assert register_extra_games() == (three_in_a_row.GAME,)
        assert register_extra_games() == ()  # already there: nothing added, nothing raised
        assert game_definition("three_in_a_row") is three_in_a_row.GAME
    finally:
        unregister(three_in_a_row.NAME)
    with pytest.raises(ModuleNotFoundError):
        register_extra_games("tests.games.no_such_game")


@pytest.mark.django_db
def test_the_lobby_offers_a_registered_game_with_its_rule_option(client, make_player, third_game):
    ann, bob = make_player(), make_player()
    client.force_login(ann)
    lobby = client.get(reverse("games:lobby")).content.decode()
    assert '<option value="three_in_a_row">Three in a Row</option>' in lobby
    assert "Three in a Row: the first mark may go in b2." in lobby
    # It has no rules page: the lobby's note links the others' only, its address is a 404.
    assert 'href="/rules/three-in-a-row/"' not in lobby and 'href="/rules/topiary/"' in lobby
    assert client.get("/rules/three-in-a-row/").status_code == 404
    response = client.post(
        reverse("games:table_new"),
        {"kind": "three_in_a_row", "players": 2, "time_control": "5+3", "rated": "on"},
    )
    game = Game.objects.get()
    assert response.status_code == 302
    assert game.options == {"centre_opening": False} and game.seat_count == 2
    refused = client.post(
        reverse("games:table_new"),
        {"kind": "three_in_a_row", "players": 3, "time_control": "5+3"},
    )
    assert refused.status_code == 200 and b"Three in a Row is for 2 players" in refused.content
    assert Game.objects.count() == 1

    client.force_login(bob)
    client.post(reverse("games:action", args=[game.pk, "join"]))
    game.refresh_from_db()
    assert game.status == Game.Status.ACTIVE
    mover = (ann, bob)[game.engine_state().to_move]
    frame = selectors.game_state_for(game.pk, mover)
    # Without the centre opening, the first mark may go anywhere but b2.
    assert len(frame["legal_moves"]) == 8 and "b2" not in frame["legal_moves"]
    page = client.get(reverse("games:game", args=[game.pk])).content.decode()
    assert f"<h1>Three in a Row #{game.pk}</h1>" in page


@pytest.mark.django_db
def test_a_registered_game_is_played_scored_ranked_and_rated_through_the_services(
    client, make_player, third_game
):
    ann, bob = make_player(), make_player()
    game = live_game([ann, bob], kind="three_in_a_row", rated=True, first_player=0)
    with pytest.raises(services.Refused) as refusal:
        services.move_play(game_id=game.pk, user=bob, ply=0, move="a1")
    assert refusal.value.code == "not_your_turn"
    with pytest.raises(services.Refused) as refusal:
        services.move_play(game_id=game.pk, user=ann, ply=0, move="d4")
    assert refusal.value.code == "illegal" and "a1..c3" in refusal.value.reason
    for ply, move in enumerate(WINNING_LINE):
        services.move_play(game_id=game.pk, user=(ann, bob)[ply % 2], ply=ply, move=move)
    game.refresh_from_db()
    assert game.status == Game.Status.FINISHED and game.termination == "normal"

    services.game_score(game_id=game.pk)
    game.refresh_from_db()
    assert game.result["ranks"] == [1, 2] and game.result["winners"] == [0]
    assert [seat.score["marks"] for seat in game.seats.order_by("index")] == [3, 2]
    states = three_in_a_row.replay(game.record)
    assert states[-1].to_json()["board"] == "XXXOO...."
    changes = {change.user_id: change for change in RatingChange.objects.filter(game=game)}
    assert changes[ann.pk].kind == "three_in_a_row"
    assert changes[ann.pk].after > changes[ann.pk].before
    assert changes[bob.pk].after < changes[bob.pk].before

    replay = client.get(reverse("games:replay", args=[game.pk])).content.decode()
    assert f"Three in a Row #{game.pk}" in replay
    assert '<th scope="col" class="num">Marks</th>' in replay


@pytest.mark.django_db
def test_a_resignation_ranks_the_resigner_last_in_a_registered_game(make_player, third_game):
    ann, bob = make_player(), make_player()
    game = live_game([ann, bob], kind="three_in_a_row", first_player=1)
    services.move_play(game_id=game.pk, user=bob, ply=0, move="b2")
    services.game_resign(game_id=game.pk, user=bob)
    services.game_score(game_id=game.pk)
    game.refresh_from_db()
    assert game.termination == "resign" and game.result["ranks"] == [1, 2]


@pytest.mark.django_db
def test_a_bot_plays_a_registered_game_to_its_end(client, make_player, third_game):
    ann = make_player()
    game = services.bot_game_create(
        user=ann,
        kind="three_in_a_row",
        level="random",
        clock_initial=None,
        clock_increment=None,
        correspondence_days=3,
    )
    bot = game.seats.get(index=1).user
    while game.status == Game.Status.ACTIVE:
        if game.bot_to_move:
            services.bot_move_play(game_id=game.pk, ply=game.ply)
        else:
            move = selectors.game_state_for(game.pk, ann)["legal_moves"][0]
            services.move_play(game_id=game.pk, user=ann, ply=game.ply, move=move)
        game.refresh_from_db()
    assert game.status == Game.Status.FINISHED and bot.is_bot
    marks = game.engine_state().to_json()["board"]
    assert marks.count("O") >= 2  # the bot's own marks, from its view's legal moves
    services.game_score(game_id=game.pk)
    replay = client.get(reverse("games:replay", args=[game.pk])).content.decode()
    assert f"Three in a Row #{game.pk}" in replay and bot.username in replay


#: Every kind column, and the model form (the admin's) that edits it.
KIND_COLUMNS = [(Game, "kind"), (Seek, "kind"), (Tournament, "kind"), (Rating, "kind")]


@pytest.mark.parametrize("model, name", KIND_COLUMNS, ids=lambda x: getattr(x, "__name__", x))
def test_the_kind_columns_take_a_registered_game_and_refuse_any_other_kind(model, name):
    column = model._meta.get_field(name)
    assert not column.choices  # the registry judges: a new game writes no migration
    with pytest.raises(ValidationError, match="'three_in_a_row' is not a"):
        column.clean("three_in_a_row", None)
    register(three_in_a_row.GAME)
    try:
        assert column.clean("three_in_a_row", None) == "three_in_a_row"
        offered = modelform_factory(model, fields=[name])().fields[name].choices
        assert ("three_in_a_row", "Three in a Row") in offered
        assert ("topiary", "Topiary") in offered
        with pytest.raises(ValidationError) as refusal:
            column.clean("chess", None)
        assert "'chess' is not a" in refusal.value.messages[0]
        assert "topiary, wizards_garden, three_in_a_row" in refusal.value.messages[0]
    finally:
        unregister(three_in_a_row.NAME)


def test_only_ratings_take_the_puzzle_kind():
    assert Rating._meta.get_field("kind").clean("puzzle", None) == "puzzle"
    offered = modelform_factory(Rating, fields=["kind"])().fields["kind"].choices
    assert offered[-1] == ("puzzle", "Puzzles")
    with pytest.raises(ValidationError, match="'puzzle' is not a game here"):
        Game._meta.get_field("kind").clean("puzzle", None)


@pytest.mark.django_db
def test_a_registered_game_has_its_leaderboards_on_the_site_and_in_the_api(
    client, make_player, third_game
):
    ann, bob = make_player(), make_player()
    game = live_game([ann, bob], kind="three_in_a_row", rated=True, first_player=0)
    for ply, move in enumerate(WINNING_LINE):
        services.move_play(game_id=game.pk, user=(ann, bob)[ply % 2], ply=ply, move=move)
    services.game_score(game_id=game.pk)
    board = client.get(reverse("ratings:board", args=["three_in_a_row"])).content.decode()
    assert "<h1>Three in a Row leaderboard</h1>" in board
    assert "Three in a Row" in client.get(reverse("ratings:index")).content.decode()
    history = client.get(f"/api/users/{ann.username}/rating-history/three_in_a_row")
    assert history.status_code == 200 and len(history.json()) == 1
    unknown = client.get("/api/leaderboards/chess")
    assert unknown.status_code == 404 and "'chess'" in unknown.json()["message"]


def test_the_tournament_form_offers_a_registered_game_and_says_which_games_seat_more(
    third_game,
):
    form = TournamentForm()
    assert ("three_in_a_row", "Three in a Row") in list(form.fields["kind"].choices)
    assert [size for size, _ in form.fields["table_size"].choices] == [2, 3, 4]
    assert form.fields["table_size"].help_text == "3 or 4 only for Swiss tables of Topiary."
    # Only the form reads it: a descriptor seating 2 or 3 on the same little module.
    crowded = replace(
        third_game, name="crowded_row", title="Crowded Row", seats=(2, 3), seats_option="players"
    )
    register(crowded)
    try:
        help_text = TournamentForm().fields["table_size"].help_text
    finally:
        unregister("crowded_row")
    assert help_text == "3 or 4 only for Swiss tables of Topiary and Crowded Row."


def _state(ply: int):
    return lambda frame: frame["type"] in ("state", "move") and frame["ply"] == ply


@pytest.mark.django_db(transaction=True)
@pytest.mark.redis
@in_own_loop
async def test_a_registered_game_is_played_over_the_websocket(redis_url, make_player, third_game):
    new_player = database_sync_to_async(make_player)
    ann, bob = await new_player(), await new_player()
    game = await database_sync_to_async(live_game)(
        [ann, bob], kind="three_in_a_row", first_player=0
    )
    path = f"/ws/game/{game.pk}/"
    sockets = [await Socket.open(path, user) for user in (ann, bob, None)]
    first = await sockets[0].until(_state(0))
    assert first["kind"] == "three_in_a_row" and "b2" in first["legal_moves"]
    for ply, move in enumerate(WINNING_LINE):
        await sockets[ply % 2].send({"type": "move", "ply": ply, "move": move})
        seen = [await socket.until(_state(ply + 1)) for socket in sockets]
        assert all(frame["moves"][-1]["move"] == move for frame in seen)
    assert seen[2]["position"]["board"] == "XXXOO...." and seen[2]["status"] == "finished"

    await database_sync_to_async(services.game_score)(game_id=game.pk)
    scored = await sockets[2].until(lambda frame: frame.get("result") is not None)
    assert scored["result"]["winners"] == [0] and scored["result"]["ranks"] == [1, 2]
    assert [seat["rank"] for seat in scored["seats"]] == [1, 2]
    for socket in sockets:
        await socket.close()


@pytest.mark.django_db
def test_the_api_describes_a_registered_game_and_refuses_a_table_size_in_a_players_words(
    client, make_player, third_game
):
    document = client.get("/api/openapi.json").json()
    table = document["components"]["schemas"]["TableIn"]["properties"]
    assert table["kind"]["description"] == "topiary or wizards_garden or three_in_a_row"
    assert "Three in a Row 2" in table["players"]["description"]
    api = Api(client, api_services.token_create(user=make_player(), name="t", scopes=["play"])[1])
    for kind, players, words in (
        ("topiary", 5, "Topiary is for 2 to 4 players."),
        ("three_in_a_row", 3, "Three in a Row is for 2 players."),
    ):
        refused = api.post("/tables", {"kind": kind, "players": players, "correspondence_days": 2})
        assert refused.status_code == 400 and refused.json()["message"] == words
    assert not Game.objects.exists()


@pytest.fixture(scope="module")
def third_game_site(server_env, server_logs):
    """A web process and the workers with the third game registered at start-up, as a site
    adding a game by its engine module alone would run (``TOPIARY_EXTRA_GAMES``); yields
    the web process's base URL. Only this module's: the suite's shared server keeps the
    house's two games."""
    env = {**server_env, "TOPIARY_EXTRA_GAMES": three_in_a_row.__name__}
    web, url = servers.start_web(env, server_logs)
    workers = servers.start_worker(env, server_logs)
    yield url
    workers.stop()
    web.stop()


@pytest.mark.browser
@pytest.mark.celery
@pytest.mark.django_db(transaction=True)
def test_a_registered_game_is_offered_made_and_played_to_its_end_in_the_browser(
    browser, third_game_site, make_player, third_game, tmp_path
):
    ann = make_player()
    context, page = signed_in(browser, third_game_site, ann)
    page.goto(f"{third_game_site}/play/")
    table_kinds = page.locator("#new-table-title ~ form select[name=kind] option")
    assert "Three in a Row" in table_kinds.all_inner_texts()
    form = page.locator("#bots-title ~ form")
    form.locator("select[name=kind]").select_option("three_in_a_row")
    form.locator("select[name=level]").select_option("random")
    form.get_by_role("button", name="Play bots").click()
    page.wait_for_url("**/game/*/")
    # No board script of its own: the generic board draws its cells; no rules page, no link.
    page.locator("#board.generic-board").wait_for()
    assert page.locator("#board .grid-cell").count() == 9
    assert page.get_by_role("link", name="Rules").count() == 0

    turns = 0
    while True:
        wait_for_status([page], lambda text: text == "Your turn" or "Game over" in text)
        if "Game over" in status(page):
            break
        marks = page.locator("#board .grid-cell .mark").count()
        page.locator("#board .grid-cell:has(.cell.legal)").first.click()
        page.locator("#confirm").click()
        turns += 1
        # Our mark and (unless that ended the game) the bot's answer.
        page.wait_for_function(
            f"document.querySelectorAll('#board .grid-cell .mark').length > {marks}",
            timeout=PATIENCE * 1000,
        )
        if turns == 2:
            for width, height in ((360, 740), (390, 844), (1280, 800)):
                page.set_viewport_size({"width": width, "height": height})
                page.screenshot(path=str(tmp_path / f"third-game-{width}.png"), full_page=True)
            page.set_viewport_size({"width": 1200, "height": 900})
    wait_for_status([page], lambda text: "wins" in text or "Draw" in text)
    game = Game.objects.get()
    assert game.status == Game.Status.FINISHED and game.result
    # The final position as drawn is the engine's, mark by mark.
    drawn = page.locator("#board .grid-cell").evaluate_all(
        "cells => Object.fromEntries(cells.map((g) => [g.dataset.cell, g.dataset.mark]))"
    )
    assert drawn == game.engine_state().to_json()["cells"]
    assert page.locator("#moves li").count() == len(game.moves)
    assert page.locator("#result").is_visible()
    page.screenshot(path=str(tmp_path / "third-game-over.png"), full_page=True)
    # Its replay: the generic board and the running score in the descriptor's columns.
    page.goto(f"{third_game_site}/games/{game.pk}/replay/")
    page.locator('[data-step="last"]').click()
    page.locator("#replay-board .grid-cell .mark").nth(len(game.moves) - 1).wait_for()
    heads = page.locator("#replay-score table th").all_text_contents()
    assert heads == ["Player", "Marks", "Total"], heads
    print(f"\nScreenshots: {tmp_path}")
    context.close()
