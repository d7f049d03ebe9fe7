"""The narrator's story (H4-X4): the table's story, told one chapter per tea.

An original short story in chapters, in English (the source text) and
Persian (its catalogue entries are in rooms/locale, where the table's page
shows them). The play service owns the pause (games/tea.py) and so the story's
shape: which chapter a tea tells and how long it reads. Each match carries
the chapter its next tea tells (``Match.tea["next_chapter"]``), started from
what the caller of ``services.create_match`` passed (the room's
``story_next``), so the story goes on from match to match at the same table;
after the last chapter it begins again.
"""

from __future__ import annotations

from django.utils import translation
from django.utils.translation import gettext_lazy as _

CHAPTERS = [
    (
        _("The samovar"),
        _(
            "At the end of Saffron Alley, where the bazaar runs out of roof, there is a tea-house with a blue"
            " door and a samovar that has not gone cold in sixty years. Mirza Nasrollah, who owns both, calls"
            " the samovar the Old Lion, because it roars softly when the water is ready. Every Thursday "
            "evening four friends sit at the table by the stove: Golnar the tailor, Bahram the baker, Davood "
            "who mends clocks, and Simin who teaches small children their letters. They play hokm, and the "
            "side that loses a round pours the tea for the side that won. On the night this story begins it "
            "was raining, the Old Lion was roaring, and Bahram had just lost his third round in a row."
        ),
    ),
    (
        _("The stranger in the wet coat"),
        _(
            "The blue door opened and let in the rain, and an old man in a coat that seemed to have been wet "
            "for years. He asked, politely, whether he might sit by the window and watch. Mirza Nasrollah "
            "brought him tea without being asked. The stranger watched the cards the way some people watch a "
            "river, and every time someone cut with a trump he smiled, as if he had remembered something. At "
            "last Simin asked him whether he played. “I used to,” he said, and took a small wooden box from "
            "his pocket. Inside lay a deck of cards gone soft with age. “Fifty-one cards,” he said. “The ace "
            "of hearts has been missing for forty years. I lost it here, at this very table.”"
        ),
    ),
    (
        _("What Mirza remembered"),
        _(
            "Mirza Nasrollah set the teapot down so carefully that everybody knew he was remembering. Forty "
            "years ago, he said, when he was young and the tea-house still belonged to his father, a young "
            "man called Yusef came every night to play. He was in love with a girl from the alley and was "
            "saving for the wedding. One night he played for higher and higher stakes, until the last thing "
            "on the table was his mother’s ring. In the middle of that last round the ace of hearts vanished."
            " A deck without its ace cannot be played, so the round was void. Yusef shouted that he had been "
            "cheated, threw his cards on the floor, and was gone before morning. “And you,” Mirza said to the"
            " stranger, “are Yusef.”"
        ),
    ),
    (
        _("The search"),
        _(
            "The stranger did not say yes, but he did not say no, and that was enough for the four friends. "
            "Bahram, who could not bear to lose even a round, declared that no ace walks out of a tea-house "
            "on its own. They searched. Golnar lifted the corners of the carpets. Simin looked behind the "
            "mirror, where forty years of steam had drawn ferns on the glass. Bahram emptied the ash drawer "
            "of the Old Lion and found nothing but ash and a button. Davood said nothing. He was looking at "
            "the tall clock on the wall, whose hands had stood at ten past nine for as long as anyone could "
            "remember. “When did it stop?” he asked. Mirza thought. “The night Yusef left.”"
        ),
    ),
    (
        _("Inside the clock"),
        _(
            "Davood opened the clock’s narrow door with the patience of a man who has opened a thousand "
            "clocks. The pendulum hung still. Behind it, pressed between the weight and the wooden case, was "
            "a folded piece of paper, yellow as old tea. He unfolded it by the light of the stove. It was not"
            " the ace. It was a note, four lines in a small, careful hand: “The clock will wait, and so will "
            "the card. If you want the ace of hearts, ask the one who poured the tea.” Everyone turned to "
            "Mirza. Mirza raised both hands. “Not me,” he said. “Forty years ago I carried the coal. In those"
            " days the tea was poured by a girl called Parvin.”"
        ),
    ),
    (
        _("The girl who poured the tea"),
        _(
            "At the name Parvin, Golnar’s needle stopped in the air, for Golnar was always mending something,"
            " even at cards. “Parvin was my grandmother,” she said. “She died last winter.” The stranger "
            "closed his eyes. For a long while only the rain spoke, and the Old Lion answered it. Then Yusef "
            "said, very quietly, that Parvin was the girl he had wanted to marry. Her father had said no to a"
            " young man who gambled. Yusef had thought that if he won that night he could set a purse full of"
            " money before her father, and her father would say yes. “Instead,” he said, “I lost everything "
            "but the ring, and then the ace was gone.”"
        ),
    ),
    (
        _("The sewing box"),
        _(
            "Golnar ran home through the rain and came back with her grandmother’s sewing box under her coat."
            " It was lined with faded green velvet. She slid a thin knife under the lining, the way her "
            "grandmother had taught her to open a seam, and there, flat and clean as the day it was printed, "
            "lay the ace of hearts. On its back, in the same small, careful hand, was written: “I stopped the"
            " game so that you would keep your mother’s ring. Come back when you no longer play for money.” "
            "Yusef held the card for a long time. “She saved me,” he said, “and I called it cheating. I went "
            "away angry, and I never came back.”"
        ),
    ),
    (
        _("The last round"),
        _(
            "That night the deck in the wooden box had fifty-two cards again. Yusef asked whether he might "
            "play one round, for nothing but the tea, and Bahram gave him his chair without a word. Davood "
            "wound the tall clock and set its hands to the true hour, and for the first time in forty years "
            "it ticked. They played. Yusef was hakem and named hearts trump, and when he laid the ace of "
            "hearts on the last trick nobody at the table breathed. His side won, seven tricks to five. But "
            "he stood up, took the teapot from Mirza, and poured for everyone himself. Since that night one "
            "chair by the window of the tea-house is always kept empty, for whoever comes in out of the rain."
        ),
    ),
]
"""(title, text) of each chapter, in order."""

WORDS_PER_SECOND = 2.2
"""A calm reading (or speaking) pace, in words; the slower language decides."""


def chapter(number: int) -> dict:
    """Chapter ``number`` (1-based) in the active language."""
    title, text = CHAPTERS[(number - 1) % len(CHAPTERS)]
    return {"number": number, "title": str(title), "text": str(text)}


def chapters() -> list[dict]:
    """Every chapter in the active language (sent with the table's page)."""
    return [chapter(n) for n in range(1, len(CHAPTERS) + 1)]


def reading_seconds(number: int) -> float:
    """How long the pause of chapter ``number`` lasts: its text read at a calm
    pace, in the language that takes longer, plus a moment to settle."""
    title, text = CHAPTERS[(number - 1) % len(CHAPTERS)]
    words = 0
    for language in ("fa", "en"):
        with translation.override(language):
            words = max(words, len(f"{title} {text}".split()))
    return round(6 + words / WORDS_PER_SECOND, 1)


def number(n) -> int:
    """``n`` as a chapter number (1..len(CHAPTERS)); anything else is chapter 1."""
    try:
        return (int(n) - 1) % len(CHAPTERS) + 1
    except (TypeError, ValueError):
        return 1


def after(n: int) -> int:
    """The chapter told after chapter ``n`` (the last one is followed by the first)."""
    return number(n) % len(CHAPTERS) + 1
