// "Table rules" opens the game's rules, with this room's own rules marked, in a panel
// over the table. The page (and its socket, clock and bots) keeps running underneath; the
// button at the top closes the panel and the same table is there again.
const app = document.querySelector("#table-app");
const panel = document.querySelector("[data-rules-panel]");
const link = document.querySelector("[data-testid=rules-link]");

if (app && panel && link) {
  const frame = panel.querySelector("[data-rules-frame]");
  const close = panel.querySelector("[data-rules-close]");
  const src = `${link.pathname}?room=${encodeURIComponent(app.dataset.code)}&embed=1`;

  const open = (event) => {
    event.preventDefault();
    if (frame.getAttribute("src") !== src) frame.setAttribute("src", src);
    if (typeof panel.showModal === "function") panel.showModal();
    else panel.setAttribute("open", "");
    document.body.classList.add("rules-open");
    close.focus();
  };
  const shut = () => {
    if (panel.open && typeof panel.close === "function") panel.close();
    else panel.removeAttribute("open");
  };
  link.addEventListener("click", open);
  close.addEventListener("click", shut);
  panel.addEventListener("close", () => {
    document.body.classList.remove("rules-open");
    link.focus();
  });
  // A click on the backdrop (outside the sheet) also returns to the table.
  panel.addEventListener("click", (event) => {
    if (event.target === panel) shut();
  });
}
