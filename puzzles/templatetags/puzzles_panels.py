"""Panels this app contributes to pages it does not own (home page, profile)."""

from django import template
from django.utils import timezone

from puzzles import selectors
from ratings.models import PUZZLE
from ratings.selectors import rating_of

register = template.Library()


@register.inclusion_tag("puzzles/_home_panel.html", takes_context=True)
def puzzles_home_panel(context):
    """Today's puzzle teaser; the signed-in visitor's result and streak."""
    user = context.get("user")
    today = timezone.localdate()
    # The home page never waits for a puzzle to be made: the puzzle page does that.
    puzzle = selectors.daily_puzzle_of(today)
    panel = {"request": context.get("request"), "user": user, "puzzle": puzzle, "today": today}
    if user is not None and user.is_authenticated:
        attempts = selectors.attempts_of(puzzle=puzzle, user=user) if puzzle else []
        panel["result"] = selectors.best_result(attempts)
        # The result is in the reader's language; the button asks the attempts themselves.
        panel["solved"] = any(attempt.solved for attempt in attempts)
        panel["streak"] = selectors.streak_of(user, today=today)[0]
    return panel


@register.inclusion_tag("puzzles/_profile_panel.html", takes_context=True)
def puzzles_profile_panel(context, profile_user):
    """A player's puzzle rating and solve streak."""
    current, best = selectors.streak_of(profile_user, today=timezone.localdate())
    return {
        "request": context.get("request"),
        "profile_user": profile_user,
        "rating": rating_of(user=profile_user, kind=PUZZLE),
        "streak": current,
        "best_streak": best,
        "solved": selectors.solved_count(profile_user),
    }
