from allauth.account.adapter import DefaultAccountAdapter
from django import forms
from django.utils.translation import gettext_lazy as _

from .models import User


class AccountAdapter(DefaultAccountAdapter):
    def clean_username(self, username, shallow=False):
        username = super().clean_username(username, shallow=shallow)
        if User.objects.filter(username__iexact=username).exists():
            raise forms.ValidationError(_("That username is taken."), code="username_taken")
        return username

    def save_user(self, request, user, form, commit=True):
        user = super().save_user(request, user, form, commit=commit)
        language = getattr(request, "LANGUAGE_CODE", "fa")
        if commit and language in ("fa", "en"):
            user.profile.language = language
            user.profile.save(update_fields=["language"])
        return user
