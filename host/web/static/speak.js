// The page's Speak switch: what the board wants, said aloud by the browser's speech synthesis.
// The words are the board's voice's own (host/words/spoken.py: its moves written for the ear), which
// page.js puts on the status line as data-spoken.  As on the board, the newest sentence cuts the one being
// said and replaces any not yet begun, so what is heard is never old news.  The switch is remembered.
"use strict";

(() => {
  const STORED = "magboard.speak";
  const status = document.getElementById("status");
  const toggle = document.getElementById("speak");
  const voice = window.speechSynthesis;
  let said = "";

  function say(text) {
    said = text;
    voice.cancel();
    if (text) voice.speak(new SpeechSynthesisUtterance(text));
  }

  if (!voice || typeof SpeechSynthesisUtterance === "undefined") {
    toggle.disabled = true;
    toggle.parentElement.title = "This browser cannot speak";
    return;
  }
  toggle.checked = localStorage.getItem(STORED) === "on";
  toggle.addEventListener("change", () => {
    localStorage.setItem(STORED, toggle.checked ? "on" : "off");
    if (toggle.checked) say(status.dataset.spoken || "");
    else voice.cancel();
  });
  new MutationObserver(() => {
    const text = status.dataset.spoken || "";
    if (toggle.checked && text !== said) say(text);
  }).observe(status, { attributes: true, attributeFilter: ["data-spoken"] });
})();
