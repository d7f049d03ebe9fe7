// DESIGN.md: you at the bottom; play goes counter-clockwise, so the NEXT
// player sits on your RIGHT, your partner at the top, the previous player on
// your LEFT. Bridge alone plays clockwise (next on your left). These are
// physical sides: the same in Persian and English.

/** {seat: "bottom" | "right" | "top" | "left"} seen from `viewer` (or seat 1). */
export function seatPositions(players, viewer, clockwise = false) {
  const me = viewer || 1;
  const out = {};
  if (players === 2) {
    out[me] = "bottom";
    out[me === 1 ? 2 : 1] = "top";
    return out;
  }
  const order = clockwise ? ["bottom", "left", "top", "right"] : ["bottom", "right", "top", "left"];
  for (let i = 0; i < players; i += 1) {
    out[((me - 1 + i) % players) + 1] = order[i];
  }
  return out;
}

/** Seats 1 and 3 are partners against 2 and 4 (C-2); in two-player games each seat is a side. */
export function teamOf(seat, players) {
  return players === 2 ? seat - 1 : (seat - 1) % 2;
}

/** Where a card flies from, in units of the trick box: used by the motion. */
export const FROM = {
  bottom: [0, 1.6],
  top: [0, -1.6],
  left: [-2.2, 0],
  right: [2.2, 0],
};
