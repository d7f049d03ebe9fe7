"""R-9: add a friend by username; he accepts. Every refused case, and blocking."""

from __future__ import annotations

import pytest
from django.db import IntegrityError, transaction

from friends import services
from friends.errors import FriendError
from friends.models import Block, Friendship

pytestmark = pytest.mark.django_db


def refused(code, func, *args):
    with pytest.raises(FriendError) as info:
        func(*args)
    assert info.value.code == code, info.value.code
    assert info.value.message and info.value.message != code  # a readable, translatable message


def test_r9_a_request_by_username_becomes_a_friendship_when_accepted(alice, bob):
    row = services.send_request(alice, "BOB")  # usernames ignore case
    assert row.status == Friendship.Status.PENDING and row.requested_by == alice
    assert not services.are_friends(alice, bob)
    services.accept_request(bob, "alice")
    assert services.are_friends(alice, bob) and services.are_friends(bob, alice)
    assert services.friend_ids(alice) == {bob.pk} and services.friend_ids(bob) == {alice.pk}


def test_r9_refused_self_unknown_and_deactivated(alice, make_user):
    gone = make_user("gone", is_active=False)
    refused("self", services.send_request, alice, "Alice")
    refused("unknown_user", services.send_request, alice, "nobody_here")
    refused("unknown_user", services.send_request, alice, "   ")
    refused("deactivated", services.send_request, alice, gone.username)
    assert not Friendship.objects.exists()


def test_r9_no_duplicate_in_either_direction(alice, bob):
    services.send_request(alice, "bob")
    refused("already_requested", services.send_request, alice, "bob")
    refused("they_requested", services.send_request, bob, "alice")
    services.accept_request(bob, "alice")
    refused("already_friends", services.send_request, alice, "bob")
    refused("already_friends", services.send_request, bob, "alice")
    assert Friendship.objects.count() == 1


def test_r9_the_database_refuses_a_reverse_duplicate_row(alice, bob):
    services.send_request(alice, "bob")
    low, high = Friendship.pair(alice.pk, bob.pk)
    with pytest.raises(IntegrityError), transaction.atomic():
        Friendship.objects.create(low_id=low, high_id=high, requested_by=bob)
    with pytest.raises(IntegrityError), transaction.atomic():
        Friendship.objects.create(low_id=high, high_id=low, requested_by=bob)  # unordered pair


def test_r9_decline_cancel_and_remove(alice, bob, charlie):
    services.send_request(alice, "bob")
    refused("no_request", services.accept_request, alice, "bob")  # only the asked one accepts
    services.decline_request(bob, "alice")
    assert not Friendship.objects.exists()
    services.send_request(alice, "bob")
    refused("no_request", services.cancel_request, bob, "alice")  # only the asker cancels
    services.cancel_request(alice, "bob")
    assert not Friendship.objects.exists()
    services.send_request(charlie, "alice")
    services.accept_request(alice, "charlie")
    services.remove_friend(charlie, "alice")
    assert not services.are_friends(alice, charlie)
    refused("not_friends", services.remove_friend, charlie, "alice")


def test_r9_blocking_stops_requests_both_ways_and_ends_the_friendship(alice, bob):
    services.send_request(alice, "bob")
    services.accept_request(bob, "alice")
    services.block(bob, "alice")
    assert not services.are_friends(alice, bob)
    assert Block.objects.filter(blocker=bob, blocked=alice).exists()
    refused("blocked", services.send_request, alice, "bob")
    refused("you_blocked", services.send_request, bob, "alice")
    services.unblock(bob, "alice")
    services.send_request(alice, "bob")


def test_r9_an_accept_after_the_asker_was_deactivated_is_refused(alice, bob):
    services.send_request(alice, "bob")
    alice.is_active = False
    alice.save()
    refused("deactivated", services.accept_request, bob, "alice")
