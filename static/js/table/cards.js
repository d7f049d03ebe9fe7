// Cards drawn with HTML and CSS: rank and suit symbol, natural colours (C-6).
import { h } from "./dom.js";
import { fmt, gettext, num } from "./i18n.js";

// U+FE0E asks for the text (not emoji) form of the suit symbols.
export const SUIT_SYMBOL = { S: "\u2660\uFE0E", H: "\u2665\uFE0E", D: "\u2666\uFE0E", C: "\u2663\uFE0E" };
const RANK_TEXT = { T: "10" };

export function isJoker(card) {
  return card === "RJ" || card === "BJ";
}

export function suitOf(card) {
  return isJoker(card) ? null : card[1];
}

export function isRed(card) {
  return card === "RJ" || card[1] === "H" || card[1] === "D";
}

export function suitName(suit) {
  return {
    S: gettext("spades"), H: gettext("hearts"), D: gettext("diamonds"), C: gettext("clubs"),
  }[suit] || suit;
}

function rankName(rank) {
  return {
    A: gettext("Ace"), K: gettext("King"), Q: gettext("Queen"), J: gettext("Jack"),
  }[rank] || num(RANK_TEXT[rank] || rank);
}

/** "Queen of hearts", "Red joker": the card's accessible name. */
export function cardLabel(card) {
  if (card === "RJ") return gettext("Red joker");
  if (card === "BJ") return gettext("Black joker");
  return fmt(gettext("%(rank)s of %(suit)s"), { rank: rankName(card[0]), suit: suitName(card[1]) });
}

/** A short text form for messages: "Q♥". */
export function cardText(card) {
  if (isJoker(card)) return card === "RJ" ? gettext("Red joker") : gettext("Black joker");
  return `${RANK_TEXT[card[0]] || card[0]}${SUIT_SYMBOL[card[1]]}`;
}

/**
 * Cards named inside a sentence ("Lead the run Q♠ K♠"): the one helper for a card's
 * label in mixed text. The cards are isolated left to right in a <bdi dir="ltr">, so
 * a Persian (RTL) sentence keeps their order and each suit by its rank (issue 34: the
 * run button read «سر اومدن با Q ♠K♠»). Returns the element; cardsText() is the same
 * label for plain text (a title, a toast), isolated with LRI…PDI.
 */
export function cardsInline(cards) {
  const list = Array.isArray(cards) ? cards : [cards];
  return h("bdi.cards-inline", { dir: "ltr", "data-cards": list.join(" ") }, list.map(cardText).join(" "));
}

export function cardsText(cards) {
  const list = Array.isArray(cards) ? cards : [cards];
  return `\u2066${list.map(cardText).join(" ")}\u2069`;
}

/**
 * A translated sentence with elements in it: fmtNodes(gettext("Lead the run %(cards)s"),
 * {cards: cardsInline(run)}) -> [text, element, text] for h(...)'s children.
 */
export function fmtNodes(text, values) {
  const out = [];
  let last = 0;
  for (const m of text.matchAll(/%\((\w+)\)s/g)) {
    out.push(text.slice(last, m.index));
    const value = values[m[1]];
    out.push(value instanceof Node ? value : String(value));
    last = m.index + m[0].length;
  }
  out.push(text.slice(last));
  return out.filter((part) => part !== "");
}

function index(rank, suit, extra = "") {
  return h(`span.ci${extra}`, { "aria-hidden": "true" }, h("span.cr", null, rank), suit ? h("span.cs", null, suit) : null);
}

/**
 * A face-up card. `button: true` makes it a real button (legal cards only);
 * otherwise it is an inert element.
 */
export function cardFace(card, { button = false, cls = "", label = null } = {}) {
  const tag = button ? "button" : "div";
  const joker = isJoker(card);
  const suit = joker ? "joker" : card[1];
  const el = h(`${tag}.card.face`, {
    class: `suit-${suit} ${isRed(card) ? "red" : "black"} ${cls}`.trim(),
    "data-card": card,
    dir: "ltr",
    type: button ? "button" : null,
    role: button ? null : "img",
    "aria-label": label || cardLabel(card),
  });
  if (joker) {
    el.append(
      index("★", null),
      h("span.cc.joker-pip", { "aria-hidden": "true" }, "★", h("small", null, gettext("Joker"))),
    );
  } else {
    const rank = RANK_TEXT[card[0]] || card[0];
    const symbol = SUIT_SYMBOL[card[1]];
    const court = "KQJ".includes(card[0]);
    // The index stays top left (readable in a tight fan); the big pip sits low right.
    el.append(
      index(rank, symbol),
      h(`span.cc${court ? ".court" : ""}`, { "aria-hidden": "true" }, court ? h("b", null, rank) : symbol),
    );
  }
  return el;
}

/** The back of a card (hidden cards, other players' hands). */
export function cardBack(cls = "") {
  return h("div.card.back", { class: cls, "aria-hidden": "true" });
}
