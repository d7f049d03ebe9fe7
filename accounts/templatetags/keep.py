"""``{% keep seconds part a b ... %}...{% endkeep %}``: a part of a page that is
the same for everyone with the same ``a b ...`` (the language, signed in or
not), drawn at most once every ``seconds`` per process (issue 33).

Like Django's ``{% cache %}`` with no round trip, and with CSRF tokens: the
tokens drawn in the part are kept as a placeholder and each visitor gets his
own. ``seconds`` is capped by ``KEPT_PART_SECONDS`` (0 in the tests: drawn every
time).
"""

from __future__ import annotations

from django import template
from django.conf import settings
from django.utils.safestring import mark_safe

from infra.cache import recent, with_token, without_tokens

register = template.Library()


class KeepNode(template.Node):
    def __init__(self, nodelist, seconds, name, vary):
        self.nodelist, self.seconds, self.name, self.vary = nodelist, seconds, name, vary

    def render(self, context):
        seconds = min(float(self.seconds.resolve(context)), getattr(settings, "KEPT_PART_SECONDS", 0))
        request = context.get("request")
        if seconds <= 0 or request is None:
            return self.nodelist.render(context)
        key = ("keep", self.name, *(str(v.resolve(context)) for v in self.vary))
        kept = recent(key, lambda: without_tokens(self.nodelist.render(context), request), seconds)
        return mark_safe(with_token(kept, request))


@register.tag
def keep(parser, token):
    bits = token.split_contents()
    if len(bits) < 3:
        raise template.TemplateSyntaxError("usage: {% keep seconds part [vary ...] %}")
    nodelist = parser.parse(("endkeep",))
    parser.delete_first_token()
    return KeepNode(
        nodelist, parser.compile_filter(bits[1]), bits[2], [parser.compile_filter(b) for b in bits[3:]]
    )
