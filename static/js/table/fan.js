// The hand, fanned: cards overlap so that each index stays readable, on a
// gentle arc. Positions are physical (left), the same in both languages.

export function layoutFan(container) {
  const cards = [...container.children].filter((el) => el.classList.contains("card"));
  const n = cards.length;
  if (!n) return;
  const width = container.clientWidth;
  const cw = cards[0].offsetWidth || 60;
  const mid = (n - 1) / 2;
  const angle = Math.min(2.2, 20 / n);
  // The outer cards lean out (they turn about a point below the hand): keep them inside.
  const lean = cw * 1.4 * 1.4 * Math.sin((mid * angle * Math.PI) / 180);
  const pad = Math.min(24, 4 + lean);
  const room = Math.max(0, width - cw - 2 * pad);
  const step = n > 1 ? Math.min(cw * 0.64, room / (n - 1)) : 0;
  const total = cw + step * (n - 1);
  const start = Math.max(pad, (width - total) / 2);
  const bend = 0.3 * (cw / 60);
  cards.forEach((el, i) => {
    const d = i - mid;
    el.style.setProperty("--x", `${(start + i * step).toFixed(1)}px`);
    el.style.setProperty("--r", `${(d * angle).toFixed(2)}deg`);
    el.style.setProperty("--y", `${(d * d * bend).toFixed(1)}px`);
    el.style.zIndex = String(i + 1);
  });
}
