// judgebook: keyboard search, completion, copy-link, term definitions, offline.
// No inline script anywhere (CSP script-src 'self'): everything hooks up here.
(function () {
  "use strict";
  var q = document.getElementById("q");

  // "/" focuses the search box from anywhere but a text field.
  document.addEventListener("keydown", function (e) {
    if (e.key !== "/" || e.ctrlKey || e.metaKey || e.altKey) return;
    var t = e.target, tag = t && t.tagName;
    if (tag === "INPUT" || tag === "TEXTAREA" || tag === "SELECT" || (t && t.isContentEditable)) return;
    if (q) { e.preventDefault(); q.focus(); q.select(); }
  });

  // Completion as you type, from /api/complete into the <datalist>.
  if (q && q.dataset.complete && window.fetch) {
    var list = document.getElementById("q-suggest"), timer = 0, last = "";
    q.addEventListener("input", function () {
      clearTimeout(timer);
      timer = setTimeout(function () {
        var v = q.value.trim();
        if (!v || v === last) return;
        last = v;
        fetch(q.dataset.complete + "?q=" + encodeURIComponent(v), {headers: {"Accept": "application/json"}})
          .then(function (r) { return r.ok ? r.json() : []; })
          .then(function (items) {
            if (q.value.trim() !== v) return;
            list.textContent = "";
            items.forEach(function (c) {
              var o = document.createElement("option");
              o.value = c.text; o.label = c.label || c.text;
              list.appendChild(o);
            });
          }).catch(function () {});
      }, 120);
    });
  }

  // Copy-link buttons.
  document.querySelectorAll("button.copy[data-copy]").forEach(function (b) {
    b.addEventListener("click", function () {
      var url = new URL(b.dataset.copy, location.href).href;
      var done = function () { b.classList.add("done"); setTimeout(function () { b.classList.remove("done"); }, 1500); };
      if (navigator.clipboard && window.isSecureContext) {
        navigator.clipboard.writeText(url).then(done, function () { window.prompt("Copy this link:", url); });
      } else { window.prompt("Copy this link:", url); }
    });
  });

  // Term and card definitions: tap or click opens a popover; hover on a mouse too.
  var pop = document.getElementById("popover");
  if (pop) {
    var title = pop.querySelector(".popover-title"), body = pop.querySelector(".popover-body"),
        open = pop.querySelector(".popover-open"), current = null, pinned = false, hideTimer = 0;
    var show = function (a) {
      clearTimeout(hideTimer);
      current = a;
      title.textContent = a.dataset.defTitle || a.textContent;
      body.textContent = a.dataset.def;
      open.href = a.href;
      pop.hidden = false;
      var r = a.getBoundingClientRect(), w = pop.offsetWidth;
      var left = Math.max(8, Math.min(r.left + window.scrollX, window.scrollX + document.documentElement.clientWidth - w - 8));
      pop.style.left = left + "px";
      pop.style.top = (r.bottom + window.scrollY + 6) + "px";
      a.setAttribute("aria-expanded", "true");
    };
    var hide = function () {
      if (current) current.setAttribute("aria-expanded", "false");
      pop.hidden = true; current = null; pinned = false;
    };
    document.addEventListener("click", function (e) {
      var a = e.target.closest && e.target.closest("a[data-def]");
      if (a) {
        // A click or tap pins the definition open; a second one follows the link.
        // (A tap also fires mouseover first, so hovering alone never counts.)
        if (current === a && pinned) return;
        e.preventDefault(); show(a); pinned = true;
        if (e.detail === 0) open.focus();   // opened from the keyboard: move focus into it
        return;
      }
      if (!pop.contains(e.target)) hide();
    });
    pop.querySelector(".popover-close").addEventListener("click", hide);
    document.addEventListener("keydown", function (e) { if (e.key === "Escape" && current) { var a = current; hide(); a.focus(); } });
    if (window.matchMedia && window.matchMedia("(hover: hover)").matches) {
      document.addEventListener("mouseover", function (e) {
        var a = e.target.closest && e.target.closest("a[data-def]");
        if (a && a !== current && !pinned) show(a);
        else if (a || pop.contains(e.target)) clearTimeout(hideTimer);
      });
      document.addEventListener("mouseout", function (e) {
        var a = e.target.closest && e.target.closest("a[data-def]");
        if ((a || pop.contains(e.target)) && !pinned) hideTimer = setTimeout(hide, 400);
      });
    }
  }

  // Contents sidebar: open beside the text on a wide screen, folded above it on a phone;
  // on a page holding the whole text, it follows the reader ("you are here").
  var side = document.getElementById("contents");
  if (side) {
    var wide = window.matchMedia ? window.matchMedia("(min-width: 62rem)") : { matches: true };
    side.open = wide.matches;
    var here = side.querySelector("a[aria-current]");
    var showHere = function () {   // scroll the contents list (not the page) to "you are here"
      var nav = side.querySelector("nav");
      if (here && nav) nav.scrollTop += here.getBoundingClientRect().top - nav.getBoundingClientRect().top - nav.clientHeight / 3;
    };
    side.addEventListener("toggle", function () { if (side.open) showHere(); });
    if (wide.matches) showHere();
    if (side.dataset.spy) {
      var links = {};
      side.querySelectorAll("a[data-frag]").forEach(function (a) { links[a.dataset.frag] = a; });
      var heads = Array.prototype.slice.call(document.querySelectorAll("section[data-toc] > .rd-head"));
      var lastOn = null, queued = false;
      var spy = function () {
        queued = false;
        var cur = null;
        for (var i = 0; i < heads.length; i++) {
          if (heads[i].getBoundingClientRect().top > 120) break;
          cur = heads[i];
        }
        var sec = cur && cur.parentElement, link = null;
        while (sec && !link) {       // the nearest enclosing section the contents list names
          link = links[sec.id] || null;
          sec = sec.parentElement && sec.parentElement.closest("section[data-toc]");
        }
        if (link === lastOn) return;
        if (lastOn) lastOn.removeAttribute("aria-current");
        if (link) link.setAttribute("aria-current", "location");
        lastOn = link;
        if (link && wide.matches) {   // keep "you are here" in sight in a long contents list
          var nav = side.querySelector("nav"), r = link.getBoundingClientRect(), n = nav.getBoundingClientRect();
          if (r.top < n.top || r.bottom > n.bottom) { here = link; showHere(); }
        }
      };
      window.addEventListener("scroll", function () {
        if (!queued) { queued = true; window.requestAnimationFrame(spy); }
      }, { passive: true });
      spy();
    }
  }

  // A cross-reference to a rule shown in full on this page scrolls to it (a hash change: Back returns
  // to where the reader was) instead of opening the rule's own page. Each rule and example shown here
  // links its own page from its heading: that link is the key, so the server and the static export agree.
  var onPage = {};
  document.querySelectorAll("section.rd[id] > .rd-head > a:first-child, aside.example[id] > .example-title > a")
    .forEach(function (a) { onPage[a.href] = a.closest("[id]"); });
  document.addEventListener("click", function (e) {
    if (e.defaultPrevented || e.button !== 0 || e.metaKey || e.ctrlKey || e.shiftKey || e.altKey) return;
    var a = e.target.closest && e.target.closest("a[href]");
    if (!a || a.hasAttribute("data-def") || a.closest(".rd-head, .example-title, #contents")) return;
    var target = onPage[a.href];
    if (!target) return;
    e.preventDefault();
    if (location.hash === "#" + target.id) target.scrollIntoView();
    else location.hash = target.id;
    target.setAttribute("tabindex", "-1");
    target.focus({ preventScroll: true });
  });

  // Offline: a service worker where one can run (http(s), not file://).
  if ("serviceWorker" in navigator && /^https?:$/.test(location.protocol) && document.body.dataset.sw) {
    navigator.serviceWorker.register(document.body.dataset.sw).catch(function () {});
  }
})();
