from django.contrib.auth.models import AbstractUser, UserManager
from django.db import models
from django.db.models.functions import Lower
from django.utils.translation import gettext_lazy as _

from .validators import username_validator


class CaseInsensitiveUserManager(UserManager):
    def get_by_natural_key(self, username):
        return self.get(username__iexact=username)


class User(AbstractUser):
    """Our user from the first migration; usernames are unique ignoring case."""

    username = models.CharField(
        _("username"),
        max_length=20,
        unique=True,
        validators=[username_validator],
        help_text=_("3 to 20 letters, digits or underscores."),
        error_messages={"unique": _("That username is taken.")},
    )

    objects = CaseInsensitiveUserManager()

    class Meta(AbstractUser.Meta):
        swappable = "AUTH_USER_MODEL"
        constraints = [
            models.UniqueConstraint(Lower("username"), name="accounts_user_username_ci_unique"),
        ]

    def __str__(self):
        return self.username


class Profile(models.Model):
    """Display preferences (ARCHITECTURE.md: accounts)."""

    class Language(models.TextChoices):
        PERSIAN = "fa", _("Persian")
        ENGLISH = "en", _("English")

    user = models.OneToOneField(User, on_delete=models.CASCADE, related_name="profile")
    show_online = models.BooleanField(_("show my online status to friends"), default=True)
    card_sounds = models.BooleanField(_("card sounds"), default=True)
    hide_reactions = models.BooleanField(_("hide reactions"), default=False)
    four_colour_deck = models.BooleanField(_("four-colour deck"), default=False)
    language = models.CharField(
        _("language"), max_length=2, choices=Language.choices, default=Language.PERSIAN
    )

    def __str__(self):
        return f"profile of {self.user}"
