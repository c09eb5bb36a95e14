import pytest
from django.template import Context, Template

from accounts import services
from accounts.models import User

pytestmark = pytest.mark.django_db


def render(source: str, **context) -> str:
    return Template("{% load accounts_tags %}" + source).render(Context(context))


def test_player_link_points_to_the_profile():
    user = User.objects.create_user(username="alice")
    assert render("{{ u|player_link }}", u=user) == '<a class="player" href="/@/alice/">alice</a>'


def test_bots_carry_the_bot_mark_with_and_without_link():
    bot = services.bot_ensure(level="random")
    linked = render("{{ u|player_link }}", u=bot)
    assert linked.startswith('<a class="player" href="/@/RandomBot/">RandomBot</a> ')
    assert linked.endswith('<span class="badge badge-bot" title="Computer player">BOT</span>')
    plain = render("{{ u|player_name }}", u=bot)
    assert "<a" not in plain
    assert ">BOT</span>" in plain


def test_names_are_escaped():
    """Names made outside registration (admin, old data) still cannot inject markup."""
    user = User.objects.create_user(username='x"><i>y')
    assert "<i>" not in render("{{ u|player_link }}{{ u|player_name }}", u=user)
    assert "x&quot;&gt;&lt;i&gt;y" in render("{{ u|player_name }}", u=user)


def test_a_missing_player_reads_nobody():
    assert render("{{ u|player_link }}", u=None) == '<span class="muted">nobody</span>'
