// The lobby: switching the game shows that game's table rules.
// ("Join by link" is a plain form: the server reads the pasted link.)
const forms = [...document.querySelectorAll("[data-game-form]")];
const radios = [...document.querySelectorAll("[data-game-switch] input[type=radio]")];

function show(game) {
  for (const form of forms) form.hidden = form.dataset.gameForm !== game;
}

if (forms.length && radios.length) {
  const checked = radios.find((r) => r.checked) || radios[0];
  show(checked.value);
  for (const radio of radios) radio.addEventListener("change", () => show(radio.value));
}
