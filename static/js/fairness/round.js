// The page of one round's fair deal (F-3, F-8): re-run the check in this browser.
// What this browser saw at the table is read from localStorage (the table
// writes it under storageKey(match, round)); without it the server's own log
// of the cards played stands in, and the page says so. Every check, the first
// and "Check again", reads the record as the page holds it at that moment (the
// inputs shown, over the record embedded in the page): a value edited in the
// page is checked as edited (F-8), never a copy kept from the load.
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

const text = (el) => el.textContent.replace(/\s+/g, "");

/** The record as the page holds it now: the embedded record, with every input shown on the page over it. */
export function readRecord(root = document) {
  const record = JSON.parse(root.getElementById("fair-record").textContent);
  for (const field of ["server_secret", "server_commitment"]) {
    const el = root.querySelector(`.fair [data-field="${field}"]`);
    if (el) record[field] = text(el);
  }
  for (const row of root.querySelectorAll("[data-testid=fair-values] tr[data-seat]")) {
    const entry = record.values.find((v) => String(v.seat) === row.dataset.seat);
    if (!entry) continue;
    for (const field of ["value", "commitment"]) {
      const el = row.querySelector(`[data-field="${field}"]`);
      if (el) entry[field] = text(el);
    }
  }
  const deck = root.querySelector(".fair [data-deck]");
  if (deck && Array.isArray(record.deck)) record.deck = deck.textContent.trim().split(/\s+/).filter(Boolean);
  return record;
}

function labelOf(c) {
  const label = (LABELS[c.code] || (() => c.code))();
  return c.code === "value" ? `${label} (${fmt(gettext("seat %(seat)s"), { seat: num(c.detail) })})` : label;
}

/** One sentence saying which check failed (F-8): the first one, and how many more. */
export function failureSentence(failed) {
  if (!failed.length) return "";
  const first = labelOf(failed[0]);
  if (failed.length === 1) return fmt(gettext("This check failed: %(check)s."), { check: first });
  return fmt(gettext("This check failed: %(check)s (and %(n)s more below)."), { check: first, n: num(failed.length - 1) });
}

async function check(app) {
  const result = app.querySelector("[data-testid=fair-result]");
  const list = app.querySelector("[data-checks]");
  result.dataset.state = "running";
  result.textContent = gettext("Checking…");
  let record;
  try {
    record = readRecord(document);
  } catch {
    record = null;
  }
  const seat = Number(app.dataset.seat);
  const { observed, local } = record ? observedFrom(record, seat) : { observed: {}, local: false };
  const outcome = record
    ? await verify(record, observed)
    : { ok: false, checks: [{ code: "error", ok: false, detail: null }] };
  list.replaceChildren(
    ...outcome.checks.map((c) => {
      const li = document.createElement("li");
      li.dataset.ok = String(c.ok);
      li.dataset.code = c.code;
      li.textContent = `${c.ok ? "✓" : "✗"} ${labelOf(c)}`;
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
  if (outcome.ok) {
    result.textContent = `✓ ${gettext("Deal verified")}`;
  } else {
    const head = document.createElement("strong");
    head.textContent = `✗ ${gettext("The deal did NOT verify!")}`;
    const why = document.createElement("span");
    why.className = "why";
    why.dataset.testid = "fair-why";
    why.textContent = failureSentence(outcome.checks.filter((c) => !c.ok));
    result.replaceChildren(head, why);
  }
  return outcome;
}

const app = document.getElementById("fair-app");
if (app && document.getElementById("fair-record")) {
  app.querySelector("[data-recheck]").addEventListener("click", () => check(app));
  check(app);
}
