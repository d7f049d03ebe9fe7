// The score sheet (issue 15): one row per round of the match, open beside the
// table at any time. Built from what the page receives: each state frame's
// view holds the last round's result (Hokm and Bridge `last_result`, Shelem
// `score.last_result`); the rows are kept for the match in this tab's
// session storage, so a reload keeps them. Rounds played before this page
// first saw the match are not known to it (the sheet says so).
import { fill, h } from "./dom.js";
import { gettext, num, score, signed } from "./i18n.js";
import { family } from "./games.js";
import { dealWords, rubberSheetEl } from "./rubber.js";

const KEY = "takhteh.sheet.";

function load(match) {
  try {
    const rows = JSON.parse(window.sessionStorage.getItem(KEY + match) || "[]");
    return new Map(rows.map((row) => [row.round, row]));
  } catch (err) {
    return new Map();
  }
}

function save(match, rows) {
  try {
    window.sessionStorage.setItem(KEY + match, JSON.stringify([...rows.values()]));
  } catch (err) {
    /* storage full or off: the rows stay in this page */
  }
}

export class ScoreSheet {
  constructor(r, el) {
    this.r = r;
    this.el = el;
    this.match = null;
    this.rows = new Map();
    this.open = false;
    this.key = null;
  }

  /** Take the last round's result of this frame into the sheet. */
  note(frame) {
    if (!frame || !frame.view) return;
    if (frame.match !== this.match) {
      this.match = frame.match;
      this.rows = load(frame.match);
    }
    const view = frame.view;
    const fam = family(view.game);
    // A frame that carries the whole match's rounds (`rounds`, when the server sends it) fills the sheet at once.
    if (Array.isArray(frame.rounds)) {
      for (const row of frame.rounds) if (row && row.round && !this.rows.has(row.round)) this.rows.set(row.round, { ...row, after: row.after || row.totals || row.score });
    }
    const res = fam === "shelem" ? view.score && view.score.last_result : view.last_result;
    const primed = this.primed;
    this.primed = true;
    if (!primed && res && res.round) this.seenOnLoad = res.round;
    if (!res || !res.round || this.rows.has(res.round)) return;
    const row = { ...res };
    if (fam === "hokm") row.after = res.score ? [...res.score] : [...view.score.rounds];
    if (fam === "bridge") row.after = [...view.score.totals];
    // Bridge: the sheet opens by itself after every deal (issue 16), not for a deal played before this page.
    if (fam === "bridge" && primed) this.open = true;
    this.rows.set(res.round, row);
    save(frame.match, this.rows);
  }

  toggle(open = !this.open) {
    this.open = open;
    this.key = null;
    this.render();
  }

  render() {
    const { el } = this;
    el.hidden = !this.open;
    const frame = this.r.app.liveFrame || this.r.app.frame;
    const rubber = frame && frame.view && family(frame.view.game) === "bridge" ? frame.view.score : null;
    const key = JSON.stringify([this.open, this.match, [...this.rows.keys()], this.r.app.viewer, this.r.app.room && this.r.app.room.seats, rubber]);
    if (!this.open || key === this.key) return;
    this.key = key;
    const close = h("button.tool.sheet-close", { type: "button", "data-testid": "sheet-close",
      onclick: () => this.toggle(false) }, gettext("Close"));
    const head = h("div.sheet-head", null, h("h2", { id: "sheet-title" }, gettext("Score sheet")), close);
    if (!frame || !frame.view) {
      fill(el, head, h("p.muted", null, gettext("No round has been played yet.")));
      return;
    }
    const rows = [...this.rows.values()].sort((a, b) => a.round - b.round);
    const parts = [head];
    // Bridge: the rubber as it stands, on paper (B-5..B-10), above the list of deals.
    if (rubber) parts.push(rubberSheetEl(rubber, this.r.sides(), !this.r.app.liveFrame || !frame.view.viewer));
    if (!rows.length && !rubber) parts.push(h("p.muted", { "data-testid": "sheet-empty" }, gettext("No round has been played yet.")));
    else if (rows.length) {
      if (rows[0].round > 1) parts.push(h("p.muted.small", null, gettext("Rounds played before you opened this table are not listed.")));
      parts.push(this.table(frame.view, rows));
    }
    fill(el, parts);
  }

  table(view, rows) {
    const { r } = this;
    const { app } = r;
    const fam = family(view.game);
    const sides = r.sides();
    const us = sides[0];
    const them = sides[1];
    const sideCells = (values, fmtValue = score) => [
      h("td.us", { dir: "ltr" }, fmtValue(values[us.team])), h("td.them", { dir: "ltr" }, fmtValue(values[them.team]))];
    // Two header rows: the group ("Tricks") over its two sides ("Us", "Them"): narrow enough for a phone.
    const sub = [];
    const sideHeads = (label) => {
      sub.push(h("th.us", { scope: "col" }, us.label), h("th.them", { scope: "col" }, them.label));
      return [h("th.group", { scope: "colgroup", colspan: 2 }, label)];
    };
    const single = (label) => {
      sub.push(h("th", { "aria-hidden": "true" }, ""));
      return h("th", { scope: "col" }, label);
    };
    let head;
    let body;
    if (fam === "hokm") {
      head = [single("#"), single(gettext("Hakem")), single(gettext("Won by")), ...sideHeads(gettext("Tricks")),
        single(gettext("Kot")), ...sideHeads(gettext("Rounds"))];
      body = rows.map((row) => h("tr", { "data-round": row.round },
        h("th", { scope: "row" }, num(row.round)), h("td", null, app.name(row.hakem)),
        h("td", null, row.winner === us.team ? us.label : them.label),
        ...sideCells(row.tricks, num),
        h("td.kot", { class: row.kot ? "yes" : "" }, row.kot === "hakem_kot" ? gettext("Hakem kot") : row.kot ? gettext("Kot") : "—"),
        ...sideCells(row.after || [0, 0], num)));
    } else if (fam === "shelem") {
      head = [single("#"), single(gettext("Bidder")), single(gettext("Bid")), single(gettext("Taken")),
        ...sideHeads(gettext("Score")), ...sideHeads(gettext("Total"))];
      body = rows.map((row) => h("tr", { "data-round": row.round },
        h("th", { scope: "row" }, num(row.round)), h("td", null, app.name(row.bidder)), h("td", { dir: "ltr" }, num(row.bid)),
        h("td", { dir: "ltr" }, num(row.points[app.team(row.bidder)])),
        ...sideCells(row.score, signed), ...sideCells(row.totals)));
    } else {
      head = [single("#"), single(gettext("Result")), single(gettext("Tricks")), ...sideHeads(gettext("Total"))];
      body = rows.map((row) => h("tr", { "data-round": row.round },
        h("th", { scope: "row" }, num(row.round)),
        h("td.deal-words", { "data-testid": "deal-words" }, row.passed_out ? gettext("Passed out") : dealWords(row)),
        h("td", { dir: "ltr" }, row.passed_out ? "—" : num(row.tricks)),
        ...sideCells(row.after || [0, 0])));
    }
    return h("div.sheet-scroll", null, h("table.sheet-table", { "data-testid": "sheet-table" },
      h("thead", null, h("tr", null, head), h("tr.sub", null, sub)), h("tbody", null, body)));
  }
}
