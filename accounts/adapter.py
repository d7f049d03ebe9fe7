from allauth.account.adapter import DefaultAccountAdapter
from django import forms
from django.utils.translation import gettext_lazy as _

from .models import User
from .validators import normalise_username, username_key


class AccountAdapter(DefaultAccountAdapter):
    def clean_username(self, username, shallow=False):
        # NFKC first (full-width letters are their plain forms), then the
        # pattern and reserved names; taken when another name has the same key.
        username = super().clean_username(normalise_username(username), shallow=shallow)
        if User.objects.filter(username_key=username_key(username)).exists():
            raise forms.ValidationError(_("That username is taken."), code="username_taken")
        return username

    def save_user(self, request, user, form, commit=True):
        user = super().save_user(request, user, form, commit=commit)
        language = getattr(request, "LANGUAGE_CODE", "fa")
        if commit and language in ("fa", "en"):
            user.profile.language = language
            user.profile.save(update_fields=["language"])
        return user
