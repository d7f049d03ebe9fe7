"""The browser suite's URLs: the site's own, and one door that only this
suite's Daphne has (``server_settings.ROOT_URLCONF``): a person made and
signed in by the server, for the many tests whose subject is not the sign-up.

The sign-up form itself stays tested in the browser (``Player.sign_up``:
test_a11y_pages, test_school, test_table_shelem_points and every test that
asks ``people(..., via_form=True)``). A person made here costs no page: the
form's three loads (the form, its post, the next page) cost the browser about
half a second of CPU each time, for two hundred people a run.
"""

from __future__ import annotations

from django.contrib.auth import get_user_model, login
from django.db import transaction
from django.http import HttpResponseBadRequest, JsonResponse
from django.urls import path
from django.views.decorators.csrf import csrf_exempt
from django.views.decorators.http import require_POST

from config.urls import urlpatterns as site
from tests.browser import PASSWORD


@csrf_exempt
@require_POST
def sign_in(request):
    """POST username, lang -> the person exists, with his language, and this
    request's session is his (the same cookie the form's sign-in sets)."""
    username = request.POST.get("username", "")
    lang = request.POST.get("lang", "fa")
    if not username or lang not in ("fa", "en"):
        return HttpResponseBadRequest("username and lang (fa or en)")
    with transaction.atomic():
        user = get_user_model().objects.create_user(username, password=PASSWORD)
        user.profile.language = lang
        user.profile.save(update_fields=["language"])
    login(request, user, backend="accounts.backends.ModelBackend")
    return JsonResponse({"username": user.username, "id": user.pk})


urlpatterns = [path("__tests__/sign-in/", sign_in), *site]
