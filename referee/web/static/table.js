// At the table: times in the phone's own time zone, the screen kept awake while a game is open,
// and the finished match's result shared or copied. Every page works without this file: the
// server writes the times in UTC and the result as text anyone can select.
(function () {
  "use strict";

  // -- <time datetime="…Z" data-local="date|short|medium"> in the phone's zone and language --
  var STYLES = {
    date: { dateStyle: "medium" },
    short: { dateStyle: "short", timeStyle: "short" },
    medium: { dateStyle: "medium", timeStyle: "medium" },
  };
  var formats = {};

  function formatter(style) {
    var lang = document.documentElement.lang || undefined;
    var key = lang + "|" + style;
    if (!formats[key]) {
      try {
        formats[key] = new Intl.DateTimeFormat(lang, STYLES[style] || STYLES.short);
      } catch (err) {
        formats[key] = null;
      }
    }
    return formats[key];
  }

  function localTimes(root) {
    if (!window.Intl || !Intl.DateTimeFormat) { return; }
    (root || document).querySelectorAll("time[data-local]").forEach(function (el) {
      if (el.hasAttribute("data-localised")) { return; }
      var moment = new Date(el.getAttribute("datetime"));
      var format = formatter(el.getAttribute("data-local"));
      if (isNaN(moment.getTime()) || !format) { return; }
      el.title = el.textContent;  // the server's UTC text stays one long press away
      el.textContent = format.format(moment);
      el.setAttribute("data-localised", "");
    });
  }

  // -- the screen stays on while a game page or a round page is open -----------------------
  // Screen Wake Lock API where the browser has it; the lock is dropped by the browser when
  // the page is hidden, so it is asked for again when the page shows. `data-wake-lock` on
  // <html> says how it went: "on", "off", "refused" or "unsupported".
  var lock = null;
  var asking = false;

  function wanted() {
    return document.visibilityState === "visible" && !!document.querySelector("[data-keep-awake]");
  }

  function state(value) { document.documentElement.setAttribute("data-wake-lock", value); }

  function release() {
    var held = lock;
    lock = null;
    if (held) { held.release().catch(function () {}); }
  }

  function keepAwake() {
    if (!("wakeLock" in navigator) || !navigator.wakeLock || typeof navigator.wakeLock.request !== "function") {
      state("unsupported");
      return;
    }
    if (!wanted()) {
      release();
      state("off");
      return;
    }
    if (lock || asking) { return; }
    asking = true;
    var request;
    try {
      request = navigator.wakeLock.request("screen");
    } catch (err) {
      asking = false;
      state("refused");
      return;
    }
    Promise.resolve(request).then(function (sentinel) {
      asking = false;
      lock = sentinel;
      state("on");
      sentinel.addEventListener("release", function () {
        if (lock === sentinel) { lock = null; state("off"); }
      });
      if (!wanted()) { keepAwake(); }  // the page changed while the lock was on its way
    }, function () {
      asking = false;  // refused (battery saver, no user gesture yet, a hidden page): no error
      state("refused");
    });
  }

  document.addEventListener("visibilitychange", keepAwake);
  // A refused first request (some browsers want a tap first) is tried again on the next tap.
  document.addEventListener("click", function () {
    if (!lock && document.documentElement.getAttribute("data-wake-lock") === "refused") { keepAwake(); }
  });

  // -- the finished match's result: share it, or copy it -------------------------------------
  function shareButtons(root) {
    (root || document).querySelectorAll("button[data-share]").forEach(function (button) {
      if (button.hasAttribute("data-ready")) { return; }
      button.setAttribute("data-ready", "");
      var share = typeof navigator.share === "function";
      button.textContent = button.getAttribute(share ? "data-share-label" : "data-copy-label");
      button.hidden = false;
    });
  }

  function statusOf(button) {
    var box = button.closest(".share-result");
    return box ? box.querySelector(".share-status") : null;
  }

  function say(button, text) {
    var status = statusOf(button);
    if (status) { status.textContent = text; }
  }

  // Without a secure context (a phone on http://192.168.…) there is no clipboard API: select
  // the text and use the old copy command, else leave it selected for the phone's own Copy.
  function copy(button, field) {
    var text = field.value;
    var done = function () { say(button, button.getAttribute("data-copied")); };
    var fallback = function () {
      field.focus();
      field.select();
      field.setSelectionRange(0, text.length);
      var copied = false;
      try { copied = document.execCommand("copy"); } catch (err) { copied = false; }
      say(button, button.getAttribute(copied ? "data-copied" : "data-select"));
    };
    if (navigator.clipboard && window.isSecureContext) {
      navigator.clipboard.writeText(text).then(done, fallback);
    } else {
      fallback();
    }
  }

  document.addEventListener("click", function (evt) {
    var button = evt.target.closest && evt.target.closest("button[data-share]");
    if (!button) { return; }
    var field = document.getElementById(button.getAttribute("data-share"));
    if (!field) { return; }
    if (typeof navigator.share === "function") {
      navigator.share({ text: field.value }).catch(function (err) {
        if (!err || err.name !== "AbortError") { copy(button, field); }  // closed by the user: nothing to do
      });
    } else {
      copy(button, field);
    }
  });

  function ready(evt) {
    var root = evt && evt.detail && evt.detail.elt ? evt.detail.elt : document;
    localTimes(root.querySelectorAll ? root : document);
    shareButtons(root.querySelectorAll ? root : document);
    keepAwake();
  }

  document.addEventListener("DOMContentLoaded", ready);
  document.addEventListener("htmx:load", ready);
})();
