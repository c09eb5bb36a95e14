"""The create-a-tournament form: parses what people type; the service judges the settings."""

from datetime import timedelta
from decimal import Decimal

from django import forms
from django.utils import timezone
from django.utils.functional import lazy
from django.utils.text import get_text_list
from django.utils.translation import gettext, pgettext_lazy
from django.utils.translation import gettext_lazy as _

from engine.games import all_games
from tournaments.formats import FORMATS, format_choices, only_for
from tournaments.pairing import DEFAULT_PLACE_POINTS


def _points(text: str) -> list[str] | None:
    text = (text or "").strip()
    return [part.strip() for part in text.split(",")] if text else None


def _listed(points) -> str:
    return ",".join(str(p) for p in points)


def _format_help(text, applies, **values) -> str:
    """A help text naming the formats a setting is for, in the language of the page showing it."""
    return lazy(lambda: text % {"formats": only_for(applies), **values}, str)()


def _game_choices() -> list[tuple[str, str]]:
    return [(game.name, gettext(game.title)) for game in all_games()]


def _table_sizes() -> list[int]:
    """Every number of players per game that some format and some registered game both seat."""
    formats = {size for fmt in FORMATS for size in fmt.table_sizes}
    return sorted(formats & {size for game in all_games() for size in game.seat_choices})


def _table_size_choices() -> list[tuple[int, str]]:
    return [(size, str(size)) for size in _table_sizes()]


def _table_size_help() -> str:
    """``3 or 4 only for Swiss tables of Topiary.``: the sizes that not every game seats."""
    seated_by_all = set.intersection(*(set(game.seat_choices) for game in all_games()))
    rare = [size for size in _table_sizes() if size not in seated_by_all]
    if not rare:
        return ""
    games = [gettext(game.title) for game in all_games() if set(rare) & set(game.seat_choices)]
    return gettext("%(sizes)s only for %(formats)s of %(games)s.") % {
        "sizes": get_text_list([str(size) for size in rare], gettext("or")),
        "formats": only_for(lambda fmt: bool(set(rare) & set(fmt.table_sizes))),
        "games": get_text_list(games, gettext("and")),
    }


class TournamentForm(forms.Form):
    name = forms.CharField(label=_("Name"), max_length=80)
    kind = forms.ChoiceField(label=pgettext_lazy("tournament", "Game"), choices=_game_choices)
    format = forms.ChoiceField(
        label=pgettext_lazy("tournament", "Format"), choices=format_choices()
    )
    table_size = forms.TypedChoiceField(
        label=_("Players per game"),
        choices=_table_size_choices,
        coerce=int,
        initial=2,
    )
    # Which formats take a setting comes from the formats themselves.
    rounds = forms.IntegerField(
        label=_("Rounds"),
        required=False,
        min_value=1,
        help_text=_format_help(_("%(formats)s only."), lambda f: f.chooses_rounds),
    )
    duration_minutes = forms.IntegerField(
        label=_("Duration (minutes)"),
        required=False,
        min_value=1,
        help_text=_format_help(_("%(formats)s only."), lambda f: f.timed),
    )
    clock_minutes = forms.DecimalField(
        label=_("Clock (minutes each)"),
        min_value=Decimal("0.25"),
        max_digits=5,
        decimal_places=2,
        initial=3,
    )
    clock_increment = forms.IntegerField(
        label=_("Increment (seconds a move)"), min_value=0, initial=2
    )
    rated = forms.BooleanField(label=_("Rated"), required=False, initial=True)
    bots_allowed = forms.BooleanField(
        label=_("Bots may join"),
        required=False,
        initial=False,
        help_text=_("BOT accounts may enter by themselves; you can always enter bots yourself."),
    )
    # Without JavaScript the time is UTC, as the label says; the page script shows the
    # time in the browser's zone, names it in the label, and sends that zone's offset.
    starts_at = forms.DateTimeField(
        label=_("Starts at (UTC)"),
        widget=forms.DateTimeInput(attrs={"type": "datetime-local"}, format="%Y-%m-%dT%H:%M"),
    )
    #: Minutes east of UTC of the zone ``starts_at`` was typed in (empty: UTC).
    starts_at_offset = forms.IntegerField(
        required=False, min_value=-14 * 60, max_value=14 * 60, widget=forms.HiddenInput
    )
    # The default fits every format (a round robin takes at most 10).
    max_players = forms.IntegerField(
        label=_("Most players"), min_value=2, initial=min(16, *(f.most_players for f in FORMATS))
    )
    place_points = forms.CharField(
        label=_("Points per place, full tables"),
        required=False,
        help_text=_format_help(
            _("%(formats)s only, best place first, e.g. %(example)s (the default)."),
            lambda f: f.sets_place_points,
            example=_listed(DEFAULT_PLACE_POINTS[4]),
        ),
    )
    place_points_short = forms.CharField(
        label=_("Points per place, tables of one less"),
        required=False,
        help_text=_format_help(
            _("%(formats)s only, e.g. %(example)s (the default)."),
            lambda f: f.sets_place_points,
            example=_listed(DEFAULT_PLACE_POINTS[3]),
        ),
    )

    #: Fields only some formats take: the page shows them for those formats only.
    FORMAT_FIELDS = {
        "rounds": lambda f: f.chooses_rounds,
        "duration_minutes": lambda f: f.timed,
        "place_points": lambda f: f.sets_place_points,
        "place_points_short": lambda f: f.sets_place_points,
    }

    #: Service error keys that belong to a differently named field here.
    FIELD_OF_ERROR = {"clock_initial": "clock_minutes"}

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        soon = timezone.now().replace(second=0, microsecond=0) + timedelta(minutes=15)
        self.fields["starts_at"].initial = soon
        # The page script reads these to show each format's own fields and limits.
        for name, applies in self.FORMAT_FIELDS.items():
            formats = " ".join(fmt.name for fmt in FORMATS if applies(fmt))
            self.fields[name].widget.attrs["data-formats"] = formats
        # The registry's games, as they are when the page is drawn (run-time ones too).
        self.fields["table_size"].help_text = _table_size_help()
        self.fields["table_size"].widget.attrs["data-sizes"] = " ".join(
            f"{fmt.name}:{','.join(str(n) for n in fmt.table_sizes)}" for fmt in FORMATS
        )
        self.fields["max_players"].widget.attrs["data-most"] = " ".join(
            f"{fmt.name}:{fmt.most_players}" for fmt in FORMATS
        )

    def clean(self):
        data = super().clean()
        starts_at, offset = data.get("starts_at"), data.get("starts_at_offset")
        if starts_at is not None and offset is not None:
            # Parsed as UTC (the site's zone); it was the browser's wall-clock time.
            data["starts_at"] = starts_at.replace(tzinfo=timezone.get_fixed_timezone(offset))
        return data

    def service_arguments(self) -> dict:
        """Keyword arguments for ``tournament_create`` from the cleaned data."""
        data = self.cleaned_data
        size = data["table_size"]
        points = {}
        if _points(data["place_points"]):
            points[str(size)] = _points(data["place_points"])
        if _points(data["place_points_short"]):
            points[str(size - 1)] = _points(data["place_points_short"])
        return {
            "name": data["name"],
            "kind": data["kind"],
            "format": data["format"],
            "table_size": size,
            "rounds": data["rounds"],
            "duration_minutes": data["duration_minutes"],
            "clock_initial": int(data["clock_minutes"] * 60),
            "clock_increment": data["clock_increment"],
            "rated": data["rated"],
            "bots_allowed": data["bots_allowed"],
            "starts_at": data["starts_at"],
            "max_players": data["max_players"],
            "place_points": points or None,
        }

    def add_service_errors(self, error) -> None:
        """Show a service's ``ValidationError`` beside the fields it names."""
        if hasattr(error, "error_dict"):
            for key, messages in error.message_dict.items():
                field = self.FIELD_OF_ERROR.get(key, key)
                self.add_error(field if field in self.fields else None, messages)
        else:
            self.add_error(None, error.messages)


class TournamentEditForm(TournamentForm):
    """The creator's changes before the start: the create form without the settings the
    entrants joined for (game, format, players per game, points per place)."""

    FIXED = ("kind", "format", "table_size", "place_points", "place_points_short")

    def __init__(self, *args, tournament, **kwargs):
        super().__init__(*args, **kwargs)
        for name in self.FIXED:
            del self.fields[name]
        if not tournament.format_rules.chooses_rounds:
            del self.fields["rounds"]
        if not tournament.format_rules.timed:
            del self.fields["duration_minutes"]
        for field in ("rounds", "duration_minutes"):
            # The create form's "… only" notes: this event's format takes the field.
            if field in self.fields:
                self.fields[field].help_text = ""
        if not self.is_bound:
            for name, field in self.fields.items():
                field.initial = getattr(tournament, name, field.initial)
            self.fields["clock_minutes"].initial = Decimal(tournament.clock_initial) / 60
            self.fields["starts_at"].initial = tournament.starts_at

    def service_arguments(self) -> dict:
        """Keyword arguments for ``tournament_edit`` from the cleaned data."""
        data = self.cleaned_data
        changes = {
            name: data[name]
            for name in ("name", "rounds", "duration_minutes", "clock_increment", "rated")
            if name in self.fields
        }
        return {
            **changes,
            "bots_allowed": data["bots_allowed"],
            "clock_initial": int(data["clock_minutes"] * 60),
            "starts_at": data["starts_at"],
            "max_players": data["max_players"],
        }
