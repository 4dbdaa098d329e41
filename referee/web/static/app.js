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
    syncStrips(form);
  }

  // ---- The strip: a hand's ticked tiles, large, above its keypad (round_form.html) ------
  // The keypad holds the hand; the strip shows its ticked tiles (in the order read from the
  // photo, then as tapped), those to check marked, and one total that follows every tap.
  // Tapping a tile of the strip asks: keep it (a tile to check), take it out, or change it
  // for a tile one pip away (the usual misreading), or for any tile on the keypad.
  var stripOrder = {};   // seat -> the strip's tiles, in order
  var stripSlot = {};    // seat -> where the next tile tapped on the keypad goes (a tile changed),
  var stripNumber = {};  // seat -> and the number on the photo it takes over

  function keyOf(form, seat, tile) {
    return form.querySelector('input[name="tiles-' + seat + '"][value="' + tile + '"]');
  }
  function halves(tile) { return tile.split("-").map(Number); }
  function plural(forms, n) {
    var list = parse(forms) || [];
    return (list[n === 0 ? 0 : n === 1 ? 1 : 2] || "{n}").replace("{n}", n);
  }

  function syncStrips(form) {
    form.querySelectorAll("[data-strip]").forEach(function (strip) { drawStrip(form, strip); });
  }

  function drawStrip(form, strip) {
    var seat = strip.getAttribute("data-strip");
    var ticked = [];
    form.querySelectorAll('input[name="tiles-' + seat + '"]').forEach(function (box) {
      if (box.checked) { ticked.push(box.value); }
    });
    var order = stripOrder[seat];
    if (!order) {
      order = [];
      strip.querySelectorAll("[data-tile]").forEach(function (el) { order.push(el.getAttribute("data-tile")); });
    }
    order = order.filter(function (t) { return ticked.indexOf(t) >= 0; });
    ticked.forEach(function (t) {
      if (order.indexOf(t) >= 0) { return; }
      var slot = stripSlot[seat];
      if (slot !== undefined && slot <= order.length) {
        order.splice(slot, 0, t);
        var box = keyOf(form, seat, t);
        if (box && stripNumber[seat]) { box.setAttribute("data-photo", stripNumber[seat]); }
      } else {
        order.push(t);
      }
      delete stripSlot[seat];
      delete stripNumber[seat];
    });
    stripOrder[seat] = order;
    var list = strip.querySelector(".strip-tiles");
    var drawn = Array.prototype.map.call(list.querySelectorAll("[data-tile]"), function (el) {
      var number = el.querySelector(".strip-number");
      return el.getAttribute("data-tile") + (el.classList.contains("unsure") ? "?" : "") + (number ? "#" + number.textContent : "");
    });
    var pips = 0, doubt = 0, wanted = [];
    order.forEach(function (t) {
      var box = keyOf(form, seat, t);
      var unsure = !!(box && box.parentElement.classList.contains("unsure"));
      pips += halves(t)[0] + halves(t)[1];
      if (unsure) { doubt += 1; }
      wanted.push(t + (unsure ? "?" : "") + (box && box.getAttribute("data-photo") ? "#" + box.getAttribute("data-photo") : ""));
    });
    if (drawn.join() !== wanted.join() || !list.querySelector("button")) {
      var focused = document.activeElement && list.contains(document.activeElement)
        ? Array.prototype.indexOf.call(list.querySelectorAll("[data-tile]"), document.activeElement) : -1;
      list.textContent = "";
      order.forEach(function (t) {
        var box = keyOf(form, seat, t);
        var button = document.createElement("button");
        button.type = "button";
        button.className = "strip-tile" + (box && box.parentElement.classList.contains("unsure") ? " unsure" : "");
        button.setAttribute("data-tile", t);
        button.setAttribute("aria-label", (strip.getAttribute("data-change") || "{tile}").replace("{tile}", t));
        button.setAttribute("aria-expanded", "false");
        var picture = box ? box.parentElement.querySelector(".domino") : null;
        if (picture) { button.appendChild(picture.cloneNode(true)); }
        var marks = document.createElement("span");
        marks.className = "strip-marks";
        if (box && box.getAttribute("data-photo")) {
          var number = document.createElement("span");
          number.className = "strip-number";
          number.textContent = box.getAttribute("data-photo");
          marks.appendChild(number);
        }
        if (box && box.parentElement.classList.contains("unsure")) {
          var check = document.createElement("span");
          check.className = "strip-check";
          check.setAttribute("aria-hidden", "true");
          check.textContent = "?";
          marks.appendChild(check);
        }
        button.appendChild(marks);
        var li = document.createElement("li");
        li.appendChild(button);
        list.appendChild(li);
      });
      var buttons = list.querySelectorAll("button");
      if (focused >= 0 && buttons.length) { buttons[Math.min(focused, buttons.length - 1)].focus({ preventScroll: true }); }
    }
    strip.querySelector("[data-strip-count]").textContent = plural(strip.getAttribute("data-tiles"), order.length);
    strip.querySelector("[data-strip-pips]").textContent = plural(strip.getAttribute("data-pips"), pips);
    var doubtEl = strip.querySelector("[data-strip-doubt]");
    doubtEl.textContent = "· " + strip.getAttribute("data-doubt").replace("{n}", doubt);
    doubtEl.hidden = !doubt;
    strip.hidden = !order.length && !strip.classList.contains("read");
    var chooser = strip.querySelector(".strip-chooser");
    if (chooser && order.indexOf(chooser.getAttribute("data-tile")) < 0) {
      closeChooser(strip);
    } else if (chooser) {
      var open = list.querySelector('[data-tile="' + chooser.getAttribute("data-tile") + '"]');
      if (open) {
        open.classList.add("open");
        open.setAttribute("aria-expanded", "true");
      }
    }
  }

  // Tiles one pip away from `tile` on either half, in the set, and free for this hand.
  function nearTiles(form, seat, tile) {
    var h = halves(tile), top = 0;
    form.querySelectorAll('input[name="tiles-' + seat + '"]').forEach(function (box) {
      top = Math.max(top, halves(box.value)[0]);
    });
    var near = [];
    [[h[0] + 1, h[1]], [h[0] - 1, h[1]], [h[0], h[1] + 1], [h[0], h[1] - 1]].forEach(function (p) {
      if (p[0] < 0 || p[1] < 0 || p[0] > top || p[1] > top) { return; }
      var name = Math.max(p[0], p[1]) + "-" + Math.min(p[0], p[1]);
      var box = keyOf(form, seat, name);
      if (name !== tile && near.indexOf(name) < 0 && box && !box.checked && !box.disabled) { near.push(name); }
    });
    return near;
  }

  function tick(box, on) {
    box.checked = on;
    box.dispatchEvent(new Event("change", { bubbles: true }));  // the keypads, this strip, the points
  }

  function chooserButton(text, className, onClick) {
    var button = document.createElement("button");
    button.type = "button";
    button.className = "button " + className;
    button.textContent = text;
    button.addEventListener("click", onClick);
    return button;
  }

  function openChooser(form, strip, tile) {
    var seat = strip.getAttribute("data-strip");
    var old = strip.querySelector(".strip-chooser");
    closeChooser(strip);
    if (old && old.getAttribute("data-tile") === tile) {  // tapped again: closed
      focusTile(strip, tile);
      return;
    }
    var box = keyOf(form, seat, tile);
    if (!box) { return; }
    var unsure = box.parentElement.classList.contains("unsure");
    var panel = document.createElement("div");
    panel.className = "strip-chooser";
    panel.setAttribute("data-tile", tile);
    panel.setAttribute("role", "group");
    var head = document.createElement("p");
    head.className = "strip-question";
    var picture = box.parentElement.querySelector(".domino");
    if (picture) { head.appendChild(picture.cloneNode(true)); }
    var question = document.createElement("strong");
    question.textContent = strip.getAttribute("data-question").replace("{tile}", tile);
    head.appendChild(question);
    var close = chooserButton("×", "strip-close", function () { closeChooser(strip); focusTile(strip, tile); });
    close.setAttribute("aria-label", strip.getAttribute("data-close"));
    head.appendChild(close);
    panel.appendChild(head);
    var actions = document.createElement("div");
    actions.className = "strip-actions";
    // Yes: a tile to check is checked (its mark goes), any other stays as it is
    actions.appendChild(chooserButton(strip.getAttribute("data-keep"), unsure ? "primary strip-keep" : "strip-keep", function () {
      box.parentElement.classList.remove("unsure");
      closeChooser(strip);
      drawStrip(form, strip);
      focusTile(strip, tile);
    }));
    actions.appendChild(chooserButton(strip.getAttribute("data-remove"), "strip-remove", function () {
      var at = (stripOrder[seat] || []).indexOf(tile);
      closeChooser(strip);
      tick(box, false);
      focusTile(strip, (stripOrder[seat] || [])[at] || (stripOrder[seat] || []).slice(-1)[0]);
    }));
    panel.appendChild(actions);
    var near = nearTiles(form, seat, tile);
    if (near.length) {
      var label = document.createElement("p");
      label.className = "strip-instead";
      label.textContent = strip.getAttribute("data-instead");
      panel.appendChild(label);
      var row = document.createElement("div");
      row.className = "strip-near";
      near.forEach(function (name) {
        var other = keyOf(form, seat, name);
        var pick = document.createElement("button");
        pick.type = "button";
        pick.className = "strip-tile";
        pick.setAttribute("data-near", name);
        pick.setAttribute("aria-label", "[" + name + "]");
        var drawing = other.parentElement.querySelector(".domino");
        if (drawing) { pick.appendChild(drawing.cloneNode(true)); }
        pick.addEventListener("click", function () {
          stripSlot[seat] = (stripOrder[seat] || []).indexOf(tile);
          stripNumber[seat] = box.getAttribute("data-photo");
          box.removeAttribute("data-photo");
          closeChooser(strip);
          box.checked = false;
          tick(other, true);
          focusTile(strip, name);
        });
        row.appendChild(pick);
      });
      panel.appendChild(row);
    }
    panel.appendChild(chooserButton(strip.getAttribute("data-keypad"), "strip-keypad", function () {
      stripSlot[seat] = (stripOrder[seat] || []).indexOf(tile);
      stripNumber[seat] = box.getAttribute("data-photo");
      box.removeAttribute("data-photo");
      closeChooser(strip);
      tick(box, false);
      var keypad = form.querySelector('#hand-' + seat + ' .keypad-box');
      if (keypad) {
        keypad.open = true;
        keypad.scrollIntoView({ block: "start", behavior: "smooth" });
        var first = keypad.querySelector("input:not(:disabled)");
        if (first) { first.focus({ preventScroll: true }); }
      }
    }));
    strip.querySelector(".strip-tiles").insertAdjacentElement("afterend", panel);
    var opened = strip.querySelector('.strip-tiles [data-tile="' + tile + '"]');
    if (opened) {
      opened.classList.add("open");
      opened.setAttribute("aria-expanded", "true");
    }
    var firstAction = panel.querySelector(".strip-actions button");
    if (firstAction) { firstAction.focus({ preventScroll: true }); }
    panel.scrollIntoView({ block: "nearest", behavior: "smooth" });
  }

  function closeChooser(strip) {
    var panel = strip.querySelector(".strip-chooser");
    if (panel) { panel.remove(); }
    strip.querySelectorAll(".strip-tiles .open").forEach(function (el) {
      el.classList.remove("open");
      el.setAttribute("aria-expanded", "false");
    });
  }

  function focusTile(strip, tile) {
    var el = tile ? strip.querySelector('.strip-tiles [data-tile="' + tile + '"]') : null;
    if (el) { el.focus({ preventScroll: true }); }
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
    form.addEventListener("click", function (evt) {
      var tile = evt.target.closest ? evt.target.closest(".strip-tiles [data-tile]") : null;
      if (!tile) { return; }
      evt.preventDefault();  // a <label> (before this script drew buttons) would untick the key
      openChooser(form, tile.closest("[data-strip]"), tile.getAttribute("data-tile"));
    });
    stripOrder = {};
    stripSlot = {};
    stripNumber = {};
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
  // Back may also take the form from the browser's HTTP cache rather than its
  // back/forward cache (a page not persisted, its navigation "back_forward"): the same.
  window.addEventListener("pageshow", function (evt) {
    var nav = window.performance && performance.getEntriesByType ? performance.getEntriesByType("navigation")[0] : null;
    var fromHistory = evt.persisted || (nav && nav.type === "back_forward");
    if (!fromHistory) { return; }
    if (document.getElementById("round-form")) {
      location.reload();
    } else if (evt.persisted) {
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

  // ---- The chart: a tapped round's totals under it (templates/_chart.svg.html) ---------
  // Each round is a column of the chart (a <rect class="chart-col"> with its totals in data-
  // attributes); a tap anywhere on the chart picks the nearest round. The game page's scores
  // are swapped in afresh every 2 s: the round shown, the table's <details> and the focus
  // are kept across (see the htmx listeners below).
  var chartKept = null;  // {path, index, open, focus}

  function chartColumns(figure) { return figure.querySelectorAll(".chart-col"); }

  function showRound(figure, index) {
    var cols = chartColumns(figure);
    var readout = figure.querySelector("[data-chart-readout]");
    if (!cols.length || !readout) { return; }
    index = Math.max(0, Math.min(cols.length - 1, index));
    var col = cols[index];
    cols.forEach(function (c) { c.classList.toggle("on", c === col); });
    var guide = figure.querySelector(".chart-guide");
    if (guide) {
      guide.setAttribute("x1", col.getAttribute("data-x"));
      guide.setAttribute("x2", col.getAttribute("data-x"));
      guide.classList.add("on");
    }
    readout.querySelector(".chart-readout-title").textContent = col.getAttribute("data-title");
    var list = readout.querySelector(".chart-readout-values");
    var keys = figure.querySelectorAll(".legend-key");
    list.textContent = "";
    (parse(col.getAttribute("data-values")) || []).forEach(function (row, n) {
      var li = document.createElement("li");
      if (keys[n]) { li.appendChild(keys[n].cloneNode(true)); }
      var who = document.createElement("span");
      who.className = "who";
      who.textContent = row[0];
      var value = document.createElement("strong");
      value.textContent = row[1];
      li.appendChild(who);
      li.appendChild(value);
      if (row[2] !== null && row[2] !== undefined) {
        var change = document.createElement("small");
        change.textContent = (row[2] >= 0 ? "+" : "") + row[2];
        li.appendChild(change);
      }
      list.appendChild(li);
    });
    readout.querySelector('[data-step="-1"]').disabled = index === 0;
    readout.querySelector('[data-step="1"]').disabled = index === cols.length - 1;
    readout.hidden = false;
    figure.setAttribute("data-picked", String(index));
    chartKept = { path: location.pathname, index: index, open: chartKept ? chartKept.open : false, focus: null };
  }

  function nearestRound(figure, svg, clientX, clientY) {
    var matrix = svg.getScreenCTM();
    if (!matrix) { return 0; }
    var point = svg.createSVGPoint();
    point.x = clientX;
    point.y = clientY;
    var x = point.matrixTransform(matrix.inverse()).x;
    var best = 0, distance = Infinity;
    chartColumns(figure).forEach(function (col, i) {
      var d = Math.abs(Number(col.getAttribute("data-x")) - x);
      if (d < distance) { best = i; distance = d; }
    });
    return best;
  }

  document.addEventListener("click", function (evt) {
    var target = evt.target;
    if (!target || !target.closest) { return; }
    var figure = target.closest("[data-chart]");
    if (!figure) { return; }
    var svg = target.closest(".chart-plot");
    var step = target.closest(".chart-step");
    if (svg) {
      showRound(figure, nearestRound(figure, svg, evt.clientX, evt.clientY));
    } else if (step) {
      showRound(figure, Number(figure.getAttribute("data-picked") || 0) + Number(step.getAttribute("data-step")));
    }
  });
  document.addEventListener("keydown", function (evt) {
    var svg = evt.target && evt.target.closest ? evt.target.closest(".chart-plot") : null;
    var figure = svg ? svg.closest("[data-chart]") : null;
    if (!figure) { return; }
    var picked = figure.hasAttribute("data-picked") ? Number(figure.getAttribute("data-picked")) : -1;
    var last = chartColumns(figure).length - 1;
    var next = { ArrowLeft: picked - 1, ArrowRight: picked < 0 ? last : picked + 1, Home: 0, End: last,
                 Enter: picked < 0 ? last : picked, " ": picked < 0 ? last : picked }[evt.key];
    if (next === undefined) { return; }
    evt.preventDefault();
    showRound(figure, next);
  });
  document.addEventListener("toggle", function (evt) {
    if (evt.target.classList && evt.target.classList.contains("chart-data")) {
      chartKept = chartKept || { path: location.pathname, index: -1, open: false, focus: null };
      chartKept.open = evt.target.open;
    }
  }, true);

  // Put the chart back as it was before the live scores were swapped in.
  function keepChart() {
    var figure = document.querySelector("#live [data-chart]");
    if (!chartKept || chartKept.path !== location.pathname || !figure) { return; }
    var active = document.activeElement;
    chartKept.focus = active && figure.contains(active)
      ? (active.classList.contains("chart-plot") ? ".chart-plot" : active.getAttribute("data-step") ? '[data-step="' + active.getAttribute("data-step") + '"]' : null)
      : null;
  }
  function restoreChart() {
    var figure = document.querySelector("#live [data-chart]");
    if (!chartKept || chartKept.path !== location.pathname || !figure) { return; }
    var focus = chartKept.focus;
    var details = figure.querySelector(".chart-data");
    if (details && chartKept.open) { details.open = true; }
    if (chartKept.index >= 0) { showRound(figure, chartKept.index); }
    var again = focus ? figure.querySelector(focus) : null;
    if (again && !again.disabled) { again.focus({ preventScroll: true }); }
  }
  // The same scores again (the usual answer every 2 s) are not swapped in at all.
  var liveText = null;
  document.addEventListener("htmx:beforeSwap", function (evt) {
    var detail = evt.detail || {};
    if (!detail.shouldSwap || !isLive(detail.target) || !detail.xhr) { return; }
    var text = detail.xhr.responseText;
    if (text === liveText) {
      detail.shouldSwap = false;
      return;
    }
    liveText = text;
    keepChart();
  });
  document.addEventListener("htmx:afterSwap", function (evt) {
    if (evt.detail && isLive(evt.detail.target)) { restoreChart(); }
  });

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
