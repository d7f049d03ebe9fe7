// Review hands: the public timeline of a finished match, step by step.
// The cards are drawn by the table's own modules (same look, same colours).
import { cardFace, cardText, suitName, SUIT_SYMBOL } from "../table/cards.js";
import { fill, h } from "../table/dom.js";
import { bidText, callText, compassName, contractText, family, sideText, strainText } from "../table/games.js";
import { seatPositions, teamOf } from "../table/geometry.js";
import { fmt, gettext, num, RTL, signed } from "../table/i18n.js";
import { botLevelName, botName } from "../table/names.js";
import { scoreChart } from "./chart.js";

const root = document.getElementById("replay-app");
const $ = (sel) => root.querySelector(sel);

const app = { data: null, index: 0, timer: null, pos: {}, viewer: null };

function seatName(seat) {
  const s = app.data.match.seats.find((p) => p.seat === seat);
  if (!s) return compassOr(seat);
  return s.bot ? botName(seat) : s.name; // a bot: the table's name (issue 34)
}

function compassOr(seat) {
  return app.data.match.game === "bridge" ? compassName(seat) : num(seat);
}

/** The viewer's own side: the table's "us" colour (gold), the other side "them" (blue). */
function usTeam() {
  return teamOf(app.viewer || 1, app.data.match.players);
}

function sideLabel(team) {
  const m = app.data.match;
  if (m.game === "bridge") return sideText(team);
  if (m.players === 2) return seatName(team + 1);
  return teamOf(app.viewer || 1, m.players) === team ? gettext("Us") : gettext("Them");
}

// --- one frame ---------------------------------------------------------------------

function trumpChip(step) {
  const fam = family(app.data.match.game);
  if (fam === "bridge") {
    const c = step.contract;
    return h("div.chip.chip-trump", { "data-testid": "replay-contract" }, h("small", null, gettext("Contract")),
      h("b", null, c ? `${contractText(c)} ${compassName(c.declarer)}` : "—"));
  }
  let value = "—";
  let red = false;
  if (step.sars) value = gettext("Sars (no trump)");
  else if (step.trump) {
    value = SUIT_SYMBOL[step.trump];
    red = step.trump === "H" || step.trump === "D";
  }
  return h("div.chip.chip-trump", null, h("small", null, gettext("Trump")),
    h("b.trump-mark", { class: red ? "red" : "", "data-testid": "replay-trump", "aria-label": step.trump ? suitName(step.trump) : value }, value));
}

/** Each side named beside its own number: no "a : b" whose order flips with the page direction. */
function scoreChip(title, pair, testid) {
  return h("div.chip", { "data-testid": testid }, h("small", null, title),
    [0, 1].map((team) => h("span.rp-side-score", { "data-team": team, "data-tone": team === usTeam() ? "us" : "them" },
      h("small", null, sideLabel(team)), " ", h("b", null, num(pair[team])))));
}

function renderBar(step) {
  const m = app.data.match;
  const fam = family(m.game);
  const rnd = app.data.rounds[step.round];
  const won = fam === "shelem" ? gettext("Points this round") : gettext("Tricks this round");
  const matchTitle = fam === "hokm" ? gettext("Rounds won") : gettext("Match score");
  fill($("[data-bar]"),
    h("div.tbar-main", null, h("div.tbar-items", null,
      h("div.chip.chip-title", { "data-testid": "replay-round" }, h("strong", null,
        fmt(gettext("Round %(n)s of %(total)s"), { n: num(step.round + 1), total: num(app.data.rounds.length) }))),
      trumpChip(step),
      fam === "shelem" && step.bid ? h("div.chip", { "data-testid": "replay-bid" }, h("small", null, gettext("Bid")),
        h("b", null, `${num(step.bid)} · ${seatName(step.bidder)}`)) : null,
      scoreChip(won, step.won, "replay-won"),
      scoreChip(matchTitle, step.match, "replay-score"),
      rnd && rnd.leader && fam === "hokm" ? h("div.chip", null, h("small", null, gettext("Hakem")), h("b", null, seatName(rnd.leader))) : null,
    )));
}

function renderSeats(step) {
  const m = app.data.match;
  for (const [seat, pos] of Object.entries(app.pos)) {
    const n = Number(seat);
    const acting = step.to_act && step.to_act.includes(n);
    const tags = [];
    if (m.game === "bridge") tags.push(h("span.tag.tag-compass", null, compassName(n)));
    const who = m.seats.find((p) => p.seat === n);
    if (who && who.bot && who.level) tags.push(h("span.tag.tag-level", { "data-testid": `bot-level-tag-${n}` }, botLevelName(who.level)));
    const rnd = app.data.rounds[step.round];
    if (rnd && family(m.game) === "hokm" && rnd.leader === n) tags.push(h("span.tag.tag-hakem", null, gettext("Hakem")));
    if (rnd && family(m.game) === "shelem" && step.bidder === n) tags.push(h("span.tag.tag-hakem", null, gettext("Bidder")));
    if (rnd && rnd.contract && step.contract && rnd.contract.declarer === n) tags.push(h("span.tag.tag-hakem", null, gettext("Declarer")));
    const team = teamOf(n, m.players) === teamOf(app.viewer || 1, m.players) ? "team-us" : "team-them";
    const name = seatName(n);
    const last = lastAuction(step, n);
    fill($(`[data-slot="${pos}"]`),
      h("div.seat-body", null,
        last ? h("div.bubble", { class: last.pass ? "pass" : "" }, last.text) : null,
        h("div.seat", { class: `${team}${acting ? " acting" : ""}`, "data-seat": n, role: "group", "aria-label": name },
          h("div.avatar-wrap", null, h("div.avatar", { "aria-hidden": "true" }, name.slice(0, 1).toUpperCase())),
          h("div.seat-name", { title: name }, n === app.viewer && app.data.mine !== false ? fmt(gettext("%(name)s (you)"), { name }) : name),
          tags.length ? h("div.seat-tags", null, tags) : null)));
  }
}

function auctionText(entry) {
  if (entry.call) {
    if (entry.call === "bid") return { text: bidText(entry.level, entry.strain), pass: false };
    return { text: callText(entry.call), pass: entry.call === "P" };
  }
  if (entry.bid === "pass") return { text: gettext("Pass"), pass: true };
  return { text: num(entry.bid), pass: false };
}

function lastAuction(step, seat) {
  const rnd = app.data.rounds[step.round];
  if (!rnd || !rnd.auction.length || (step.trick_no > 0 || step.trick.length)) return null;
  const seen = rnd.auction.slice(0, step.auction).filter((e) => e.seat === seat);
  return seen.length ? auctionText(seen[seen.length - 1]) : null;
}

function renderTrick(step) {
  const trick = $("[data-trick]");
  const counts = {};
  fill(trick, step.trick.map(({ seat, card }) => {
    const pos = app.pos[seat];
    counts[pos] = (counts[pos] || 0) + 1;
    const cls = [`pos-${pos}`];
    if (counts[pos] > 1) cls.push("second");
    if (step.winner === seat) cls.push("winner");
    if (step.kind === "card" && step.seat === seat && step.cut && step.card === card) cls.push("cut");
    return h("div.tc", { class: cls.join(" "), "data-card": card, "data-seat": seat }, cardFace(card));
  }));
  let status = "";
  if (step.winner) status = fmt(gettext("%(name)s takes the trick"), { name: seatName(step.winner) });
  else if (step.kind === "round_end") status = roundResultText(app.data.rounds[step.round]);
  else if (step.kind === "deal") status = gettext("New deal");
  else if (step.kind === "discard") status = fmt(gettext("%(name)s puts %(n)s cards aside"), { name: seatName(step.seat), n: num(step.count) });
  else if (step.kind === "sars") status = step.sars ? gettext("Sars: no trump this round") : gettext("Trump by the first card");
  else if (step.kind === "trump") status = fmt(step.middle ? gettext("Trump %(suit)s, from the partner's middle card") : gettext("Trump: %(suit)s"), { suit: suitName(step.suit) });
  else if (step.kind === "contract") status = step.contract ? fmt(gettext("Contract %(c)s by %(name)s"), { c: contractText(step.contract), name: seatName(step.contract.declarer) }) : "";
  fill($("[data-status]"), status ? h("div.status-line", { "data-testid": "replay-status" }, status) : null);
}

function roundResultText(rnd) {
  const r = rnd.result;
  if (!r) return "";
  if (r.passed_out) return gettext("Passed out: no score, a new deal");
  const fam = family(app.data.match.game);
  if (fam === "hokm") return fmt(gettext("%(side)s: round won (%(points)s)"), { side: sideLabel(r.team), points: num(r.points) });
  if (fam === "shelem") {
    return fmt(gettext("Round score: %(a)s and %(b)s"), { a: signed(r.score[0]), b: signed(r.score[1]) });
  }
  return fmt(gettext("%(c)s: %(n)s tricks for the declarer"), { c: contractText(r.contract), n: num(r.tricks) });
}

function renderTricks(step) {
  const rnd = app.data.rounds[step.round];
  const done = rnd ? rnd.tricks.slice(0, step.trick_no + (step.winner ? 1 : 0)) : [];
  fill($("[data-tricks]"), done.map((t, i) => h("li", { "data-trick-no": i + 1 },
    h("span.rp-no", null, num(i + 1)),
    h("span.rp-cards", { dir: "ltr" }, t.cards.map((c) => h("span.rp-mini", { class: c.card === "RJ" || "HD".includes(c.card[1]) ? "red" : "", "data-card": c.card, title: seatName(c.seat) }, cardText(c.card)))),
    h("span.rp-win", null, t.winner ? fmt(gettext("won by %(name)s"), { name: seatName(t.winner) }) : ""))));
  const auctionBox = $("[data-auction-box]");
  auctionBox.hidden = !rnd || !rnd.auction.length;
  if (rnd) {
    fill($("[data-auction]"), rnd.auction.slice(0, step.auction).map((e) => {
      const t = auctionText(e);
      return h("li", { class: t.pass ? "pass" : "" }, h("span", null, seatName(e.seat)), " ", h("b", { dir: "auto" }, t.text));
    }));
  }
  renderExtra(step, rnd);
}

function renderExtra(step, rnd) {
  const box = $("[data-extra]");
  // B-4 after the deal: every card was played, the four hands may be shown.
  if (!rnd || !rnd.hands || step.kind !== "round_end") {
    box.hidden = true;
    return;
  }
  box.hidden = false;
  const parts = [h("h2", null, gettext("The four hands"))];
  parts.push(h("dl.rp-hands", { dir: "ltr" }, rnd.hands.map((hand, i) => [
    h("dt", null, `${compassName(i + 1)} · ${seatName(i + 1)}`),
    h("dd", null, ["S", "H", "D", "C"].map((s) => h("span", { class: s === "H" || s === "D" ? "red" : "" },
      SUIT_SYMBOL[s], " ", hand.filter((c) => c[1] === s).map((c) => (c[0] === "T" ? "10" : c[0])).join(" ") || "—", "  "))),
  ])));
  if (rnd.double_dummy) {
    const strains = ["C", "D", "H", "S", "NT"];
    parts.push(h("h3", null, gettext("Double-dummy tricks")));
    parts.push(h("table.rp-dd", { dir: "ltr", "data-testid": "double-dummy" },
      h("thead", null, h("tr", null, h("th", null, ""), strains.map((s) => h("th", null, strainText(s))))),
      h("tbody", null, [1, 2, 3, 4].map((seat) => h("tr", null, h("th", null, compassName(seat)),
        strains.map((s) => h("td", null, num(rnd.double_dummy[s][seat - 1]))))))));
  }
  fill(box, parts);
}

function renderControls() {
  const slider = $("[data-slider]");
  slider.value = String(app.index);
  const total = app.data.steps.length;
  fill($("[data-position]"), fmt(gettext("Step %(n)s of %(total)s"), { n: num(app.index + 1), total: num(total) }));
  const step = app.data.steps[app.index];
  $("[data-round-picker]").value = String(step.round);
  const play = $('[data-act="play"]');
  play.textContent = app.timer ? gettext("Pause") : gettext("Play");
  play.setAttribute("aria-pressed", app.timer ? "true" : "false");
  root.dataset.step = String(app.index);
  root.dataset.round = String(step.round);
}

function render() {
  const step = app.data.steps[app.index];
  renderBar(step);
  renderSeats(step);
  renderTrick(step);
  renderTricks(step);
  renderControls();
  const chart = $("[data-chart]");
  scoreChart(chart, app.data, step.round, (team) => sideLabel(team), usTeam());
}

// --- moving ------------------------------------------------------------------------

function go(index) {
  const last = app.data.steps.length - 1;
  app.index = Math.max(0, Math.min(last, index));
  if (app.index === last) stop();
  render();
}

function roundStart(round) {
  return app.data.steps.findIndex((s) => s.round === round);
}

function stop() {
  if (app.timer) clearInterval(app.timer);
  app.timer = null;
}

function play() {
  if (app.timer) {
    stop();
    renderControls();
    return;
  }
  if (app.index >= app.data.steps.length - 1) app.index = 0;
  const delay = Number($("[data-speed]").value) || 800;
  app.timer = setInterval(() => go(app.index + 1), delay);
  renderControls();
}

function restartIfPlaying() {
  if (!app.timer) return;
  stop();
  play();
}

function bind() {
  const slider = $("[data-slider]");
  slider.max = String(app.data.steps.length - 1);
  slider.addEventListener("input", () => go(Number(slider.value)));
  const picker = $("[data-round-picker]");
  fill(picker, app.data.rounds.map((r, i) => h("option", { value: i },
    fmt(gettext("Round %(n)s"), { n: num(i + 1) }))));
  picker.addEventListener("change", () => go(roundStart(Number(picker.value))));
  $("[data-speed]").addEventListener("change", restartIfPlaying);
  const actions = {
    play,
    back: () => go(app.index - 1),
    forward: () => go(app.index + 1),
    "round-back": () => {
      const round = app.data.steps[app.index].round;
      const start = roundStart(round);
      go(app.index > start ? start : roundStart(Math.max(0, round - 1)));
    },
    "round-forward": () => {
      const next = roundStart(app.data.steps[app.index].round + 1);
      go(next < 0 ? app.data.steps.length - 1 : next);
    },
  };
  for (const [act, fn] of Object.entries(actions)) {
    $(`[data-act="${act}"]`).addEventListener("click", fn);
  }
  document.addEventListener("keydown", (ev) => {
    if (ev.target.closest && ev.target.closest("select, input[type=text], textarea")) return;
    if (ev.target === slider) return; // the slider moves itself with the arrows
    // In Persian the page reads right to left: "forward" is the arrow pointing left.
    const forward = RTL ? "ArrowLeft" : "ArrowRight";
    const backward = RTL ? "ArrowRight" : "ArrowLeft";
    let handled = true;
    if (ev.key === forward) actions.forward();
    else if (ev.key === backward) actions.back();
    else if (ev.key === "PageDown") actions["round-forward"]();
    else if (ev.key === "PageUp") actions["round-back"]();
    else if (ev.key === "Home") go(0);
    else if (ev.key === "End") go(app.data.steps.length - 1);
    else if (ev.key === " " && !ev.target.closest("button")) play();
    else handled = false;
    if (handled) ev.preventDefault();
  });
}

async function start() {
  if (root.dataset.fourColour === "true") root.classList.add("four-colour");
  const res = await fetch(root.dataset.url, { credentials: "same-origin", headers: { Accept: "application/json" } });
  const data = await res.json();
  app.data = data;
  if (!data.replayable || !data.steps.length) {
    root.dataset.mode = "missing";
    fill(root, h("p.panel", { "data-testid": "not-replayable" }, gettext("This match cannot be replayed: its record is incomplete.")));
    return;
  }
  app.viewer = data.viewer;
  app.pos = seatPositions(data.match.players, data.viewer, data.match.game === "bridge");
  bind();
  root.dataset.mode = "ready";
  go(0);
}

start();
