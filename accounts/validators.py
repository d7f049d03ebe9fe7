"""Usernames: 3-20 letters (Persian letters included), digits and underscore."""

import re

from django.core.validators import RegexValidator
from django.utils.translation import gettext_lazy as _

# \w in Python's re is Unicode-aware: letters and digits of every script
# (Persian letters and digits included) and the underscore. We exclude the
# zero-width joiner and other marks implicitly since \w does not match them.
USERNAME_PATTERN = re.compile(r"^\w{3,20}\Z")

username_validator = RegexValidator(
    regex=USERNAME_PATTERN,
    message=_("Use 3 to 20 letters, digits or underscores."),
    code="invalid_username",
)

username_validators = [username_validator]
