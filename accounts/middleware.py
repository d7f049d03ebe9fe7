from django.conf import settings
from django.utils import translation


class UserLanguageMiddleware:
    """A signed-in user's language preference wins over the browser's, unless
    he just chose another with the switcher (the cookie)."""

    def __init__(self, get_response):
        self.get_response = get_response

    def __call__(self, request):
        user = getattr(request, "user", None)
        if (
            user is not None
            and user.is_authenticated
            and settings.LANGUAGE_COOKIE_NAME not in request.COOKIES
        ):
            profile = getattr(user, "profile", None)
            if profile is not None and profile.language:
                translation.activate(profile.language)
                request.LANGUAGE_CODE = profile.language
        return self.get_response(request)
