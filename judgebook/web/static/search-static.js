// Client-side search for the static export, over window.JB_INDEX (search-index.js).
// Results are built with DOM nodes only: no index text ever goes through innerHTML.
(function () {
  "use strict";
  var STOP = {}, MAX = 50;
  "a an and are as at be by for from has have if in is it its of on or that the their then this to was were when which with"
    .split(" ").forEach(function (w) { STOP[w] = 1; });
  var status = document.getElementById("search-status"), list = document.getElementById("search-results");
  var NUMBER = /^\s*(?:r(?:ule)?\s*)?(\d+(?:\.\d+)*)(?:[.\s]?([a-z]))?\.?\s*$/i;

  function fold(s) { return s.toLowerCase().normalize("NFKD").replace(/[\u0300-\u036f]/g, ""); }
  function tokens(s) {
    return (fold(s).match(/\d+(?:\.\d+)*[a-z]?|[a-z][a-z0-9']*/g) || [])
      .map(function (t) { return t.replace(/^'+|'+$/g, ""); })
      .filter(function (t) { return t && !STOP[t]; });
  }
  function decode(code) {
    var out = [], prev = 0;
    code.split(",").forEach(function (g) { prev += parseInt(g, 36); out.push(prev); });
    return out;
  }
  function postings(ix, tok, prefix) {
    var set = {}, found = false;
    if (ix.terms[tok]) { decode(ix.terms[tok]).forEach(function (i) { set[i] = 1; }); found = true; }
    if (prefix && tok.length >= 2) {
      var n = 0;
      for (var t in ix.terms) {
        if (t !== tok && t.lastIndexOf(tok, 0) === 0) {
          decode(ix.terms[t]).forEach(function (i) { set[i] = 1; });
          found = true;
          if (++n >= 40) break;
        }
      }
    }
    return found ? set : null;
  }

  function run(ix, q) {
    var m = NUMBER.exec(q), scores = {};
    if (m) {
      var canon = m[1] + (m[2] || "").toLowerCase();
      ix.items.forEach(function (it, i) { if (it[2] === canon) scores[i] = 1000 - it[5]; });
    }
    var toks = tokens(q), sets = [];
    toks.forEach(function (t, k) { var s = postings(ix, t, k === toks.length - 1); if (s) sets.push([t, s]); });
    var all = {};
    sets.forEach(function (p) { for (var i in p[1]) all[i] = (all[i] || 0) + 1; });
    var need = sets.length;
    var any = Object.keys(all).some(function (i) { return all[i] === need; });
    Object.keys(all).forEach(function (i) {
      if (any && all[i] < need) return;
      var it = ix.items[i], title = fold(it[3] + " " + it[2]), s = all[i] * 10;
      sets.forEach(function (p) { if (title.indexOf(p[0]) >= 0) s += 6; });
      if (toks.length && fold(it[3]) === toks.join(" ")) s += 20;
      s += Math.max(0, 4 - it[5]) * 0.5;
      scores[i] = Math.max(scores[i] || 0, s);
    });
    var order = Object.keys(scores).sort(function (a, b) {
      return scores[b] - scores[a] || ix.items[a][5] - ix.items[b][5] || a - b;
    });
    // one hit per rule: the best-placed of its CR versions (the newest on a tie)
    var seen = {};
    order = order.filter(function (i) { var f = ix.items[i][6]; if (seen[f]) return false; seen[f] = 1; return true; });
    return {hits: order.slice(0, MAX).map(function (i) { return ix.items[i]; }), total: order.length, words: toks};
  }

  function highlighted(text, words) {
    var frag = document.createDocumentFragment();
    if (!words.length) { frag.appendChild(document.createTextNode(text)); return frag; }
    var re = new RegExp("(" + words.map(function (w) { return w.replace(/[.*+?^${}()|[\]\\]/g, "\\$&"); }).join("|") + ")", "ig");
    var pos = 0, m;
    while ((m = re.exec(text)) !== null) {
      if (m.index > pos) frag.appendChild(document.createTextNode(text.slice(pos, m.index)));
      var mark = document.createElement("mark"); mark.textContent = m[0]; frag.appendChild(mark);
      pos = m.index + m[0].length;
      if (!m[0].length) re.lastIndex++;
    }
    frag.appendChild(document.createTextNode(text.slice(pos)));
    return frag;
  }

  function show(ix, q) {
    var r = run(ix, q);
    list.textContent = "";
    status.textContent = r.total ? r.total + " result" + (r.total === 1 ? "" : "s") + " for \u201c" + q + "\u201d"
      + (r.total > MAX ? " (first " + MAX + " shown)" : "") : "No matches for \u201c" + q + "\u201d.";
    r.hits.forEach(function (it) {
      var li = document.createElement("li"); li.className = "hit";
      var a = document.createElement("a"); a.className = "hit-title"; a.href = it[0];
      var tag = document.createElement("span"); tag.className = "doc-tag"; tag.textContent = ix.docs[it[1]];
      a.appendChild(tag); a.appendChild(document.createTextNode(" "));
      if (it[2]) { var n = document.createElement("span"); n.className = "num"; n.textContent = it[2]; a.appendChild(n); a.appendChild(document.createTextNode(" ")); }
      a.appendChild(document.createTextNode(it[3]));
      var p = document.createElement("p"); p.className = "snippet"; p.appendChild(highlighted(it[4], r.words));
      li.appendChild(a); li.appendChild(p); list.appendChild(li);
    });
  }

  function start() {
    var ix = window.JB_INDEX;
    if (!ix) { status.textContent = "The search index (search-index.js) did not load."; return; }
    var q = (new URLSearchParams(location.search).get("q") || "").slice(0, 500).trim();
    var box = document.getElementById("q");
    if (box) box.value = q;
    if (!q) { status.textContent = "Type a rule number, a term or a card name above (" + ix.items.length + " sections indexed)."; return; }
    show(ix, q);
  }
  if (document.readyState === "loading") document.addEventListener("DOMContentLoaded", start); else start();
})();
