from django import template

from notify import vapid

register = template.Library()


@register.inclusion_tag("notify/settings.html")
def notification_settings():
    """The preferences page's notification switch for this device (static/notify/settings.js)."""
    keys = vapid.keys()
    return {"vapid_public_key": keys.public if keys else ""}
