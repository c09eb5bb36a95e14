"""Forms of the lobby: a new table, a challenge, a game against bots."""

from django import forms

from games.models import GameKind, TimeControl
from games.services import BOT_LEVELS


class TableForm(forms.Form):
    """What every new game needs: which game, how many players, the clock, rated or not."""

    kind = forms.ChoiceField(label="Game", choices=GameKind.choices, initial=GameKind.TOPIARY)
    players = forms.TypedChoiceField(
        label="Players",
        coerce=int,
        choices=[(2, "2"), (3, "3"), (4, "4")],
        initial=2,
        help_text="Wizards' Garden is always 2 players.",
    )
    time_control = forms.ChoiceField(
        label="Time control", choices=TimeControl.choices, initial=TimeControl.RAPID
    )
    rated = forms.BooleanField(label="Rated", required=False, initial=True)
    corner_diagonals = forms.BooleanField(
        label="Corner diagonals",
        required=False,
        initial=True,
        help_text="Topiary: visitors may stand at the 8 one-tile corner diagonals.",
    )
    must_pick = forms.BooleanField(
        label="Must take",
        required=False,
        help_text="Topiary: a visitor whose line holds a face-down tile must take one.",
    )
    draft = forms.BooleanField(
        label="Draft the hands",
        required=False,
        help_text="Topiary: pass tiles round to choose hands.",
    )
    share_ties = forms.BooleanField(
        label="Ties share the win", required=False, help_text="Topiary: no later-in-turn tie-break."
    )
    setup_apart = forms.BooleanField(
        label="Setup seeds apart",
        required=False,
        help_text="Wizards' Garden: setup seeds may not touch.",
    )

    RULE_FIELDS = ("corner_diagonals", "must_pick", "draft", "share_ties", "setup_apart")
    #: The lobby shows several of these forms at once: each needs ids of its own.
    id_prefix = "table"

    def __init__(self, *args, **kwargs):
        kwargs.setdefault("auto_id", f"{self.id_prefix}_%s")
        super().__init__(*args, **kwargs)

    def main_fields(self):
        """The fields everyone sets (the rule options fold away)."""
        return [field for field in self.visible_fields() if field.name not in self.RULE_FIELDS]

    def rule_fields(self):
        """The optional rule variants."""
        return [field for field in self.visible_fields() if field.name in self.RULE_FIELDS]

    def clean(self):
        data = super().clean()
        if data.get("kind") == GameKind.WIZARDS_GARDEN and data.get("players", 2) != 2:
            self.add_error("players", "Wizards' Garden is for 2 players.")
        return data

    def game_fields(self) -> dict:
        """Keyword arguments for the games services."""
        data = self.cleaned_data
        if data["kind"] == GameKind.TOPIARY:
            options = {
                "corner_diagonals": data["corner_diagonals"],
                "must_pick": data["must_pick"],
                "draft": data["draft"],
                "tiebreak": "share" if data["share_ties"] else "later",
            }
        else:
            options = {"setup_apart": data["setup_apart"]}
        return {
            "kind": data["kind"],
            "rated": data["rated"],
            "options": options,
            **TimeControl(data["time_control"]).fields(),
        }


class ChallengeForm(TableForm):
    """A 2-player game against one named player."""

    opponent = forms.CharField(label="Opponent's username", max_length=150)
    players = None
    id_prefix = "challenge"


class BotGameForm(TableForm):
    """A game against bots right now."""

    level = forms.ChoiceField(
        label="Bot level", choices=[(level, level.title()) for level in BOT_LEVELS]
    )
    rated = forms.BooleanField(label="Rated", required=False, initial=False)
    id_prefix = "bot"
