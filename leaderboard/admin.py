"""Moderation of the ledger: entries are read-only; a moderator can void a match.

Voiding (who, when, why) is a ``MatchVoid`` row, added either from its own
admin page or with the "void" action on ledger entries; both write Django's
admin log. A voided match's entries count nowhere from then on.
"""

from __future__ import annotations

from django import forms
from django.contrib import admin, messages
from django.contrib.admin import helpers
from django.template.response import TemplateResponse
from django.utils.translation import gettext_lazy as _
from django.utils.translation import ngettext

from infra.admin import ReadOnlyAdmin

from .models import LedgerEntry, MatchVoid
from .services import record_void, void_match


class VoidForm(forms.Form):
    reason = forms.CharField(
        label=_("Why is it voided?"), widget=forms.Textarea(attrs={"rows": 3}), max_length=2000
    )


@admin.register(LedgerEntry)
class LedgerEntryAdmin(ReadOnlyAdmin):
    list_display = ("match", "user", "game", "seat", "points", "result", "practice", "voided", "created_at")
    list_filter = ("family", "game", "result", "practice", "voided")
    search_fields = ("user__username", "=match__id")
    list_select_related = ("user", "match")
    readonly_fields = [f.name for f in LedgerEntry._meta.fields]
    date_hierarchy = "created_at"
    actions = ["void_matches"]

    def has_void_permission(self, request):
        return request.user.has_perm("leaderboard.add_matchvoid")

    @admin.action(description=_("Void the matches of the selected entries"), permissions=["void"])
    def void_matches(self, request, queryset):
        match_ids = sorted(set(queryset.values_list("match_id", flat=True)))
        form = VoidForm(request.POST if request.POST.get("apply") else None)
        if form.is_bound and form.is_valid():
            created_count = 0
            for match_id in match_ids:
                void, created = void_match(match_id, request.user, form.cleaned_data["reason"])
                if created:
                    created_count += 1
                    self.log_addition(request, void, [{"added": {}}])
            self.message_user(
                request,
                ngettext("%(count)d match voided.", "%(count)d matches voided.", created_count)
                % {"count": created_count},
                messages.SUCCESS,
            )
            return None
        context = {
            **self.admin_site.each_context(request),
            "title": _("Void matches"),
            "opts": self.model._meta,
            "form": form,
            "match_ids": match_ids,
            "already": set(
                MatchVoid.objects.filter(match_id__in=match_ids).values_list("match_id", flat=True)
            ),
            "selected": queryset.values_list("pk", flat=True),
            "action_checkbox_name": helpers.ACTION_CHECKBOX_NAME,
        }
        return TemplateResponse(request, "admin/leaderboard/void_matches.html", context)


@admin.register(MatchVoid)
class MatchVoidAdmin(admin.ModelAdmin):
    list_display = ("match", "voided_by", "voided_at", "reason")
    list_select_related = ("match", "voided_by")
    search_fields = ("=match__id", "voided_by__username", "reason")
    raw_id_fields = ("match",)
    fields = ("match", "reason", "voided_by", "voided_at")
    readonly_fields = ("voided_by", "voided_at")

    def get_readonly_fields(self, request, obj=None):
        if obj is not None:
            return ("match", "reason", "voided_by", "voided_at")
        return self.readonly_fields

    def has_change_permission(self, request, obj=None):
        return False

    def has_delete_permission(self, request, obj=None):
        return False

    def save_model(self, request, obj, form, change):
        obj.voided_by = request.user
        record_void(obj)
