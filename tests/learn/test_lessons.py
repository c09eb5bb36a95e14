"""The lessons: every position has a solution and a hint that can be earned; the engine judges."""

from __future__ import annotations

import io
import json
import zipfile

import pytest

from learn import services
from learn.lessons import LESSONS, Attempt, lesson_for_slug
from learn.models import LessonProgress
from tests.ratings.played import make_user

STEPS = [
    (lesson, number) for lesson in LESSONS.values() for number in range(1, len(lesson.steps) + 1)
]
IDS = [f"{lesson.game}-{lesson.step(number).key}" for lesson, number in STEPS]


def finished_moves(state):
    """Every whole move from ``state`` as (steps, position after): a take with each plant."""
    for first in state.legal_steps():
        after = state.apply(first)
        if after.pending_step:
            for plant in after.legal_steps():
                yield (first, plant), after.apply(plant)
        else:
            yield (first,), after


@pytest.mark.parametrize(("lesson", "number"), STEPS, ids=IDS)
def test_each_step_has_a_solution_and_a_move_that_earns_the_hint(lesson, number):
    step = lesson.step(number)
    module = lesson.definition.module
    before = module.state_from_json(step.position)
    assert not before.is_over
    assert 5 <= len(lesson.steps) <= 10
    after = before
    for move in step.solution:
        after = after.apply(move, seat=before.to_move)
    assert not after.pending_step
    assert step.goal(Attempt(before, after, step.solution)), "the solution must meet the goal"
    misses = [
        steps
        for steps, result in finished_moves(before)
        if not step.goal(Attempt(before, result, steps))
    ]
    assert misses, "some legal move must miss the goal, or the hint could never be shown"
    assert step.hint and step.explanation and step.task and step.hint != step.explanation


def test_lessons_are_found_by_their_address():
    assert lesson_for_slug("topiary") is LESSONS["topiary"]
    assert lesson_for_slug("wizards-garden") is LESSONS["wizards_garden"]
    assert lesson_for_slug("wizards_garden") is None
    assert lesson_for_slug("chess") is None


# --------------------------------------------------------------------------- checking answers


class Visitor:
    is_authenticated = False


TOPIARY = LESSONS["topiary"]
WIZARDS = LESSONS["wizards_garden"]


def check(answer, *, lesson=TOPIARY, number=1, user=None):
    return services.lesson_answer_check(
        lesson=lesson, number=number, answer=answer, user=user or Visitor()
    )


@pytest.mark.django_db
def test_a_right_answer_is_explained_and_saved_once_for_a_player():
    ann = make_user("ann")
    first = check({"steps": ["a4:E"]}, user=ann)
    assert first.status == "right" and first.saved
    assert first.message == TOPIARY.step(1).explanation
    assert first.payload["position"]["visitors"] == {"a4:E": 0}
    again = check({"steps": ["a4:E"]}, user=ann)
    assert again.status == "right" and not again.saved
    assert list(LessonProgress.objects.values_list("user__username", "game", "step")) == [
        ("ann", "topiary", "sight-line")
    ]


@pytest.mark.django_db
def test_a_wrong_answer_earns_the_hint_and_saves_nothing():
    ann = make_user("ann")
    verdict = check({"steps": ["e4:W"]}, user=ann)
    assert verdict.status == "wrong"
    assert verdict.message == TOPIARY.step(1).hint
    assert not LessonProgress.objects.exists()


@pytest.mark.django_db
def test_a_visitor_is_judged_and_nothing_is_stored():
    assert check({"steps": ["a4:E"]}).status == "right"
    assert not LessonProgress.objects.exists()


@pytest.mark.django_db
@pytest.mark.parametrize(
    ("answer", "error"),
    [
        (["a4:E"], "expected a JSON object"),
        ({"moves": ["a4:E"]}, "expected a JSON object"),
        ({"steps": []}, "expected 1 to 4 steps"),
        ({"steps": [7]}, "step 1: expected a move in notation"),
        ({"steps": ["x" * 80]}, "step 1: expected a move in notation"),
        ({"steps": ["z9:Q"]}, "step 1 (z9:Q)"),
        ({"steps": ["c3:N"]}, "step 1 (c3:N)"),
        ({"steps": ["a4:E", "e4:W"]}, "step 2 (e4:W): your move was already complete"),
        ({"steps": ["c5:S c4", "=E5"]}, "step 2 (=E5)"),
    ],
)
def test_malformed_or_illegal_answers_are_refused_and_change_nothing(answer, error):
    ann = make_user("ann")
    with pytest.raises(services.AnswerRefused) as refused:
        check(answer, user=ann, number=1 if "c5:S c4" not in str(answer) else 5)
    assert error in str(refused.value)
    assert not LessonProgress.objects.exists()


@pytest.mark.django_db
def test_a_take_shows_the_learner_the_tile_and_waits_for_the_plant():
    verdict = check({"steps": ["c5:S c4"]}, number=5)
    assert verdict.status == "continue"
    pending = verdict.payload["position"]["pending"]
    assert pending["position"] == "c5:S" and pending["cell"] == "c4"
    taken = pending["took"]
    assert taken in verdict.payload["position"]["hands"][0]
    assert verdict.payload["legal_steps"] == sorted(["=*", "=H1", "=N5", "=R2"])
    # The rest of the garden stays face down, and the rival's hand hidden.
    garden = [cell for row in verdict.payload["position"]["garden"] for cell in row]
    assert all(cell in ("?", ".") or cell[0].isupper() for cell in garden)
    assert verdict.payload["position"]["hands"][1] == ["?", "?", "?"]
    assert check({"steps": ["c5:S c4", "=N5"]}, number=5).status == "right"
    assert check({"steps": ["c5:S c4", "=H1"]}, number=5).status == "wrong"


@pytest.mark.django_db
def test_a_wizards_garden_answer_is_judged_by_its_harvest():
    assert check({"steps": ["d2B"]}, lesson=WIZARDS, number=3).status == "right"
    assert check({"steps": ["a3W"]}, lesson=WIZARDS, number=3).status == "wrong"
    with pytest.raises(services.AnswerRefused, match="step 1"):
        check({"steps": ["a1W"]}, lesson=WIZARDS, number=3)  # a1 is taken


def test_a_step_that_does_not_exist_is_an_index_error():
    with pytest.raises(IndexError):
        check({"steps": ["a4:E"]}, number=99)


# --------------------------------------------------------------------------- over HTTP


@pytest.mark.django_db
def test_the_check_endpoint_answers_json_and_refuses_bad_bodies(client):
    url = "/learn/topiary/1/check/"
    right = client.post(url, {"steps": ["a4:E"]}, content_type="application/json")
    assert right.status_code == 200 and right.json()["status"] == "right"
    wrong = client.post(url, {"steps": ["e4:W"]}, content_type="application/json")
    assert wrong.json() == {
        "status": "wrong",
        "message": TOPIARY.step(1).hint,
        **{key: wrong.json()[key] for key in ("position", "sight_lines")},
    }
    bad = client.post(url, "not json", content_type="application/json")
    assert bad.status_code == 400 and "not JSON" in bad.json()["error"]
    illegal = client.post(url, json.dumps({"steps": ["c3:N"]}), content_type="application/json")
    assert illegal.status_code == 400 and illegal.json()["error"].startswith("step 1 (c3:N)")
    assert (
        client.post("/learn/topiary/99/check/", {}, content_type="application/json").status_code
        == 404
    )
    assert (
        client.post("/learn/chess/1/check/", {}, content_type="application/json").status_code == 404
    )
    assert client.get(url).status_code == 405


@pytest.mark.django_db
def test_the_lesson_page_starts_every_step_from_the_engines_view(client):
    ann = make_user("ann")
    check({"steps": ["a4:E"]}, user=ann)
    client.force_login(ann)
    page = client.get("/learn/topiary/")
    assert page.status_code == 200
    data = page.context["data"]
    assert data["solved"] == ["sight-line"]
    assert [step["key"] for step in data["steps"]] == [step.key for step in TOPIARY.steps]
    for step in data["steps"]:
        garden = [cell for row in step["position"]["garden"] for cell in row]
        # Face-down tiles reach the page as "?": their identities never do.
        assert all(cell == "?" or cell[0].isupper() for cell in garden)
        assert step["legal_steps"] and step["sight_lines"]
    wizards = client.get("/learn/wizards-garden/").context["data"]
    assert wizards["solved"] == [] and "sight_lines" not in wizards["steps"][0]


@pytest.mark.django_db
def test_a_players_lessons_are_in_their_data_export(client):
    ann = make_user("ann")
    check({"steps": ["a4:E"]}, user=ann)
    client.force_login(ann)
    archive = zipfile.ZipFile(io.BytesIO(client.get("/account/export/").content))
    solved = json.loads(archive.read("lessons.json"))
    assert [(row["game"], row["step"]) for row in solved] == [("topiary", "sight-line")]
