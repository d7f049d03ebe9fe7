from django.shortcuts import render


def index(request):
    return render(request, "leaderboard/index.html")


def player(request, username):
    return render(request, "leaderboard/index.html")
