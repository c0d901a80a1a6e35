/* The scenario builder (/replay/new): card-name completion and new rows as you type.
   The page is a plain form without this script; here the card fields complete over every card the engine
   defines (cards.json), a picked card shows its printed statistics and text, and a list grows a blank row
   when its last one is filled (without JavaScript, "Update" does that on the server). */
(function () {
  "use strict";
  var form = document.getElementById("bd-form");
  var list = document.getElementById("bd-suggest");
  if (!form || !list) return;
  var url = form.getAttribute("data-cards");
  var max = parseInt(form.getAttribute("data-max"), 10) || 100;
  var input = null, cards = [], sel = -1, timer = 0, seq = 0;
  // the text the open list was found for, and the keys (↓ ↑ Enter) pressed before the list for the field's
  // current text arrived: they apply to that list, never to a stale one
  var shownFor = null, queued = [];

  function close() {
    list.hidden = true;
    list.textContent = "";
    cards = []; sel = -1; shownFor = null;
    if (input) { input.setAttribute("aria-expanded", "false"); input.removeAttribute("aria-activedescendant"); }
  }

  function show(target, found, q) {
    list.textContent = "";
    cards = found; sel = -1;
    if (!found.length || document.activeElement !== target) { close(); queued = []; return; }
    shownFor = q;
    found.forEach(function (c, i) {
      var li = document.createElement("li");
      li.id = "bd-opt-" + i;
      li.className = "bd-opt";
      li.setAttribute("role", "option");
      li.setAttribute("aria-selected", "false");
      if (i === 0) li.classList.add("bd-first");   // what Enter picks while nothing is marked
      var name = document.createElement("span");
      name.className = "bd-opt-name";
      name.textContent = c.name;
      var line = document.createElement("span");
      line.className = "bd-opt-line";
      line.textContent = c.line;
      li.appendChild(name);
      li.appendChild(line);
      // mousedown, not click: the field keeps its focus, so blur does not close the list first
      li.addEventListener("mousedown", function (e) { e.preventDefault(); pick(i); });
      list.appendChild(li);
    });
    var holder = target.closest(".bd-line") || target.parentNode;
    holder.parentNode.insertBefore(list, holder.nextSibling);
    list.hidden = false;
    target.setAttribute("aria-expanded", "true");
    var keys = queued;
    queued = [];
    keys.forEach(function (k) { if (!list.hidden) key(k); });
  }

  function key(k) {
    if (k === "ArrowDown") mark(sel + 1);
    else if (k === "ArrowUp") mark(sel - 1);
    else if (k === "Enter") pick(sel >= 0 ? sel : 0);
  }

  function current(target) { return target.value.slice(0, max); }

  function mark(i) {
    var opts = list.querySelectorAll(".bd-opt");
    if (!opts.length) return;
    sel = (i + opts.length) % opts.length;
    opts.forEach(function (o, k) { o.setAttribute("aria-selected", k === sel ? "true" : "false"); });
    input.setAttribute("aria-activedescendant", opts[sel].id);
    opts[sel].scrollIntoView({ block: "nearest" });
  }

  function describe(entry, c) {
    var stat = entry && entry.querySelector(".bd-stat");
    if (!stat) return;
    stat.textContent = "";
    var line = document.createElement("span");
    line.className = "bd-stat-line";
    line.textContent = c.line;
    stat.appendChild(line);
    if (c.text) {
      var text = document.createElement("span");
      text.className = "bd-text";
      text.textContent = " " + c.text;
      stat.appendChild(text);
    }
    if (c.partial) {
      var partial = document.createElement("span");
      partial.className = "bd-partial";
      partial.textContent = "The engine's definition is partial: " + c.partial;
      stat.appendChild(partial);
    }
  }

  function pick(i) {
    var c = cards[i];
    if (!c || !input) return;
    input.value = c.name;
    describe(input.closest(".bd-entry, .bd-ident"), c);
    // a hosted card picked: its counters open (Tranquilizer's virus counters are why it is there)
    var more = input.closest(".bd-entry") && input.closest(".bd-entry").querySelector(":scope > details.bd-keep-open");
    if (more) more.open = true;
    var err = input.closest(".bd-entry, p");
    input.removeAttribute("aria-invalid");
    close();
    grow(input);
    if (err) err.querySelectorAll(":scope > .bd-err").forEach(function (e) { e.remove(); });
    iceIds();
    later();
  }

  function lookup(target) {
    var q = target.value.slice(0, max);
    var n = ++seq;
    fetch(url + "?q=" + encodeURIComponent(q) + "&slot=" + encodeURIComponent(target.getAttribute("data-slot") || "any"))
      .then(function (r) { return r.ok ? r.json() : { cards: [] }; })
      .then(function (data) { if (n === seq && input === target) show(target, data.cards || [], q); })
      .catch(function () { close(); });
  }

  // A blank row filled in: add the next blank row after it (its fields renamed with the next index).
  function grow(field) {
    var entry = field.closest(".bd-entry");
    var ol = entry && entry.parentNode;
    if (!entry || !entry.classList.contains("bd-blank") || !field.value.trim() || ol.lastElementChild !== entry) return;
    entry.classList.remove("bd-blank");
    var prefix = ol.getAttribute("data-prefix");
    var old = entry.getAttribute("data-key");
    var next = prefix + (parseInt(old.slice(prefix.length), 10) + 1);
    var copy = entry.cloneNode(true);
    copy.classList.add("bd-blank");
    copy.querySelectorAll(".bd-err, #bd-suggest").forEach(function (e) { e.remove(); });
    copy.querySelectorAll(".bd-list").forEach(function (sub) {   // a fresh row hosts nothing yet
      var rows = sub.querySelectorAll(":scope > .bd-entry");
      for (var k = 0; k < rows.length - 1; k++) rows[k].remove();
    });
    var re = new RegExp("^" + old.replace(/[.*+?^${}()|[\]\\]/g, "\\$&") + "(?=$|_|-)");
    [copy].concat(Array.prototype.slice.call(copy.querySelectorAll("*"))).forEach(function (el) {
      ["name", "id", "for", "data-key", "data-prefix"].forEach(function (a) {
        var v = el.getAttribute(a);
        if (v) el.setAttribute(a, v.replace(re, next));
      });
      el.removeAttribute("aria-invalid");
      el.removeAttribute("aria-describedby");
      if (el.tagName === "INPUT") { if (el.type === "checkbox") el.checked = false; else el.value = ""; }
      if (el.classList.contains("bd-stat")) el.textContent = "";
      if (el.tagName === "DETAILS") el.open = false;
    });
    copy.querySelectorAll(".bd-list").forEach(function (sub) {
      var row = sub.querySelector(":scope > .bd-entry");
      if (!row) return;
      var p = sub.getAttribute("data-prefix");
      var was = row.getAttribute("data-key");
      var re2 = new RegExp("^" + was.replace(/[.*+?^${}()|[\]\\]/g, "\\$&") + "(?=$|_|-)");
      [row].concat(Array.prototype.slice.call(row.querySelectorAll("*"))).forEach(function (el) {
        ["name", "id", "for", "data-key"].forEach(function (a) {
          var v = el.getAttribute(a);
          if (v) el.setAttribute(a, v.replace(re2, p + "0"));
        });
      });
    });
    ol.appendChild(copy);
  }

  // the ice on the board, for "chosen ice" (the ids the engine gives: Name, then Name#2...)
  function iceIds() {
    var dl = document.getElementById("bd-ice-ids");
    if (!dl) return;
    var seen = {};
    dl.textContent = "";
    form.querySelectorAll('input.bd-name[data-slot="ice"]').forEach(function (f) {
      var name = f.value.trim();
      if (!name) return;
      seen[name] = (seen[name] || 0) + 1;
      var opt = document.createElement("option");
      opt.value = seen[name] === 1 ? name : name + "#" + seen[name];
      dl.appendChild(opt);
    });
  }

  // a remote server renamed: the "first action" list offers the new name (the server renders it on reload)
  // the server menus (a first run, the run in progress) follow the remote servers' names as they are typed
  function servers() {
    var names = ["HQ", "R&D", "Archives"];
    form.querySelectorAll(".bd-server-name").forEach(function (f) { if (f.value.trim()) names.push(f.value.trim()); });
    [["first_run", "a run on "], ["run_server", ""]].forEach(function (menu) {
      var pick = document.getElementById(menu[0]);
      if (!pick) return;
      var keep = pick.value;
      while (pick.options.length > 1) pick.remove(1);
      names.forEach(function (n) {
        var opt = document.createElement("option");
        opt.value = n;
        opt.textContent = menu[1] + n;
        opt.selected = n === keep;
        pick.appendChild(opt);
      });
    });
  }

  // the rules of the board, asked again after each change (the server's board_rules.py says them)
  var review = form.getAttribute("data-review"), rtimer = 0, rseq = 0;
  function notes(title, cls, items) {
    if (!items.length) return null;
    var frag = document.createDocumentFragment();
    var h = document.createElement("p");
    h.className = "bd-rule-h";
    h.textContent = title;
    var ul = document.createElement("ul");
    ul.className = cls;
    items.forEach(function (n) {
      var li = document.createElement("li");
      li.setAttribute("data-key", n.key);
      li.textContent = n.text;
      ul.appendChild(li);
    });
    frag.appendChild(h);
    frag.appendChild(ul);
    return frag;
  }
  function reviewed(data) {
    var box = document.getElementById("bd-review-notes");
    if (!box || !data.broken) return;
    box.textContent = "";
    var a = notes("Breaks a rule of the game", "bd-broken", data.broken);
    var b = notes("Legal, but worth knowing", "bd-surprising", data.surprising);
    if (a) box.appendChild(a);
    if (b) box.appendChild(b);
    if (!a && !b) {
      var fine = document.createElement("p");
      fine.className = "bd-fine";
      fine.textContent = "Nothing breaks a rule of the game.";
      box.appendChild(fine);
    }
    var filler = document.getElementById("bd-filler"), anyway = document.getElementById("bd-anyway");
    if (filler) filler.hidden = !data.empty_rnd;
    if (anyway) anyway.hidden = !data.stops_play;
  }
  function ask() {
    if (!review) return;
    var n = ++rseq;
    fetch(review, { method: "POST", body: new FormData(form) })
      .then(function (r) { return r.ok ? r.json() : {}; })
      .then(function (data) { if (n === rseq) reviewed(data); })
      .catch(function () {});
  }
  function later() { clearTimeout(rtimer); rtimer = setTimeout(ask, 250); }
  form.addEventListener("change", later);

  form.addEventListener("input", function (e) {
    var t = e.target;
    if (t.classList && t.classList.contains("bd-server-name")) { servers(); return; }
    if (!t.classList || !t.classList.contains("bd-name")) return;
    input = t;
    clearTimeout(timer);
    timer = setTimeout(function () { timer = 0; lookup(t); }, 90);
    grow(t);
  });
  form.addEventListener("focusin", function (e) {
    var t = e.target;
    if (t.classList && t.classList.contains("bd-name")) { input = t; lookup(t); }
  });
  form.addEventListener("focusout", function (e) {
    if (e.target === input) setTimeout(function () { if (document.activeElement !== input) close(); }, 150);
  });
  form.addEventListener("change", function (e) {
    if (e.target.classList && e.target.classList.contains("bd-name")) iceIds();
    // choosing the run's server means starting inside that run
    var at = document.getElementById("at");
    if (e.target.id === "run_server" && e.target.value && at) at.value = "run";
  });
  form.addEventListener("keydown", function (e) {
    var t = e.target;
    if (t !== input || !t.classList.contains("bd-name")) return;
    var nav = e.key === "ArrowDown" || e.key === "ArrowUp" || e.key === "Enter";
    if (nav && (timer || shownFor !== current(t)) && t.value.trim()) {
      // the list on screen (if any) is for older text: wait for the current one, then apply the key
      e.preventDefault();
      queued.push(e.key);
      if (timer) { clearTimeout(timer); timer = 0; }
      if (queued.length === 1) lookup(t);
      return;
    }
    if (list.hidden) return;
    if (nav) { e.preventDefault(); key(e.key); }
    else if (e.key === "Escape") { e.preventDefault(); close(); }
  });
})();
