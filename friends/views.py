from django.contrib.auth.decorators import login_required
from django.shortcuts import render


@login_required
def index(request):
    # Friendship requests and invites come with their own issue.
    return render(request, "friends/index.html")
