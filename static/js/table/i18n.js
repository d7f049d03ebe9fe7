// Django's JavaScript catalog (/jsi18n/, loaded before the modules) provides
// gettext, ngettext, pgettext and interpolate; without it the English text stands.
const gettext = window.gettext || ((s) => s);
const ngettext = window.ngettext || ((singular, plural, n) => (n === 1 ? singular : plural));
const pgettext = window.pgettext || ((context, s) => s);
const interpolateFn = window.interpolate || ((fmt, obj) => fmt.replace(/%\((\w+)\)s/g, (_, k) => obj[k]));

export const LANG = (document.documentElement.lang || "fa").toLowerCase();
export const RTL = document.documentElement.dir === "rtl";
const FA_DIGITS = "۰۱۲۳۴۵۶۷۸۹";

/** A number with Persian digits in Persian (DESIGN.md), a true minus sign. */
export function num(value) {
  let text = String(value);
  if (LANG.startsWith("fa")) text = text.replace(/[0-9]/g, (d) => FA_DIGITS[d]);
  return text.replace(/-/g, "−");
}

/**
 * A score: −120 / 45, isolated left-to-right so that the minus sign stays on the
 * left of the digits in Persian too (the one helper for every score on the table).
 */
export function score(value) {
  return `\u2066${num(value)}\u2069`;
}

/** +50 / −120 / 0: a score change, isolated like score(). */
export function signed(value) {
  const text = value > 0 ? `+${num(value)}` : num(value);
  return `\u2066${text}\u2069`;
}

/** Text of mixed scripts (a Latin name in a Persian sentence) kept in its own order. */
export function isolate(text) {
  return `\u2068${text}\u2069`;
}

/**
 * interpolate(gettext("..."), {name: ...}, true). For a count, pass
 * ngettext("%(n)s card", "%(n)s cards", n) as the text and num(n) as the value.
 */
export function fmt(text, values) {
  return interpolateFn(text, values, true);
}

/** Names joined the page's way: "a, b and c" / «a، b و c». */
export function listText(items) {
  const list = items.map(String);
  if (typeof Intl !== "undefined" && Intl.ListFormat) {
    try {
      return new Intl.ListFormat(LANG, { style: "long", type: "conjunction" }).format(list);
    } catch (err) {
      // an unknown language tag: fall through to the plain join
    }
  }
  return list.join(LANG.startsWith("fa") ? "، " : ", ");
}

export { gettext, ngettext, pgettext };
