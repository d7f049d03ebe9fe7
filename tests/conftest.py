import pytest


@pytest.fixture
def make_user(db, django_user_model):
    def make(username, password="correct-horse-battery", **extra):
        return django_user_model.objects.create_user(username=username, password=password, **extra)

    return make


@pytest.fixture
def alice(make_user):
    return make_user("alice")


@pytest.fixture
def bob(make_user):
    return make_user("bob")


@pytest.fixture
def charlie(make_user):
    return make_user("charlie")


@pytest.fixture
def dave(make_user):
    return make_user("dave")
