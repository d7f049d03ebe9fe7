"""The moderators' queue (R-9): reports, with the reported player's recent
matches and reports beside each, and one page to act on it: warn, mute
reactions, deactivate for a time or for good, void a match, or dismiss.
Every action is a ``ModeratorAction`` row (who, when, why) and an admin log entry.
"""

from __future__ import annotations

from django import forms
from django.contrib import admin, messages
from django.core.exceptions import PermissionDenied
from django.shortcuts import get_object_or_404, redirect
from django.template.response import TemplateResponse
from django.urls import path, reverse
from django.utils.html import format_html, format_html_join
from django.utils.translation import gettext
from django.utils.translation import gettext_lazy as _

from infra.admin import ReadOnlyAdmin

from . import moderation
from .errors import FriendError
from .models import Block, Friendship, Invite, ModeratorAction, Report
from .moderation import recent_matches_of

DURATIONS = [
    ("60", _("one hour")),
    ("1440", _("one day")),
    ("10080", _("one week")),
    ("43200", _("thirty days")),
    ("", _("for good")),
]


class ModerateForm(forms.Form):
    action = forms.ChoiceField(
        label=_("Action"),
        choices=[
            ("warn", _("Warn the player")),
            ("mute", _("Mute his reactions")),
            ("deactivate", _("Deactivate his account")),
            ("void", _("Void the match")),
            ("dismiss", _("Dismiss the report")),
        ],
    )
    duration = forms.ChoiceField(
        label=_("For how long (mute, deactivate)"), choices=DURATIONS, required=False, initial="1440"
    )
    match = forms.IntegerField(label=_("Match to void"), required=False)
    reason = forms.CharField(label=_("Why?"), widget=forms.Textarea(attrs={"rows": 3}), max_length=2000)


@admin.register(Report)
class ReportAdmin(admin.ModelAdmin):
    list_display = ("id", "reported", "reporter", "reason", "match", "status", "created_at")
    list_filter = ("status", "reason")
    search_fields = ("reported__username", "reporter__username", "=match__id")
    list_select_related = ("reported", "reporter", "match")
    ordering = ("status", "created_at")  # open reports first, oldest first: a queue
    fields = (
        "reported",
        "reporter",
        "reason",
        "details",
        "match",
        "status",
        "created_at",
        "moderate_link",
        "recent_matches",
        "other_reports",
        "actions_taken",
    )
    readonly_fields = fields

    def has_add_permission(self, request):
        return False

    def has_change_permission(self, request, obj=None):
        return False

    def has_delete_permission(self, request, obj=None):
        return False

    @admin.display(description=_("Act on this report"))
    def moderate_link(self, obj):
        url = reverse("admin:friends_report_moderate", args=[obj.pk])
        return format_html(
            '<a class="button" href="{}">{}</a>', url, gettext("Warn, mute, deactivate or void")
        )

    @admin.display(description=_("His recent matches"))
    def recent_matches(self, obj):
        matches = recent_matches_of(obj.reported)
        if not matches:
            return "-"
        return format_html_join(
            "",
            '<div><a href="{}">#{}</a> {} · {} · {}</div>',
            (
                (
                    reverse("admin:games_match_change", args=[m.pk]),
                    m.pk,
                    m.get_game_display(),
                    m.status,
                    m.started_at,
                )
                for m in matches
            ),
        )

    @admin.display(description=_("Reports about him"))
    def other_reports(self, obj):
        rows = Report.objects.filter(reported=obj.reported).exclude(pk=obj.pk).select_related("reporter")[:20]
        if not rows:
            return "-"
        return format_html_join(
            "",
            '<div><a href="{}">#{}</a> {} · {} · {}</div>',
            (
                (
                    reverse("admin:friends_report_change", args=[r.pk]),
                    r.pk,
                    r.get_reason_display(),
                    r.reporter,
                    r.status,
                )
                for r in rows
            ),
        )

    @admin.display(description=_("Actions taken against him"))
    def actions_taken(self, obj):
        rows = ModeratorAction.objects.filter(target=obj.reported).select_related("moderator")[:20]
        if not rows:
            return "-"
        return format_html_join(
            "",
            "<div>{} · {} · {} · {}</div>",
            ((a.get_kind_display(), a.moderator, a.created_at, a.reason) for a in rows),
        )

    def get_urls(self):
        return [
            path(
                "<int:report_id>/moderate/",
                self.admin_site.admin_view(self.moderate_view),
                name="friends_report_moderate",
            ),
            *super().get_urls(),
        ]

    def moderate_view(self, request, report_id):
        if not request.user.has_perm("friends.add_moderatoraction"):
            raise PermissionDenied
        report = get_object_or_404(Report.objects.select_related("reported", "match"), pk=report_id)
        form = ModerateForm(request.POST or None, initial={"match": report.match_id})
        if request.method == "POST" and form.is_valid():
            try:
                action = self._apply(request, report, form.cleaned_data)
            except FriendError as exc:
                form.add_error(None, exc.message)
            else:
                self.log_change(request, report, [{"changed": {"fields": [str(action.get_kind_display())]}}])
                self.message_user(
                    request, gettext("Done: %(action)s.") % {"action": action}, messages.SUCCESS
                )
                return redirect("admin:friends_report_changelist")
        context = {
            **self.admin_site.each_context(request),
            "title": gettext("Moderate report #%(id)s") % {"id": report.pk},
            "opts": self.model._meta,
            "report": report,
            "form": form,
            "matches": recent_matches_of(report.reported),
        }
        return TemplateResponse(request, "admin/friends/moderate.html", context)

    def _apply(self, request, report, data):
        minutes = int(data["duration"]) if data.get("duration") else None
        if data["action"] == "void" and not request.user.has_perm("leaderboard.add_matchvoid"):
            raise PermissionDenied
        return moderation.apply(
            report, request.user, data["action"], data["reason"], minutes, data.get("match")
        )


@admin.register(ModeratorAction)
class ModeratorActionAdmin(ReadOnlyAdmin):
    list_display = ("kind", "target", "moderator", "created_at", "until", "reason", "match", "report")
    list_filter = ("kind",)
    search_fields = ("target__username", "moderator__username", "reason")
    list_select_related = ("target", "moderator", "match", "report")


@admin.register(Friendship)
class FriendshipAdmin(ReadOnlyAdmin):
    list_display = ("low", "high", "requested_by", "status", "created_at", "accepted_at")
    list_filter = ("status",)
    search_fields = ("low__username", "high__username")


@admin.register(Invite)
class InviteAdmin(ReadOnlyAdmin):
    list_display = ("sender", "recipient", "room", "status", "created_at")
    list_filter = ("status",)


@admin.register(Block)
class BlockAdmin(ReadOnlyAdmin):
    list_display = ("blocker", "blocked", "created_at")
