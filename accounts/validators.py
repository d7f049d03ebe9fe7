"""Usernames: 3-20 letters (Persian letters included), digits and underscore.

Two names that look the same are the same name (issue 14, item 9): a name is
compared by its *key*: NFKC (full-width ``ｆｚ１`` is ``fz1``), case-folded
(``casefold``, not ``lower``: ``ß`` is ``ss``), then a small confusables map
folds Cyrillic and Greek look-alikes of Latin letters, the Arabic variants of
Persian letters (ي/ی, ك/ک, ...) and every script's digits onto one form. The
key is unique in the database (accounts.User.username_key). Reserved names
(staff-sounding ones, in English and Persian) are refused at sign-up.
"""

from __future__ import annotations

import re
import unicodedata

from django.core.exceptions import ValidationError
from django.core.validators import RegexValidator
from django.utils.translation import gettext_lazy as _

# \w in Python's re is Unicode-aware: letters and digits of every script
# (Persian letters and digits included) and the underscore. We exclude the
# zero-width joiner and other marks implicitly since \w does not match them.
USERNAME_PATTERN = re.compile(r"^\w{3,20}\Z")

username_validator = RegexValidator(
    regex=USERNAME_PATTERN,
    message=_("Use 3 to 20 letters, digits or underscores."),
    code="invalid_username",
)

# Look-alikes, after NFKC and casefold (so lower-case forms only).
_CONFUSABLES = {
    # Cyrillic that looks Latin
    "а": "a",
    "в": "b",
    "с": "c",
    "ԁ": "d",
    "е": "e",
    "ё": "e",
    "һ": "h",
    "н": "h",
    "і": "i",
    "ї": "i",
    "ј": "j",
    "к": "k",
    "ӏ": "l",
    "м": "m",
    "о": "o",
    "р": "p",
    "ԛ": "q",
    "ѕ": "s",
    "т": "t",
    "у": "y",
    "ԝ": "w",
    "х": "x",
    "ү": "y",
    # Greek that looks Latin
    "α": "a",
    "β": "b",
    "ε": "e",
    "η": "n",
    "ι": "i",
    "κ": "k",
    "μ": "u",
    "ν": "v",
    "ο": "o",
    "ρ": "p",
    "τ": "t",
    "υ": "u",
    "χ": "x",
    "ω": "w",
    "ϲ": "c",
    "ɡ": "g",
    "ı": "i",
    # Arabic variants of Persian letters
    "ي": "ی",
    "ى": "ی",
    "ئ": "ی",
    "ك": "ک",
    "ة": "ه",
    "ۀ": "ه",
    "ە": "ه",
    "أ": "ا",
    "إ": "ا",
    "ٱ": "ا",
    "آ": "ا",
    "ؤ": "و",
    "ڪ": "ک",
}
# Digits of every script the site shows (Persian, Arabic-Indic) are ASCII digits.
_CONFUSABLES.update({chr(0x06F0 + d): str(d) for d in range(10)})
_CONFUSABLES.update({chr(0x0660 + d): str(d) for d in range(10)})
_FOLD = str.maketrans(_CONFUSABLES)
# Marks that change nothing visible: the Arabic tatweel (kashida).
_IGNORED = {"\u0640"}


def normalise_username(name: str) -> str:
    """What is stored: the NFKC form, as typed otherwise (case kept)."""
    return unicodedata.normalize("NFKC", name or "").strip()


def username_key(name: str) -> str:
    """The form two names are compared by: equal keys are the same name."""
    folded = unicodedata.normalize("NFKC", unicodedata.normalize("NFKC", name or "").casefold())
    folded = folded.translate(_FOLD)
    return "".join(ch for ch in folded if ch not in _IGNORED)


RESERVED = frozenset(
    username_key(name)
    for name in (
        # English
        "admin",
        "admins",
        "administrator",
        "root",
        "superuser",
        "sysadmin",
        "moderator",
        "mod",
        "staff",
        "support",
        "help",
        "helpdesk",
        "system",
        "bot",
        "robot",
        "official",
        "owner",
        "operator",
        "security",
        "webmaster",
        "takhteh",
        "server",
        "anonymous",
        "guest",
        "visitor",
        "null",
        "none",
        "undefined",
        # Persian
        "مدیر",
        "مدیران",
        "مدیریت",
        "ادمین",
        "ناظر",
        "پشتیبان",
        "پشتیبانی",
        "سیستم",
        "سامانه",
        "ربات",
        "بات",
        "رسمی",
        "راهنما",
        "مالک",
        "تخته",
        "مهمان",
        "ناشناس",
    )
)


def is_reserved(name: str) -> bool:
    """The name, or the name with trailing digits and underscores, or its
    first part before an underscore, is a reserved one (``admin``, ``Admin_1``,
    ``support_team``, ``ﻣﺪﻳﺮ``)."""
    key = username_key(name)
    stem = key.rstrip("_0123456789")
    head = key.split("_", 1)[0]
    return key in RESERVED or stem in RESERVED or head in RESERVED


def reserved_validator(value: str) -> None:
    if is_reserved(value):
        raise ValidationError(_("That username is reserved."), code="reserved_username")


# Sign-up (allauth) runs these; the model field keeps the pattern only, so an
# operator may still create a staff account named "admin" with createsuperuser.
username_validators = [username_validator, reserved_validator]
