// Keyboard-first review: 1-9 answer the current question and move on, Enter saves when every
// question is answered (else names the open questions and goes to the first) and a row failing
// validation is not called correct without its override ticked (a toggles it), n/p next and
// previous item, u undo, c comment, g shows or hides the guidelines, Esc leaves the comment.
(function () {
  "use strict";
  const form = document.getElementById("verdict");
  if (!form) { return; }
  const questions = Array.from(form.querySelectorAll("fieldset.question"));
  const said = document.getElementById("unanswered");
  const override = document.getElementById("override");
  const guidelines = document.getElementById("guidelines");
  let current = 0;
  // The guidelines stay as the annotator last left them (open the first time), page after page.
  if (guidelines) {
    try { if (window.localStorage.getItem("review-guidelines") === "closed") { guidelines.open = false; } }
    catch (e) { /* no storage: always open */ }
    guidelines.addEventListener("toggle", function () {
      try { window.localStorage.setItem("review-guidelines", guidelines.open ? "open" : "closed"); } catch (e) { }
    });
  }

  function answered(q) { return q.querySelector("input[type=radio]:checked") !== null; }
  function mark() {
    questions.forEach(function (q, i) { q.classList.toggle("current", i === current); });
  }
  function firstOpen() {
    const i = questions.findIndex(function (q) { return !answered(q); });
    return i === -1 ? questions.length - 1 : i;
  }
  current = firstOpen();
  mark();
  questions.forEach(function (q, i) {
    q.addEventListener("change", function () { settle(q); current = i; advance(); });
  });
  // An answered question is no longer flagged; the message goes once none is open.
  function settle(q) {
    q.classList.remove("unanswered"); q.removeAttribute("aria-invalid");
    if (said && !said.hidden && questions.every(answered) && !unconfirmed()) { said.hidden = true; said.textContent = ""; }
  }
  // Saving with a question open saves nothing and says which (the server refuses it too).
  function refuse() {
    const open = questions.filter(function (q) { return !answered(q); });
    open.forEach(function (q) { q.classList.add("unanswered"); q.setAttribute("aria-invalid", "true"); });
    const named = open.map(function (q) { return q.dataset.n + ". " + q.dataset.text; });
    if (said) {
      said.textContent = "Not saved: answer question" + (open.length > 1 ? "s " : " ") + named.join("; ");
      said.hidden = false;
    }
    current = firstOpen(); mark();
  }
  // A row the validator refuses, called correct, needs the override (the server refuses it too).
  function unconfirmed() {
    if (!override || override.checked) { return false; }
    return questions.every(function (q) {
      const chosen = q.querySelector("input[type=radio]:checked");
      return chosen !== null && chosen.dataset.ok === "yes";
    });
  }
  function refuseOverride() {
    const label = document.getElementById("override-label");
    if (label) { label.classList.add("unanswered"); }
    override.setAttribute("aria-invalid", "true");
    if (said) {
      said.textContent = "Not saved: this row fails validation; to mark it correct anyway, tick " +
        "\u201capprove despite the validation error\u201d (a)";
      said.hidden = false;
    }
  }
  if (override) {
    override.addEventListener("change", function () {
      const label = document.getElementById("override-label");
      if (override.checked && label) { label.classList.remove("unanswered"); override.removeAttribute("aria-invalid"); }
      if (override.checked && said && questions.every(answered)) { said.hidden = true; said.textContent = ""; }
    });
  }
  function trySave() {
    if (!questions.every(answered)) { refuse(); return false; }
    if (unconfirmed()) { refuseOverride(); return false; }
    return true;
  }
  form.addEventListener("submit", function (event) {
    if (!trySave()) { event.preventDefault(); }
  });
  function advance() {
    const open = questions.findIndex(function (q, i) { return i > current && !answered(q); });
    current = open === -1 ? firstOpen() : open;
    mark();
  }
  function typing(target) {
    return target && (target.tagName === "TEXTAREA" || (target.tagName === "INPUT" && target.type === "text") ||
      target.tagName === "SELECT");
  }
  document.addEventListener("keydown", function (event) {
    if (event.ctrlKey || event.metaKey || event.altKey) { return; }
    if (typing(event.target)) {
      if (event.key === "Escape") { event.target.blur(); event.preventDefault(); }
      return;
    }
    const key = event.key;
    if (/^[1-9]$/.test(key)) {
      const option = questions[current] && questions[current].querySelector('input[data-key="' + key + '"]');
      if (option) { option.checked = true; settle(questions[current]); advance(); event.preventDefault(); }
    } else if (key === "Enter") {
      if (trySave()) { form.submit(); }
      event.preventDefault();
    } else if (key === "a" && override) {
      override.checked = !override.checked; override.dispatchEvent(new Event("change"));
    } else if (key === "g" && guidelines) {
      guidelines.open = !guidelines.open;
    } else if (key === "n" || key === "ArrowRight") {
      const next = document.getElementById("next"); if (next) { window.location.href = next.href; }
    } else if (key === "p" || key === "ArrowLeft") {
      const prev = document.getElementById("prev"); if (prev) { window.location.href = prev.href; }
    } else if (key === "u") {
      const undo = document.getElementById("undo"); if (undo) { undo.submit(); }
    } else if (key === "c") {
      document.getElementById("comment").focus(); event.preventDefault();
    } else if (key === "ArrowDown") {
      current = Math.min(current + 1, questions.length - 1); mark(); event.preventDefault();
    } else if (key === "ArrowUp") {
      current = Math.max(current - 1, 0); mark(); event.preventDefault();
    }
  });
})();
