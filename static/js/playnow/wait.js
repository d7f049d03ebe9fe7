// Play now's waiting page (M-1): who is at the table and the countdown to the
// bots, read from the server every second; the table once the match started.
// The party page (M-3) waits the same way for the friend's press.
const FA_DIGITS = "۰۱۲۳۴۵۶۷۸۹";
const persian = document.documentElement.lang === "fa";
const num = (n) => (persian ? String(n).replace(/[0-9]/g, (d) => FA_DIGITS[d]) : String(n));
// A provisional rating (M-2) is marked with the page's question mark.
const MARK = persian ? "؟" : "?";
const fill = (fmt, obj) => fmt.replace(/\{(\w+)\}/g, (_, k) => obj[k]);

const wait = document.querySelector("[data-playnow-wait]");
const party = document.querySelector("[data-playnow-party]");

function seatItem(seat, t) {
  const li = document.createElement("li");
  if (seat.bot) {
    li.className = "bot";
    li.textContent = t.tBot;
  } else if (!seat.name) {
    li.className = "free";
    li.textContent = t.tEmpty;
  } else {
    const name = document.createElement("bdi");
    name.textContent = seat.name;
    const rating = document.createElement("span");
    rating.className = "rating";
    rating.textContent = num(seat.rating) + (seat.provisional ? MARK : "");
    if (seat.provisional) rating.title = t.tProvisional;
    li.append(name, " ", rating);
    if (seat.me) li.append(" · " + t.tYou);
  }
  return li;
}

async function poll() {
  const el = wait || party;
  try {
    const response = await fetch(el.dataset.status, { headers: { Accept: "application/json" } });
    if (response.ok) {
      const data = await response.json();
      if (wait) {
        if (data.started && data.seated) {
          window.location.assign(data.url);
          return;
        }
        const countdown = wait.querySelector("[data-testid=wait-countdown]");
        countdown.textContent = data.started
          ? wait.dataset.tStarting
          : fill(wait.dataset.tLeft, { s: num(Math.ceil(data.seconds_left)) });
        wait.querySelector("[data-testid=wait-seats]").replaceChildren(...data.seats.map((s) => seatItem(s, wait.dataset)));
      } else if (!data.waiting && data.url) {
        window.location.assign(data.url);
        return;
      }
    }
  } catch (err) {
    // the next poll tries again
  }
  window.setTimeout(poll, 1000);
}

if (wait || party) window.setTimeout(poll, 1000);
