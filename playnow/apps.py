from django.apps import AppConfig
from django.utils.translation import gettext_lazy as _


class PlayNowConfig(AppConfig):
    name = "playnow"
    verbose_name = _("Play now")
