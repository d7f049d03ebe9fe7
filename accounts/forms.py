from allauth.account.forms import SignupForm as AllauthSignupForm
from django import forms

from .models import Profile


class SignupForm(AllauthSignupForm):
    """Username and password; email optional (DESIGN.md: nothing more)."""


class PreferencesForm(forms.ModelForm):
    class Meta:
        model = Profile
        fields = ["show_online", "card_sounds", "hide_reactions", "four_colour_deck", "language"]
