from allauth.account.forms import SignupForm as AllauthSignupForm
from django import forms
from django.utils.translation import gettext_lazy as _

from .models import Profile


class SignupForm(AllauthSignupForm):
    """Username and password; email optional (DESIGN.md: nothing more)."""

    def clean(self):
        # Allauth compares the two passwords only when the first passed its checks:
        # a short password typed differently twice heard only "too short" (issue 34).
        typed = self.cleaned_data.get("password1"), self.cleaned_data.get("password2")
        cleaned = super().clean()
        first, again = typed
        if first and again and first != again and "password2" not in self.errors:
            self.add_error("password2", _("You must type the same password each time."))
        return cleaned


class PreferencesForm(forms.ModelForm):
    class Meta:
        model = Profile
        fields = [
            "show_online",
            "card_sounds",
            "hide_reactions",
            "four_colour_deck",
            "confirm_cards",
            "confirm_bids",
            "language",
        ]
