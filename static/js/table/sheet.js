// The score sheet (issue 15): one row per round of the match, open beside the
// table at any time. A full state frame (on connect, after a reload or a
// sync) carries every finished round of the match (`rounds`, read from the
// database: docs/protocol.md), so a late joiner, a returning player and a
// spectator see the whole sheet; each live frame's view holds the last
// round's result (Hokm and Bridge `last_result`, Shelem `score.last_result`),
// in the same shape, from which the rounds seen ending here are added.
import { fill, h } from "./dom.js";
import { gettext, num, score, signed } from "./i18n.js";
import { family } from "./games.js";
import { dealWords, rubberSheetEl } from "./rubber.js";

/** A round's standing after it, as the sheet's last columns show it. */
function after(fam, row, view) {
  if (fam === "hokm") return row.score ? [...row.score] : [...view.score.rounds];
  if (fam === "bridge") return row.totals ? [...row.totals] : [...view.score.totals];
  return row.totals;
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

  /** Take this frame's rounds into the sheet: all of them from a full frame, else the last one. */
  note(frame) {
    if (!frame || !frame.view) return;
    const view = frame.view;
    const fam = family(view.game);
    if (frame.match !== this.match) {
      this.match = frame.match;
      this.rows = new Map();
      this.primed = false;
    }
    // A full frame brings the match's rounds as the database has them: the sheet is those.
    if (Array.isArray(frame.rounds)) {
      this.rows = new Map(frame.rounds.filter((row) => row && row.round)
        .map((row) => [row.round, { ...row, after: after(fam, row, view) }]));
    }
    const res = fam === "shelem" ? view.score && view.score.last_result : view.last_result;
    const primed = this.primed;
    this.primed = true;
    if (!res || !res.round || this.rows.has(res.round)) return;
    // Bridge: the sheet opens by itself only when the rubber is over (issue 34; after every deal
    // it hid West and dummy), not for a rubber ended before this page; on demand at any time.
    const rubberOver = view.score && view.score.winner !== null && view.score.winner !== undefined;
    if (fam === "bridge" && primed && rubberOver) this.open = true;
    this.rows.set(res.round, { ...res, after: after(fam, res, view) });
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
