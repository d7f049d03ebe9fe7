from django.contrib import admin, messages
from django.contrib.auth.admin import UserAdmin as BaseUserAdmin
from django.utils.translation import gettext_lazy as _
from django.utils.translation import ngettext

from infra.cache import touch

from .models import Profile, User
from .signals import close_sockets_after_commit


class ProfileInline(admin.StackedInline):
    model = Profile
    can_delete = False


@admin.register(User)
class UserAdmin(BaseUserAdmin):
    inlines = [ProfileInline]
    list_display = ("username", "email", "is_active", "is_staff", "date_joined", "last_login")
    list_filter = ("is_active", "is_staff", "is_superuser")
    search_fields = ("username", "email")
    actions = ["deactivate", "reactivate"]

    @admin.action(description=_("Deactivate the selected users"), permissions=["change"])
    def deactivate(self, request, queryset):
        targets = queryset.exclude(pk=request.user.pk).filter(is_active=True)
        ids = list(targets.values_list("pk", flat=True))
        count = targets.update(is_active=False)
        # update() sends no post_save: close their sockets here (issue 14, item 4).
        close_sockets_after_commit(ids)
        touch("ledger")  # the rankings list active players only
        self.message_user(
            request,
            ngettext("%(count)d user deactivated.", "%(count)d users deactivated.", count) % {"count": count},
            messages.SUCCESS,
        )

    @admin.action(description=_("Reactivate the selected users"), permissions=["change"])
    def reactivate(self, request, queryset):
        count = queryset.update(is_active=True)
        touch("ledger")
        self.message_user(
            request,
            ngettext("%(count)d user reactivated.", "%(count)d users reactivated.", count) % {"count": count},
            messages.SUCCESS,
        )
