// The school's tiny table: draws the lesson's scenes and sends the learner's answers
// to the server, where the real engine decides. No rule of the game lives here.
import { cardBack, cardFace, SUIT_SYMBOL } from "../table/cards.js";
import { fill, h } from "../table/dom.js";
import { fmt, num } from "../table/i18n.js";
import { markDone } from "./progress.js";

const root = document.querySelector("[data-school]");
const scenes = JSON.parse(document.getElementById("lesson-scenes").textContent);
const T = JSON.parse(document.getElementById("school-strings").textContent);
const q = (sel) => root.querySelector(sel);
const el = {
  bar: q("[data-bar]"),
  felt: q("[data-felt]"),
  center: q("[data-center]"),
  hand: q("[data-hand]"),
  prompt: q("[data-prompt]"),
  answers: q("[data-answers]"),
  feedback: q("[data-feedback]"),
  next: q("[data-next]"),
  nextLesson: q("[data-next-lesson]"),
  doneNote: q("[data-done-note]"),
  stepCount: q("[data-step-count]"),
};
// The four seat boxes, fixed once: a bare [data-seat] query inside the felt would also match the
// trick's tiles (.ltc[data-seat]) in the centre, which come before the right and bottom seats.
const seatBox = Object.fromEntries([1, 2, 3, 4].map((s) => [s, el.felt.querySelector(`:scope > .lseat[data-seat="${s}"]`)]));
const SEAT_NAME = { 1: T.you, 2: T.right, 3: T.partner, 4: T.left };
const POS = { 1: "bottom", 2: "right", 3: "top", 4: "left" };
const number = Number(root.dataset.number);
let step = 0;
let busy = false;
let solved = false;

function csrf() {
  const input = root.querySelector("input[name=csrfmiddlewaretoken]");
  return input ? input.value : "";
}

function bar(scene) {
  const items = [];
  if (scene.trump) items.push([T.trump, `${SUIT_SYMBOL[scene.trump]} ${T[`suit_${scene.trump}`]}`, scene.trump]);
  if (scene.tricks && (scene.tricks[0] || scene.tricks[1] || scene.trump)) {
    items.push([T.tricks, `${num(scene.tricks[0])} : ${num(scene.tricks[1])}`]);
  }
  if (scene.rounds) items.push([T.rounds, `${num(scene.rounds[0])} : ${num(scene.rounds[1])}`]);
  if (scene.target) items.push([T.target, num(scene.target)]);
  if (scene.kot) items.push([T.kot, "✓"]);
  for (const name of scene.rules_on || []) items.push([T.rules_on, name]);
  fill(el.bar, items.map(([label, value, suit]) =>
    h("span.lchip", { class: suit ? `suit-${suit} ${"HD".includes(suit) ? "red" : ""}` : "" },
      h("small", null, label), " ", h("b", null, value))));
  el.bar.hidden = !items.length;
}

function seats(scene) {
  for (const seat of [1, 2, 3, 4]) {
    const box = seatBox[seat];
    const pickable = scene.kind === "seat" && !solved;
    const tag = pickable ? "button.lavatar.pick" : "div.lavatar";
    const avatar = h(tag, {
      type: pickable ? "button" : null,
      "data-testid": `seat-${seat}`,
      "data-answer": pickable ? String(seat) : null,
      onclick: pickable ? () => answer(seat) : null,
    }, h("span.aname", null, SEAT_NAME[seat]),
    scene.hakem === seat ? h("span.hakem-mark", { title: T.hakem }, T.hakem) : null);
    const extra = [];
    if (scene.draw) {
      const turned = scene.draw.filter((x) => x.seat === seat).map((x) => cardFace(x.card, { cls: "mini-face" }));
      if (turned.length) extra.push(h("div.drawn", { "data-testid": `drawn-${seat}` }, turned));
    } else if (seat !== 1 && scene.counts && scene.counts[seat - 1]) {
      extra.push(h("div.backs", null, Array.from({ length: Math.min(scene.counts[seat - 1], 5) }, () => cardBack("mini-back"))));
    }
    fill(box, avatar, extra);
    box.classList.toggle("partner", seat === 3);
  }
}

function center(scene) {
  const parts = [];
  if (scene.middle) {
    parts.push(h("div.lmiddle", null, h("small", null, T.middle), cardFace(scene.middle, { cls: "middle" })));
  }
  if (scene.cards) {
    parts.push(h("div.card-row", { "data-testid": "card-row" }, scene.cards.map((c) => pickCard(c, scene.kind === "cards"))));
  }
  const trickPick = scene.kind === "cards" && !scene.cards;
  if (scene.trick && scene.trick.length) {
    parts.push(h("div.ltrick", { "data-testid": "lesson-trick" }, scene.trick.map((t) =>
      h(`div.ltc.pos-${POS[t.seat]}`, { "data-seat": t.seat }, pickCard(t.card, trickPick)))));
  }
  fill(el.center, parts);
}

function pickCard(card, pickable) {
  if (!pickable || solved) return cardFace(card);
  return cardFace(card, { button: true, cls: "pickable" });
}

function hand(scene) {
  const pickable = scene.kind === "hand" && !solved;
  fill(el.hand, (scene.hand || []).map((c) => pickCard(c, pickable)));
  el.hand.hidden = !(scene.hand && scene.hand.length);
}

function answers(scene) {
  const parts = [];
  if (scene.kind === "suit") {
    for (const s of ["S", "H", "D", "C"]) {
      parts.push(h("button.btn.btn-ghost.lsuit-btn", {
        type: "button", class: "HD".includes(s) ? "red" : "", "data-testid": `suit-${s}`, "data-answer": s,
        disabled: solved, onclick: () => answer(s),
      }, h("span.sym", { "aria-hidden": "true" }, SUIT_SYMBOL[s]), " ", T[`suit_${s}`]));
    }
  } else if (scene.kind === "choice") {
    scene.choices.forEach(([value, label], i) => {
      parts.push(h("button.btn.btn-ghost.choice-btn", {
        type: "button", "data-testid": `choice-${i}`, "data-answer": JSON.stringify(value),
        disabled: solved, onclick: () => answer(value),
      }, label));
    });
  }
  fill(el.answers, parts);
  el.answers.hidden = !parts.length;
}

function draw() {
  const scene = scenes[step];
  el.stepCount.textContent = scenes.length > 1 ? fmt(T.step, { n: num(step + 1), total: num(scenes.length) }) : "";
  el.prompt.textContent = scene.prompt;
  bar(scene);
  seats(scene);
  center(scene);
  hand(scene);
  answers(scene);
  // Clicks on cards: one listener, the card's own code is the answer.
  for (const card of root.querySelectorAll("button.card[data-card]")) {
    card.addEventListener("click", () => answer(card.dataset.card));
  }
}

function show(verdict) {
  el.feedback.hidden = false;
  el.feedback.className = `feedback ${verdict.ok ? "ok" : "wrong"}`;
  el.feedback.dataset.code = verdict.code;
  el.feedback.dataset.rule = verdict.rule;
  fill(el.feedback,
    h("b", null, verdict.ok ? T.right_answer : T.wrong_answer), " ",
    h("span", { "data-testid": "feedback-text" }, verdict.message), " ",
    h("small.rule-id", { dir: "ltr" }, `(${verdict.rule})`));
  // On a phone the verdict lies below the table and the hand: bring it into view.
  if (typeof el.feedback.scrollIntoView === "function") el.feedback.scrollIntoView({ block: "nearest" });
}

function hint(reveal) {
  // After a mistake the engine's legal cards glow, so the learner sees where to look (C-6).
  if (reveal.legal) {
    for (const card of el.hand.querySelectorAll("button.card")) {
      card.classList.toggle("hint", reveal.legal.includes(card.dataset.card));
    }
  }
}

function afterRight(verdict) {
  const scene = scenes[step];
  const reveal = verdict.reveal || {};
  solved = true;
  if (reveal.played && scene.kind === "hand") {
    scene.hand = scene.hand.filter((c) => c !== reveal.played);
    scene.trick = [...(scene.trick || []), { seat: 1, card: reveal.played }];
    if (scene.rules_on) scene.trick[scene.trick.length - 1].back = true;
  }
  if (reveal.run) {
    // Leading a run (H4-X3): the cards leave the hand together, face up; the first is led.
    scene.hand = scene.hand.filter((c) => !reveal.run.includes(c));
    scene.cards = reveal.run;
  }
  if (reveal.hand) scene.hand = reveal.hand;
  if (reveal.trump) scene.trump = reveal.trump;
  draw();
  if (reveal.played && scene.rules_on) {
    // Early play (H4-X2): the card lies face down until the turn comes.
    const laid = el.center.querySelector('.ltc[data-seat="1"]');
    if (laid) fill(laid, cardBack());
  }
  const winner = reveal.winner;
  if (winner) {
    const won = el.center.querySelector(`.ltc[data-seat="${winner}"]`);
    if (won) won.classList.add("winner");
  }
  if (step + 1 < scenes.length) {
    el.next.hidden = false;
    el.next.focus();
  } else {
    markDone(number);
    el.doneNote.hidden = false;
    el.nextLesson.hidden = false;
    el.nextLesson.focus();
  }
}

async function answer(value) {
  if (busy || solved) return;
  busy = true;
  try {
    const response = await fetch(root.dataset.checkUrl, {
      method: "POST",
      headers: { "Content-Type": "application/json", "X-CSRFToken": csrf() },
      body: JSON.stringify({ step, answer: value }),
      credentials: "same-origin",
    });
    if (!response.ok) throw new Error(String(response.status));
    const verdict = await response.json();
    show(verdict);
    if (verdict.ok) afterRight(verdict);
    else hint(verdict.reveal || {});
  } catch (err) {
    show({ ok: false, code: "error", rule: "—", message: T.error });
  } finally {
    busy = false;
  }
}

el.next.addEventListener("click", () => {
  step += 1;
  solved = false;
  el.next.hidden = true;
  el.feedback.hidden = true;
  draw();
  el.prompt.focus?.();
});

draw();
