// judgebook replay page: turns the server-rendered list of steps into a stepper.
// Prev/Next buttons and the arrow keys move one step; the URL fragment #step-N
// follows the shown step, and opening a #step-N link shows that step.
// No inline script (CSP script-src 'self'): the page works without this file.
(function () {
  "use strict";
  var list = document.querySelector("ol.rp-steps");
  var bar = document.querySelector(".rp-stepper");
  if (!list || !bar) return;
  var steps = Array.prototype.slice.call(list.querySelectorAll("li.rp-step"));
  if (!steps.length) return;
  var prev = bar.querySelector(".rp-prev"), next = bar.querySelector(".rp-next"),
      all = bar.querySelector(".rp-all"), cur = bar.querySelector(".rp-cur");
  var count = steps.length, shown = 0, showAll = false;

  var fromHash = function () {
    var m = /^#step-(\d+)$/.exec(location.hash || "");
    return m ? parseInt(m[1], 10) : 0;
  };

  var show = function (n, updateUrl, reveal) {
    n = Math.max(1, Math.min(count, n));
    shown = n;
    steps.forEach(function (li, i) {
      var on = i === n - 1;
      li.hidden = !showAll && !on;
      if (on) li.setAttribute("aria-current", "step"); else li.removeAttribute("aria-current");
    });
    stage(n);
    cur.textContent = String(n);
    prev.disabled = n <= 1;
    next.disabled = n >= count;
    if (updateUrl && location.hash !== "#step-" + n) {
      history.replaceState(null, "", "#step-" + n);
    }
    if (reveal) into(steps[n - 1]);
  };

  // Keep the shown step in sight, below the sticky bar.
  var into = function (li) {
    var r = li.getBoundingClientRect(), below = bar.getBoundingClientRect().bottom;
    if (r.top < below || r.top > window.innerHeight - 40) li.scrollIntoView({block: "start"});
  };

  var move = function (d) { show(shown + d, true, true); };

  // The stage, one at a time: the board of the shown step's decision and,
  // when the step itself has no picture, where the game is (the latest picture before it).
  var box = document.querySelector(".rp-stage");
  var stage = function (n) {
    if (!box) return;
    box.hidden = showAll;
    if (showAll) return;
    box.textContent = "";
    var li = steps[n - 1], state = li.dataset.state;
    if (!li.querySelector(".rp-where")) {
      for (var i = n - 2; i >= 0; i--) {
        var w = steps[i].querySelector(".rp-where");
        if (w) { var c = w.cloneNode(true); c.open = true; box.appendChild(c); break; }
      }
    }
    // the board is drawn after a decision that changed it: the latest one up to this step's (the steps'
    // own boards are hidden while stepping)
    var b = null;
    list.querySelectorAll(".rp-board").forEach(function (x) {
      if (parseInt(x.dataset.state, 10) <= parseInt(state, 10)) b = x;
    });
    if (b) { var d = b.cloneNode(true); d.open = true; box.appendChild(d); }
  };

  document.body.classList.add("rp-js");
  list.classList.add("rp-stepping");
  bar.hidden = false;
  list.querySelectorAll("details.rp-where").forEach(function (d) { d.open = true; });

  prev.addEventListener("click", function () { move(-1); });
  next.addEventListener("click", function () { move(1); });
  all.addEventListener("click", function () {
    showAll = !showAll;
    all.setAttribute("aria-pressed", showAll ? "true" : "false");
    all.textContent = showAll ? "One at a time" : "Show all";
    list.classList.toggle("rp-stepping", !showAll);
    show(shown, false, true);
  });
  document.addEventListener("keydown", function (e) {
    if (e.ctrlKey || e.metaKey || e.altKey || e.shiftKey) return;
    var t = e.target, tag = t && t.tagName;
    if (tag === "INPUT" || tag === "TEXTAREA" || tag === "SELECT" || (t && t.isContentEditable)) return;
    if (e.key === "ArrowRight") { e.preventDefault(); move(1); }
    else if (e.key === "ArrowLeft") { e.preventDefault(); move(-1); }
    else if (e.key === "Home") { e.preventDefault(); show(1, true, true); }
    else if (e.key === "End") { e.preventDefault(); show(count, true, true); }
  });
  window.addEventListener("hashchange", function () {
    var n = fromHash();
    if (n) show(n, false, true);
  });

  var first = fromHash();
  show(first || parseInt(list.dataset.start, 10) || 1, false, !!first);
})();
