"""Forms of the lobby: a new table, a challenge, a game against bots."""

from django import forms
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy, ngettext

from engine.games import GAMES, all_games, game_definition
from games.models import TimeControl, game_kind_choices
from games.services import bot_level_choices, players_refusal


def _seat_choices() -> list[tuple[int, str]]:
    counts = sorted({count for game in all_games() for count in game.seat_choices})
    return [(count, str(count)) for count in counts]


def _seats_help() -> str:
    """``Wizards' Garden is always 2 players.``, for each game played at one table size."""
    sentences = []
    for game in all_games():
        if game.seats_vary:
            continue
        count = game.seats[0]
        sentences.append(
            ngettext(
                "%(game)s is always %(count)s player.",
                "%(game)s is always %(count)s players.",
                count,
            )
            % {"game": game.title, "count": count}
        )
    return " ".join(sentences)


class TableForm(forms.Form):
    """What every new game needs: which game, how many players, the clock, rated or not.

    The games, the numbers of players and the rule options come from the engine's game
    descriptors (``engine.games``): each game's options are boxes named after them,
    folded away under "Rule options".
    """

    kind = forms.ChoiceField(
        label=gettext_lazy("Game"), choices=game_kind_choices, initial=GAMES[0].name
    )
    players = forms.TypedChoiceField(
        label=gettext_lazy("Players"), coerce=int, choices=_seat_choices, initial=2
    )
    time_control = forms.ChoiceField(
        label=gettext_lazy("Time control"), choices=TimeControl.choices, initial=TimeControl.RAPID
    )
    rated = forms.BooleanField(label=gettext_lazy("Rated"), required=False, initial=True)
    unlisted = forms.BooleanField(
        label=gettext_lazy("Invite link only"),
        help_text=gettext_lazy(
            "Not listed in the lobby: only players you send the table's invite link can join."
        ),
        required=False,
    )

    #: The lobby shows several of these forms at once: each needs ids of its own.
    id_prefix = "table"

    def __init__(self, *args, **kwargs):
        kwargs.setdefault("auto_id", f"{self.id_prefix}_%s")
        super().__init__(*args, **kwargs)
        # The page script reads these data attributes to offer only what the chosen
        # game takes (its numbers of players, its rule options).
        self.fields["kind"].widget.attrs["data-game-choice"] = ""
        if "players" in self.fields:
            self.fields["players"].help_text = _seats_help()
            self.fields["players"].widget.attrs["data-seats"] = " ".join(
                f"{game.name}:{','.join(str(n) for n in game.seat_choices)}" for game in all_games()
            )
        self.rule_field_names: list[str] = []
        for game in all_games():
            for option in game.rule_options:
                if option.field_name in self.fields:
                    continue
                # The engine's words, translated by the msgids their game marks (docs/I18N.md).
                self.fields[option.field_name] = forms.BooleanField(
                    label=_(option.label),
                    required=False,
                    initial=option.ticked,
                    help_text=_("%(game)s: %(help)s")
                    % {"game": game.title, "help": _(option.help)},
                    widget=forms.CheckboxInput(attrs={"data-games": game.name}),
                )
                self.rule_field_names.append(option.field_name)

    @classmethod
    def chosen_in(cls, query) -> dict:
        """The choices a link to the lobby names (``?kind=...&rated=1``), as initial values:
        the result panel's "New opponent" opens the lobby with the game's settings, a
        profile's "Challenge" with the player's name (``?opponent=...``)."""
        fields = cls().fields
        return {
            name: query[name] == "1" if isinstance(field, forms.BooleanField) else query[name]
            for name, field in fields.items()
            if name in query
        }

    def main_fields(self):
        """The fields everyone sets (the rule options fold away)."""
        return [f for f in self.visible_fields() if f.name not in self.rule_field_names]

    def rule_fields(self):
        """The optional rule variants."""
        return [f for f in self.visible_fields() if f.name in self.rule_field_names]

    def clean(self):
        data = super().clean()
        game = game_definition(data["kind"]) if data.get("kind") else None
        if game is not None and data.get("players", 2) not in game.seat_choices:
            self.add_error("players", players_refusal(game))
        return data

    def game_fields(self) -> dict:
        """Keyword arguments for the games services."""
        data = self.cleaned_data
        game = game_definition(data["kind"])
        return {
            "kind": game.name,
            "rated": data["rated"],
            "options": {
                option.name: option.value(data[option.field_name]) for option in game.rule_options
            },
            **TimeControl(data["time_control"]).fields(),
        }


class ChallengeForm(TableForm):
    """A 2-player game against one named player."""

    opponent = forms.CharField(label=gettext_lazy("Opponent's username"), max_length=150)
    players = None
    unlisted = None
    id_prefix = "challenge"


class BotGameForm(TableForm):
    """A game against bots right now."""

    level = forms.ChoiceField(label=gettext_lazy("Bot level"), choices=bot_level_choices)
    rated = forms.BooleanField(label=gettext_lazy("Rated"), required=False, initial=False)
    unlisted = None
    id_prefix = "bot"
