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

  // ---- Scores never silently wrong, duplicated or lost (see also sw.js) ----------------

  var RETRY_MS = 3000;
  var TIMEOUT_MS = 20000;
  var OUTBOX = "referee:outbox:";
  var OPENING = "referee:open";

  // localStorage, or this page's memory when the phone refuses it (private mode, full).
  var memory = {};
  var disk = (function () {
    try {
      window.localStorage.setItem("referee:probe", "1");
      window.localStorage.removeItem("referee:probe");
      return window.localStorage;
    } catch (e) { return null; }
  })();
  function getItem(key) {
    if (Object.prototype.hasOwnProperty.call(memory, key)) { return memory[key]; }
    return disk ? disk.getItem(key) : null;
  }
  function setItem(key, value) {
    if (disk) {
      try { disk.setItem(key, value); delete memory[key]; return; } catch (e) { /* kept in memory */ }
    }
    memory[key] = value;
  }
  function removeItem(key) {
    delete memory[key];
    if (disk) { disk.removeItem(key); }
  }
  function parse(text) {
    try { return text ? JSON.parse(text) : null; } catch (e) { return null; }
  }

  // The outbox: round entries typed on this phone that the server has not confirmed yet,
  // keyed by the form's entry_key (the server saves one key once, so sending again is safe).
  function outbox() {
    var names = Object.keys(memory);
    if (disk) {
      for (var i = 0; i < disk.length; i++) { names.push(disk.key(i)); }
    }
    var seen = {};
    return names.filter(function (name) {
      var fresh = name && name.indexOf(OUTBOX) === 0 && !seen[name];
      seen[name] = true;
      return fresh;
    }).map(function (name) { return parse(getItem(name)); })
      .filter(Boolean).sort(function (a, b) { return a.at - b.at; });
  }
  function find(key) { return parse(getItem(OUTBOX + key)); }
  function keep(entry) { setItem(OUTBOX + entry.key, JSON.stringify(entry)); }
  function forget(entry) { removeItem(OUTBOX + entry.key); }

  function hidden(form, name) {
    var input = form.querySelector('input[type=hidden][name="' + name + '"]');
    return input ? input.value : "";
  }
  function formKey(form) {
    return hidden(form, "entry_key") || "edit " + actionOf(form) + " " + hidden(form, "version");
  }
  // The form's address (not form.action: the Save and Check buttons are named "action").
  function actionOf(form) { return new URL(form.getAttribute("action") || "", location.href).href; }
  function gameUrl(action) { return action.replace(/\/rounds\/.*$/, ""); }
  function here(entry) { return location.pathname + location.search === entry.page; }

  function fieldsOf(form, action) {
    var fields = [];
    new FormData(form).forEach(function (value, name) {
      if (typeof value === "string" && name !== "action") { fields.push([name, value]); }
    });
    fields.push(["action", action]);
    return fields;
  }

  function entryFrom(form) {
    return {
      key: formKey(form), action: actionOf(form), page: location.pathname + location.search,
      number: hidden(form, "number"), version: hidden(form, "version"),
      waitingText: form.getAttribute("data-waiting") || "", refusedText: form.getAttribute("data-refused") || "",
      fields: fieldsOf(form, "save"), at: Date.now(), waiting: false, refused: 0,
    };
  }

  // POST the fields as the form would, with the freshest CSRF token this page holds.
  function post(url, fields) {
    var body = new FormData();
    var token = document.querySelector("input[name=csrf_token]");
    fields.forEach(function (field) {
      body.append(field[0], field[0] === "csrf_token" && token && token.value ? token.value : field[1]);
    });
    var options = { method: "POST", body: body, credentials: "same-origin", redirect: "follow", cache: "no-store" };
    var timer = null;
    if (window.AbortController) {
      var control = new AbortController();
      options.signal = control.signal;
      timer = setTimeout(function () { control.abort(); }, TIMEOUT_MS);
    }
    return fetch(url, options).then(function (response) {
      clearTimeout(timer);
      return response;
    }, function (err) {
      clearTimeout(timer);
      throw err;
    });
  }

  // What the server said: saved (303 to the game page), or a page to show.
  function outcome(response) {
    if (response.ok && response.redirected) { return { saved: true, url: response.url }; }
    return response.text().then(function (html) {
      var doc = new DOMParser().parseFromString(html, "text/html");
      return {
        doc: doc, url: response.url, status: response.status, later: response.status >= 500,
        already: response.status === 409 && !!doc.querySelector("[data-already-saved]"),
        form: !!doc.querySelector("#round-form"),
      };
    });
  }

  // Show a page the server answered (a form with its errors, say) as a plain submit would.
  function show(doc, url) {
    document.title = doc.title;
    document.body.replaceWith(document.adoptNode(doc.body));
    if (url && url !== location.href) { history.replaceState(history.state, "", url); }
    window.scrollTo(0, 0);
    if (window.htmx) { window.htmx.process(document.body); }
    ready();
  }

  // One send at a time per entry, across this phone's tabs too where the browser can tell.
  var inFlight = {};
  function exclusive(key, wait, work) {
    if (navigator.locks && navigator.locks.request) {
      return navigator.locks.request("referee-send " + key, wait ? {} : { ifAvailable: true }, function (lock) {
        return lock ? work() : null;
      });
    }
    return work();
  }

  function send(key, first) {
    if (inFlight[key]) { return; }
    inFlight[key] = true;
    Promise.resolve(exclusive(key, first, function () {
      var entry = find(key);
      if (!entry || entry.refused) {
        // another tab delivered it meanwhile
        if (first && !entry) { go(gameUrl(location.href)); }
        return null;
      }
      return post(entry.action, entry.fields).then(outcome, function () { return { later: true, offline: true }; })
        .then(function (result) { settle(entry, result, first); });
    })).catch(function () { /* settled on the next try */ }).then(function () {
      delete inFlight[key];
      render();
    });
  }

  function settle(entry, result, first) {
    deliver(entry, result, first);
    connection(!result.offline);
  }

  // Leave for the page the server pointed at (and reload nothing on the way).
  var leaving = false;
  function go(url) {
    leaving = true;
    location.assign(url);
  }

  function deliver(entry, result, first) {
    if (result.later) {
      var current = find(entry.key);  // gone if another tab delivered it meanwhile
      if (current) {
        current.waiting = true;
        keep(current);
      }
      schedule();
      return;
    }
    if (result.saved || (result.already && !first)) {
      // Saved now, or by an earlier try whose answer was lost: delivered, exactly once.
      forget(entry);
      if (here(entry)) { go(result.saved ? result.url : gameUrl(entry.action)); }
      return;
    }
    // Any other answer is shown where the entry was typed, as a plain submit would show it.
    // A round form (its errors, or what another phone saved) holds the typed values again;
    // anything else (the scorer link withdrawn, a form too old), or an answer while the
    // phone shows another page, keeps the entry for the scorer to open again.
    if (!here(entry) || !(result.form || result.already)) {
      entry.refused = result.status || 400;
      keep(entry);
    } else {
      forget(entry);
    }
    if (here(entry)) { show(result.doc, result.url); }
  }

  var retry = null;
  function schedule() {
    if (retry || !outbox().some(function (e) { return !e.refused; })) { return; }
    retry = setTimeout(function () {
      retry = null;
      flush();
    }, RETRY_MS);
  }
  function flush() {
    outbox().forEach(function (entry) {
      if (!entry.refused) { send(entry.key, false); }
    });
    schedule();
  }

  function save(form) {
    var entry = entryFrom(form);
    var before = find(entry.key);
    if (before) { entry.waiting = before.waiting; }
    keep(entry);
    send(entry.key, !before);
  }

  function check(form) {
    post(actionOf(form), fieldsOf(form, "preview")).then(outcome).then(function (result) {
      // a server that cannot answer (its database down, say) leaves the form as typed
      connection(!result.later);
      if (result.saved) { go(result.url); } else if (!result.later) { show(result.doc, result.url); }
    }, function () { connection(false); });
  }

  // Put an entry's values back into a round form (after a reload, or to open a refused one).
  function fill(form, fields) {
    form.querySelectorAll("input, select").forEach(function (el) {
      if (el.type === "checkbox" || el.type === "radio") {
        el.checked = false;
        if (!el.hasAttribute("data-round-double")) { el.disabled = false; }
      } else if (el.type === "number" || el.type === "text") {
        el.value = "";
      } else if (el.tagName === "SELECT") {
        el.selectedIndex = 0;
      }
    });
    fields.forEach(function (field) {
      if (field[0] === "csrf_token" || field[0] === "action") { return; }
      form.querySelectorAll("[name]").forEach(function (el) {
        if (el.name !== field[0] || el.type === "file") { return; }
        if (el.type === "checkbox" || el.type === "radio") {
          if (el.value === field[1]) { el.checked = true; }
        } else {
          el.value = field[1];
        }
      });
    });
    form.querySelectorAll("details").forEach(function (box) {
      if (box.querySelector("input:checked")) { box.open = true; }
    });
    syncKeypads(form);
    if (window.htmx) { window.htmx.trigger(form, "change"); }
  }

  function restore(form) {
    var opening = window.sessionStorage ? sessionStorage.getItem(OPENING) : null;
    if (opening) { sessionStorage.removeItem(OPENING); }
    var entry = outbox().filter(function (e) {
      if (e.action !== actionOf(form)) { return false; }
      return e.key === opening || (e.number === hidden(form, "number") && e.version === hidden(form, "version"));
    })[0];
    if (!entry) { return; }
    fill(form, entry.fields);
    // a refused entry opened again: the values are in the form now, and Save sends them
    if (entry.refused || entry.key === opening) { forget(entry); }
  }

  function line(strong, rest) {
    var p = document.createElement("p");
    var b = document.createElement("strong");
    b.textContent = strong;
    p.appendChild(b);
    if (rest) { p.appendChild(document.createTextNode(" " + rest)); }
    return p;
  }

  // "Waiting to send: round 3" next to the round's Save button, and at the top of every
  // other page; a refused entry offers to open it again.
  function render() {
    var box = document.getElementById("outbox");
    var form = document.getElementById("round-form");
    var nearSave = form && form.querySelector("[data-outbox-here]");
    var kept = box ? box.getAttribute("data-kept") : "";
    var mine = form ? formKey(form) : null;
    var list = outbox();
    if (nearSave) {
      var own = list.filter(function (e) { return e.key === mine && !e.refused && (e.waiting || !inFlight[e.key]); })[0];
      nearSave.textContent = "";
      if (own) { nearSave.appendChild(line(own.waitingText, kept)); }
      nearSave.hidden = !own;
    }
    if (!box) { return; }
    box.textContent = "";
    list.forEach(function (entry) {
      if (entry.key === mine) { return; }
      if (!entry.refused) {
        box.appendChild(line(entry.waitingText, kept));
        return;
      }
      var p = line(entry.refusedText);
      var open = document.createElement("button");
      open.type = "button";
      open.className = "button";
      open.textContent = box.getAttribute("data-open");
      open.addEventListener("click", function () {
        if (window.sessionStorage) { sessionStorage.setItem(OPENING, entry.key); }
        go(entry.page);
      });
      var discard = document.createElement("button");
      discard.type = "button";
      discard.className = "button";
      discard.textContent = box.getAttribute("data-discard");
      discard.addEventListener("click", function () {
        forget(entry);
        render();
      });
      var buttons = document.createElement("span");
      buttons.className = "outbox-buttons";
      buttons.appendChild(open);
      buttons.appendChild(discard);
      p.appendChild(buttons);
      box.appendChild(p);
    });
    box.hidden = !box.firstChild;
  }

  document.addEventListener("submit", function (evt) {
    var form = evt.target;
    if (!form || form.id !== "round-form" || !window.fetch || !window.FormData || !window.DOMParser) { return; }
    var button = evt.submitter;
    if (!button || button.hasAttribute("formaction")) { return; }  // a photo to read: a plain submit
    if (button.name === "action" && button.value === "save") {
      evt.preventDefault();
      save(form);
    } else if (button.name === "action" && button.value === "preview") {
      evt.preventDefault();
      check(form);
    }
  });

  // A round form brought back by Back after Save would hold a round already saved: ask the
  // server for the form as it is now (the next round, empty, or what still waits to be sent).
  window.addEventListener("pageshow", function (evt) {
    if (!evt.persisted) { return; }
    if (document.getElementById("round-form")) {
      location.reload();
    } else {
      render();
      flush();
    }
  });
  window.addEventListener("online", flush);
  window.addEventListener("storage", function (evt) {
    if (!evt.key || evt.key.indexOf(OUTBOX) === 0) { render(); }
  });

  // The live scoreboard. `shownAt`: when the server last vouched for the scores on screen.
  var shownAt = Date.now();
  var reloading = false;
  function pageCopy() {
    var main = document.querySelector("main[data-offline-copy]");
    return main ? Number(main.getAttribute("data-offline-copy")) || 1 : 0;
  }
  function two(n) { return (n < 10 ? "0" : "") + n; }
  function clock(ms) {
    var when = new Date(ms);
    var time = two(when.getHours()) + ":" + two(when.getMinutes());
    if (when.toDateString() === new Date().toDateString()) { return time; }
    return when.toLocaleDateString(document.documentElement.lang || undefined, { day: "numeric", month: "short" }) + " " + time;
  }
  function isLive(el) { return !!(el && el.id === "live"); }
  // The live scoreboard or the round's points preview answered with a server error.
  function failed(detail) {
    return detail.xhr.status >= 500 && !!detail.elt && (isLive(detail.elt) || detail.elt.id === "round-form");
  }

  // When the server cannot be reached, say so (and since when the scores are known) instead
  // of showing old scores silently; when it answers again, a page from the cache reloads.
  function connection(ok) {
    var banner = document.getElementById("offline-banner");
    var asOf = document.getElementById("offline-as-of");
    if (ok) {
      if (banner) { banner.hidden = true; }
      if (asOf) { asOf.hidden = true; }
      if ((pageCopy() || document.body.hasAttribute("data-offline-page")) && !reloading && !leaving) {
        reloading = true;
        location.reload();
      }
      return;
    }
    if (asOf) {
      (asOf.querySelector("strong") || asOf).textContent = asOf.getAttribute("data-text").replace("{time}", clock(shownAt));
      asOf.hidden = false;
      if (banner) { banner.hidden = true; }
    } else if (banner) {
      banner.hidden = false;
    }
  }

  // A page from the cache (or the offline page) asks the server every few seconds.
  var probing = null;
  function probe() {
    if (probing) { return; }
    probing = setInterval(function () {
      fetch("/health", { cache: "no-store", credentials: "same-origin" }).then(function (response) {
        if (response.ok) {
          clearInterval(probing);
          probing = null;
          connection(true);
        }
      }, function () { /* still offline */ });
    }, RETRY_MS);
  }

  document.addEventListener("htmx:sendError", function () { connection(false); });
  document.addEventListener("htmx:beforeSwap", function (evt) {
    var xhr = evt.detail && evt.detail.xhr;
    if (xhr && failed(evt.detail)) {
      // the server could not answer (its database down, say): keep the scores or the form
      evt.detail.shouldSwap = false;
      connection(false);
      return;
    }
    var copy = xhr ? xhr.getResponseHeader("X-Offline-Copy") : null;
    if (copy === null || !isLive(evt.detail.target)) { return; }
    // the service worker's copy of the scoreboard: only if newer than what is on screen
    if (Number(copy) > shownAt) { shownAt = Number(copy); } else { evt.detail.shouldSwap = false; }
  });
  document.addEventListener("htmx:afterRequest", function (evt) {
    var xhr = evt.detail && evt.detail.xhr;
    if (!xhr || !xhr.status) { return; }
    if (xhr.getResponseHeader("X-Offline-Copy") !== null || failed(evt.detail)) {
      connection(false);
      return;
    }
    if (isLive(evt.detail.elt)) { shownAt = Date.now(); }
    connection(true);
  });
  window.addEventListener("offline", function () { connection(false); });

  if ("serviceWorker" in navigator) {
    // A game page opened before the service worker took over is not in its cache yet.
    var controlled = !!navigator.serviceWorker.controller;
    navigator.serviceWorker.addEventListener("controllerchange", function () {
      var worker = navigator.serviceWorker.controller;
      if (!controlled && worker && !pageCopy() && /^\/games\/(?!new$)[^/]+$/.test(location.pathname)) {
        worker.postMessage({ keep: location.pathname });
      }
      controlled = true;
    });
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

  // A new page: from the server, a body htmx swapped in, or an answer shown by show().
  var lastMain = null;
  function ready() {
    init(document);
    showKind();
    var main = document.querySelector("main");
    if (main === lastMain) { return; }
    lastMain = main;
    shownAt = pageCopy() || Date.now();
    var form = document.getElementById("round-form");
    if (form) { restore(form); }
    render();
    if (pageCopy() || document.body.hasAttribute("data-offline-page")) {
      connection(false);
      probe();
    }
    flush();
  }

  document.addEventListener("DOMContentLoaded", ready);
  document.addEventListener("htmx:load", ready);
})();
