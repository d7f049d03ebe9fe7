// H4-1 / H2-2 (and H4-X6): the ace draw shown as it happens. Cards are turned
// face up one at a time around the table, each in front of the seat it went
// to, until the first ace; that seat is then marked. The overlay never takes
// a click (the hakem may already choose his trump) and goes by itself; with
// reduced motion the turned cards simply appear, without the flip.
import { h, prefersReducedMotion } from "./dom.js";

export const STEP_MS = 280;
export const DRAW_MAX_MS = 1000; // a long draw turns faster: a bot hakem names trump soon after
export const REST_MS = 1300;
let timers = [];

function clear(r) {
  timers.forEach(clearTimeout);
  timers = [];
  finish = null;
  r.el.center?.querySelectorAll(".ace-draw").forEach((el) => el.remove());
}

let finish = null;

/** The round's first card is on the table: the draw shows its end (the ace)
 * at once and goes a moment later. */
export function finishAceDraw(r) {
  if (finish) finish();
}

/** Show ``event.draw`` ([{seat, card}], the first ace last) over the felt;
 * ``mark(seat)`` is called when it ends. Returns how long it lasts, in ms. */
export function showAceDraw(r, event, mark) {
  clear(r);
  const draw = event.draw || [];
  const place = r.el.trick && r.el.trick.parentElement; // the trick's own box: the seats' places
  if (!draw.length || !place) return 0;
  const reduce = prefersReducedMotion();
  const step = reduce ? 0 : Math.min(STEP_MS, DRAW_MAX_MS / draw.length);
  const box = h("div.trick.ace-draw", { "data-testid": "ace-draw", "aria-hidden": "true" });
  place.append(box);
  const shown = {};
  const turn = (i) => {
    const { seat, card } = draw[i];
    const pos = r.posOf(seat);
    if (shown[pos]) shown[pos].remove(); // a seat's new card covers its last one
    const wrap = r.trickCard(card, pos, 0, seat, false);
    wrap.dataset.drawIndex = String(i);
    if (card[0] === "A") wrap.classList.add("winner", "drawn-ace");
    box.append(wrap);
    box.dataset.turned = String(i + 1);
    shown[pos] = wrap;
    const face = wrap.firstElementChild;
    if (!reduce && face && face.animate) {
      face.animate([{ transform: "rotateY(90deg) scale(.9)", opacity: 0.4 }, { transform: "none", opacity: 1 }],
        { duration: Math.max(60, Math.min(220, step - 40)), easing: "ease-out" });
    }
  };
  let next = 0;
  const turnNext = () => turn(next++);
  const end = (rest) => {
    timers.forEach(clearTimeout);
    timers = [];
    finish = null;
    while (next < draw.length) turnNext();
    timers.push(setTimeout(() => {
      if (mark) mark(event.seat);
      box.classList.add("done");
      timers.push(setTimeout(() => box.remove(), reduce ? 0 : 250));
    }, rest));
  };
  finish = () => end(400);
  if (step) draw.forEach((_, i) => timers.push(setTimeout(turnNext, i * step)));
  else while (next < draw.length) turnNext();
  const total = draw.length * step + REST_MS;
  timers.push(setTimeout(() => end(REST_MS), draw.length * step));
  return total;
}
