// The hand, fanned: cards overlap so that each index stays readable, on a
// gentle arc. Positions are physical (left), the same in both languages.
// When one row would leave a card less than MIN_STRIP px to tap (13–16 cards
// on a phone), the hand takes two straight rows: the first cards behind, the
// rest in front and lower, each card with a strip of at least MIN_STRIP px
// and its whole index ("10" too) in view; no turn, so a tap lands on the
// card it is on.

export const MIN_STRIP = 40;

function place(el, x, r, y, z) {
  el.style.setProperty("--x", `${x.toFixed(1)}px`);
  el.style.setProperty("--r", `${r.toFixed(2)}deg`);
  el.style.setProperty("--y", `${y.toFixed(1)}px`);
  el.style.zIndex = String(z);
}

function rowLayout(cards, width, cw, pad) {
  const n = cards.length;
  const room = Math.max(0, width - cw - 2 * pad);
  const step = n > 1 ? Math.min(cw * 0.78, room / (n - 1)) : 0;
  const total = cw + step * (n - 1);
  return { step, start: Math.max(pad, (width - total) / 2) };
}

export function layoutFan(container) {
  const cards = [...container.children].filter((el) => el.classList.contains("card"));
  const n = cards.length;
  if (!n) {
    container.classList.remove("two-rows");
    return;
  }
  const width = container.clientWidth;
  const cw = cards[0].offsetWidth || 60;
  const ch = cards[0].offsetHeight || cw * 1.4;
  const mid = (n - 1) / 2;
  const angle = Math.min(2.2, 20 / n);
  // The outer cards lean out (they turn about a point below the hand): keep them inside.
  const lean = cw * 1.4 * 1.4 * Math.sin((mid * angle * Math.PI) / 180);
  const pad = Math.min(24, 4 + lean);
  const room = Math.max(0, width - cw - 2 * pad);
  const oneRowStep = n > 1 ? Math.min(cw * 0.64, room / (n - 1)) : 0;
  if (n > 1 && oneRowStep < MIN_STRIP && n >= 9) {
    container.classList.add("two-rows");
    const back = Math.ceil(n / 2);
    const rise = Math.round(ch * 0.56); // the back row shows this much above the front row
    container.style.setProperty("--rise", `${rise}px`);
    const rows = [cards.slice(0, back), cards.slice(back)];
    rows.forEach((row, r) => {
      const { step, start } = rowLayout(row, width, cw, 2);
      row.forEach((el, i) => {
        place(el, start + i * step, 0, r === 0 ? -rise : 0, r * 100 + i + 1);
        el.dataset.row = String(r);
      });
    });
    return;
  }
  container.classList.remove("two-rows");
  const total = cw + oneRowStep * (n - 1);
  const start = Math.max(pad, (width - total) / 2);
  const bend = 0.3 * (cw / 60);
  cards.forEach((el, i) => {
    const d = i - mid;
    place(el, start + i * oneRowStep, d * angle, d * d * bend, i + 1);
    delete el.dataset.row;
  });
}
