// The daily challenge's proof (E-1): after the close, the browser checks the
// seed against the fingerprint published before the day, then derives every
// deal with the fair deal's own module (deal-v1, static/js/fairdeal.js).
import { DECK52, commitment, order } from "../js/fairdeal.js";

const gettext = window.gettext || ((s) => s);

async function run(root, data) {
  const out = root.querySelector("[data-verify-result]");
  const list = root.querySelector("[data-decks]");
  list.replaceChildren();
  const print = await commitment(data.seed);
  if (print !== data.fingerprint) {
    out.textContent = gettext("The seed does not match the published fingerprint.");
    out.dataset.ok = "false";
    return;
  }
  for (let n = 1; n <= data.deals; n += 1) {
    const li = document.createElement("li");
    li.dataset.deal = String(n);
    const deck = await order(data.cards, data.seed, [data.seed], { purpose: "deal", table: data.table, round: n });
    let text = `${n}: ${deck.join(" ")}`;
    if (data.draw) {
      const draw = await order(DECK52, data.seed, [data.seed], { purpose: "draw", table: data.table, round: n });
      text += ` | draw ${draw.slice(0, 8).join(" ")}…`;
    }
    if (data.boards) text += ` | ${data.boards[n - 1].dealer} ${data.boards[n - 1].vulnerable}`;
    li.textContent = text;
    list.append(li);
  }
  out.textContent = gettext("The seed matches its fingerprint; these are the day's deals.");
  out.dataset.ok = "true";
}

const root = document.getElementById("proof");
const script = document.getElementById("challenge-public");
const button = root && root.querySelector("[data-verify]");
if (button && script) {
  const data = JSON.parse(script.textContent);
  button.addEventListener("click", () => {
    run(root, data).catch((err) => {
      root.querySelector("[data-verify-result]").textContent = String(err.message || err);
    });
  });
}
