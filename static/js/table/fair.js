// The deal nobody controls, at the table (RULES.md F-1..F-4, docs/fairness.md).
// This browser makes its own secret value for every round, sends only its
// SHA-256 (fair_commit) while the fingerprints are collected, and the value
// itself (fair_reveal) once every fingerprint is in. What it sees of the round
// (its cards, every card played, the ace draw) is kept in localStorage under
// the key the round page reads; when the round's record comes (fair_record,
// players only) it re-runs the deal with fairdeal.js and shows a small badge.
// F-8: from the start of each round a box in the felt's corner shows the deal's
// phase for everyone at the table (fingerprints in, values in, dealt), naming
// the seats whose value the server made (bots, and anyone who did not answer).
// Its look is in table.css (.fair-box): the site's CSP allows no inline style.
import { commitment, newValue, verify } from "../fairdeal.js";
import { storageKey } from "../fairness/round.js";
import { fmt, gettext, num } from "./i18n.js";

const RESEND_MS = 1500; // an unanswered fingerprint or value is sent again on the next fair_state after this
const RECORD_WAIT_MS = 3000; // the record may come before the round's last state frame: wait for it this long
const KEEP_ROUNDS = 40; // older rounds' entries are dropped from localStorage

function load(key) {
  try {
    return JSON.parse(localStorage.getItem(key) || "null");
  } catch {
    return null;
  }
}

function save(key, entry) {
  try {
    localStorage.setItem(key, JSON.stringify(entry));
  } catch {
    // storage full or refused: the check still runs from what this page holds
  }
}

function prune() {
  try {
    const keys = [];
    for (let i = 0; i < localStorage.length; i++) {
      const key = localStorage.key(i);
      if (key && key.startsWith("takhteh:fair:")) keys.push(key);
    }
    if (keys.length <= KEEP_ROUNDS) return;
    const age = (key) => (load(key) || {}).at || 0;
    keys.sort((a, b) => age(a) - age(b));
    keys.slice(0, keys.length - KEEP_ROUNDS).forEach((key) => localStorage.removeItem(key));
  } catch {
    // nothing to tidy
  }
}

export class FairTable {
  constructor(app) {
    this.app = app;
    this.entries = new Map(); // storage key -> what this browser holds for that round
    this.sentAt = new Map(); // `${key}:${phase}` -> when it was last sent
    this.current = null; // {match, round}: the round being played (from its "dealt" event)
    this.lastState = null; // the last fair_state (the round whose deal is being made)
    this.lastDraw = null;
    this.waiting = []; // records that came before the round's last state frame
    this.seenV = new Map(); // match -> the highest version seen in a state frame
    this.results = []; // [{match, round, ok}] (tests read window.takhteh.fair)
    this.badge = null;
    this.box = null; // the corner box: the current round's phase, then the last round's proof
    this.phaseEl = null;
    this.phase = null; // {match, round, state, dealt}
    this.queue = Promise.resolve(); // fair_state frames are handled one after the other (one value per round)
    prune();
  }

  entry(match, round) {
    const key = storageKey(match, round);
    if (!this.entries.has(key)) this.entries.set(key, load(key) || { match, round, at: Date.now() });
    return [key, this.entries.get(key)];
  }

  onFrame(frame) {
    if (frame.type === "fair_state") this.queue = this.queue.then(() => this.onFairState(frame)).catch(() => {});
    else if (frame.type === "fair_record") this.onRecord(frame);
    else if (frame.type === "state") this.observe(frame);
  }

  /** The seat this browser holds in the match being played (room seat = match seat while it plays). */
  get seat() {
    const frame = this.app.frame;
    if (frame && frame.view && frame.view.viewer) return frame.view.viewer;
    return (this.app.you && this.app.you.seat) || null;
  }

  // --- making the deal (F-1, F-2) ---------------------------------------------------

  async onFairState(state) {
    this.lastState = state;
    this.showPhase(state);
    const seat = this.seat;
    if (!seat || !state.match) return;
    const [key, entry] = this.entry(state.match, state.round);
    entry.serverCommitment = entry.serverCommitment || state.server_commitment;
    // Every fingerprint as first seen (no value is ever public before the round ends): the check
    // later holds the record to them (F-1), so a value changed afterwards with its fingerprint fails.
    entry.commitments = state.commitments.map((c, i) => (entry.commitments && entry.commitments[i]) || c);
    if (state.bots.includes(seat) || state.substituted.includes(seat)) {
      save(key, entry);
      return;
    }
    const mine = state.commitments[seat - 1];
    if (state.phase === "commit" && !mine) {
      if (!entry.value) {
        entry.value = newValue();
        entry.commitment = await commitment(entry.value);
        entry.commitSeat = seat;
      }
      save(key, entry); // kept before it is sent: a reload reveals the same value
      this.sendOnce(key, "commit", { type: "fair_commit", round: state.round, commitment: entry.commitment });
    } else if (state.phase === "reveal" && mine && mine === entry.commitment && !state.revealed[seat - 1]) {
      entry.revealed = true;
      save(key, entry);
      this.sendOnce(key, "reveal", { type: "fair_reveal", round: state.round, value: entry.value });
    }
  }

  sendOnce(key, phase, frame) {
    const id = `${key}:${phase}`;
    const last = this.sentAt.get(id) || 0;
    if (Date.now() - last < RESEND_MS) return;
    if (this.app.socket.send(frame)) this.sentAt.set(id, Date.now());
  }

  // --- what this browser saw of the round (F-3) --------------------------------------------

  observe(frame) {
    this.seenV.set(frame.match, Math.max(frame.v, this.seenV.get(frame.match) ?? -1));
    const events = frame.events || [];
    for (const event of events) {
      if (event.type === "hakem" && Array.isArray(event.draw)) this.lastDraw = event.draw;
      if (event.type === "dealt") {
        const round = event.round || (this.lastState && this.lastState.match === frame.match ? this.lastState.round : null);
        if (!round) continue;
        this.current = { match: frame.match, round };
        this.markDealt(frame.match, round);
        const [key, entry] = this.entry(frame.match, round);
        Object.assign(entry, { seat: frame.view.viewer || null, hand: [], played: [], fromDeal: true, at: Date.now() });
        entry.draw = round === 1 && this.lastDraw ? this.lastDraw : null;
        save(key, entry);
      }
    }
    const cur = this.current;
    if (cur && cur.match === frame.match && frame.view && frame.view.viewer) {
      const [key, entry] = this.entry(cur.match, cur.round);
      if (entry.fromDeal) {
        const seen = new Set(entry.hand || []);
        const view = frame.view;
        for (const card of [...(view.hand || []), ...(view.widow || [])]) seen.add(card);
        if (view.draft_card) seen.add(view.draft_card);
        entry.hand = [...seen];
        for (const e of events) if (e.type === "card_played") entry.played.push({ seat: e.seat, card: e.card });
        save(key, entry);
      }
    }
    if (this.phase && this.phase.server) this.markSeats(this.phase.server); // the seats may have been drawn since
    this.flushWaiting();
  }

  // --- the check --------------------------------------------------------------------------

  onRecord(frame) {
    const item = { frame, until: Date.now() + RECORD_WAIT_MS };
    this.waiting.push(item);
    setTimeout(() => this.flushWaiting(), RECORD_WAIT_MS + 20);
    this.flushWaiting();
  }

  flushWaiting() {
    const now = Date.now();
    const ready = this.waiting.filter(
      (w) => now >= w.until || (this.seenV.get(w.frame.record.match) ?? -1) >= w.frame.v,
    );
    this.waiting = this.waiting.filter((w) => !ready.includes(w));
    for (const w of ready) this.check(w.frame.record);
  }

  async check(record) {
    const [key, entry] = this.entry(record.match, record.round);
    const seat = entry.seat || this.seat;
    const local = Boolean(entry.fromDeal);
    const observed = {
      seat,
      hand: local && entry.hand && entry.hand.length ? entry.hand : null,
      played: entry.played || [],
      draw: local ? entry.draw || null : null,
      serverCommitment: entry.serverCommitment || null,
      commitments: Array.isArray(entry.commitments) ? entry.commitments : null,
      // Only a value this browser really sent can be claimed as used.
      // The seat it was sent for: H4-X6 may move this player to another seat at the ace draw.
      ownValue: entry.revealed && entry.commitSeat ? entry.value : null,
      valueSeat: entry.commitSeat || null,
    };
    const outcome = await verify(record, observed);
    entry.ownValue = observed.ownValue; // the round page (static/js/fairness/round.js) checks it too
    entry.valueSeat = observed.valueSeat;
    entry.verified = outcome.ok;
    entry.failed = outcome.checks.filter((c) => !c.ok).map((c) => c.code);
    save(key, entry);
    this.results.push({ match: record.match, round: record.round, ok: outcome.ok, failed: entry.failed });
    this.showBadge(record, outcome.ok);
    return outcome;
  }

  // --- the corner box (F-8) ------------------------------------------------------------

  ensureBox() {
    if (this.box && this.box.isConnected) return this.box;
    this.box = document.createElement("div");
    this.box.className = "fair-box";
    this.box.dataset.testid = "fair-box";
    // In the felt's top corner (free in every layout), else at the page's bottom.
    const felt = this.app.root.querySelector("[data-felt]");
    this.box.classList.toggle("in-felt", Boolean(felt));
    (felt || this.app.root).append(this.box);
    return this.box;
  }

  narrow() {
    const box = this.ensureBox();
    return (box.parentElement || this.app.root).clientWidth < 560;
  }

  /** The phase of the deal being made (fair_state), shown from the round's first frame. */
  showPhase(state) {
    if (!state || !state.match) return;
    const prev = this.phase;
    const same = prev && prev.match === state.match && prev.round === state.round;
    if (prev && prev.match === state.match && prev.round > state.round) return; // a late frame of an old round
    this.phase = { match: state.match, round: state.round, state, dealt: (same && prev.dealt) || state.phase === "dealt" };
    this.renderPhase();
  }

  markDealt(match, round) {
    const p = this.phase;
    if (p && p.match === match && p.round === round) {
      p.dealt = true;
      this.renderPhase();
    }
  }

  renderPhase() {
    const p = this.phase;
    if (!p) return;
    const box = this.ensureBox();
    if (!this.phaseEl) {
      this.phaseEl = document.createElement("div");
      this.phaseEl.className = "fair-phase";
      this.phaseEl.dataset.testid = "fair-phase";
      this.phaseEl.setAttribute("role", "status");
      box.prepend(this.phaseEl);
    }
    const { state } = p;
    const n = state.commitments.length;
    const server = [...new Set([...(state.bots || []), ...(state.substituted || [])])].sort((a, b) => a - b);
    const fromServer = (seat) => server.includes(seat);
    const committing = state.phase === "commit";
    const fingerprints = state.commitments.filter((c, i) => c || fromServer(i + 1)).length;
    const values = committing ? 0 : state.revealed.filter((r, i) => r || fromServer(i + 1)).length;
    const phase = p.dealt ? "dealt" : state.phase;
    const done = {
      fingerprints: !committing,
      values: phase === "ready" || phase === "dealt",
      dealt: phase === "dealt",
    };
    const step = (key, label) => {
      const el = document.createElement("span");
      el.className = "fair-step";
      el.dataset.step = key;
      el.dataset.done = String(done[key]);
      el.textContent = `${done[key] ? "✓" : "…"} ${label}`;
      return el;
    };
    const narrow = this.narrow();
    const head = document.createElement("span");
    head.className = "fair-head";
    head.textContent = narrow
      ? fmt(gettext("Fair deal %(n)s:"), { n: num(p.round) })
      : fmt(gettext("Fair deal, round %(n)s:"), { n: num(p.round) });
    const parts = [
      head,
      step("fingerprints", fmt(gettext("fingerprints %(k)s/%(n)s"), { k: num(fingerprints), n: num(n) })),
      step("values", fmt(gettext("values %(k)s/%(n)s"), { k: num(values), n: num(n) })),
      step("dealt", gettext("dealt")),
    ];
    if (server.length) {
      const names = server.map((seat) => this.app.name(seat)).join(gettext(", "));
      const el = document.createElement("span");
      el.className = "fair-server";
      el.dataset.testid = "fair-server-seats";
      el.dataset.seats = server.join(" ");
      el.textContent = fmt(gettext("value made by the server: %(names)s"), { names });
      parts.push(el);
    }
    this.phaseEl.dataset.phase = phase;
    this.phaseEl.dataset.round = String(p.round);
    this.phaseEl.replaceChildren(...parts);
    p.server = server;
    this.markSeats(server);
  }

  /** A seat whose value the server made wears a mark by its name (table.css: [data-fair-server]). */
  markSeats(server) {
    for (const slot of this.app.root.querySelectorAll("[data-slot]")) {
      const seat = Number(slot.dataset.seat);
      if (server.includes(seat)) {
        slot.dataset.fairServer = "true";
        slot.title = gettext("This seat's value for the fair deal was made by the server.");
      } else {
        delete slot.dataset.fairServer;
        slot.removeAttribute("title");
      }
    }
  }

  showBadge(record, ok) {
    const box = this.ensureBox();
    if (!this.badge) {
      this.badge = document.createElement("a");
      this.badge.dataset.testid = "fair-badge";
      this.badge.className = "fair-badge";
      this.badge.setAttribute("role", "status");
      this.badge.setAttribute("aria-live", "polite");
      box.append(this.badge);
    }
    const n = num(record.round);
    this.badge.href = `/fair/${record.match}/${record.round}/`;
    this.badge.target = "_blank";
    this.badge.rel = "noopener";
    this.badge.dataset.state = ok ? "ok" : "failed";
    const full = ok
      ? fmt(gettext("Deal of round %(n)s verified"), { n })
      : fmt(gettext("The deal of round %(n)s did NOT verify!"), { n });
    // A narrow table (a phone) gets the short words, clear of the top seat.
    const short = ok ? gettext("Deal verified") : gettext("The deal did NOT verify!");
    this.badge.title = `${full} · ${gettext("Check the deal")}`;
    this.badge.setAttribute("aria-label", full);
    this.badge.textContent = `${ok ? "✓" : "✗"} ${this.narrow() ? short : full}`;
  }
}
