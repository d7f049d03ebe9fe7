// M-4: each person's rating beside his name at the table and in the room.
// The ratings come from /api/rooms/<code>/ratings/ (read again when the
// seats change, or every 30 s); the table's own drawing is left alone: the
// rating is added under a seat's name whenever the table draws it again.
const FA_DIGITS = "۰۱۲۳۴۵۶۷۸۹";
const persian = document.documentElement.lang === "fa";
const num = (n) => (persian ? String(n).replace(/[0-9]/g, (d) => FA_DIGITS[d]) : String(n));
// A provisional rating (M-2) is marked with the page's question mark.
const MARK = persian ? "؟" : "?";

const app = document.getElementById("table-app");
const marker = document.querySelector("[data-seat-ratings]");
let bySeat = new Map();
let signature = "";

function paint() {
  for (const seatEl of app.querySelectorAll(".seat[data-seat]")) {
    const info = bySeat.get(Number(seatEl.dataset.seat));
    // On the avatar's lower corner: a line of its own under the name made the
    // seats taller and pushed the hand below the fold at 1280x800.
    const nameEl = seatEl.querySelector(".avatar-wrap");
    let tag = seatEl.querySelector(".seat-rating");
    if (!info || !nameEl) {
      if (tag) tag.remove();
      continue;
    }
    const text = num(info.rating) + (info.provisional ? MARK : "");
    if (!tag) {
      tag = document.createElement("span");
      tag.className = "seat-rating";
      tag.dataset.testid = `seat-rating-${seatEl.dataset.seat}`;
      nameEl.append(tag);
    }
    if (tag.textContent !== text) tag.textContent = text;
    const title = info.provisional ? marker.dataset.tProvisional : marker.dataset.tRating;
    if (tag.title !== title) tag.title = title;
  }
}

async function load() {
  try {
    const response = await fetch(marker.dataset.url, { headers: { Accept: "application/json" } });
    if (response.ok) {
      const data = await response.json();
      bySeat = new Map(data.seats.map((s) => [s.seat, s]));
      paint();
    }
  } catch (err) {
    // shown again on the next read
  }
}

function seatsSignature() {
  return [...app.querySelectorAll(".seat[data-seat] .seat-name")].map((n) => n.textContent).join("|");
}

if (app && marker) {
  load();
  window.setInterval(load, 30000);
  new MutationObserver(() => {
    const now = seatsSignature();
    if (now !== signature) {
      signature = now;
      load();
    }
    paint();
  }).observe(app, { childList: true, subtree: true });
}
