"""Django's model backend, with the visitor's profile read with him (issue 33).

Every signed-in page reads the user and then his profile (the language he
prefers, ``UserLanguageMiddleware``): one query instead of two.
"""

from __future__ import annotations

from django.contrib.auth import get_user_model
from django.contrib.auth.backends import ModelBackend as DjangoModelBackend


class ModelBackend(DjangoModelBackend):
    def get_user(self, user_id):
        User = get_user_model()
        try:
            user = User._default_manager.select_related("profile").get(pk=user_id)
        except User.DoesNotExist:
            return None
        return user if self.user_can_authenticate(user) else None
