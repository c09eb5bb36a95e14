"""Alerts: deciding who is told what, once, and sending it by Web Push and e-mail.

``alert_send`` claims one ``Alert`` row per (player, event, subject, ply), then queues a
delivery task per browser and one for the e-mail; each delivery builds its text from
the database when it runs (public facts only, ``alerts.texts``) and is retried with
backoff when the push service or the mail server blinks. Nothing is sent to a player
on vacation, a closed account or a house bot.
"""

from __future__ import annotations

import json
import logging
from datetime import timedelta
from urllib.parse import urlparse

from celery import current_app
from django.conf import settings
from django.core import signing
from django.core.exceptions import ValidationError
from django.core.mail import EmailMessage
from django.db import IntegrityError, transaction
from django.urls import reverse
from django.utils import timezone, translation
from django.utils.translation import gettext as _
from pywebpush import WebPushException, webpush

from accounts.i18n import player_language
from accounts.models import Preferences, User
from accounts.selectors import zone_named
from alerts import vapid
from alerts.models import Alert, AlertSettings, EmailChoice, Event, PushSubscription
from alerts.texts import alert_text
from games.models import Game, Seat

log = logging.getLogger(__name__)

#: How long a push service keeps an alert for a browser that is offline (seconds).
PUSH_TTL = 60 * 60 * 24
#: Browsers one player may turn alerts on in.
MAX_BROWSERS = 20
#: A turn by e-mail: at most one per game in this long.
TURN_MAIL_EVERY = timedelta(days=1)
#: Clock warnings: this long before a correspondence deadline, and the last one.
CLOCK_DAY_BEFORE = timedelta(hours=24)
CLOCK_HOUR_BEFORE = timedelta(hours=1)
#: The daily digest goes from this hour on, in the player's zone (beat checks every 15 min).
DIGEST_HOUR = 7
UNSUBSCRIBE_SALT = "alerts.unsubscribe"
#: Alerts about a game the player plays against house bots alone are not sent: the bot
#: answers at once, and the player started the game themselves.
GAME_EVENTS = frozenset((Event.TURN, Event.STARTED, Event.ENDED))


class DeliveryLater(Exception):
    """A push service or mail server answered "not now": the delivery is tried again."""


def _task_queue(name: str, *args) -> None:
    current_app.tasks[f"alerts.tasks.{name}"].delay(*args)


def _on_vacation(user) -> bool:
    return Preferences.objects.filter(user=user, vacation_until__gt=timezone.now()).exists()


def _recipient(user_id: int) -> User | None:
    """The player if alerts may reach them now: a person with an open account, not away."""
    user = User.objects.filter(pk=user_id, is_active=True).first()
    if user is None or user.is_bot or _on_vacation(user):
        return None
    return user


def _settings_of(user) -> AlertSettings:
    return AlertSettings.objects.filter(user=user).first() or AlertSettings(user=user)


def _against_people(game_id: int, user_id: int) -> bool:
    """Has the game an opponent who is not a house bot? (A bot answers at once: a game
    against bots alone does not alert every move.)"""
    others = Seat.objects.filter(game_id=game_id).exclude(user_id=user_id).select_related("user")
    return any(not seat.user.moved_by_site for seat in others if seat.user)


def alert_send(*, event: str, subject: int, user_id: int, ply: int = 0) -> Alert | None:
    """Tell the player ``event`` by every way they chose, once: the ``Alert`` row is the
    claim, and a second call for the same (player, event, subject, ply) does nothing."""
    user = _recipient(user_id)
    if user is None:
        return None
    if event in GAME_EVENTS and not _against_people(subject, user_id):
        return None
    # The digest is a mail; every other alert goes to each of the player's browsers.
    subscriptions = (
        []
        if event == Event.DIGEST
        else list(PushSubscription.objects.filter(user=user).values_list("pk", flat=True))
    )
    mail = bool(user.email) and _settings_of(user).emails(event)
    if not subscriptions and not mail:
        return None
    try:
        with transaction.atomic():
            alert = Alert.objects.create(user=user, event=event, subject=subject, ply=ply)
    except IntegrityError:
        return None  # alerted already
    try:
        for subscription_id in subscriptions:
            _task_queue("push_deliver", alert.pk, subscription_id)
        if mail:
            _task_queue("mail_deliver", alert.pk)
    except Exception:
        # The broker failed: the claim goes, and this task's retry claims again. A
        # delivery queued already looks for this row in vain and gives up.
        alert.delete()
        raise
    return alert


def _alert(alert_id: int) -> Alert:
    alert = Alert.objects.filter(pk=alert_id).select_related("user").first()
    if alert is None:
        # Not committed yet (a caller inside a transaction), or its claim was undone.
        raise DeliveryLater("no such alert")
    return alert


def push_deliver(*, alert_id: int, subscription_id: int) -> str:
    """Send one browser its alert; a subscription its push service says is gone is deleted."""
    alert = _alert(alert_id)
    subscription = PushSubscription.objects.filter(pk=subscription_id).first()
    if subscription is None:
        return "unsubscribed"
    text = alert_text(event=alert.event, subject=alert.subject, ply=alert.ply, user=alert.user)
    if text is None:
        return "outdated"
    try:
        webpush(
            subscription.info(),
            data=json.dumps(text),
            vapid_private_key=vapid.signer(),
            vapid_claims={"sub": settings.VAPID_SUBJECT},
            ttl=PUSH_TTL,
            timeout=10,
        )
    except WebPushException as error:
        status = error.status_code
        if status in (404, 410):
            subscription.delete()
            log.info("push subscription gone", extra={"subscription": subscription_id})
            return "gone"
        if status is None or status == 429 or status >= 500:
            raise DeliveryLater(f"push service answered {status}") from None
        # 400, 403, 413: this push will never be taken; keep the subscription.
        log.warning("push refused", extra={"subscription": subscription_id, "status": status})
        return "refused"
    except OSError as error:  # requests' connection errors are OSErrors
        raise DeliveryLater(type(error).__name__) from None
    PushSubscription.objects.filter(pk=subscription_id).update(last_success_at=timezone.now())
    return "sent"


def unsubscribe_token(user, field: str) -> str:
    """A signed token turning ``field`` off for ``user`` (one-click unsubscribe)."""
    return signing.dumps([user.pk, field], salt=UNSUBSCRIBE_SALT, compress=True)


def unsubscribe_check(*, token: str) -> tuple[int, str]:
    """(player id, field) a token names; ValidationError if forged or mangled."""
    try:
        user_id, field = signing.loads(token, salt=UNSUBSCRIBE_SALT)
    except (signing.BadSignature, ValueError, TypeError):
        raise ValidationError(_("This unsubscribe link is not valid.")) from None
    if field not in set(AlertSettings.EMAIL_FIELDS.values()):
        raise ValidationError(_("This unsubscribe link is not valid."))
    return user_id, field


def unsubscribe(*, token: str) -> str:
    """Turn off the e-mails a token names; the field's name. Refused if forged."""
    user_id, field = unsubscribe_check(token=token)
    off = EmailChoice.OFF if field == "email_turns" else False
    AlertSettings.objects.filter(user_id=user_id).update(**{field: off})
    return field


def _mail(alert: Alert, text: dict) -> None:
    user = alert.user
    field = AlertSettings.EMAIL_FIELDS[alert.event]
    token = unsubscribe_token(user, field)
    unsubscribe_url = settings.SITE_URL + reverse("alerts:unsubscribe", args=[token])
    with translation.override(player_language(user) or "en"):
        links = [settings.SITE_URL + url for url in text.get("games", [text["url"]])]
        body = "\n\n".join(
            [
                text["title"],
                text["body"],
                "\n".join(links),
                _("You get this because you asked for it. Turn it off: %(url)s")
                % {"url": unsubscribe_url},
                _("All alert settings: %(url)s")
                % {"url": settings.SITE_URL + reverse("alerts:settings")},
            ]
        )
        subject = text["title"]
    message = EmailMessage(
        subject,
        body.replace("\n\n\n", "\n\n"),
        None,
        [user.email],
        headers={
            "List-Unsubscribe": f"<{unsubscribe_url}>",
            "List-Unsubscribe-Post": "List-Unsubscribe=One-Click",
        },
    )
    message.send()


def mail_deliver(*, alert_id: int) -> str:
    """Send the alert's e-mail if the player still wants it; a turn at most once per game
    per day (whatever the plies in between)."""
    alert = _alert(alert_id)
    user = alert.user
    if not user.email or not _settings_of(user).emails(alert.event):
        return "not wanted"
    text = alert_text(event=alert.event, subject=alert.subject, ply=alert.ply, user=user)
    if text is None:
        return "outdated"
    with transaction.atomic():
        # One decision at a time per player: two turns of one game cannot both pass the rule.
        AlertSettings.objects.select_for_update().filter(user=user).first()
        if Alert.objects.filter(pk=alert.pk, mailed_at__isnull=False).exists():
            return "sent already"
        if alert.event == Event.TURN:
            since = timezone.now() - TURN_MAIL_EVERY
            if Alert.objects.filter(
                user=user, event=Event.TURN, subject=alert.subject, mailed_at__gt=since
            ).exists():
                return "once a day"
        try:
            _mail(alert, text)
        except OSError as error:  # SMTP and socket errors
            raise DeliveryLater(type(error).__name__) from None
        Alert.objects.filter(pk=alert.pk).update(mailed_at=timezone.now())
    return "sent"


def subscription_add(*, user, subscription: dict, label: str = "") -> PushSubscription:
    """Keep the browser's push subscription (as ``PushSubscription.toJSON()`` gives it)."""
    try:
        endpoint = str(subscription["endpoint"])
        keys = subscription["keys"]
        p256dh, auth = str(keys["p256dh"]), str(keys["auth"])
    except (KeyError, TypeError):
        raise ValidationError(_("That is not a push subscription.")) from None
    parts = urlparse(endpoint)
    if settings.PUSH_ALLOW_HTTP:
        known = parts.scheme in ("https", "http") and bool(parts.hostname)
    else:
        # Only the browsers' push services: the worker posts to whatever a player sends
        # here, and must not be pointed at the site's own network.
        host = (parts.hostname or "").lower()
        known = parts.scheme == "https" and any(
            host == suffix or host.endswith("." + suffix) for suffix in settings.PUSH_SERVICE_HOSTS
        )
    if not known:
        raise ValidationError(_("That is not the address of a browser's push service."))
    if len(endpoint) > 1000 or not 80 <= len(p256dh) <= 100 or not 16 <= len(auth) <= 32:
        raise ValidationError(_("That is not a push subscription."))
    others = PushSubscription.objects.filter(user=user).exclude(endpoint=endpoint)
    if others.count() >= MAX_BROWSERS:
        raise ValidationError(
            _("Alerts are on in %(count)s browsers already: remove one first.")
            % {"count": MAX_BROWSERS}
        )
    found, _created = PushSubscription.objects.update_or_create(
        endpoint=endpoint,
        defaults={"user": user, "p256dh": p256dh, "auth": auth, "label": label[:120]},
    )
    return found


def subscription_remove(*, user, subscription_id: int) -> bool:
    """Forget one of the player's browsers; False if it was not theirs (or gone)."""
    deleted, _ = PushSubscription.objects.filter(user=user, pk=subscription_id).delete()
    return bool(deleted)


def test_alert_send(*, user) -> Alert | None:
    """A test alert to every browser of the player's (each press its own)."""
    stamp = int(timezone.now().timestamp() * 1000)
    return alert_send(event=Event.TEST, subject=stamp, user_id=user.pk)


def settings_update(*, user, changes: dict) -> AlertSettings:
    """Save the player's e-mail choices (a form's cleaned data)."""
    found, _ = AlertSettings.objects.update_or_create(user=user, defaults=changes)
    return found


def clock_warnings_send(now=None) -> int:
    """A warning to the player to move, a day and an hour before a correspondence clock
    ends: once each per (game, ply). A turn shorter than a day gets only the hour's."""
    now = now or timezone.now()
    games = Game.objects.filter(
        status=Game.Status.ACTIVE,
        correspondence_days__isnull=False,
        deadline__gt=now,
        deadline__lte=now + CLOCK_DAY_BEFORE,
        bot_to_move=False,
    )
    sent = 0
    for game in games.iterator():
        hour = game.deadline - now <= CLOCK_HOUR_BEFORE
        if not hour and game.turn_started_at > game.deadline - CLOCK_DAY_BEFORE:
            continue
        event = Event.CLOCK_HOUR if hour else Event.CLOCK_DAY
        if Alert.objects.filter(event=event, subject=game.pk, ply=game.ply).exists():
            continue
        seat = Seat.objects.filter(game=game, index=game.engine_state().to_move).first()
        if seat is None or seat.forfeit or seat.user_id is None:
            continue
        if alert_send(event=event, subject=game.pk, ply=game.ply, user_id=seat.user_id):
            sent += 1
    return sent


#: An alert's row is kept this long: past the retries and the once-a-day rule it only
#: stops a clock warning twice, and no turn waits this long.
ALERT_KEPT = timedelta(days=60)


def alerts_prune(now=None) -> int:
    """Forget alerts older than ``ALERT_KEPT``; how many."""
    deleted, _ = Alert.objects.filter(created_at__lt=(now or timezone.now()) - ALERT_KEPT).delete()
    return deleted


def digests_send(now=None) -> int:
    """The day's list of games waiting, to every player who chose it, once a day from
    ``DIGEST_HOUR`` in the player's own zone (``Preferences.time_zone``, else UTC): the
    digest's subject is the player's local date, so a beat that runs every quarter of an
    hour sends each one once, whatever the zone's offset."""
    now = now or timezone.now()
    chosen = AlertSettings.objects.filter(email_turns=EmailChoice.DIGEST).values_list(
        "user_id", "user__preferences__time_zone"
    )
    # Most runs find each digest of the day sent already: skip them without a claim.
    sent = set(
        Alert.objects.filter(
            event=Event.DIGEST, created_at__gt=now - timedelta(days=2)
        ).values_list("user_id", "subject")
    )
    count = 0
    for user_id, zone in chosen:
        local = now.astimezone(zone_named(zone))
        day = local.date().toordinal()
        if local.hour < DIGEST_HOUR or (user_id, day) in sent:
            continue
        count += alert_send(event=Event.DIGEST, subject=day, user_id=user_id) is not None
    return count
