// The page of one round's fair deal (F-3): re-run the check in this browser.
// What this browser saw at the table is read from localStorage (the table
// writes it under storageKey(match, round)); without it the server's own log
// of the cards played stands in, and the page says so.
import { verify } from "../fairdeal.js";
import { fmt, gettext, num } from "../table/i18n.js";

export function storageKey(match, round) {
  return `takhteh:fair:${match}:${round}`;
}

const LABELS = {
  algorithm: () => gettext("Algorithm is deal-v1"),
  seats: () => gettext("One value for every seat"),
  server_commitment: () => gettext("Server's secret matches its fingerprint"),
  server_commitment_seen: () => gettext("Same server fingerprint as shown before the round"),
  commitments_seen: () => gettext("Same seat fingerprints as shown before any value"),
  value: () => gettext("Seat's value matches its fingerprint (or is its fixed substitute)"),
  own_value: () => gettext("Your own value was used"),
  cards: () => gettext("The full deck of this game went in"),
  deck: () => gettext("Deck made again = deck dealt"),
  draw_cards: () => gettext("The full deck went into the ace draw"),
  draw: () => gettext("Ace draw made again = ace draw used"),
  hakem: () => gettext("The hakem is the seat the ace draw gives"),
  draw_seen: () => gettext("The ace draw you saw"),
  first_bidder: () => gettext("The first bidder is the seat of the first ace"),
  own_hand: () => gettext("Your cards are the ones this deck deals you"),
  played: () => gettext("Every card played came from its player's dealt cards"),
  error: () => gettext("The check could not run"),
};

function observedFrom(record, seat) {
  let stored = null;
  try {
    stored = JSON.parse(localStorage.getItem(storageKey(record.match, record.round)) || "null");
  } catch {
    stored = null;
  }
  if (stored && stored.seat === seat) return { observed: stored, local: true };
  return { observed: { seat, hand: null, played: record.played || [] }, local: false };
}

async function check(app, record) {
  const result = app.querySelector("[data-testid=fair-result]");
  const list = app.querySelector("[data-checks]");
  result.dataset.state = "running";
  result.textContent = gettext("Checking…");
  const seat = Number(app.dataset.seat);
  const { observed, local } = observedFrom(record, seat);
  const outcome = await verify(record, observed);
  list.replaceChildren(
    ...outcome.checks.map((c) => {
      const li = document.createElement("li");
      li.dataset.ok = String(c.ok);
      li.dataset.code = c.code;
      const label = (LABELS[c.code] || (() => c.code))();
      const seatText = c.code === "value" ? ` (${fmt(gettext("seat %(seat)s"), { seat: num(c.detail) })})` : "";
      li.textContent = `${c.ok ? "✓" : "✗"} ${label}${seatText}`;
      return li;
    }),
  );
  if (!local) {
    const li = document.createElement("li");
    li.className = "muted";
    li.textContent = gettext("This browser kept no record of the table: the cards played are taken from the server's log.");
    list.append(li);
  }
  result.dataset.state = outcome.ok ? "ok" : "failed";
  result.textContent = outcome.ok ? gettext("Deal verified") : gettext("The deal did NOT verify!");
  return outcome;
}

const app = document.getElementById("fair-app");
const source = document.getElementById("fair-record");
if (app && source) {
  const record = JSON.parse(source.textContent);
  app.querySelector("[data-recheck]").addEventListener("click", () => check(app, record));
  check(app, record);
}
