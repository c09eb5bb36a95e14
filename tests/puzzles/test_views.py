"""The puzzle pages and the JSON endpoints the board talks to, through Django's test client."""

from __future__ import annotations

import datetime
import json

import pytest
from django.utils import timezone

from engine import topiary
from puzzles import services
from puzzles.models import DailyPuzzle, PuzzleAttempt, PuzzleStreak
from ratings.models import RatingChange
from tests.puzzles.conftest import WEDNESDAY, short_line, submission
from tests.support.players import create_player

pytestmark = pytest.mark.django_db


def post_json(client, url: str, body) -> tuple[int, dict]:
    response = client.post(url, json.dumps(body), content_type="application/json")
    return response.status_code, response.json()


def board_data(response) -> dict:
    """The JSON the page hands to its board script."""
    html = response.content.decode()
    start = html.index('<script id="puzzle-data" type="application/json">')
    start = html.index(">", start) + 1
    return json.loads(html[start : html.index("</script>", start)])


def url(puzzle: DailyPuzzle, name: str = "") -> str:
    return f"/puzzles/{puzzle.date.isoformat()}/{name + '/' if name else ''}"


def test_todays_puzzle_is_made_on_first_visit_with_its_seed_and_verification(client):
    today = timezone.localdate()
    assert not DailyPuzzle.objects.exists()
    response = client.get("/puzzles/")
    assert response.status_code == 200
    puzzle = DailyPuzzle.objects.get(date=today)
    html = response.content.decode()
    assert puzzle.seed_hex in html
    assert "python -m engine" not in html and 'href="/puzzles/about/"' in html
    assert client.get("/puzzles/about/").status_code == 200
    data = board_data(response)
    assert data["k"] == puzzle.k and data["seat"] == puzzle.seat
    assert data["optimum"] == puzzle.optimum


def test_the_page_shows_every_face_down_identity_and_the_solvers_hand_only(client, puzzle):
    data = board_data(client.get(url(puzzle)))
    garden = data["position"]["garden"]
    assert garden == puzzle.position["garden"]
    assert any(cell.islower() for row in garden for cell in row)
    assert "?" not in {cell for row in garden for cell in row}
    hands = data["position"]["hands"]
    assert hands[puzzle.seat] == puzzle.position["hands"][puzzle.seat]
    assert hands[1 - puzzle.seat] == ["?", "?", "?"]
    assert "box" not in data["position"]


@pytest.mark.parametrize("day", ["2026-10-31", "2099-01-01", "2026-02-30"])
def test_no_puzzle_before_the_first_one_in_the_future_or_for_no_date(client, day):
    assert client.get(f"/puzzles/{day}/").status_code == 404
    assert not DailyPuzzle.objects.exists()


def test_the_optimal_line_is_not_revealed_before_solving_or_giving_up(client, puzzle, solver):
    client.force_login(solver)
    data = board_data(client.get(url(puzzle)))
    assert data["line"] is None
    assert "One optimal line" not in client.get(url(puzzle)).content.decode()

    # Playing along and a wrong answer reveal nothing either.
    status, progress = post_json(client, url(puzzle, "play"), submission(puzzle, puzzle.line[:1]))
    assert status == 200 and "line" not in progress
    moves, score = short_line(puzzle)
    status, verdict = post_json(client, url(puzzle, "submit"), submission(puzzle, moves))
    assert status == 200
    assert verdict["result"] == f"{score} / {puzzle.optimum}"
    assert "line" not in verdict
    assert board_data(client.get(url(puzzle)))["line"] is None

    status, verdict = post_json(client, url(puzzle, "submit"), submission(puzzle, puzzle.line))
    assert (status, verdict["result"], verdict["line"]) == (200, "Solved", puzzle.line)
    page = client.get(url(puzzle))
    assert board_data(page)["line"] == puzzle.line
    assert "One optimal line" in page.content.decode()


def test_giving_up_shows_the_line_from_then_on(client, puzzle, solver):
    client.force_login(solver)
    status, verdict = post_json(client, url(puzzle, "give-up"), {})
    assert (status, verdict["result"], verdict["line"]) == (200, "Gave up", puzzle.line)
    assert verdict["rated"] and verdict["rating"]["after"] < verdict["rating"]["before"]
    assert board_data(client.get(url(puzzle)))["line"] == puzzle.line


def test_playing_along_offers_the_legal_moves_of_each_position(client, puzzle):
    status, start = post_json(client, url(puzzle, "play"), submission(puzzle, []))
    assert status == 200 and start["left"] == 2
    assert puzzle.line[0] in start["legal_moves"]
    status, after = post_json(client, url(puzzle, "play"), submission(puzzle, puzzle.line[:1]))
    assert status == 200 and after["left"] == 1
    place = puzzle.line[0].split()[0]
    assert after["position"]["visitors"][place] == puzzle.seat
    assert not any(move.split()[0] == place for move in after["legal_moves"])
    status, done = post_json(client, url(puzzle, "play"), submission(puzzle, puzzle.line))
    assert status == 200
    assert (done["left"], done["legal_moves"]) == (0, [])


def test_refused_submissions_answer_400_with_the_reason_and_store_nothing(client, puzzle, solver):
    client.force_login(solver)
    taken = next(iter(puzzle.position["visitors"]))
    cases = [
        (submission(puzzle, [taken, puzzle.line[1]]), "occupied"),
        ({"seat": 1 - puzzle.seat, "moves": puzzle.line}, "seat"),
        (submission(puzzle, puzzle.line[:1]), "exactly 2 moves"),
        (submission(puzzle, [*puzzle.line, "a1:N"]), "exactly 2 moves"),
        ({"seat": puzzle.seat, "moves": "a1:N"}, "list of moves"),
    ]
    for body, reason in cases:
        status, reply = post_json(client, url(puzzle, "submit"), body)
        assert status == 400 and reason in reply["error"]
        assert set(reply) == {"error"}
    response = client.post(url(puzzle, "submit"), "{not json", content_type="application/json")
    assert response.status_code == 400 and "not JSON" in response.json()["error"]
    status, reply = post_json(client, url(puzzle, "play"), submission(puzzle, [taken]))
    assert status == 400 and "occupied" in reply["error"]
    assert not PuzzleAttempt.objects.exists()
    assert not RatingChange.objects.exists()
    puzzle.refresh_from_db()
    assert puzzle.rated_attempts == 0


def test_endpoints_take_posts_only(client, puzzle):
    assert client.get(url(puzzle, "submit")).status_code == 405
    assert client.get(url(puzzle, "give-up")).status_code == 405


def test_a_signed_in_solver_sees_rating_and_streak_move_once(client, puzzle, solver, monkeypatch):
    monkeypatch.setattr("django.utils.timezone.localdate", lambda: WEDNESDAY)
    client.force_login(solver)
    status, first = post_json(client, url(puzzle, "submit"), submission(puzzle, puzzle.line))
    assert status == 200
    assert first["rated"] and first["rating"]["after"] > first["rating"]["before"]
    assert first["streak"] == 1
    status, again = post_json(client, url(puzzle, "submit"), submission(puzzle, puzzle.line))
    assert status == 200
    assert again["solved"] and not again["rated"] and "rating" not in again
    assert again["streak"] == 1
    page = client.get("/puzzles/").content.decode()
    assert "1 day" in page
    assert page.count("(rated)") == 1


def test_the_archive_lists_past_puzzles_with_the_viewers_results(client, solver):
    today = timezone.localdate()
    yesterday = today - datetime.timedelta(days=1)
    made = services.daily_puzzle_get_or_create(date=yesterday)
    services.puzzle_attempt_submit(puzzle=made, user=solver, submission=submission(made, made.line))
    client.force_login(solver)
    html = client.get("/puzzles/archive/").content.decode()
    assert f"/puzzles/{yesterday.isoformat()}/" in html
    assert f"/puzzles/{today.isoformat()}/" not in html
    assert "Solved" in html
    assert client.get(f"/puzzles/{yesterday.isoformat()}/").status_code == 200


def test_the_leaderboard_ranks_live_streaks(client, django_user_model):
    today = timezone.localdate()
    broken = today.replace(year=2020)
    for name, days, last in (("alder", 5, today), ("birch", 3, today), ("cedar", 9, broken)):
        user = create_player(name)
        PuzzleStreak.objects.create(user=user, current=days, best=days, last_solved=last)
    html = client.get("/puzzles/leaderboard/").content.decode()
    assert "By puzzle rating" in html
    assert html.index("alder") < html.index("birch")
    assert "cedar" not in html  # a streak broken long ago is not current


def test_the_board_gets_what_each_visitor_sees_from_the_engine(client, puzzle):
    """Lines, seen tiles and points come with every position (the page draws, never counts)."""
    state = topiary.state_from_json(puzzle.position)
    page = board_data(client.get(url(puzzle)))
    assert page["sight_lines"] == state.sight_lines(free=True)
    status, after = post_json(client, url(puzzle, "play"), submission(puzzle, puzzle.line[:1]))
    assert status == 200
    state = state.apply(puzzle.line[0], seat=puzzle.seat)
    assert after["sight_lines"] == state.sight_lines(free=True)
    placed = puzzle.line[0].split()[0]
    (mine,) = [line for line in after["sight_lines"] if line["position"] == placed]
    assert mine["seat"] == puzzle.seat and mine["line"][0] == placed.split(":")[0]
    # Only face-up tiles are ever seen: a face-down identity is not counted as seen.
    assert all(seen["tile"].isupper() for line in after["sight_lines"] for seen in line["seen"])
    status, done = post_json(client, url(puzzle, "play"), submission(puzzle, puzzle.line))
    assert all(line["seat"] is not None for line in done["sight_lines"])
