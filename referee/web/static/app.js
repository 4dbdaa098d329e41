// Small touches on top of server-rendered pages; everything works without this file.
// On the round page a tile tapped for one player is greyed out on every other keypad,
// because one physical tile cannot be in two hands. The server checks this again.
(function () {
  "use strict";
  document.documentElement.classList.add("js");

  function syncKeypads(form) {
    var owner = {};
    form.querySelectorAll(".keypad input:checked").forEach(function (box) {
      owner[box.value] = box.name;
    });
    form.querySelectorAll(".keypad input[type=checkbox]").forEach(function (box) {
      if (box.hasAttribute("data-round-double")) { return; }
      var takenElsewhere = owner[box.value] !== undefined && owner[box.value] !== box.name;
      box.disabled = takenElsewhere && !box.checked;
      box.parentElement.classList.toggle("taken", box.disabled);
    });
    form.querySelectorAll("[data-count-for]").forEach(function (el) {
      var n = form.querySelectorAll('input[name="tiles-' + el.getAttribute("data-count-for") + '"]:checked').length;
      el.textContent = n ? "(" + n + ")" : "";
    });
  }

  // Picking a photo sends the whole round form (so nothing typed is lost) to be read.
  // A plain submit, not htmx: the page comes back with the tiles pre-selected. A photo
  // over the server's cap is not sent at all: the player is told at once, and why.
  function sendPhoto(input) {
    var form = input.form;
    var tooLarge = input.closest("fieldset").querySelector("[data-too-large]");
    tooLarge.hidden = input.files[0].size <= Number(input.getAttribute("data-max-bytes"));
    if (!tooLarge.hidden) {
      input.value = "";
      return;
    }
    form.action = input.getAttribute("data-photo-url");
    form.enctype = "multipart/form-data";
    HTMLFormElement.prototype.submit.call(form);
  }

  function init(root) {
    var form = (root || document).querySelector ? (root || document).querySelector("#round-form") : null;
    if (!form || form.dataset.ready) { return; }
    form.dataset.ready = "1";
    form.addEventListener("change", function (evt) {
      if (evt.target.matches("input[type=file][data-photo-url]") && evt.target.files.length) {
        sendPhoto(evt.target);
        return;
      }
      syncKeypads(form);
    });
    syncKeypads(form);
  }

  // When a poll cannot reach the server, say so instead of showing old scores silently.
  function connection(ok) {
    var banner = document.getElementById("offline-banner");
    if (banner) { banner.hidden = ok; }
  }
  document.addEventListener("htmx:sendError", function () { connection(false); });
  document.addEventListener("htmx:afterRequest", function (evt) {
    if (evt.detail && evt.detail.xhr && evt.detail.xhr.status) { connection(true); }
  });
  window.addEventListener("offline", function () { connection(false); });

  if ("serviceWorker" in navigator) {
    window.addEventListener("load", function () { navigator.serviceWorker.register("/sw.js"); });
  }

  // New game: show only the options of the chosen game (all stay usable without JavaScript).
  function showKind() {
    var select = document.querySelector("[data-kind-switch]");
    if (!select) { return; }
    document.querySelectorAll(".kind-fields").forEach(function (box) {
      box.hidden = box.getAttribute("data-kind") !== select.value;
    });
  }
  document.addEventListener("change", function (evt) {
    if (evt.target.matches && evt.target.matches("[data-kind-switch]")) { showKind(); }
  });

  document.addEventListener("DOMContentLoaded", function () { init(document); showKind(); });
  document.addEventListener("htmx:load", showKind);
  document.addEventListener("htmx:load", function (evt) { init(document); });
})();
