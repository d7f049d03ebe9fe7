// Small facts about the five games that several parts of the table need.
import { SUIT_SYMBOL } from "./cards.js";
import { gettext, num } from "./i18n.js";

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

/** A bridge call as shown: "3♥", "Pass", "Double". */
export function callText(call) {
  if (call === "P") return gettext("Pass");
  if (call === "X") return gettext("Double");
  if (call === "XX") return gettext("Redouble");
  const m = /^(\d)(C|D|H|S|NT)$/.exec(call);
  return m ? `${num(m[1])}${strainText(m[2])}` : call;
}
