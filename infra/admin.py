"""Admin pieces shared by the apps."""

from django.contrib import admin


class ReadOnlyAdmin(admin.ModelAdmin):
    """A record moderators may read but never add, change or delete (the move
    log, the ledger): history is append-only."""

    def has_add_permission(self, request):
        return False

    def has_change_permission(self, request, obj=None):
        return False

    def has_delete_permission(self, request, obj=None):
        return False
