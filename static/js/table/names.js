// Bots' names: given by the server in the page (rooms/bot_names.py), one short
// distinct name per seat in the page's language, the same everywhere.
import { gettext } from "./i18n.js";

let names = null;

function load() {
  if (names) return names;
  names = {};
  // The table page and the review page both carry them (data-bot-names).
  const root = document.querySelector("[data-bot-names]");
  try {
    Object.assign(names, JSON.parse((root && root.dataset.botNames) || "{}"));
  } catch (err) {
    /* no names: "Bot" stands */
  }
  return names;
}

/** The name of the bot in seat `number`. */
export function botName(number) {
  return load()[String(number)] || gettext("Bot");
}

/** Issue 21: a bot's level as the table names it ("Easy bot"). */
export function botLevelName(level) {
  return { easy: gettext("Easy bot"), normal: gettext("Normal bot"), strong: gettext("Strong bot") }[level] || "";
}
