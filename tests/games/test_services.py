"""The one writer per game: moves, refusals, clocks, endings and scoring."""

from __future__ import annotations

from datetime import timedelta

import pytest

from engine.errors import EngineError
from engine.games import game_module
from games import selectors, services
from games.models import Game, Seat
from kit.text import sentence
from tests.games.conftest import at_once, first_legal, live_game, play_out, refused
from tests.support.tables import CORRESPONDENCE

pytestmark = pytest.mark.django_db


def snapshot(game: Game):
    game.refresh_from_db()
    return (game.ply, game.state, game.moves, game.status)


@pytest.fixture
def two(make_player):
    ann, bob = make_player(), make_player()
    return [ann, bob], live_game([ann, bob], first_player=0)


def test_a_move_is_applied_and_the_next_player_is_to_move(two):
    (ann, bob), game = two
    ply, move = first_legal(game, ann)
    services.move_play(game_id=game.pk, user=ann, ply=ply, move=move)
    game.refresh_from_db()
    assert game.ply == 1
    assert game.moves[0]["move"] == move and game.moves[0]["seat"] == 0
    bobs = selectors.game_state_for(game.pk, bob)
    assert bobs["to_move"] == bobs["you"] == 1 and bobs["legal_moves"]
    assert selectors.game_state_for(game.pk, ann)["legal_moves"] == []


def test_every_refusal_changes_nothing(two, make_player):
    (ann, bob), game = two
    ply, move = first_legal(game, ann)
    before = snapshot(game)
    refused("not_your_turn", services.move_play, game_id=game.pk, user=bob, ply=0, move=move)
    refused("illegal", services.move_play, game_id=game.pk, user=ann, ply=0, move="z9:Q")
    refused("stale", services.move_play, game_id=game.pk, user=ann, ply=5, move=move)
    refused("not_seated", services.move_play, game_id=game.pk, user=make_player(), ply=0, move=move)
    refused("bad_request", services.move_play, game_id=game.pk, user=ann, ply="0", move=move)
    assert snapshot(game) == before

    services.move_play(game_id=game.pk, user=ann, ply=ply, move=move)
    after_one = snapshot(game)
    reason = refused("duplicate", services.move_play, game_id=game.pk, user=ann, ply=0, move=move)
    assert move in reason.reason
    _bob_ply, bob_move = first_legal(game, bob)
    refused("stale", services.move_play, game_id=game.pk, user=bob, ply=0, move=bob_move)
    assert snapshot(game) == after_one


def test_illegal_move_reason_comes_from_the_engine(two):
    (ann, _), game = two
    with pytest.raises(EngineError) as engine:
        game.engine_state().apply("c3:S", 0)
    reason = refused("illegal", services.move_play, game_id=game.pk, user=ann, ply=0, move="c3:S")
    # The engine's own words, made a sentence, not a message of the site's.
    assert engine.value.code == "move_no_such_position"
    assert reason.reason == sentence(str(engine.value))
    assert reason.reason == (
        "Malformed move 'c3:S': no such position 'c3:S' "
        "(an edge cell and a direction into the garden, like 'c5:S')."
    )


def test_no_move_in_a_finished_or_unstarted_game(two, make_player):
    (ann, bob), game = two
    services.game_resign(game_id=game.pk, user=bob)
    refused("finished", services.move_play, game_id=game.pk, user=ann, ply=0, move="a1:N")
    carol = make_player()
    table = services.table_create(
        user=carol,
        kind="topiary",
        players=2,
        rated=False,
        **CORRESPONDENCE,
    )
    refused("not_started", services.move_play, game_id=table.pk, user=carol, ply=0, move="a1:N")


@pytest.mark.django_db(transaction=True)
def test_two_writers_for_one_ply_only_one_applies(make_player):
    ann, bob = make_player(), make_player()
    game = live_game([ann, bob], first_player=0)
    moves = selectors.game_state_for(game.pk, ann)["legal_moves"][:2]
    outcomes = at_once(
        lambda move: services.move_play(game_id=game.pk, user=ann, ply=0, move=move), moves
    )
    game.refresh_from_db()
    assert sorted(outcomes) == ["ok", "stale"]
    assert game.ply == 1 and len(game.moves) == 1 and game.moves[0]["move"] in moves


def test_a_table_starts_when_its_seats_are_full(make_player):
    ann, bob, cat = make_player(), make_player(), make_player()
    table = services.table_create(
        user=ann,
        kind="topiary",
        players=3,
        rated=True,
        clock_initial=180,
        clock_increment=2,
        correspondence_days=None,
    )
    assert [t["id"] for t in selectors.tables_open(bob)] == [table.pk]
    services.table_join(game_id=table.pk, user=bob)
    refused("already_seated", services.table_join, game_id=table.pk, user=bob)
    table.refresh_from_db()
    assert table.status == Game.Status.OPEN
    services.table_join(game_id=table.pk, user=cat)
    table.refresh_from_db()
    assert table.status == Game.Status.ACTIVE and table.state["options"]["players"] == 3
    assert [s.clock_ms for s in table.seats.all()] == [180_000] * 3
    assert selectors.tables_open(bob) == []
    refused("not_open", services.table_join, game_id=table.pk, user=make_player())


def test_leaving_the_last_seat_removes_the_table(make_player):
    ann, bob = make_player(), make_player()
    table = services.table_create(
        user=ann,
        kind="wizards_garden",
        rated=False,
        **CORRESPONDENCE,
    )
    refused("not_seated", services.table_leave, game_id=table.pk, user=bob)
    services.table_leave(game_id=table.pk, user=ann)
    assert not Game.objects.filter(pk=table.pk).exists()


def test_a_challenge_is_for_the_invited_player_only(make_player):
    ann, bob, cat = make_player(), make_player(), make_player()
    table = services.challenge_create(
        user=ann,
        opponent_username=bob.username.upper(),
        kind="topiary",
        rated=True,
        clock_initial=600,
        clock_increment=5,
        correspondence_days=None,
    )
    assert selectors.tables_open(cat) == []
    assert [t["invited"] for t in selectors.tables_open(bob)] == [bob.username]
    refused("not_invited", services.table_join, game_id=table.pk, user=cat)
    services.table_join(game_id=table.pk, user=bob)
    table.refresh_from_db()
    assert table.status == Game.Status.ACTIVE
    nobody = refused(
        "bad_request",
        services.challenge_create,
        user=ann,
        opponent_username="nobody-here",
        kind="topiary",
        rated=True,
        clock_initial=600,
        clock_increment=5,
        correspondence_days=None,
    )
    assert nobody.reason == "There is no player called 'nobody-here'."


def test_bad_table_settings_are_refused(make_player):
    ann = make_player()
    chess = refused(
        "bad_request",
        services.table_create,
        user=ann,
        kind="chess",
        rated=False,
        clock_initial=180,
        clock_increment=2,
        correspondence_days=None,
    )
    three_wizards = refused(
        "bad_request",
        services.table_create,
        user=ann,
        kind="wizards_garden",
        players=3,
        rated=False,
        clock_initial=180,
        clock_increment=2,
        correspondence_days=None,
    )
    five_gardeners = refused(
        "bad_request",
        services.table_create,
        user=ann,
        kind="topiary",
        players=5,
        rated=False,
        clock_initial=180,
        clock_increment=2,
        correspondence_days=None,
    )
    both_times = refused(
        "bad_request",
        services.table_create,
        user=ann,
        kind="topiary",
        rated=False,
        clock_initial=180,
        clock_increment=2,
        correspondence_days=1,
    )
    # The list of games that follows grows with the registry.
    assert chess.reason.startswith("Unknown game 'chess': expected 'topiary'")
    assert three_wizards.reason == "Wizards' Garden is for 2 players."
    assert five_gardeners.reason == "Topiary is for 2 to 4 players."
    assert both_times.reason == "A table has either a live clock or days per move."
    assert not Game.objects.exists()


def test_resign_ends_a_two_player_game_and_scoring_ranks_the_resigner_last(two):
    (ann, _bob), game = two
    ply, move = first_legal(game, ann)
    services.move_play(game_id=game.pk, user=ann, ply=ply, move=move)
    services.game_resign(game_id=game.pk, user=ann)
    services.game_score(game_id=game.pk)
    game.refresh_from_db()
    assert game.status == Game.Status.FINISHED and game.termination == "resign"
    assert game.result["winners"] == [1] and game.result["ranks"] == [2, 1]
    # The record replays: the deal, then ann's one move.
    assert len(game_module("topiary").replay(game.record)) == 2


def test_abort_only_before_your_first_move(two):
    (ann, bob), game = two
    ply, move = first_legal(game, ann)
    services.move_play(game_id=game.pk, user=ann, ply=ply, move=move)
    refused("too_late", services.game_abort, game_id=game.pk, user=ann)
    services.game_abort(game_id=game.pk, user=bob)
    game.refresh_from_db()
    assert game.status == Game.Status.ABORTED


def test_claim_needs_an_opponent_gone_sixty_seconds(two):
    (ann, bob), game = two
    services.seat_seen(game_id=game.pk, user=bob)
    refused("not_allowed", services.game_claim, game_id=game.pk, user=ann)
    Seat.objects.filter(game=game, user=bob).update(
        last_seen=game.started_at - timedelta(seconds=61)
    )
    services.game_claim(game_id=game.pk, user=ann)
    game.refresh_from_db()
    assert game.status == Game.Status.FINISHED and game.termination == "gone"


def test_a_move_after_the_clock_ran_out_flags_the_mover(two):
    (ann, _bob), game = two
    ply, move = first_legal(game, ann)
    Game.objects.filter(pk=game.pk).update(
        turn_started_at=game.turn_started_at - timedelta(seconds=301),
        deadline=game.deadline - timedelta(seconds=301),
    )
    refused("out_of_time", services.move_play, game_id=game.pk, user=ann, ply=ply, move=move)
    services.game_score(game_id=game.pk)
    game.refresh_from_db()
    assert game.status == Game.Status.FINISHED and game.termination == "time"
    assert game.ply == 0 and game.result["ranks"] == [2, 1]


def test_the_sweep_flags_a_missed_correspondence_deadline(make_player):
    ann, bob = make_player(), make_player()
    game = live_game(
        [ann, bob], first_player=1, clock_initial=None, clock_increment=None, correspondence_days=1
    )
    assert game.deadline - game.turn_started_at == timedelta(days=1)
    services.games_sweep()
    game.refresh_from_db()
    assert game.status == Game.Status.ACTIVE
    Game.objects.filter(pk=game.pk).update(deadline=game.deadline - timedelta(days=2))
    services.games_sweep()
    services.game_score(game_id=game.pk)
    game.refresh_from_db()
    assert game.termination == "time" and game.result["winners"] == [0]


@pytest.mark.parametrize(
    "kind,count", [("topiary", 2), ("topiary", 3), ("topiary", 4), ("wizards_garden", 2)]
)
def test_a_whole_game_is_scored_once_with_a_record_that_replays(make_player, kind, count):
    players = [make_player() for _ in range(count)]
    game = live_game(players, kind=kind, rated=True)
    game = play_out(game, players)
    assert game.status == Game.Status.FINISHED and game.termination == "normal"
    services.game_score(game_id=game.pk)
    services.game_score(game_id=game.pk)
    game.refresh_from_db()
    states = game_module(kind).replay(game.record)
    final = states[-1].score()
    assert game.result["scores"] == final["scores"]
    ranks = {seat.index: seat.rank for seat in game.seats.all()}
    assert {seat for seat, rank in ranks.items() if rank == 1} == set(final["winners"])
    assert [entry["took"] for entry in game.moves] == [
        entry["took"] if isinstance(entry, dict) else None for entry in game.record["moves"]
    ]
    from ratings.models import RatingChange

    assert RatingChange.objects.filter(game=game).count() == count


def test_takebacks_only_in_casual_wizards_garden(make_player):
    ann, bob = make_player(), make_player()
    for kind, rated in (("wizards_garden", True), ("topiary", False)):
        game = live_game([ann, bob], kind=kind, rated=rated, first_player=0)
        ply, move = first_legal(game, ann)
        services.move_play(game_id=game.pk, user=ann, ply=ply, move=move)
        refused("not_allowed", services.takeback_offer, game_id=game.pk, user=ann, ply=1)
        assert selectors.game_state_for(game.pk, ann)["takeback"] is None


def test_a_takeback_offer_accepted_returns_the_game_to_before_the_move(make_player):
    ann, bob = make_player(), make_player()
    game = live_game([ann, bob], kind="wizards_garden", first_player=0)
    ply, move = first_legal(game, ann)
    before = snapshot(game)
    services.move_play(game_id=game.pk, user=ann, ply=ply, move=move)
    refused("not_allowed", services.takeback_offer, game_id=game.pk, user=bob, ply=1)
    refused("stale", services.takeback_offer, game_id=game.pk, user=ann, ply=0)
    services.takeback_offer(game_id=game.pk, user=ann, ply=1)
    assert selectors.game_state_for(game.pk, bob)["takeback"]["can_answer"] is True
    refused("not_allowed", services.takeback_answer, game_id=game.pk, user=ann, accept=True)
    services.takeback_answer(game_id=game.pk, user=bob, accept=True)
    assert snapshot(game) == before
    # Ann is to move again, with the move taken back among her choices.
    assert game.takebacks == 1 and move in selectors.game_state_for(game.pk, ann)["legal_moves"]

    services.move_play(game_id=game.pk, user=ann, ply=0, move=move)
    reason = refused("not_allowed", services.takeback_offer, game_id=game.pk, user=ann, ply=1)
    assert "One takeback per turn" in reason.reason


def test_a_declined_or_overtaken_offer_changes_nothing(make_player):
    ann, bob = make_player(), make_player()
    game = live_game([ann, bob], kind="wizards_garden", first_player=0)
    ply, move = first_legal(game, ann)
    services.move_play(game_id=game.pk, user=ann, ply=ply, move=move)
    services.takeback_offer(game_id=game.pk, user=ann, ply=1)
    services.takeback_answer(game_id=game.pk, user=bob, accept=False)
    assert snapshot(game)[0] == 1 and game.takeback_offer is None
    services.takeback_offer(game_id=game.pk, user=ann, ply=1)
    bob_ply, bob_move = first_legal(game, bob)
    services.move_play(game_id=game.pk, user=bob, ply=bob_ply, move=bob_move)
    refused("not_allowed", services.takeback_answer, game_id=game.pk, user=bob, accept=True)
    assert snapshot(game)[0] == 2
