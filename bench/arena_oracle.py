"""The duplicate arena with a bot that sees every hand: a ceiling for the Hokm for four search (issue 38).

    python bench/arena_oracle.py {cards,trump,both} hokm4 --deals N --a strong --b auto --worlds 1 --no-clock

Not a bot of the tables (it breaks the bots' contract on purpose): every bot
level is handed the true hands, so measure it against ``auto`` or ``careful``. ``cards``: its card search samples the
real deal only (with ``--worlds 1``, each card is one double-dummy solve of
the true deal); ``trump``: its hakem names the trump from all 52 cards (the
suit whose double-dummy solve, hakem on lead, gives his side the most
tricks); ``both``. The arena's options and last line are unchanged.
"""

from __future__ import annotations

import pathlib
import sys

sys.path.insert(0, str(pathlib.Path(__file__).resolve().parents[1]))
sys.path.insert(0, str(pathlib.Path(__file__).resolve().parent))

import arena  # noqa: E402

from games import engine  # noqa: E402
from games.bots import dds, hokm, hokm_dd  # noqa: E402
from games.engine import hokm_fast as hf  # noqa: E402
from games.engine.cards import SUITS  # noqa: E402

SEEN: dict = {}


def install(mode: str) -> None:
    game_cls = type(engine.get("hokm4"))
    real_view = game_cls.view

    def view(self, state, seat):
        hidden = state.get("hidden") or [[]] * 4  # before the trump (H4-2), the cards still to come
        SEEN["hands"] = [
            hf.cards_to_mask(list(h) + list(x)) for h, x in zip(state["hands"], hidden, strict=True)
        ]
        return real_view(self, state, seat)

    game_cls.view = view
    if mode in ("cards", "both"):
        hokm._Knowledge.deal = lambda self, rng: list(SEEN["hands"])
    if mode in ("trump", "both"):

        def choose_trump(view, seat, samples, budget, rng, dd=False):
            def tricks(action):
                fs = hokm._round_fast(4, list(SEEN["hands"]), SUITS.index(action["suit"]), seat - 1)
                return dds.future_tricks(hokm_dd._deal(fs), -1, 1, 1).score[0]

            return max((a for a in view["legal"] if a["suit"] != "middle"), key=tricks)

        hokm.choose_trump = choose_trump


if __name__ == "__main__":
    if len(sys.argv) < 2 or sys.argv[1] not in ("cards", "trump", "both"):
        sys.exit(__doc__)
    install(sys.argv[1])
    sys.exit(arena.main(sys.argv[2:]))
