"""``{% events_now %}``: what runs now, for the home page (a small strip)."""

from django import template

register = template.Library()


@register.inclusion_tag("events/_now.html", takes_context=True)
def events_now(context):
    from events.views import summary

    try:
        data = summary()
    except Exception:  # noqa: BLE001 - the home page never fails for the events' strip
        data = {"today": [], "running": [], "upcoming": []}
    return {**data, "request": context.get("request")}
