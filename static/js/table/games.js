// Small facts about the five games that several parts of the table need.
import { SUIT_SYMBOL } from "./cards.js";
import { gettext, num, pgettext } from "./i18n.js";

export function family(game) {
  if (game.startsWith("hokm")) return "hokm";
  if (game.startsWith("shelem")) return "shelem";
  return "bridge";
}

/** ♠ / ♥ … for a trump or a bridge strain. */
export function strainText(strain) {
  if (strain === "NT") return gettext("NT");
  return SUIT_SYMBOL[strain] || strain;
}

/**
 * A bridge bid as shown: "3♥"; a word strain gets a no-break space so
 * that it never runs into the digit («۳ بی‌حکم», not «۳بی‌حکم»), and is
 * isolated so that it reads in its own direction inside the left-to-right
 * bidding box (the digit first, to the right, in Persian).
 */
export function bidText(level, strain) {
  if (SUIT_SYMBOL[strain]) return `${num(level)}${strainText(strain)}`;
  return `\u2068${num(level)}\u00A0${strainText(strain)}\u2069`;
}

/** A contract {level, strain, doubled}: "4♠X", "3 NT X". */
export function contractText(contract) {
  const dbl = contract.doubled === 2 ? "XX" : contract.doubled === 1 ? "X" : "";
  const gap = dbl && !SUIT_SYMBOL[contract.strain] ? "\u00A0" : "";
  return `${bidText(contract.level, contract.strain)}${gap}${dbl}`;
}

/** A bridge call as shown: "3♥", "Pass", "Double". */
export function callText(call) {
  if (call === "P") return gettext("Pass");
  if (call === "X") return gettext("Double");
  if (call === "XX") return gettext("Redouble");
  const m = /^(\d)(C|D|H|S|NT)$/.exec(call);
  return m ? bidText(m[1], m[2]) : call;
}

/** Bridge seats 1..4 by the compass (B-1), in the page's language. */
export function compassName(seat) {
  return [
    pgettext("compass", "N"), pgettext("compass", "E"), pgettext("compass", "S"), pgettext("compass", "W"),
  ][seat - 1] || String(seat);
}

/** A bridge side by its team (0: North–South, 1: East–West). */
export function sideText(team) {
  return team === 0 ? gettext("N–S") : gettext("E–W");
}
