from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import HttpResponseNotAllowed, JsonResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.utils import translation
from django.utils.translation import gettext as _

from .forms import PreferencesForm
from .models import User


@login_required
def preferences(request):
    profile = request.user.profile
    if request.method == "POST":
        form = PreferencesForm(request.POST, instance=profile)
        if form.is_valid():
            form.save()
            messages.success(request, _("Your preferences are saved."))
            response = redirect("preferences")
            translation.activate(profile.language)
            response.set_cookie("lang", profile.language, max_age=365 * 24 * 3600, samesite="Lax")
            return response
    else:
        form = PreferencesForm(instance=profile)
    return render(request, "accounts/preferences.html", {"form": form})


def player(request, username):
    user = get_object_or_404(User, username__iexact=username, is_active=True)
    return redirect("leaderboard:player", username=user.username)


def sound_preference(request):
    """The table's mute toggle: POST ``on`` (1 or 0) keeps "card sounds" in the profile."""
    if request.method != "POST":
        return HttpResponseNotAllowed(["POST"])
    if not request.user.is_authenticated:
        return JsonResponse({"saved": False}, status=403)
    profile = request.user.profile
    profile.card_sounds = request.POST.get("on") in ("1", "true", "on")
    profile.save(update_fields=["card_sounds"])
    return JsonResponse({"saved": True, "card_sounds": profile.card_sounds})
