"""Issue 22: the school is found from the home page, in the reader's language."""

import pytest

pytestmark = pytest.mark.django_db


@pytest.mark.parametrize(
    ("lang", "words"),
    [("fa", "حکم را در نُه درس کوتاه یاد بگیرید"), ("en", "Learn Hokm in nine short lessons")],
)
def test_the_home_page_leads_a_beginner_to_the_school(client, settings, lang, words):
    client.cookies[settings.LANGUAGE_COOKIE_NAME] = lang
    page = client.get("/").content.decode()
    assert 'href="/school/"' in page and 'data-testid="home-school"' in page
    assert words in page
    assert client.get("/school/").status_code == 200
