"""Tournament pages: the list with the create form, a tournament's page and its live part."""

from datetime import date

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.core.exceptions import ValidationError
from django.http import Http404, JsonResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import reverse
from django.utils import timezone
from django.utils.translation import gettext as _
from django.views.decorators.http import require_http_methods, require_POST

from accounts.models import User
from engine.errors import NotationError
from engine.games import all_games, game_definition
from tournaments import seasons, selectors, services
from tournaments.forms import TournamentEditForm, TournamentForm
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
    running = tournament.status == Tournament.Status.RUNNING
    games_page = None
    if tournament.format_rules.has_rounds:
        rounds = selectors.tournament_rounds(tournament)
    else:
        # An arena's games are many: a page of them at a time, newest first.
        games_page = selectors.arena_games_page(tournament, request.GET.get("games"))
        rounds = [{"number": None, "pairings": games_page}] if games_page.object_list else []
    ends_at = tournament.ends_at
    return {
        "tournament": tournament,
        "entry": entry,
        "standings": selectors.tournament_standings(tournament),
        "tiebreaks": selectors.tiebreak_columns(tournament),
        "sheets": {} if games_page is None else selectors.arena_sheets(tournament),
        "rounds": rounds,
        "games_page": games_page,
        "ends_at_ms": int(ends_at.timestamp() * 1000) if ends_at else None,
        "current_round": selectors.current_round_number(tournament),
        "is_creator": is_creator,
        "can_join": upcoming and entry is None and not full,
        "full": full,
        "can_withdraw": playing
        and tournament.status in (Tournament.Status.UPCOMING, Tournament.Status.RUNNING),
        "bots": selectors.bots_available(tournament) if can_enter_bot else [],
        "can_start": is_creator and upcoming,
        "can_manage": is_creator and upcoming,
        "can_withdraw_bots": is_creator and (upcoming or running),
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


@login_required
@require_POST
def tournament_withdraw_bot(request, tournament_id: int):
    """The creator takes one of the bots in the event out of it."""
    bot = User.objects.filter(username=request.POST.get("bot", ""), is_bot=True).first()
    return _act(
        request,
        tournament_id,
        lambda: services.tournament_withdraw_bot(
            tournament_id=tournament_id, by=request.user, bot=bot
        ),
        _("%(player)s is withdrawn.") % {"player": bot.username if bot else ""},
    )


@login_required
@require_POST
def tournament_cancel(request, tournament_id: int):
    """The creator calls the tournament off before it starts."""
    return _act(
        request,
        tournament_id,
        lambda: services.tournament_cancel(tournament_id=tournament_id, by=request.user),
        _("The tournament is cancelled."),
    )


@login_required
@require_http_methods(["GET", "POST"])
def tournament_edit(request, tournament_id: int):
    """The creator changes an upcoming tournament's settings."""
    tournament = get_object_or_404(Tournament, pk=tournament_id)
    if tournament.created_by_id != request.user.pk:
        messages.error(request, _("Only the tournament's creator can edit it."))
        return redirect("tournaments:detail", tournament_id=tournament_id)
    if request.method == "GET":
        form = TournamentEditForm(tournament=tournament)
    else:
        form = TournamentEditForm(request.POST, tournament=tournament)
        if form.is_valid():
            try:
                services.tournament_edit(
                    tournament_id=tournament_id, by=request.user, **form.service_arguments()
                )
            except ValidationError as error:
                form.add_service_errors(error)
            else:
                messages.success(request, _("The tournament is changed."))
                return redirect("tournaments:detail", tournament_id=tournament_id)
    return render(request, "tournaments/edit.html", {"tournament": tournament, "form": form})


def tournament_next_game(request, tournament_id: int):
    """The player's next game in the event: there if it has begun, else the event's page.

    Asked for JSON (the game page's script, at an arena game's end), it says which game
    is on and whether one may still come: ``{"game", "url", "waiting"}``."""
    tournament = get_object_or_404(Tournament, pk=tournament_id)
    game_id = selectors.current_game_of(tournament, request.user)
    url = reverse("games:game", args=[game_id]) if game_id else None
    if "application/json" in request.headers.get("Accept", ""):
        entry = selectors.tournament_entry_for(tournament, request.user)
        waiting = (
            tournament.status in (Tournament.Status.UPCOMING, Tournament.Status.RUNNING)
            and entry is not None
            and entry.withdrawn_at is None
        )
        return JsonResponse({"game": game_id, "url": url, "waiting": waiting})
    return redirect(url or reverse("tournaments:detail", args=[tournament_id]))


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
