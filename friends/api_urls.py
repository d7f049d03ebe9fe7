from django.urls import path

from . import api, moderation_api

app_name = "friends-api"
urlpatterns = [
    path("", api.OverviewView.as_view(), name="overview"),
    path("requests/", api.SendRequestView.as_view(), name="request"),
    path("requests/accept/", api.AcceptRequestView.as_view(), name="accept"),
    path("requests/decline/", api.DeclineRequestView.as_view(), name="decline"),
    path("requests/cancel/", api.CancelRequestView.as_view(), name="cancel"),
    path("remove/", api.RemoveFriendView.as_view(), name="remove"),
    path("blocks/", api.BlockView.as_view(), name="block"),
    path("blocks/remove/", api.UnblockView.as_view(), name="unblock"),
    path("invites/", api.InviteView.as_view(), name="invite"),
    path("invites/<int:invite_id>/accept/", api.AcceptInviteView.as_view(), name="accept_invite"),
    path("invites/<int:invite_id>/decline/", api.DeclineInviteView.as_view(), name="decline_invite"),
    path("reports/", api.ReportView.as_view(), name="report"),
    path("moderation/reports/", moderation_api.ReportQueueView.as_view(), name="report_queue"),
    path(
        "moderation/reports/<int:report_id>/", moderation_api.ReportDetailView.as_view(), name="report_detail"
    ),
    path(
        "moderation/reports/<int:report_id>/actions/", moderation_api.ModerateView.as_view(), name="moderate"
    ),
]
