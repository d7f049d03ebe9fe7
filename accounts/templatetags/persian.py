"""Persian digits and Jalali dates in Persian; unchanged in English (DESIGN.md)."""

from __future__ import annotations

import datetime

import jdatetime
from django import template
from django.utils import timezone, translation

register = template.Library()

FA_DIGITS = str.maketrans("0123456789", "۰۱۲۳۴۵۶۷۸۹")


def localise_digits(value, language: str | None = None) -> str:
    text = str(value)
    language = language or translation.get_language() or "fa"
    if language.startswith("fa"):
        text = text.translate(FA_DIGITS)
    return text


@register.filter(name="num")
def num(value):
    """{{ value|num }}: the number with Persian digits when the page is Persian."""
    if value is None:
        return ""
    return localise_digits(value)


@register.filter(name="jdate")
def jdate(value, fmt: str = "%Y/%m/%d"):
    """A date in the Jalali calendar with Persian digits in Persian, else ISO-like."""
    if not value:
        return ""
    if isinstance(value, datetime.datetime):
        value = timezone.localtime(value) if timezone.is_aware(value) else value
    language = translation.get_language() or "fa"
    if language.startswith("fa"):
        if isinstance(value, datetime.datetime):
            j = jdatetime.datetime.fromgregorian(datetime=value)
        else:
            j = jdatetime.date.fromgregorian(date=value)
        return localise_digits(j.strftime(fmt), "fa")
    return value.strftime(fmt)


@register.filter(name="digits", is_safe=True)
def digits(value):
    """{{ text|digits }}: every digit of a text (a form error, a help text) in the page's digits; keeps safe HTML safe."""
    if value is None:
        return ""
    return localise_digits(value)
