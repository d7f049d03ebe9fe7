// Motion (DESIGN.md): short (150–300 ms), never blocking input, none with
// prefers-reduced-motion. Animated only for consecutive versions (the caller
// checks v == last + 1).
import { h, prefersReducedMotion } from "./dom.js";
import { FROM } from "./geometry.js";
import { fmt, gettext, isolate } from "./i18n.js";
import { playSound } from "./sound.js";
import { cardsText, SUIT_SYMBOL } from "./cards.js";
import { finishAceDraw, showAceDraw } from "./acedraw.js";
import { animateDraft } from "./draftmotion.js";

/** A seat marked for a moment (the hakem after the ace draw). */
function markSeat(r, seat) {
  const slot = r.slots[r.posOf(seat)];
  if (!slot || !slot.slot) return;
  slot.slot.classList.add("drawn");
  setTimeout(() => slot.slot.classList.remove("drawn"), 1800);
}

const SLIDE_MS = 240;
// The finished trick stays in view at least a second before it is gathered;
// shorter only for a player who asks for fast play without reduced motion.
export const HOLD_MS = 1100;
export const FAST_HOLD_MS = 550;
const GATHER_MS = 260;
const FAST_KEY = "takhteh.fastPlay";

/** The player's "fast play" choice (this browser). */
export function fastPlay() {
  try {
    return window.localStorage.getItem(FAST_KEY) === "1";
  } catch (err) {
    return false;
  }
}

export function setFastPlay(on) {
  try {
    window.localStorage.setItem(FAST_KEY, on ? "1" : "0");
  } catch (err) {
    /* private mode: normal pace */
  }
}

/** How long a finished trick stays on the felt, in ms. */
export function holdMs(reduce = prefersReducedMotion()) {
  return !reduce && fastPlay() ? FAST_HOLD_MS : HOLD_MS;
}
let gatherTimers = [];

function slideIn(wrap, pos) {
  const card = wrap.firstElementChild;
  if (!card || !card.animate) return;
  const [fx, fy] = FROM[pos] || [0, 1];
  // In the card's own widths and heights (a translate's percentages): nothing is measured,
  // so the page is not laid out an extra time for each card that comes in.
  const dx = fx * 100;
  // The top player's card grows in place: sliding down from his seat it would pass over his name and tags.
  const dy = pos === "top" ? 0 : fy * 100;
  card.animate(
    [{ transform: `translate(${dx}%, ${dy}%) scale(0.92)`, opacity: 0.35 }, { transform: "none", opacity: 1 }],
    { duration: SLIDE_MS, easing: "cubic-bezier(.2,.8,.2,1)" },
  );
}

function clearGather(r) {
  gatherTimers.forEach(clearTimeout);
  gatherTimers = [];
  r.el.gather.replaceChildren();
}

/** The finished trick stays a moment, then slides to its winner. */
function gather(r, lastTrick, winner, reduce) {
  clearGather(r);
  const seen = {};
  const wraps = lastTrick.cards.map(({ seat, card }) => {
    const pos = r.posOf(seat);
    seen[pos] = (seen[pos] || 0) + 1;
    const wrap = r.trickCard(card, pos, seen[pos] - 1, seat);
    if (winner === seat) wrap.classList.add("winner");
    return wrap;
  });
  r.el.gather.append(...wraps);
  r.el.gather.dataset.shownAt = String(Date.now());
  const to = FROM[r.posOf(winner)] || [0, 0];
  gatherTimers.push(setTimeout(() => {
    if (reduce) {
      clearGather(r);
      return;
    }
    for (const wrap of wraps) {
      const card = wrap.firstElementChild;
      if (!card.animate) continue;
      card.animate(
        [{ transform: "none", opacity: 1 },
          { transform: `translate(${to[0] * 100}%, ${to[1] * 100}%) scale(0.55)`, opacity: 0 }],
        { duration: GATHER_MS, easing: "cubic-bezier(.5,0,.8,.4)", fill: "forwards" },
      );
    }
    gatherTimers.push(setTimeout(() => clearGather(r), GATHER_MS + 30));
  }, holdMs(reduce)));
}

/** the cut effect, only when a trump or joker overtakes the current winner. */
function cutEffect(wrap) {
  if (!wrap.classList.contains("cut")) {
    wrap.classList.add("cut");
    wrap.append(h("span.cut-label", { "aria-hidden": "true" }, gettext("Cut!")));
  }
  const slash = h("span.cut-slash", { "aria-hidden": "true" });
  wrap.append(slash);
  setTimeout(() => slash.remove(), 700);
}

/** C-8: a card the clock played is said in words, not only marked by a badge. */
function announceClock(r, events) {
  const { app } = r;
  const me = app.liveFrame && app.liveFrame.view.viewer;
  let clockSeat = null;
  for (const event of events) {
    if (event.type === "auto") clockSeat = event.seat;
    else if (event.type === "card_played" && clockSeat === event.seat) {
      const card = cardsText(event.card);
      const text = event.seat === me
        ? fmt(gettext("Time ran out: the clock played %(card)s for you."), { card })
        : fmt(gettext("Time ran out: the clock played %(card)s for %(name)s."), { card, name: isolate(app.name(event.seat)) });
      r.toast(text, "clock", 6000);
      clockSeat = null;
    }
  }
}

export function animateEvents(r, events) {
  const { app } = r;
  const frame = app.liveFrame;
  if (!frame) return;
  const view = frame.view;
  const reduce = prefersReducedMotion();
  const won = events.filter((e) => e.type === "trick_won");
  announceClock(r, events);
  if (won.length && view.last_trick) gather(r, view.last_trick, view.last_trick.winner, reduce);
  for (const event of events) {
    if (event.type === "card_played") {
      finishAceDraw(r);
      const sel = `.tc[data-card="${event.card}"]`;
      const wrap = r.el.trick.querySelector(sel) || r.el.gather.querySelector(sel);
      if (!wrap) continue;
      if (!reduce) slideIn(wrap, r.posOf(event.seat));
      if (event.cut) {
        cutEffect(wrap);
        playSound("cut");
      } else {
        playSound("card");
      }
    } else if (event.type === "drafted") { // H2-6
      animateDraft(r, event);
    } else if (event.type === "hakem") {
      // H4-1 / H2-2: the draw turns card by card, then the hakem is named and marked.
      const name = isolate(app.name(event.seat));
      showAceDraw(r, event, (seat) => {
        markSeat(r, seat);
        r.toast(fmt(gettext("%(name)s is the hakem."), { name }));
      });
    } else if (event.type === "trump_named" && event.suit) {
      const mark = app.root.querySelector("[data-testid=trump]");
      if (mark) mark.classList.add("flash");
      r.toast(fmt(gettext("Trump: %(suit)s"), { suit: SUIT_SYMBOL[event.suit] || event.suit }));
    } else if (event.type === "middle_picked_up") { // H4-X1
      r.toast(fmt(gettext("%(name)s picked up the middle card."), { name: isolate(app.name(event.seat)) }));
    } else if (event.type === "run_led") { // H4-X3
      r.toast(fmt(gettext("%(name)s leads a run: %(cards)s"),
        { name: isolate(app.name(event.seat)), cards: cardsText(event.cards) }));
    } else if (["bid", "passed", "call"].includes(event.type)) {
      const bubble = app.root.querySelector(`.seat[data-seat="${event.seat}"] .bubble`);
      if (bubble) bubble.classList.add("fresh");
    }
  }
}
