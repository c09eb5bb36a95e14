"""Tournament pages: the list with the create form, a tournament's page and its live part."""

from datetime import date

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.core.exceptions import ValidationError
from django.http import Http404
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import reverse
from django.utils import timezone
from django.utils.translation import gettext as _
from django.views.decorators.http import require_http_methods, require_POST

from accounts.models import User
from engine.errors import NotationError
from engine.games import all_games, game_definition
from tournaments import seasons, selectors, services
from tournaments.forms import TournamentForm
from tournaments.models import Tournament


def tournament_list(request):
    """Upcoming, running and finished tournaments, and (signed in) the create form."""
    return render(request, "tournaments/list.html", _list_context(TournamentForm()))


def _list_context(form) -> dict:
    return {"form": form, "season_games": all_games(), **selectors.tournaments_listing()}


@require_http_methods(["GET", "POST"])
def tournament_new(request):
    """Create a tournament from the form; errors are shown beside their fields.

    A GET (a reload, a followed link) lands on the list with the form rather than a
    blank 405, and a form with errors is answered 200 like any page showing a form."""
    if request.method == "GET":
        return tournament_list(request)
    if not request.user.is_authenticated:
        return redirect(f"{reverse('accounts:login')}?next={reverse('tournaments:list')}")
    form = TournamentForm(request.POST)
    if form.is_valid():
        try:
            tournament = services.tournament_create(
                created_by=request.user, **form.service_arguments()
            )
        except ValidationError as error:
            form.add_service_errors(error)
        else:
            messages.success(
                request,
                _("%(name)s is created. Players can join now.") % {"name": tournament.name},
            )
            return redirect("tournaments:detail", tournament_id=tournament.pk)
    return render(request, "tournaments/list.html", _list_context(form))


def _page_context(request, tournament: Tournament) -> dict:
    entry = selectors.tournament_entry_for(tournament, request.user)
    is_creator = request.user.is_authenticated and tournament.created_by_id == request.user.pk
    upcoming = tournament.status == Tournament.Status.UPCOMING
    playing = entry is not None and entry.withdrawn_at is None
    full = tournament.entries.count() >= tournament.max_players
    can_enter_bot = is_creator and upcoming and not full
    return {
        "tournament": tournament,
        "entry": entry,
        "standings": selectors.tournament_standings(tournament),
        "tiebreak_names": selectors.tiebreak_names(tournament),
        "rounds": selectors.tournament_rounds(tournament),
        "current_round": selectors.current_round_number(tournament),
        "is_creator": is_creator,
        "can_join": upcoming and entry is None and not full,
        "full": full,
        "can_withdraw": playing
        and tournament.status in (Tournament.Status.UPCOMING, Tournament.Status.RUNNING),
        "bots": selectors.bots_available(tournament) if can_enter_bot else [],
        "can_start": is_creator and upcoming,
        "players_needed": selectors.players_needed(tournament),
        "server_time_ms": int(timezone.now().timestamp() * 1000),
        "starts_at_ms": int(tournament.starts_at.timestamp() * 1000),
    }


def tournament_detail(request, tournament_id: int):
    """A tournament's page: status, standings, rounds and the player's buttons."""
    tournament = get_object_or_404(Tournament, pk=tournament_id)
    return render(request, "tournaments/detail.html", _page_context(request, tournament))


def tournament_live(request, tournament_id: int):
    """The part of the page that changes, fetched again when the websocket says so."""
    tournament = get_object_or_404(Tournament, pk=tournament_id)
    response = render(request, "tournaments/_live.html", _page_context(request, tournament))
    response["X-Tournament-Version"] = str(tournament.version)
    return response


def _act(request, tournament_id: int, action, done: str):
    try:
        action()
    except ValidationError as error:
        messages.error(request, " ".join(error.messages))
    else:
        messages.success(request, done)
    return redirect("tournaments:detail", tournament_id=tournament_id)


@login_required
@require_POST
def tournament_join(request, tournament_id: int):
    """Join as the signed-in player."""
    return _act(
        request,
        tournament_id,
        lambda: services.tournament_join(tournament_id=tournament_id, user=request.user),
        _("You are in. Pairings appear here when the tournament starts."),
    )


@login_required
@require_POST
def tournament_withdraw(request, tournament_id: int):
    """Withdraw the signed-in player."""
    return _act(
        request,
        tournament_id,
        lambda: services.tournament_withdraw(tournament_id=tournament_id, user=request.user),
        _("You have withdrawn."),
    )


@login_required
@require_POST
def tournament_enter_bot(request, tournament_id: int):
    """The creator enters one of the bots listed."""
    bot = User.objects.filter(username=request.POST.get("bot", ""), is_bot=True).first()
    if bot is None:
        messages.error(request, _("Choose one of the bots listed."))
        return redirect("tournaments:detail", tournament_id=tournament_id)
    return _act(
        request,
        tournament_id,
        lambda: services.tournament_enter_bot(
            tournament_id=tournament_id, by=request.user, bot=bot
        ),
        _("%(player)s is entered.") % {"player": bot.username},
    )


@login_required
@require_POST
def tournament_start(request, tournament_id: int):
    """The creator starts the tournament now."""
    return _act(
        request,
        tournament_id,
        lambda: services.tournament_start_early(tournament_id=tournament_id, by=request.user),
        _("The tournament has started."),
    )


def season_standings(request, kind: str):
    """A game's season table (``?month=2026-11``, this month by default) and its trophies."""
    try:
        game = game_definition(kind)
    except NotationError:
        raise Http404("no such game") from None
    current = seasons.season_of(timezone.now())
    try:
        year, month = (int(part) for part in request.GET.get("month", "").split("-"))
        season = date(year, month, 1)
    except ValueError:
        season = current
    if season > current:
        season = current
    previous = date(season.year - (season.month == 1), (season.month - 2) % 12 + 1, 1)
    following = seasons.season_bounds(season)[1].date()
    return render(
        request,
        "tournaments/season.html",
        {
            "game": game,
            "season": season,
            "table": seasons.season_table(kind, season),
            "trophies": seasons.season_trophies(kind, season),
            "previous": previous,
            "following": following if following <= current else None,
            "is_current": season == current,
        },
    )
