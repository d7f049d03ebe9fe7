// The deal nobody controls: deal-v1 in the browser (RULES.md F-1..F-6).
// The same algorithm as games/fairdeal.py, checked against the shared vectors
// in tests/fairness/vectors.json; docs/fairness.md defines it exactly.
// No page code here: pure functions over WebCrypto, usable from any page.

export const ALGORITHM = "deal-v1";
export const PURPOSES = ["deal", "draw"];
export const VALUE_HEX = 64;

const HEX = /^[0-9a-f]{64}$/;
const TABLE = /^[0-9A-Za-z_.:-]{1,64}$/;
const U32 = 2 ** 32;
const ASCII = new TextEncoder();

export class FairnessError extends Error {
  constructor(code, message) {
    super(message);
    this.code = code;
  }
}

function subtle() {
  const c = globalThis.crypto;
  if (!c || !c.subtle) throw new FairnessError("no_webcrypto", "This browser has no WebCrypto (a secure page is needed).");
  return c.subtle;
}

/** The 32 raw bytes of a value written as 64 lowercase hex digits, else FairnessError. */
export function checkValue(value, what = "value") {
  if (typeof value !== "string" || !HEX.test(value)) {
    throw new FairnessError("bad_value", `The ${what} must be exactly ${VALUE_HEX} lowercase hexadecimal digits.`);
  }
  const bytes = new Uint8Array(32);
  for (let i = 0; i < 32; i++) bytes[i] = parseInt(value.slice(2 * i, 2 * i + 2), 16);
  return bytes;
}

export function toHex(bytes) {
  return Array.from(new Uint8Array(bytes), (b) => b.toString(16).padStart(2, "0")).join("");
}

/** A fresh secret value for this seat (F-1): 32 random bytes as hex. */
export function newValue() {
  return toHex(globalThis.crypto.getRandomValues(new Uint8Array(32)));
}

/** The SHA-256 fingerprint (lowercase hex) of a value's raw bytes. */
export async function commitment(value) {
  return toHex(await subtle().digest("SHA-256", checkValue(value)));
}

function checkContext(purpose, table, round) {
  if (!PURPOSES.includes(purpose)) throw new FairnessError("bad_purpose", `The purpose must be one of ${PURPOSES.join(", ")}.`);
  if (typeof table !== "string" || !TABLE.test(table)) {
    throw new FairnessError("bad_table", "The table must be 1 to 64 of the characters 0-9 A-Z a-z _ . : -.");
  }
  if (!Number.isInteger(round) || round < 1) throw new FairnessError("bad_round", "The round number must be a whole number of at least 1.");
}

async function hmacKey(bytes) {
  return subtle().importKey("raw", bytes, { name: "HMAC", hash: "SHA-256" }, false, ["sign"]);
}

/** The HMAC-SHA256 counter-block stream of one (purpose, table, round). */
export class Stream {
  static async open(serverSecret, values, purpose, table, round) {
    checkContext(purpose, table, round);
    if (!values.length) throw new FairnessError("bad_value", "At least one seat's value is needed.");
    const parts = [checkValue(serverSecret, "server secret"), ...values.map((v, i) => checkValue(v, `value of seat ${i + 1}`))];
    const key = new Uint8Array(32 * parts.length);
    parts.forEach((p, i) => key.set(p, 32 * i));
    return new Stream(await hmacKey(key), ASCII.encode(`${ALGORITHM}|${purpose}|${table}|${round}|`));
  }

  constructor(key, prefix) {
    this.key = key;
    this.prefix = prefix;
    this.counter = 0;
    this.buffer = new Uint8Array(0);
    this.pos = 0;
  }

  async _block() {
    const msg = new Uint8Array(this.prefix.length + 4);
    msg.set(this.prefix, 0);
    new DataView(msg.buffer).setUint32(this.prefix.length, this.counter, false);
    this.counter += 1;
    const block = new Uint8Array(await subtle().sign("HMAC", this.key, msg));
    const rest = this.buffer.slice(this.pos);
    this.buffer = new Uint8Array(rest.length + block.length);
    this.buffer.set(rest, 0);
    this.buffer.set(block, rest.length);
    this.pos = 0;
  }

  async uint32() {
    while (this.buffer.length - this.pos < 4) await this._block();
    const b = this.buffer;
    const p = this.pos;
    this.pos += 4;
    return ((b[p] << 24) >>> 0) + (b[p + 1] << 16) + (b[p + 2] << 8) + b[p + 3];
  }

  /** A uniform integer in [0, m), by rejection: no modulo bias. */
  async below(m) {
    if (!Number.isInteger(m) || m < 1 || m > U32) throw new FairnessError("bad_range", "A draw must be below a number from 1 to 2**32.");
    const limit = U32 - (U32 % m);
    for (;;) {
      const x = await this.uint32();
      if (x < limit) return x % m;
    }
  }
}

/** Fisher–Yates (Durstenfeld) over a copy of ``cards``. */
export async function shuffle(cards, stream) {
  const deck = cards.slice();
  for (let i = deck.length - 1; i > 0; i--) {
    const j = await stream.below(i + 1);
    [deck[i], deck[j]] = [deck[j], deck[i]];
  }
  return deck;
}

/** The deck of one round (purpose "deal") or of the ace draw ("draw"); values in seat order. */
export async function order(cards, serverSecret, values, { purpose, table, round }) {
  return shuffle(cards, await Stream.open(serverSecret, values, purpose, table, round));
}

/** The value of a seat that did not answer in time (F-4), fixed by the server's secret. */
export async function substitute(serverSecret, table, round, seat) {
  checkContext("deal", table, round);
  if (!Number.isInteger(seat) || seat < 1) throw new FairnessError("bad_seat", "A seat is a whole number of at least 1.");
  const key = await hmacKey(checkValue(serverSecret, "server secret"));
  const sig = await subtle().sign("HMAC", key, ASCII.encode(`${ALGORITHM}|substitute|${table}|${round}|${seat}`));
  return toHex(sig);
}

// --- decks and dealing orders (RULES.md D-1..D-6, C-1) ------------------------------

const SUITS = "SHDC";
const RANKS = "AKQJT98765432";
export const DECK52 = [...SUITS].flatMap((s) => [...RANKS].map((r) => r + s));
export const DECK54 = [...DECK52, "RJ", "BJ"];
export const PLAYERS = { hokm4: 4, hokm2: 2, shelem4: 4, shelem2: 2, bridge: 4 };

/** The seat ``step`` turns after ``seat`` in play order (games/engine/seats.py). */
export function nextSeat(seat, n, step = 1) {
  return ((((seat - 1 + step) % n) + n) % n) + 1;
}

export function inOrderFrom(seat, n) {
  return Array.from({ length: n }, (_, i) => nextSeat(seat, n, i));
}

function clockwiseFrom(seat, n) {
  return Array.from({ length: n }, (_, i) => nextSeat(seat, n, -i));
}

/**
 * D-1: the ace draw turned one card at a time to seat 1, then clockwise, until
 * an ace; with H4-X6 (``acePartners``) on until an ace reaches another seat.
 * Returns {hakem, turned: [{seat, card}], mate, partnerTurned}.
 */
export function aceDraw(draw, players, acePartners = false) {
  const cycle = clockwiseFrom(1, players);
  const seatAt = (i) => cycle[i % players];
  const turned = [];
  let i = 0;
  let hakem = null;
  for (; i < draw.length; i++) {
    turned.push({ seat: seatAt(i), card: draw[i] });
    if (draw[i][0] === "A") {
      hakem = seatAt(i);
      i += 1;
      break;
    }
  }
  const partnerTurned = [];
  let mate = null;
  if (acePartners) {
    for (; i < draw.length; i++) {
      partnerTurned.push({ seat: seatAt(i), card: draw[i] });
      if (draw[i][0] === "A" && seatAt(i) !== hakem) {
        mate = seatAt(i);
        break;
      }
    }
  }
  return { hakem, turned, mate, partnerTurned };
}

/** D-4/D-5: the seat of the first ace, card i counted to seat 1 + i mod n. */
export function firstBidderFromDeck(deck, n) {
  const i = deck.findIndex((c) => c[0] === "A");
  return nextSeat(1, n, i);
}

function seatMap(n, make) {
  const out = {};
  for (let s = 1; s <= n; s++) out[s] = make(s);
  return out;
}

/**
 * Each game's dealing order: layout(deck, params) -> {hands, sure, pool, ...}.
 * ``hands[s]``: what the engine gives seat s at the deal (hand and hidden part,
 * hokm2 before the draft); ``sure[s]``: the cards s certainly sees as his own
 * during the round; ``pool[s]``: every card s can hold or play (sure plus the
 * draft's second cards, the widow for the bidder, shelem2's columns).
 */
export const LAYOUTS = {
  hokm4(d, { hakem }) {
    // D-2: five each in play order from the hakem, then four, then four.
    const hands = {};
    inOrderFrom(hakem, 4).forEach((seat, k) => {
      hands[seat] = [...d.slice(5 * k, 5 * k + 5), ...d.slice(20 + 4 * k, 24 + 4 * k), ...d.slice(36 + 4 * k, 40 + 4 * k)];
    });
    return { hands, sure: hands, pool: hands, middle: hands[nextSeat(hakem, 4, 2)][2] };
  },
  hokm2(d, { hakem }) {
    // D-3: the first two 2s out; e[0:5] hakem, e[5:10] other, then eight pairs each.
    const removed = d.filter((c) => c[0] === "2").slice(0, 2);
    const e = d.filter((c) => !removed.includes(c));
    const other = nextSeat(hakem, 2);
    const hands = { [hakem]: e.slice(0, 5), [other]: e.slice(5, 10) };
    const pairs = {};
    for (const [seat, start] of [[hakem, 10], [other, 26]]) {
      pairs[seat] = Array.from({ length: 8 }, (_, i) => [e[start + 2 * i], e[start + 2 * i + 1]]);
    }
    const sure = seatMap(2, (s) => [...hands[s], ...pairs[s].map((p) => p[0])]);
    const pool = seatMap(2, (s) => [...hands[s], ...pairs[s].flat()]);
    return { hands, pairs, rest: e.slice(42, 50), removed, sure, pool };
  },
  shelem4(d, { first_bidder: first, bidder = null }) {
    // D-4: four to each in play order from the first bidder, three times; widow d[48:].
    const hands = seatMap(4, () => []);
    const order = inOrderFrom(first, 4);
    for (let i = 0; i < 12; i++) hands[order[i % 4]].push(...d.slice(4 * i, 4 * i + 4));
    const widow = d.slice(48);
    const pool = seatMap(4, (s) => (bidder === null || bidder === s ? [...hands[s], ...widow] : hands[s]));
    return { hands, widow, sure: hands, pool };
  },
  shelem2(d, { first_bidder: first, bidder = null }) {
    // D-5: hands d[0:12], d[12:24]; columns d[24:36], d[36:48] (top card first); widow d[48:].
    const other = nextSeat(first, 2);
    const hands = { [first]: d.slice(0, 12), [other]: d.slice(12, 24) };
    const columns = {};
    for (const [seat, start] of [[first, 24], [other, 36]]) {
      columns[seat] = [0, 1, 2].map((j) => d.slice(start + 4 * j, start + 4 * (j + 1)));
    }
    const widow = d.slice(48);
    const pool = seatMap(2, (s) => [...hands[s], ...columns[s].flat(), ...(bidder === null || bidder === s ? widow : [])]);
    return { hands, columns, widow, sure: hands, pool };
  },
  bridge(d, { dealer }) {
    // D-6: one at a time, d[0] to the dealer's left-hand opponent, then on.
    const hands = seatMap(4, () => []);
    d.forEach((card, i) => hands[nextSeat(dealer, 4, i + 1)].push(card));
    return { hands, sure: hands, pool: hands };
  },
};

function sameList(a, b) {
  return Array.isArray(a) && Array.isArray(b) && a.length === b.length && a.every((x, i) => x === b[i]);
}

/**
 * F-3: re-run a round's deal from its published record and check it against
 * what this browser saw. ``observed``: {seat, hand: [cards seen as his own] or
 * null, played: [{seat, card}], draw: [{seat, card}] or null (the turned ace
 * draw), serverCommitment (seen before the round) or null, commitments (the
 * seats' fingerprints seen before any value was shown, by seat - 1) or null,
 * ownValue (the value this browser sent) or null, valueSeat (the seat it was
 * sent for, if not ``seat``)}. ``layouts`` defaults to LAYOUTS.
 * Returns {ok, checks: [{code, ok, detail}], deck, draw, layout}.
 */
export async function verify(record, observed = {}, layouts = LAYOUTS) {
  const checks = [];
  const check = (code, ok, detail = null) => {
    checks.push({ code, ok: Boolean(ok), detail });
    return Boolean(ok);
  };
  const out = { ok: false, checks, deck: null, draw: null, layout: null };
  try {
    if (!check("algorithm", record.algorithm === ALGORITHM, record.algorithm)) return out;
    const n = PLAYERS[record.game];
    if (!check("seats", n && record.seats === n && record.values.length === n, record.seats)) return out;
    check("server_commitment", (await commitment(record.server_secret)) === record.server_commitment);
    if (observed.serverCommitment) {
      check("server_commitment_seen", observed.serverCommitment === record.server_commitment);
    }
    const values = [];
    for (const [i, entry] of record.values.entries()) {
      const seat = i + 1;
      let ok = entry.seat === seat;
      if (entry.substituted) {
        ok = ok && entry.value === (await substitute(record.server_secret, record.table, record.round, seat));
      } else {
        ok = ok && (await commitment(entry.value)) === entry.commitment;
      }
      check("value", ok, seat);
      values.push(entry.value);
    }
    if (Array.isArray(observed.commitments)) {
      // F-1: the fingerprints this browser saw before any value was shown are the record's.
      const changed = [];
      observed.commitments.forEach((seen, i) => {
        const entry = record.values[i];
        if (seen && (!entry || entry.commitment !== seen)) changed.push(i + 1);
      });
      check("commitments_seen", !changed.length && observed.commitments.length === n, changed);
    }
    const valueSeat = observed.valueSeat || observed.seat; // the seat the value was sent for (H4-X6 moves seats)
    if (observed.ownValue && valueSeat) {
      const mine = record.values[valueSeat - 1];
      check("own_value", mine && !mine.substituted && mine.value === observed.ownValue, valueSeat);
    }
    const canonical = record.cards.length === 54 ? DECK54 : DECK52;
    check("cards", sameList(record.cards, canonical), record.cards.length);
    const table = record.table;
    const deck = await order(record.cards, record.server_secret, values, { purpose: "deal", table, round: record.round });
    out.deck = deck;
    if (record.deck) check("deck", sameList(deck, record.deck));
    const params = { ...(record.layout || {}) };
    if (record.draw_cards) {
      check("draw_cards", sameList(record.draw_cards, DECK52));
      const draw = await order(record.draw_cards, record.server_secret, values, { purpose: "draw", table, round: record.round });
      out.draw = draw;
      if (record.draw) check("draw", sameList(draw, record.draw));
      const turned = aceDraw(draw, n, Boolean(record.ace_partners));
      if (record.game.startsWith("hokm")) {
        check("hakem", turned.hakem === params.hakem, turned.hakem);
      }
      if (observed.draw) {
        check("draw_seen", sameList(observed.draw.map((t) => `${t.seat}:${t.card}`), turned.turned.map((t) => `${t.seat}:${t.card}`)));
      }
    }
    if (record.game.startsWith("shelem") && record.round === 1) {
      check("first_bidder", firstBidderFromDeck(deck, n) === params.first_bidder, params.first_bidder);
    }
    const layout = layouts[record.game](deck, params);
    out.layout = layout;
    if (observed.seat && observed.hand) {
      const pool = new Set(layout.pool[observed.seat]);
      const seen = new Set(observed.hand);
      const missing = layout.sure[observed.seat].filter((c) => !seen.has(c));
      const foreign = observed.hand.filter((c) => !pool.has(c));
      check("own_hand", !missing.length && !foreign.length, { missing, foreign });
    }
    const seen = new Set();
    const wrong = [];
    for (const { seat, card } of observed.played || []) {
      if (seen.has(card) || !(layout.pool[seat] || []).includes(card)) wrong.push({ seat, card });
      seen.add(card);
    }
    check("played", !wrong.length, wrong);
  } catch (exc) {
    check("error", false, String(exc && exc.message ? exc.message : exc));
  }
  out.ok = checks.length > 0 && checks.every((c) => c.ok);
  return out;
}
