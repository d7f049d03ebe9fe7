// H2-6: the draft's motion. On take, the shown card flies into the hand and
// the pair's second card leaves face down to the side; on refuse, the shown
// card leaves to the side and the second card turns and flies into the hand.
// The other player's draft shows only a card back leaving his seat to the
// side: never which card. Nothing with prefers-reduced-motion.
import { cardBack, cardFace } from "./cards.js";
import { prefersReducedMotion } from "./dom.js";

const FLY_MS = 320;
const AWAY_MS = 380;

/** Called as a draft button is pressed: what the panel showed, and where. */
export function noteDraft(app, take) {
  const view = app.liveFrame && app.liveFrame.view;
  const shown = app.root.querySelector("[data-testid=draft-panel] .card");
  app.lastDraft = view && shown ? {
    take, card: view.draft_card, hand: [...(view.hand || [])], rect: shown.getBoundingClientRect(),
  } : null;
}

function ghost(el, rect) {
  Object.assign(el.style, {
    position: "fixed", left: `${rect.left}px`, top: `${rect.top}px`, width: `${rect.width}px`,
    height: `${rect.height}px`, margin: "0", zIndex: "40", pointerEvents: "none",
  });
  el.classList.add("draft-ghost");
  el.setAttribute("aria-hidden", "true");
  document.body.append(el);
  return el;
}

/** A card (a back, or a face turning to its back) leaving ``rect`` to the table's side. */
function leaveToSide(rect, face, side, testid = "draft-away") {
  const el = ghost(face ? cardFace(face) : cardBack(), rect);
  el.dataset.testid = testid;
  const dx = side * Math.max(120, rect.width * 2.2);
  const anim = el.animate(
    [{ transform: "none", opacity: 1 }, { transform: `translate(${dx}px, ${rect.height * 0.15}px) rotate(${side * 18}deg) scale(.7)`, opacity: 0 }],
    { duration: AWAY_MS, easing: "cubic-bezier(.4,0,.8,.5)", fill: "forwards" },
  );
  anim.finished.catch(() => null).then(() => el.remove());
}

/** The hand's card ``card`` comes from ``rect`` to its place (and turns, when ``turn``). */
function flyIntoHand(root, card, rect, turn) {
  const target = root.querySelector(`[data-testid=hand] [data-card="${card}"]`);
  if (!target || !target.animate) return;
  const to = target.getBoundingClientRect();
  const dx = rect.left - to.left;
  const dy = rect.top - to.top;
  const from = turn ? `translate(${dx}px, ${dy}px) rotateY(180deg)` : `translate(${dx}px, ${dy}px)`;
  target.dataset.flying = "1";
  const anim = target.animate([{ transform: from }, { transform: "none" }],
    { duration: FLY_MS, easing: "cubic-bezier(.2,.8,.2,1)" });
  anim.finished.catch(() => null).then(() => delete target.dataset.flying);
}

/** The ``drafted`` event of a version (``{seat, count}``). */
export function animateDraft(r, event) {
  const { app } = r;
  if (prefersReducedMotion()) return;
  const view = app.liveFrame && app.liveFrame.view;
  const side = document.documentElement.dir === "rtl" ? -1 : 1;
  if (view && event.seat === view.viewer) {
    const mine = app.lastDraft;
    app.lastDraft = null;
    if (!mine || !mine.card) return;
    if (mine.take) {
      leaveToSide(mine.rect, null, side); // the second card, face down: never seen
      flyIntoHand(app.root, mine.card, mine.rect, false);
    } else {
      leaveToSide(mine.rect, mine.card, side); // the refused first card goes aside
      const before = new Set(mine.hand);
      const second = (view.hand || []).find((c) => !before.has(c));
      if (second) flyIntoHand(app.root, second, mine.rect, true);
    }
    return;
  }
  // The other player: a card back leaves his seat to the side, nothing more (H2-6).
  const slot = r.slots[r.posOf(event.seat)];
  const avatar = slot && slot.slot && slot.slot.querySelector(".avatar");
  if (avatar) leaveToSide(avatar.getBoundingClientRect(), null, -side, "draft-away-other");
}
