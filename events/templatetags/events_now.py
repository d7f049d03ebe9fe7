"""``{% events_now %}``: what runs now, for the home page (a small strip)."""

from django import template

from infra.cache import shared

register = template.Library()


@register.inclusion_tag("events/_now.html", takes_context=True)
def events_now(context):
    from events.views import summary

    try:
        # The same for everyone: made at most every few seconds (issue 33).
        data = shared("events-now", summary, 10, topic="events")
    except Exception:  # noqa: BLE001 - the home page never fails for the events' strip
        data = {"today": [], "running": [], "upcoming": []}
    return {**data, "request": context.get("request")}
