// The "review hands" link for other pages, the table's result panel among them.
import { h } from "../table/dom.js";
import { gettext } from "../table/i18n.js";

/** A link to /replays/<match>/ for a seated player of a finished or abandoned match. */
export function reviewLink(matchId) {
  return h("a.btn.btn-ghost", { href: `/replays/${matchId}/`, "data-testid": "review-hands" }, gettext("Review hands"));
}
