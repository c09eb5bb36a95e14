"""The shapes of the API's requests and answers, as the OpenAPI document declares them.

Request bodies are strict (``StrictIn``): a field of the wrong JSON type is a 400
``bad_request``, never converted. Answers are checked against their schema on the way out,
so the document cannot promise what the code does not send; a frame keeps every field the
socket's has (``extra="allow"``) and names those a client relies on. Numbers that may be
whole or not are ``int | float``, so a whole one is sent as it was (``3``, not ``3.0``).
"""

from __future__ import annotations

from typing import Any, Literal

from ninja import Field, Schema
from pydantic import ConfigDict

from engine.games import GAMES, all_games
from puzzles.models import TrainingRun
from ratings.models import PUZZLE


def _described(words):
    """A field's description written when the document is made, not when this module is
    imported: a game registered since is described with the others."""

    def extra(schema: dict) -> None:
        schema["description"] = words()

    return extra


def _kinds() -> list[str]:
    return [game.name for game in all_games()]


def _seats() -> str:
    return ", ".join(
        f"{game.title} {'-'.join(str(n) for n in sorted({*game.seats}))}" for game in all_games()
    )


# --------------------------------------------------------------------------- requests


class StrictIn(Schema):
    """A request body: every field of its own JSON type (``"ply": "12"`` is refused, not
    read as 12) and no field the endpoint does not know (a misspelt one would be ignored)."""

    model_config = ConfigDict(strict=True, extra="forbid")


class MoveIn(StrictIn):
    ply: int = Field(description="the frame's ply: the position the move is for")
    move: str = Field(description="a move or one step of it, in the notation of legal_steps")


#: The time controls the API takes beyond the page's six presets (as lichess's): a live clock
#: of up to three hours plus up to three minutes a move, or up to 14 days per move.
CLOCK_INITIAL_MAX = 3 * 60 * 60
CLOCK_INCREMENT_MAX = 180
CORRESPONDENCE_DAYS_MAX = 14


class TableIn(StrictIn):
    kind: str = Field(GAMES[0].name, json_schema_extra=_described(lambda: " or ".join(_kinds())))
    players: int = Field(
        2, json_schema_extra=_described(lambda: f"seats at the table ({_seats()})")
    )
    rated: bool = False
    clock_initial: int | None = Field(
        None,
        ge=1,
        le=CLOCK_INITIAL_MAX,
        description="a live clock: seconds each player starts with (with clock_increment)",
    )
    clock_increment: int | None = Field(
        None, ge=0, le=CLOCK_INCREMENT_MAX, description="seconds added after each move"
    )
    correspondence_days: int | None = Field(
        None,
        ge=1,
        le=CORRESPONDENCE_DAYS_MAX,
        description="days per move instead of a live clock",
    )
    options: dict | None = Field(None, description="the game's rule options (docs/API.md)")


class ChallengeIn(TableIn):
    opponent: str = Field(description="the username of the player challenged")


class TakebackIn(StrictIn):
    ply: int | None = Field(None, description="offer: the frame's ply after your move")
    accept: bool | None = Field(None, description="answer the opponent's offer")


class BotsIn(StrictIn):
    level: str = Field(description="the house bots' level: random, greedy or strong")


class PuzzleSubmissionIn(StrictIn):
    seat: int
    moves: list[str]


class RunIn(StrictIn):
    mode: Literal[tuple(TrainingRun.Mode.values)] = Field(
        description="streak: puzzles a step harder after each solve, until the first mistake; "
        "storm: as many as you solve before the deadline, each mistake bringing it closer"
    )


class RunGiveUpIn(StrictIn):
    puzzle: int = Field(
        description="the id of the run's current puzzle (as a move's ply): an answer to any "
        "other is refused (409 stale), so a resent answer counts once"
    )


class RunSubmissionIn(RunGiveUpIn, PuzzleSubmissionIn):
    """An answer to a run's current puzzle: which puzzle, and a complete line for it."""


# --------------------------------------------------------------------------- errors


class ErrorOut(Schema):
    """Every refusal: nothing changed. docs/API.md lists the codes of each HTTP status."""

    code: str = Field(
        description=(
            "for programs: 400 bad_request, illegal; 401 unauthorized; 403 missing_scope, "
            "not_seated, forfeited; 404 not_found; 409 the state does not allow it (stale, "
            "duplicate, not_your_turn, not_allowed, ...); 429 rate_limited"
        )
    )
    message: str = Field(description="for people, in the request's language")


#: The errors of an endpoint, by what it may meet: every one may be refused its token (401)
#: or rate-limited (429).
READ = (401, 404, 429)
QUERY = (400, 401, 404, 429)
PLAY = (400, 401, 403, 404, 409, 429)
ALWAYS = (401, 429)


def answers(ok, errors: tuple[int, ...]) -> dict:
    """A ``response=`` of ninja: ``ok`` for 200, ``ErrorOut`` for each status of ``errors``."""
    return {200: ok, **dict.fromkeys(errors, ErrorOut)}


# --------------------------------------------------------------------------- answers


class OkOut(Schema):
    ok: bool


class TableOut(Schema):
    """A table's (a challenge's) id, which is the game's id, and its status now."""

    id: int = Field(description="the game's id: read and play it under /api/games/{id}")
    status: str = Field(description="open (waiting for players) or active (started)")


class OpenedTableOut(TableOut):
    """A table as its opener and readers see it: with the invite link for its creator."""

    invite_url: str | None = Field(
        description="the table's invite link (whoever follows it takes a seat): only to the "
        "table's creator, while it waits for players; else null. Share it, never log it",
    )


class UserOut(Schema):
    username: str
    bot: bool
    bot_level: str | None = Field(description="random, greedy, strong (house bots), api (BOT)")
    joined: str = Field(description="ISO 8601")


class AccountOut(UserOut):
    scopes: list[str]


class RatingOut(Schema):
    rating: float
    games: int
    provisional: bool


class TrophyOut(Schema):
    kind: str
    place: int = Field(description="1, 2 or 3")
    season: str = Field(description="YYYY-MM, the month (UTC) of the event or season")
    tournament: int | None = Field(description="the event's id; null for a season trophy")
    tournament_name: str | None


class ProfileOut(UserOut):
    ratings: dict[str, RatingOut] = Field(
        json_schema_extra=_described(lambda: f"by kind: {', '.join([*_kinds(), PUZZLE])}")
    )
    vacation_until: str | None = Field(
        description="ISO 8601: while the player is on vacation (their days-per-move clocks "
        "stand still), when it ends; else null"
    )
    trophies: list[TrophyOut] = Field(description="top-three places, latest season first")


class RatingChangeOut(Schema):
    at: str
    before: float
    after: float
    game: int | None


class LeaderOut(Schema):
    rank: int
    username: str
    rating: float
    games: int
    trend: float


class FinishedGameOut(Schema):
    id: int
    kind: str
    rated: bool
    time_control: str
    status: str
    termination: str | None
    started_at: str | None
    finished_at: str | None
    players: list[str | None] = Field(description="usernames in seat order")
    result: dict | None
    record: dict | None = Field(description="the NOTATION.md record (finished games)")


class FrameOut(Schema):
    """The frame the game's socket sends (docs/PROTOCOL.md), built from the caller's view."""

    model_config = ConfigDict(extra="allow")

    type: str = Field(description="state, or move after a ply")
    game: int
    ply: int = Field(description="send it with your move")
    kind: str
    status: str = Field(description="open, active, finished, aborted")
    rated: bool
    time_control: str
    you: int | None = Field(description="your seat (null if you are not playing)")
    seats: list[dict]
    to_move: int | None = Field(description="the seat to move (null unless active)")
    position: dict | None = Field(description="your view of the position (hidden tiles: ?)")
    legal_steps: list[str] = Field(description="what you may send now; [] unless your turn")
    legal_moves: list[str] | None = Field(description="whole moves (a take with its plant)")
    pending: dict | None = Field(description="a take waiting for its plant")
    score: Any
    sight_lines: list
    moves: list[dict]
    takebacks: int
    takeback: Any
    can_abort: bool
    clocks: Any
    deadline: int | None = Field(description="milliseconds since the epoch")
    server_time: int = Field(description="milliseconds since the epoch")
    termination: str | None
    result: dict | None = Field(description="once scored: winners, ranks, scores")
    final: dict | None
    rematch: Any


class PuzzleOut(Schema):
    date: str
    seat: int
    k: int = Field(description="moves in a complete line")
    optimum: int
    rating: float
    position: dict
    legal_moves: list[str]
    solved: bool
    line: list[str] | None = Field(description="the answer, once solved or given up")


class VerdictOut(Schema):
    score: int | None
    optimum: int
    solved: bool
    line: list[str] | None
    rated: bool
    rating_before: float | None
    rating_after: float | None


class TrainingPuzzleOut(Schema):
    id: int
    kind: str
    seat: int
    k: int = Field(
        description="the solver's moves in a complete line (Wizards' Garden: plantings; the "
        "opponent's best reply to each comes from POST /puzzles/training/{id}/play)"
    )
    optimum: int
    rating: float
    themes: list[str]
    own: bool = Field(description="mined from one of the caller's own games")
    source: str = Field(description="where the puzzle comes from, for people")
    position: dict
    legal_moves: list[str]
    line: None = Field(description="never sent before an answer: see the verdict")


class TrainingProgressOut(Schema):
    position: dict
    legal_moves: list[str]
    left: int = Field(description="solver's moves still to make (0: submit)")
    replies: list[str] = Field(description="the opponent's reply after each planting so far")


class TrainingVerdictOut(VerdictOut):
    puzzle_rating_before: float | None
    puzzle_rating_after: float | None


class RunOut(Schema):
    id: int
    mode: str = Field(description="streak or storm")
    score: int = Field(description="puzzles solved in the run")
    mistakes: int
    over: bool
    deadline: str | None = Field(
        description="storm: when time is up on the server's clock (ISO 8601), each mistake "
        "bringing it closer; an answer arriving after it is not judged. Null for a streak"
    )
    seconds_left: float | None = Field(
        description="storm: seconds to the deadline when this was sent (0 once over); null "
        "for a streak"
    )
    puzzle: TrainingPuzzleOut | None = Field(
        description="the puzzle to answer now; null once the run is over"
    )


class RunVerdictOut(TrainingVerdictOut):
    late: bool = Field(
        description="storm: the answer reached the server after the deadline; it was not "
        "judged (score null) and the run is over"
    )
    run: RunOut = Field(description="the run after this answer, with its next puzzle")


class ScheduledOut(Schema):
    id: int
    name: str


class TournamentOut(Schema):
    id: int
    name: str
    kind: str
    format: str
    status: str
    rated: bool
    bots_allowed: bool
    table_size: int
    clock_initial: int = Field(description="seconds on each clock at the start")
    clock_increment: int = Field(description="seconds added per move")
    time_control: str = Field(description="the same clock as pages write it: ½+1, 3+2")
    starts_at: str = Field(description="the announced start")
    started_at: str | None = Field(description="when it really began (null before)")
    finished_at: str | None = Field(description="when it ended or was cancelled (null before)")
    max_players: int
    created_by: str | None
    scheduled: ScheduledOut | None = Field(
        description="the schedule entry that created the event; null for one a player made"
    )
    people_only: bool = Field(
        description="bots may play but take no trophy or season points (the next person does)"
    )


class TournamentsOut(Schema):
    upcoming: list[TournamentOut]
    running: list[TournamentOut]
    finished: list[TournamentOut] = Field(description="recently finished or cancelled")


class StandingOut(Schema):
    rank: int
    username: str
    score: int | float
    tiebreaks: list[int | float]
    games: int


class PairedPlayerOut(Schema):
    username: str
    seat: int
    points: int | float | None


class PairingOut(Schema):
    board: int
    game: int | None
    bye: bool
    players: list[PairedPlayerOut]


class RoundOut(Schema):
    number: int
    pairings: list[PairingOut]


class TournamentDetailOut(TournamentOut):
    tiebreaks: list[str]
    standings: list[StandingOut]
    rounds: list[RoundOut]


class SeasonRowOut(Schema):
    rank: int = Field(description="ties share a rank")
    username: str
    points: int
    events: int = Field(description="scheduled events played")


class SeasonTrophyOut(Schema):
    place: int
    username: str


class SeasonOut(Schema):
    kind: str
    month: str = Field(description="YYYY-MM (UTC)")
    table: list[SeasonRowOut]
    trophies: list[SeasonTrophyOut] = Field(
        description="the season trophies, once the month has ended and been closed; else empty"
    )
