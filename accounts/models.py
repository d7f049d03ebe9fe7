from django.contrib.auth.models import AbstractUser, UserManager
from django.db import models
from django.db.models.functions import Lower
from django.utils.translation import gettext_lazy as _

from .validators import normalise_username, username_key, username_validator


class CaseInsensitiveUserManager(UserManager):
    def get_by_natural_key(self, username):
        return self.get(username_key=username_key(username))


class User(AbstractUser):
    """Our user from the first migration; usernames are unique by their key (NFKC, casefold, look-alikes folded)."""

    username = models.CharField(
        _("username"),
        max_length=20,
        unique=True,
        validators=[username_validator],
        help_text=_("3 to 20 letters, digits or underscores."),
        error_messages={"unique": _("That username is taken.")},
    )

    username_key = models.CharField(
        _("username key"),
        max_length=64,
        unique=True,
        editable=False,
        help_text=_("The username as names are compared: look-alikes share one key."),
    )

    objects = CaseInsensitiveUserManager()

    class Meta(AbstractUser.Meta):
        swappable = "AUTH_USER_MODEL"
        constraints = [
            models.UniqueConstraint(Lower("username"), name="accounts_user_username_ci_unique"),
        ]

    def __str__(self):
        return self.username

    def save(self, *args, **kwargs):
        # Issue 14, item 9: stored in NFKC; compared (and unique) by its key.
        self.username = normalise_username(self.username)
        self.username_key = username_key(self.username)
        update_fields = kwargs.get("update_fields")
        if update_fields is not None and "username" in update_fields:
            kwargs["update_fields"] = {*update_fields, "username_key"}
        super().save(*args, **kwargs)


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
    # Issue 40, misclicks: a first tap lifts a card (or picks a bid), a second plays it.
    confirm_cards = models.BooleanField(
        _("confirm each card"),
        default=False,
        help_text=_("A first tap lifts the card, a second tap plays it."),
    )
    confirm_bids = models.BooleanField(
        _("confirm bids"),
        default=False,
        help_text=_("Shelem and Bridge: a bid or call is sent only after you confirm it."),
    )
    language = models.CharField(
        _("language"), max_length=2, choices=Language.choices, default=Language.PERSIAN
    )

    def __str__(self):
        return f"profile of {self.user}"
