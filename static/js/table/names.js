// Bots' names: given by the server in the page (rooms/bot_names.py), one short
// distinct name per seat in the page's language, the same everywhere.
import { gettext } from "./i18n.js";

let names = null;

function load() {
  if (names) return names;
  names = {};
  const root = document.getElementById("table-app");
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

/**
 * Until the app's own name() asks botName() for a bot seat (the hook in
 * main.js: `if (seat.bot) return botName(number);`), wrap it once here.
 */
export function useBotNames(app) {
  if (app.botNamesInstalled) return;
  app.botNamesInstalled = true;
  const base = app.name.bind(app);
  app.name = (number) => {
    const seat = app.seat(number);
    return seat && seat.bot && !seat.user ? botName(number) : base(number);
  };
}
