// The rules pages' small card pictures, drawn with the table's own card faces (cards.js).
import { cardBack, cardFace } from "../table/cards.js";

for (const row of document.querySelectorAll("[data-cards]")) {
  const win = row.dataset.win;
  // "back" draws a face-down card (a draft pair's second card, a column's hidden cards).
  row.replaceChildren(...row.dataset.cards.split(/\s+/).filter(Boolean).map((card) =>
    (card === "back" ? cardBack() : cardFace(card, { cls: card === win ? "wins" : "" }))));
}
