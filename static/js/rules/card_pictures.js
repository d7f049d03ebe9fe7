// The rules pages' small card pictures, drawn with the table's own card faces (cards.js).
import { cardFace } from "../table/cards.js";

for (const row of document.querySelectorAll("[data-cards]")) {
  const win = row.dataset.win;
  row.replaceChildren(...row.dataset.cards.split(/\s+/).filter(Boolean).map((card) =>
    cardFace(card, { cls: card === win ? "wins" : "" })));
}
